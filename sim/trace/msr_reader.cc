// MSR Cambridge block traces (Narayanan, Donnelly, Rowstron, "Write
// off-loading", FAST 2008; SNIA IOTTA), one CSV line per request, no header:
//
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
//
// Timestamp is a Windows FILETIME (100 ns units since 1601), Type "Read" or
// "Write", Offset and Size bytes, ResponseTime the measured response time in
// 100 ns units (from the request's issue to its completion, as the Windows
// block layer saw it). Arrival times are counted from the first request's
// Timestamp. All disk numbers are replayed onto the one target drive unless the
// replay picks one (--device). Times must not go backwards.
#include "sim/core/text.h"
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

constexpr SimTime kTickNs = 100;  // FILETIME unit
constexpr const char* kMissing =
    "missing (a line holds 7 fields: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)";
constexpr const char* kNames[] = {"Timestamp", "Hostname", "DiskNumber", "Type", "Offset", "Size", "ResponseTime"};

class MsrReader final : public LineTraceReader {
 public:
  MsrReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kMsr, options) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    SplitCommas(text, f_);
    if (f_.size() < 7) fields.Fail(kNames[f_.size()], kMissing);
    if (f_.size() > 7) fields.Fail("ResponseTime", "unexpected text after the last field: '" + std::string(f_[7]) + "'");
    const int64_t ticks = fields.Integer("Timestamp", f_[0], 0);
    if (f_[1].empty()) fields.Fail("Hostname", "empty");
    const int64_t disk = fields.Integer("DiskNumber", f_[2], 0);
    const std::string type = Lower(f_[3]);
    if (type != "read" && type != "write") {
      fields.Fail("Type", "expected Read or Write, got '" + std::string(f_[3]) + "'");
    }
    TraceRecord r;
    r.op = type == "read" ? IoOp::kRead : IoOp::kWrite;
    r.offset_bytes = fields.Integer("Offset", f_[4], 0);
    r.size_bytes = fields.Integer("Size", f_[5], 0);
    r.measured_latency_ns = fields.Scaled("ResponseTime", fields.Integer("ResponseTime", f_[6], 0), kTickNs);
    r.line = fields.line();
    r.device = disk;
    if (!have_origin_) {
      origin_ticks_ = ticks;
      have_origin_ = true;
    }
    const int64_t since_origin = ticks - origin_ticks_;  // both >= 0: no overflow
    r.time_ns = since_origin >= 0 ? fields.Scaled("Timestamp", since_origin, kTickNs)
                                  : -fields.Scaled("Timestamp", -since_origin, kTickNs);
    if (r.size_bytes == 0) {
      ++stats_.ignored;
      return;
    }
    CheckForward(fields, "Timestamp", r.time_ns);
    Emit(r);
  }

  std::vector<std::string_view> f_;
  bool have_origin_ = false;
  int64_t origin_ticks_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> MakeMsrReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<MsrReader>(path, o);
}

}  // namespace ziosim
