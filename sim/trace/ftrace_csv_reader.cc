// Block requests captured with tracefs (block_rq_issue / block_rq_complete
// pairs) and written as CSV, as in the project's fio-vm recordings
// (ftrace_block_DC.csv.gz):
//
//   issue_s,complete_s,rwbs,sector,nsectors,latency_us
//   512.100000,512.100300,RA,34840000,8,300.0
//
// issue_s and complete_s are trace-clock seconds, rwbs the kernel's request
// type (R, RS, RA, W, WS, FWS, D, N, ...), sector and nsectors 512-byte units,
// latency_us the issue -> complete time, taken as the measured latency. The
// header line is optional. Requests are in issue order; issue times must not
// go backwards. Requests without data (flushes, discards) are ignored.
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

class FtraceCsvReader final : public LineTraceReader {
  static constexpr const char* kMissing =
      "missing (a line holds 6 fields: issue_s,complete_s,rwbs,sector,nsectors,latency_us)";
  static constexpr const char* kNames[] = {"issue_s", "complete_s", "rwbs", "sector", "nsectors", "latency_us"};

 public:
  FtraceCsvReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kFtraceCsv, options) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    SplitCommas(text, f_);
    if (!seen_first_ && f_[0] == "issue_s") {
      seen_first_ = true;
      return;  // the header
    }
    seen_first_ = true;
    if (f_.size() < 6) fields.Fail(kNames[f_.size()], kMissing);
    if (f_.size() > 6) fields.Fail("latency_us", "unexpected text after the last field: '" + std::string(f_[6]) + "'");
    TraceRecord r;
    r.time_ns = fields.Time("issue_s", f_[0], 9, "seconds");
    const SimTime complete = fields.Time("complete_s", f_[1], 9, "seconds");
    if (complete < r.time_ns) fields.Fail("complete_s", "before issue_s");
    const RwbsKind kind = ParseRwbs(fields, "rwbs", f_[2]);
    r.op = kind == RwbsKind::kWrite ? IoOp::kWrite : IoOp::kRead;
    r.offset_bytes = fields.Scaled("sector", fields.Integer("sector", f_[3], 0), kSectorBytes);
    r.size_bytes = fields.Scaled("nsectors", fields.Integer("nsectors", f_[4], 0), kSectorBytes);
    r.measured_latency_ns = fields.Time("latency_us", f_[5], 3, "microseconds");
    r.line = fields.line();
    if (kind == RwbsKind::kNoData || r.size_bytes == 0) {
      ++stats_.ignored;
      return;
    }
    CheckForward(fields, "issue_s", r.time_ns);
    Emit(r);
  }

  std::vector<std::string_view> f_;
  bool seen_first_ = false;
};

}  // namespace

std::unique_ptr<TraceReader> MakeFtraceCsvReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<FtraceCsvReader>(path, o);
}

}  // namespace ziosim
