// fio's I/O logs (write_iolog= / read_iolog=, fio HOWTO "I/O replay"):
//
//   fio version 2 iolog                      fio version 3 iolog
//   FILE add|open|close                      TIME_US FILE add|open|close
//   FILE ACTION OFFSET LENGTH                TIME_US FILE ACTION OFFSET LENGTH
//
// ACTION is read, write, trim, sync, datasync, sync_file_range or wait;
// OFFSET and LENGTH are bytes. Version 3 stamps each line with the microseconds
// since the job started (fio's utime_since_now), the arrival time used here.
// Version 2 has no times: requests arrive back to back at time 0, except that
// "FILE wait DELAY_US 0" lines (hand-written logs) push later ones back by
// DELAY_US, as fio's replay does. Only reads and writes are replayed; the other
// actions are counted as ignored. Offsets are within each file (TraceRecord::
// file: files are numbered as the log first names them): on a drive every
// file is replayed onto the one drive, on a pool each is a file of the
// dataset (pool_replay.h). The header line is required and a bad
// one is not skipped by skip_bad. Version 3 times must not go backwards.
#include "sim/core/text.h"
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

constexpr const char* kActions =
    "add, open, close, read, write, trim, sync, datasync, sync_file_range or wait";

class FioIologReader final : public LineTraceReader {
 public:
  FioIologReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kFioIolog, options), under_(options.files_under) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    if (version_ == 0) {
      const std::string_view header = Trim(text);
      if (header == "fio version 2 iolog") {
        version_ = 2;
      } else if (header == "fio version 3 iolog") {
        version_ = 3;
      } else {
        throw FatalTraceError(fields.file(), fields.line(),
                              "field header: expected 'fio version 2 iolog' or 'fio version 3 iolog', got '" +
                                  std::string(header.substr(0, 80)) + "'");
      }
      return;
    }
    SplitWhitespace(text, t_);
    // Version 3 lines start with the time; shift the rest so both versions read alike.
    const size_t base = version_ == 3 ? 1 : 0;
    const auto missing = [&](const char* field) {
      fields.Fail(field, version_ == 3 ? "missing (a line holds: timestamp filename action [offset length])"
                                       : "missing (a line holds: filename action [offset length])");
    };
    SimTime time = wait_ns_;
    if (version_ == 3) time = fields.Time("timestamp", t_[0], 3, "microseconds");
    if (t_.size() < base + 2) missing(base + 1 > t_.size() ? "filename" : "action");
    const std::string_view action = t_[base + 1];
    if (action == "add" || action == "open" || action == "close") {
      if (t_.size() > base + 2) {
        fields.Fail("action", "unexpected text after a file action: '" + std::string(t_[base + 2]) + "'");
      }
      return;
    }
    const bool read = action == "read";
    const bool write = action == "write";
    const bool other = action == "trim" || action == "sync" || action == "datasync" ||
                       action == "sync_file_range" || action == "wait";
    if (!read && !write && !other) {
      fields.Fail("action", std::string("expected ") + kActions + ", got '" + std::string(action) + "'");
    }
    if (t_.size() < base + 3) missing("offset");
    if (t_.size() < base + 4) missing("length");
    if (t_.size() > base + 4) {
      fields.Fail("length", "unexpected text after the last field: '" + std::string(t_[base + 4]) + "'");
    }
    const int64_t offset = fields.Integer("offset", t_[base + 2], 0);
    const int64_t length = fields.Integer("length", t_[base + 3], 0);
    if (action == "wait") {
      // fio: the offset field of a wait is the delay in microseconds.
      if (version_ == 2) wait_ns_ = time + fields.Scaled("offset", offset, kNsPerUs);
      ++stats_.ignored;
      return;
    }
    if (other || length == 0 || !IsUnder(t_[base], under_)) {
      ++stats_.ignored;
      return;
    }
    TraceRecord r;
    r.time_ns = time;
    r.op = read ? IoOp::kRead : IoOp::kWrite;
    r.offset_bytes = offset;
    r.size_bytes = length;
    r.file = files_.Number(t_[base]);
    r.line = fields.line();
    if (version_ == 3) CheckForward(fields, "timestamp", time);
    Emit(r);
  }

  std::string under_;
  int version_ = 0;      // 2 or 3 once the header is read
  SimTime wait_ns_ = 0;  // version 2: the sum of the waits so far
  std::vector<std::string_view> t_;
};

}  // namespace

std::unique_ptr<TraceReader> MakeFioIologReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<FioIologReader>(path, o);
}

}  // namespace ziosim
