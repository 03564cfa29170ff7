// ImportDisksimDrive (models/disksim/disksim_import.h): a DiskSim .parv file,
// self-contained (its `source` lines resolve next to /proc/self/fd), turned
// into HddParams that pass Validate(), or an InputError.
#include "fuzz/fuzz_file.h"
#include "models/disksim/disksim_import.h"
#include "sim/core/status.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    ziosim::ImportDisksimDrive(ziosim::fuzz::WriteFuzzFile(data, size));
  } catch (const ziosim::InputError&) {
  }
  return 0;
}
