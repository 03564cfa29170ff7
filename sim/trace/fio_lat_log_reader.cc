// fio's per-I/O latency logs (write_lat_log= with log_avg_msec=0 and
// log_offset=1, fio HOWTO "Log File Formats"): *_lat.N.log (total latency),
// *_clat.N.log (completion latency), *_slat.N.log (submission latency):
//
//   time_ms, value_ns, ddir, bs, offset[, prio[, ...]]
//
// time is the milliseconds since the job started at which the entry was logged
// (the I/O's completion), value the latency in ns (fio 3.x; fio 2.x logged us),
// ddir 0 read, 1 write, 2 trim (ignored). Columns after offset are ignored. The
// arrival is taken as time - value (not before 0): good to the log's 1 ms
// resolution. The value is the request's measured latency. Without log_offset=1
// there is no offset column and the log cannot be replayed.
//
// Entries are written in completion order, so arrivals go back and forth; they
// are sorted back into arrival order within kFioLatReorderWindowNs: an entry is
// held until the log's completion times pass its arrival by the window. An
// arrival earlier than one already returned (a latency longer than the window)
// is a "goes backwards" error. Memory: the entries of one window.
#include <algorithm>

#include "sim/trace/arrival_window.h"
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

class FioLatLogReader final : public LineTraceReader {
  static constexpr const char* kMissing = "missing (a line holds: time_ms, value_ns, ddir, bs, offset[, prio])";

 public:
  FioLatLogReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kFioLatLog, options) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    SplitCommas(text, f_);
    static constexpr const char* kNames[] = {"time", "value", "ddir", "bs", "offset"};
    if (f_.size() < 5) {
      if (f_.size() == 4) {
        fields.Fail("offset", "missing: fio logs offsets only with log_offset=1, and replay needs them");
      }
      fields.Fail(kNames[f_.size()], kMissing);
    }
    const SimTime done = fields.Time("time", f_[0], 6, "milliseconds");
    const SimTime latency = fields.Integer("value", f_[1], 0);
    const int64_t ddir = fields.Integer("ddir", f_[2], 0);
    if (ddir > 2) fields.Fail("ddir", "expected 0 (read), 1 (write) or 2 (trim), got " + std::string(f_[2]));
    const int64_t bs = fields.Integer("bs", f_[3], 0);
    const int64_t offset = fields.Integer("offset", f_[4], 0);
    if (ddir == 2 || bs == 0) {
      ++stats_.ignored;
      return;
    }
    TraceRecord r;
    r.time_ns = std::max<SimTime>(0, done - latency);
    r.op = ddir == 0 ? IoOp::kRead : IoOp::kWrite;
    r.offset_bytes = offset;
    r.size_bytes = bs;
    r.measured_latency_ns = latency;
    r.line = fields.line();
    if (!window_.InOrder(r.time_ns)) {
      fields.Fail("time", "goes backwards: " + FormatTraceMs(r.time_ns) + " is before " +
                              FormatTraceMs(window_.last_released_ns()) +
                              ", the arrival of a request already replayed (a latency longer than the 10 s "
                              "reorder window)");
    }
    window_.Push(r, done);
    window_.Release(false, [this](const TraceRecord& ready) { Emit(ready); });
  }

  void Finish() override {
    window_.Release(true, [this](const TraceRecord& ready) { Emit(ready); });
  }

  std::vector<std::string_view> f_;
  ArrivalWindow window_{kFioLatReorderWindowNs};
};

}  // namespace

std::unique_ptr<TraceReader> MakeFioLatLogReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<FioLatLogReader>(path, o);
}

}  // namespace ziosim
