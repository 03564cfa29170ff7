// DiskSim "ascii" traces (DiskSim 4.0 manual, section 4.1; disksim_iotrace.c):
//
//   time_ms devno blkno nsectors flags
//
// one request per line: arrival time in milliseconds (fractional), device
// number, first 512-byte block, length in 512-byte blocks, and flags in hex,
// of which bit 0 set means a read (DiskSim's READ = 0x1; other bits mark
// synchronous/asynchronous criticality and are not used here). All devices are
// replayed onto the one target drive. Times must not go backwards: DiskSim
// itself requires ascending times.
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

class DisksimAsciiReader final : public LineTraceReader {
  static constexpr const char* kMissing = "missing (a line holds 5 fields: time_ms devno blkno nsectors flags)";

 public:
  DisksimAsciiReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kDisksimAscii, options) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    SplitWhitespace(text, tokens_);
    static constexpr const char* kNames[] = {"time", "devno", "blkno", "nsectors", "flags"};
    if (tokens_.size() < 5) fields.Fail(kNames[tokens_.size()], kMissing);
    if (tokens_.size() > 5) {
      fields.Fail("flags", "unexpected text after the last field: '" + std::string(tokens_[5]) + "'");
    }
    TraceRecord r;
    r.time_ns = fields.Time("time", tokens_[0], 6, "milliseconds");
    r.device = fields.Integer("devno", tokens_[1], 0);
    r.offset_bytes = fields.Scaled("blkno", fields.Integer("blkno", tokens_[2], 0), kSectorBytes);
    r.size_bytes = fields.Scaled("nsectors", fields.Integer("nsectors", tokens_[3], 1), kSectorBytes);
    r.op = (fields.Hex("flags", tokens_[4]) & 0x1) != 0 ? IoOp::kRead : IoOp::kWrite;
    r.line = fields.line();
    CheckForward(fields, "time", r.time_ns);
    Emit(r);
  }

  std::vector<std::string_view> tokens_;
};

}  // namespace

std::unique_ptr<TraceReader> MakeDisksimAsciiReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<DisksimAsciiReader>(path, o);
}

}  // namespace ziosim
