// The strace trace reader (file-level) through OpenTrace; see trace_fuzz.h.
#include "fuzz/trace_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return ziosim::fuzz::FuzzTrace(ziosim::TraceFormat::kStrace, data, size);
}
