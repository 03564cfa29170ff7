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

class MsrReader final : public LineTraceReader {
  static constexpr const char* kMissing =
      "missing (a line holds 7 fields: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime)";
  static constexpr const char* kNames[] = {"Timestamp", "Hostname", "DiskNumber", "Type",
                                          "Offset",    "Size",     "ResponseTime"};

 public:
  MsrReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kMsr, options) {}

 private:
  struct Line {
    int64_t ticks = 0;
    int64_t disk = 0;
    bool read = false;
    int64_t offset = 0;
    int64_t size = 0;
    int64_t response_ticks = 0;
  };

  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    Line line;
    if (!Scan(text, line)) Split(text, fields, line);
    Accept(line, fields);
  }

  // The line as the traces spell it ("128166372003061629,hm,1,Read,3216,512,1331"), in one pass.
  static bool Scan(std::string_view text, Line& line) {
    LineScanner s(text);
    std::string_view host;
    std::string_view type;
    if (!(s.Digits(line.ticks) && s.Char(',') && s.Until(',', host) && s.Digits(line.disk) && s.Char(',') &&
          s.Until(',', type) && s.Digits(line.offset) && s.Char(',') && s.Digits(line.size) && s.Char(',') &&
          s.Digits(line.response_ticks) && s.AtEnd())) {
      return false;
    }
    line.read = EqualsIgnoringCase(type, "read");
    return line.read || EqualsIgnoringCase(type, "write");
  }

  // Any other spelling (blanks around fields, signs), field by field, failing on the first field that is wrong.
  void Split(std::string_view text, const FieldParser& fields, Line& line) {
    SplitCommas(text, f_);
    if (f_.size() < 7) fields.Fail(kNames[f_.size()], kMissing);
    if (f_.size() > 7) fields.Fail("ResponseTime", "unexpected text after the last field: '" + std::string(f_[7]) + "'");
    line.ticks = fields.Integer("Timestamp", f_[0], 0);
    if (f_[1].empty()) fields.Fail("Hostname", "empty");
    line.disk = fields.Integer("DiskNumber", f_[2], 0);
    line.read = EqualsIgnoringCase(f_[3], "read");
    if (!line.read && !EqualsIgnoringCase(f_[3], "write")) {
      fields.Fail("Type", "expected Read or Write, got '" + std::string(f_[3]) + "'");
    }
    line.offset = fields.Integer("Offset", f_[4], 0);
    line.size = fields.Integer("Size", f_[5], 0);
    line.response_ticks = fields.Integer("ResponseTime", f_[6], 0);
  }

  void Accept(const Line& line, const FieldParser& fields) {
    TraceRecord r;
    r.op = line.read ? IoOp::kRead : IoOp::kWrite;
    r.offset_bytes = line.offset;
    r.size_bytes = line.size;
    r.measured_latency_ns = fields.Scaled("ResponseTime", line.response_ticks, kTickNs);
    r.line = fields.line();
    r.device = line.disk;
    if (!have_origin_) {
      origin_ticks_ = line.ticks;
      have_origin_ = true;
    }
    const int64_t since_origin = line.ticks - origin_ticks_;  // both >= 0: no overflow
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
