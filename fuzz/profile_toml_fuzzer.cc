// LoadProfileFile (sim/zfs/tunables.h): an era profile TOML file gives a
// profile whose settings all apply to Tunables, or an InputError.
#include "fuzz/fuzz_file.h"
#include "sim/core/status.h"
#include "sim/zfs/tunables.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ziosim;
  EraProfile profile;
  try {
    profile = LoadProfileFile(fuzz::WriteFuzzFile(data, size));
  } catch (const InputError&) {
    return 0;
  }
  // Outside the try: a setting the loader accepted must apply.
  Tunables tunables;
  for (const auto& [name, value] : profile.settings) tunables.Set(name, value, "fuzz");
  return 0;
}
