// ParseSize (sim/core/units.h): a size >= 0 or an InputError; the bytes it
// returns, written back as a plain number, parse to the same value.
#include <string>

#include "fuzz/fuzz_file.h"
#include "sim/core/status.h"
#include "sim/core/units.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ziosim;
  int64_t bytes = 0;
  try {
    bytes = ParseSize(fuzz::AsText(data, size), "fuzz");
  } catch (const InputError&) {
    return 0;
  }
  // Outside the try: an error here is a finding too.
  fuzz::Require(bytes >= 0);
  fuzz::Require(ParseSize(std::to_string(bytes), "fuzz") == bytes);
  return 0;
}
