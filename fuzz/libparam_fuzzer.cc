// libparam::ParseText (models/disksim/libparam.h), DiskSim's parameter grammar:
// "any input, however truncated or garbled, yields either a tree or such an error".
#include "fuzz/fuzz_file.h"
#include "models/disksim/libparam.h"
#include "sim/core/status.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    ziosim::libparam::ParseText(ziosim::fuzz::AsText(data, size), "fuzz.parv");
  } catch (const ziosim::InputError&) {
  }
  return 0;
}
