// FreeBSD DTrace output of an application's file reads, as the capture kit's
// D script writes it (scripts/capture-kit/ziosim-read.d): a header line, then
// one line per call, written when the call returns:
//
//   # ziosim-dtrace 1
//   ENTRY_NS PID CALL FD OFFSET SIZE RET LATENCY_NS[ PATH]
//   81234567890 4711 openat -1 -1 0 3 20480 /data/f
//   81234600000 4711 read 3 -1 131072 131072 98000
//   81234700000 4711 pread 3 8192 4096 4096 9000
//   81234800000 4711 lseek 3 0 0 0 4000
//
// ENTRY_NS is DTrace's `timestamp` at the call's entry (ns, any origin) and
// LATENCY_NS the time to its return, the measured latency. CALL is open,
// openat, read, pread, lseek, close, dup or dup2; FD the descriptor argument
// (-1 for open/openat; dup/dup2: the one duplicated); OFFSET pread's or
// lseek's offset argument (-1 otherwise); SIZE the byte count of read/pread,
// lseek's whence, dup2's new descriptor, else 0; RET the return value (bytes
// read, the new offset, the new descriptor; -1 when it failed);
// PATH, for open/openat, the rest of the line. Lines are in return order, so
// calls of several threads are put back into entry order within
// kFioLatReorderWindowNs (arrival_window.h). Reads become requests as in the
// strace reader (open_files.h): the bytes returned, at the descriptor's offset.
#include <string>

#include "sim/core/text.h"
#include "sim/trace/arrival_window.h"
#include "sim/trace/line_trace_reader.h"
#include "sim/trace/open_files.h"

namespace ziosim {
namespace {

constexpr std::string_view kHeader = "# ziosim-dtrace 1";

class DtraceReader final : public LineTraceReader {
  static constexpr const char* kMissing =
      "missing (a line holds: entry_ns pid call fd offset size ret latency_ns [path])";
  static constexpr const char* kFields[] = {"entry_ns", "pid", "call", "fd", "offset", "size", "ret", "latency_ns"};

 public:
  DtraceReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kDtrace, options), open_(files_, options.files_under) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    if (!seen_header_) {
      if (Trim(text) != kHeader) {
        throw FatalTraceError(fields.file(), fields.line(),
                              "field header: expected '" + std::string(kHeader) + "', got '" +
                                  Printable(Trim(text).substr(0, 60)) + "'");
      }
      seen_header_ = true;
      return;
    }
    if (Trim(text).starts_with('#')) return;  // a comment
    SplitWhitespace(text, t_);
    if (t_.size() < 8) fields.Fail(kFields[t_.size()], kMissing);
    const SimTime entry = fields.Integer("entry_ns", t_[0], 0);
    const int64_t pid = fields.Integer("pid", t_[1], 0);
    const std::string_view call = t_[2];
    const int64_t fd = CheckFd(fields, "fd", fields.Integer("fd", t_[3], -1));
    const int64_t offset = fields.Integer("offset", t_[4], -1);
    const int64_t size = fields.Integer("size", t_[5], 0);
    const int64_t ret = fields.Integer("ret", t_[6], -1);
    const SimTime latency = fields.Integer("latency_ns", t_[7], 0);
    const bool is_open = call == "open" || call == "openat";
    if (!is_open && t_.size() > 8) fields.Fail("latency_ns", "unexpected text after the last field");
    if (!window_.InOrder(entry)) {
      fields.Fail("entry_ns", "goes backwards: " + FormatTraceMs(entry) + " is before " +
                                  FormatTraceMs(window_.last_released_ns()) +
                                  ", the entry of a call already replayed (a call longer than the 10 s reorder "
                                  "window)");
    }
    // Half the range, as every trace time: sums with the reorder window cannot overflow.
    if (entry > INT64_MAX / 2 - latency) fields.Fail("latency_ns", "entry_ns + latency_ns is too large");
    if (is_open) {
      if (t_.size() < 9) fields.Fail("path", "missing: an open or openat line ends with the path");
      if (ret >= 0) open_.Open(CheckFd(fields, "ret", ret), PathOf(text));
      Ignore();
    } else if (call == "read" || call == "pread") {
      Read(fields, pid, entry, latency, fd, call == "pread" ? offset : -1, size, ret);
    } else if (call == "lseek") {
      if (ret >= 0 && open_.File(fd) != OpenFiles::kNeverOpened) open_.Offset(fd) = ret;
      Ignore();
    } else if (call == "close") {
      open_.Close(fd);
      Ignore();
    } else if (call == "dup" || call == "dup2") {
      if (ret >= 0) open_.Dup(fd, CheckFd(fields, "ret", ret));
      Ignore();
    } else {
      fields.Fail("call", "expected open, openat, read, pread, lseek, close, dup or dup2, got '" + Printable(call) +
                              "'");
    }
  }

  void Finish() override {
    window_.Release(true, [this](const TraceRecord& r) { Emit(r); });
  }

  void Read(const FieldParser& fields, int64_t pid, SimTime entry, SimTime latency, int64_t fd,
            int64_t pread_offset, int64_t asked, int64_t got) {
    if (got > asked) fields.Fail("ret", std::to_string(got) + " bytes read of " + std::to_string(asked) + " asked");
    TraceRecord r;
    if (!open_.Read(fields, fd, {}, pread_offset, got, "start the trace before the file is opened", r)) {
      Ignore();
      return;
    }
    r.time_ns = entry;
    r.measured_latency_ns = latency;
    r.stream = pid;
    r.line = fields.line();
    window_.Push(r, entry + latency);
    window_.Release(false, [this](const TraceRecord& ready) { Emit(ready); });
  }

  void Ignore() { ++stats_.ignored; }

  // The rest of the line after the eighth field.
  std::string_view PathOf(std::string_view text) const {
    const char* start = t_[8].data();
    return Trim(text.substr(static_cast<size_t>(start - text.data())));
  }

  OpenFiles open_;
  ArrivalWindow window_{kFioLatReorderWindowNs};
  std::vector<std::string_view> t_;
  bool seen_header_ = false;
};

}  // namespace

std::unique_ptr<TraceReader> MakeDtraceReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<DtraceReader>(path, o);
}

}  // namespace ziosim
