// LoadDriveFile (models/catalog/catalog.h): a catalog drive TOML file gives a
// drive spec or an InputError.
#include "fuzz/fuzz_file.h"
#include "models/catalog/catalog.h"
#include "sim/core/status.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    ziosim::LoadDriveFile(ziosim::fuzz::WriteFuzzFile(data, size));
  } catch (const ziosim::InputError&) {
  }
  return 0;
}
