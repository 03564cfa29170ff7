// SPC trace files (Storage Performance Council, "SPC Trace File Format
// Specification" rev. 1.0.1; the UMass Trace Repository's Financial and
// WebSearch traces), one CSV line per request, no header:
//
//   ASU,LBA,Size,Opcode,Timestamp[,optional fields]
//
// ASU is the application storage unit (a device), LBA the first 512-byte
// block, Size bytes, Opcode r/R (read) or w/W (write), Timestamp seconds since
// the trace began (fractional). Blanks around fields are allowed (rev. 1.0.1).
// All ASUs are replayed onto the one target drive, each at its own LBAs
// (unless the replay picks one, --device).
// Times must not go backwards.
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

class SpcReader final : public LineTraceReader {
  static constexpr const char* kMissing = "missing (a line holds 5 fields: ASU,LBA,Size,Opcode,Timestamp)";
  static constexpr const char* kNames[] = {"ASU", "LBA", "Size", "Opcode", "Timestamp"};

 public:
  SpcReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kSpc, options) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    SplitCommas(text, f_);
    if (f_.size() < 5) fields.Fail(kNames[f_.size()], kMissing);
    TraceRecord r;
    r.device = fields.Integer("ASU", f_[0], 0);
    r.offset_bytes = fields.Scaled("LBA", fields.Integer("LBA", f_[1], 0), kSectorBytes);
    r.size_bytes = fields.Integer("Size", f_[2], 0);
    const std::string_view op = f_[3];
    if (op == "r" || op == "R") {
      r.op = IoOp::kRead;
    } else if (op == "w" || op == "W") {
      r.op = IoOp::kWrite;
    } else {
      fields.Fail("Opcode", "expected r, R, w or W, got '" + std::string(op) + "'");
    }
    r.time_ns = fields.Time("Timestamp", f_[4], 9, "seconds");
    r.line = fields.line();
    if (r.size_bytes == 0) {
      ++stats_.ignored;
      return;
    }
    CheckForward(fields, "Timestamp", r.time_ns);
    Emit(r);
  }

  std::vector<std::string_view> f_;
};

}  // namespace

std::unique_ptr<TraceReader> MakeSpcReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<SpcReader>(path, o);
}

}  // namespace ziosim
