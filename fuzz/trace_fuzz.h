// The trace fuzz targets (trace_*_fuzzer.cc, one per format): the input is a
// trace file read to its end through OpenTrace, once strictly and once with
// skip_bad. Either read ends in an InputError or gives records that keep the
// promises of TraceRecord (trace_reader.h): size > 0, offset >= 0, the file
// of a file-level trace among its files(), arrival times nondecreasing, and
// stats().records equal to the records returned.
#ifndef ZIOSIM_FUZZ_TRACE_FUZZ_H_
#define ZIOSIM_FUZZ_TRACE_FUZZ_H_

#include <memory>

#include "fuzz/fuzz_file.h"
#include "sim/core/status.h"
#include "sim/trace/trace_reader.h"

namespace ziosim::fuzz {

inline void ReadWholeTrace(const std::string& path, TraceFormat format, bool skip_bad) {
  TraceReaderOptions options;
  options.skip_bad = skip_bad;
  try {
    const std::unique_ptr<TraceReader> reader = OpenTrace(path, format, options);
    TraceRecord r;
    int64_t records = 0;
    SimTime last_ns = 0;
    while (reader->Next(r)) {
      Require(r.size_bytes > 0 && r.offset_bytes >= 0);
      // A file-level trace names one of its files; a block trace none.
      Require(IsFileLevel(reader->format()) ? r.file >= 0 && r.file < static_cast<int64_t>(reader->files().size())
                                            : r.file == -1);
      Require(records == 0 || r.time_ns >= last_ns);
      last_ns = r.time_ns;
      ++records;
    }
    Require(reader->stats().records == records);
  } catch (const InputError&) {
  }
}

inline int FuzzTrace(TraceFormat format, const uint8_t* data, size_t size) {
  const std::string& path = WriteFuzzFile(data, size);
  ReadWholeTrace(path, format, false);
  ReadWholeTrace(path, format, true);
  return 0;
}

}  // namespace ziosim::fuzz

#endif  // ZIOSIM_FUZZ_TRACE_FUZZ_H_
