// strace output of an application's file reads, as the capture kit records it
// (scripts/capture-kit/capture-linux-strace.sh):
//
//   strace -f -tt -T -y -s 0 -e trace=read,pread64,openat,lseek,close -o FILE CMD
//
//   4711 10:23:45.123456 openat(AT_FDCWD, "/data/f", O_RDONLY) = 3</data/f> <0.000020>
//   4711 10:23:45.123500 read(3</data/f>, ""..., 131072) = 131072 <0.000100>
//   4711 10:23:45.123600 pread64(3</data/f>, ""..., 4096, 8192) = 4096 <0.000010>
//   4711 10:23:45.123700 lseek(3</data/f>, 0, SEEK_SET) = 0 <0.000005>
//   4712 10:23:45.123800 read(3</data/f>,  <unfinished ...>
//   4711 10:23:45.123850 close(4</data/g>) = 0 <0.000004>
//   4712 10:23:45.123900 <... read resumed>""..., 131072) = 131072 <0.000100>
//
// A line is [PID ] or [pid PID] (strace -f), the call's entry time (-tt:
// HH:MM:SS.micro, a day later after midnight; -ttt: seconds since the epoch),
// the call with its arguments, " = " and its return value, an errno text if it
// failed, and (-T) its duration in <seconds>, taken as the measured latency.
// A call another thread's line interrupts is split into "<unfinished ...>"
// and "<... NAME resumed>" lines of the same PID; it is replayed at its entry,
// in the order the calls were entered (what follows it is held until it
// resumes). -y (descriptors written as 3</path>) is optional: without it the
// path comes from open/openat.
//
// Every read() and pread64() that returned data is one read request of the
// bytes it returned (a short read at the end of a file is as short as the
// kernel made it), at the offset open_files.h follows; one that returned 0 or
// failed moves no data and is counted as ignored, as are calls of other
// names, exits and signals. A read of a descriptor that was never opened is
// an error (field fd), since its file is unknown; --skip-bad passes over it.
// Writes are not recorded: the capture's filter holds reads only.
#include <string>
#include <unordered_map>

#include "sim/core/text.h"
#include "sim/trace/line_trace_reader.h"
#include "sim/trace/open_files.h"

namespace ziosim {
namespace {

constexpr SimTime kDayNs = SimTime{86400} * kNsPerSec;
constexpr SimTime kMaxDays = 36500;  // a century of midnights: times stay far from overflowing

// The first blank of `s`, or npos (find_first_of(" \t") calls memchr per byte).
size_t FindBlank(std::string_view s) {
  for (size_t i = 0; i < s.size(); ++i) {
    if (IsTraceSpace(s[i])) return i;
  }
  return std::string_view::npos;
}

// Where the argument list starting at text[0] ends: the index of its closing
// ')' at depth 0 outside strings and -y paths, or npos. `commas` gets the
// indices of the top-level commas.
size_t ScanArguments(std::string_view text, std::vector<size_t>* commas) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {  // a string, with backslash escapes
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
    } else if (c == '<' && i > 0 && text[i - 1] >= '0' && text[i - 1] <= '9') {  // -y: 3</path>
      const size_t close = text.find('>', i);
      if (close == std::string_view::npos) return std::string_view::npos;
      i = close;
    } else if (c == '(' || c == '{' || c == '[') {
      ++depth;
    } else if (c == ']' || c == '}') {
      --depth;
    } else if (c == ')') {
      if (depth == 0) return i;
      --depth;
    } else if (c == ',' && depth == 0 && commas != nullptr) {
      commas->push_back(i);
    }
  }
  return std::string_view::npos;
}

class StraceReader final : public LineTraceReader {
 public:
  StraceReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kStrace, options), open_(files_, options.files_under) {}

 private:
  // A call in the order it was entered; ready once its return is known.
  struct Slot {
    TraceRecord record;
    bool ready = false;
    bool request = false;  // a read that moved data
  };
  struct Pending {
    std::string name;
    std::string arguments;  // as far as the "<unfinished ...>" line wrote them
    SimTime time_ns = 0;
    int line = 0;
    int64_t slot = 0;  // its place among the slots (absolute)
  };

  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    if (ScanRead(text, fields)) return;
    std::string_view rest = Trim(text);
    const int64_t pid = Pid(rest, fields);
    const SimTime time = Time(NextToken(rest, fields, "time"), fields);
    rest = Trim(rest);
    if (rest.starts_with("+++") || rest.starts_with("---")) {  // an exit or a signal
      ++stats_.ignored;
      return;
    }
    if (rest.starts_with("<... ")) {
      Resume(pid, rest, fields);
      return;
    }
    const size_t open = rest.find('(');
    if (open == std::string_view::npos || open == 0) {
      fields.Fail("call", "expected NAME(ARGUMENTS) = RESULT, got '" + Printable(rest.substr(0, 60)) + "'");
    }
    const std::string_view name = rest.substr(0, open);
    const std::string_view after = rest.substr(open + 1);
    CheckForward(fields, "time", time);
    if (after.ends_with("<unfinished ...>")) {
      if (pending_.contains(pid)) {
        fields.Fail("call", "process " + std::to_string(pid) + " enters " + std::string(name) +
                                " while its earlier call is unfinished");
      }
      pending_[pid] = Pending{std::string(name), std::string(after.substr(0, after.size() - 16)), time,
                              fields.line(), base_ + static_cast<int64_t>(slots_.size())};
      PushBack(slots_, Slot{});
      return;
    }
    Complete(PushBack(slots_, Slot{}), pid, name, after, time, fields.line(), fields);
    Release();
  }

  // The common line, a read() or pread64() that returned data, as the
  // capture kit records it ("4711 10:23:45.123500 read(3</data/f>, ""...,
  // 131072) = 131072 <0.000100>"), in one pass. False, having done nothing,
  // on any other line: ProcessLine's general path takes it.
  bool ScanRead(std::string_view text, const FieldParser& fields) {
    LineScanner s(text);
    int64_t pid = 0, h = 0, m = 0, fd = 0, count = 0, offset = -1, bytes = 0;
    SimTime second = 0, duration = 0;
    std::string_view name, path;
    if (!(s.Digits(pid) && s.Blanks())) return false;
    const char* clock = s.position();
    if (!(s.Digits(h) && s.Char(':') && s.Digits(m) && s.Char(':') && s.Decimal(9, second))) return false;
    const std::string_view clock_text(clock, static_cast<size_t>(s.position() - clock));
    if (!(s.Blanks() && s.Until('(', name) && s.Digits(fd))) return false;
    const bool pread = name == "pread64";
    if ((!pread && name != "read") || (s.Char('<') && !s.Through('>', path))) return false;
    if (!(s.Literal(", ") && s.Quoted() && (s.Literal("...") || true) && s.Literal(", ") && s.Digits(count))) {
      return false;
    }
    if (pread && !(s.Literal(", ") && s.Digits(offset))) return false;
    if (!(s.Literal(") = ") && s.Digits(bytes) && s.Literal(" <") && s.Decimal(9, duration) && s.Char('>') &&
          s.AtEnd())) {
      return false;
    }
    const SimTime time = ClockTime(h, m, second, clock_text, fields);
    CheckForward(fields, "time", time);
    path_ = path;
    if (!slots_.empty()) {  // behind a call still unfinished: it waits its turn
      Slot& slot = PushBack(slots_, Slot{});
      slot.ready = true;
      Read(slot, CheckFd(fields, "fd", fd), offset, bytes, time, duration, pid, fields);
      Release();
      return true;
    }
    Slot slot;
    Read(slot, CheckFd(fields, "fd", fd), offset, bytes, time, duration, pid, fields);
    if (slot.request) Emit(slot.record);
    return true;
  }

  void Finish() override {
    // Calls still unfinished when the trace ended (the process was killed) never returned.
    stats_.unmatched += static_cast<int64_t>(pending_.size());
    for (const auto& [pid, p] : pending_) slots_[static_cast<size_t>(p.slot - base_)].ready = true;
    pending_.clear();
    Release();
  }

  void Resume(int64_t pid, std::string_view rest, const FieldParser& fields) {
    const size_t end = rest.find(" resumed>");
    if (end == std::string_view::npos) fields.Fail("call", "expected '<... NAME resumed>'");
    const std::string_view name = rest.substr(5, end - 5);
    const auto it = pending_.find(pid);
    if (it == pending_.end() || it->second.name != name) {
      fields.Fail("call", "'" + std::string(name) + " resumed' of process " + std::to_string(pid) +
                              ", which has no unfinished " + std::string(name) + " call");
    }
    const Pending p = std::move(it->second);
    pending_.erase(it);
    const std::string arguments = p.arguments + std::string(rest.substr(end + 9));
    Complete(slots_[static_cast<size_t>(p.slot - base_)], pid, p.name, arguments, p.time_ns, p.line, fields);
    Release();
  }

  // Parses "ARGUMENTS) = RESULT ... <DURATION>" of call `name`, entered at
  // `time` on `line` by process `pid`, into `slot`. The slot is ready even if the line is bad
  // (passed over with --skip-bad, it moves nothing).
  void Complete(Slot& slot, int64_t pid, std::string_view name, std::string_view call, SimTime time, int line,
                const FieldParser& fields) {
    slot.ready = true;
    args_.clear();
    const size_t close = ScanArguments(call, &args_);
    if (close == std::string_view::npos) fields.Fail("call", "the argument list of " + std::string(name) + " is not closed");
    std::string_view tail = Trim(call.substr(close + 1));
    if (!tail.starts_with("= ")) fields.Fail("result", "expected ' = RESULT' after the arguments");
    tail.remove_prefix(2);
    std::string_view result = NextToken(tail, fields, "result");
    const SimTime duration = Duration(Trim(tail), fields);
    if (result == "?" || result.starts_with('-')) {  // failed, or its result unknown
      ++stats_.ignored;
      return;
    }
    // -y writes an fd result as 3</path>.
    std::string_view result_path;
    if (const size_t lt = result.find('<'); lt != std::string_view::npos && result.ends_with('>')) {
      result_path = result.substr(lt + 1, result.size() - lt - 2);
      result = result.substr(0, lt);
    }
    const int64_t value = fields.Integer("result", result, 0);
    args_.push_back(close);
    const auto arg = [&](size_t i) {
      const size_t from = i == 0 ? 0 : args_[i - 1] + 1;
      return i < args_.size() ? Trim(call.substr(from, args_[i] - from)) : std::string_view();
    };
    const size_t count = args_.size();
    if (name == "read" || name == "pread64") {
      const size_t want = name == "read" ? 3 : 4;
      if (count != want) Wrong(fields, name, want, count);
      const int64_t fd = Descriptor(arg(0), fields);
      const int64_t offset = name == "read" ? -1 : fields.Integer("offset", arg(3), 0);
      Read(slot, fd, offset, value, time, duration, pid, fields);
      slot.record.line = line;
    } else if (name == "openat" || name == "open") {
      const std::string_view path = Unquote(arg(name == "open" ? 0 : 1), fields);
      open_.Open(CheckFd(fields, "result", value), result_path.empty() ? path : result_path);
      ++stats_.ignored;
    } else if (name == "lseek") {
      if (count != 3) Wrong(fields, name, 3, count);
      const int64_t fd = Descriptor(arg(0), fields);
      if (open_.File(fd, path_) != OpenFiles::kNeverOpened) open_.Offset(fd) = value;
      ++stats_.ignored;
    } else if (name == "close") {
      open_.Close(Descriptor(arg(0), fields));
      ++stats_.ignored;
    } else {
      ++stats_.ignored;
    }
  }

  // A read of `fd` (named path_ by -y) at `offset` (-1: read(), at the
  // descriptor's offset) that returned `bytes`, by process `pid`, on the line `fields` reads.
  void Read(Slot& slot, int64_t fd, int64_t offset, int64_t bytes, SimTime time, SimTime duration, int64_t pid,
            const FieldParser& fields) {
    TraceRecord& r = slot.record;
    r.line = fields.line();
    r.stream = pid;
    if (!open_.Read(fields, fd, path_, offset, bytes, "record with strace -y, or trace the open too", r)) {
      ++stats_.ignored;
      return;
    }
    r.time_ns = time;
    r.measured_latency_ns = duration;
    slot.request = true;
  }

  // Emits the calls at the front whose returns are known, in entry order.
  void Release() {
    while (!slots_.empty() && slots_.front().ready) {
      if (slots_.front().request) Emit(slots_.front().record);
      slots_.pop_front();
      ++base_;
    }
  }

  [[noreturn]] static void Wrong(const FieldParser& fields, std::string_view name, size_t want, size_t got) {
    fields.Fail("call", std::string(name) + " takes " + std::to_string(want) + " arguments, the line has " +
                            std::to_string(got));
  }

  // "3" or "3</path>" (strace -y); the path goes to path_ (empty without -y).
  int64_t Descriptor(std::string_view text, const FieldParser& fields) {
    path_ = {};
    if (const size_t lt = text.find('<'); lt != std::string_view::npos && text.ends_with('>')) {
      path_ = text.substr(lt + 1, text.size() - lt - 2);
      text = text.substr(0, lt);
    }
    return CheckFd(fields, "fd", fields.Integer("fd", text, 0));
  }

  // A path argument: "..." as strace writes it (escapes kept: the path is a name here).
  static std::string_view Unquote(std::string_view text, const FieldParser& fields) {
    if (text.size() < 2 || text.front() != '"' || text.back() != '"') {
      fields.Fail("path", "expected a quoted path, got '" + Printable(text.substr(0, 60)) + "'");
    }
    return text.substr(1, text.size() - 2);
  }

  // The leading "PID " or "[pid PID] " of strace -f, else 0.
  int64_t Pid(std::string_view& rest, const FieldParser& fields) {
    if (rest.starts_with("[pid")) {
      const size_t close = rest.find(']');
      if (close == std::string_view::npos) fields.Fail("pid", "expected '[pid N]'");
      const int64_t pid = fields.Integer("pid", Trim(rest.substr(4, close - 4)), 0);
      rest = Trim(rest.substr(close + 1));
      return pid;
    }
    const size_t space = FindBlank(rest);
    const std::string_view first = rest.substr(0, space);
    if (space == std::string_view::npos || first.find_first_not_of("0123456789") != std::string_view::npos) return 0;
    rest = Trim(rest.substr(space));
    return fields.Integer("pid", first, 0);
  }

  static std::string_view NextToken(std::string_view& rest, const FieldParser& fields, const char* field) {
    const size_t space = FindBlank(rest);
    const std::string_view token = rest.substr(0, space);
    if (token.empty()) fields.Fail(field, "missing");
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space);
    return token;
  }

  // -tt's HH:MM:SS.micro (a day later each time the clock passes midnight), or -ttt's seconds.
  SimTime Time(std::string_view token, const FieldParser& fields) {
    if (token.size() < 9 || token[2] != ':' || token[5] != ':') {
      if (token.find(':') != std::string_view::npos || token.find('.') == std::string_view::npos) {
        fields.Fail("time", "expected HH:MM:SS.micro (strace -tt) or seconds.micro (strace -ttt), got '" +
                                Printable(token.substr(0, 40)) + "'");
      }
      return fields.Time("time", token, 9, "seconds");
    }
    return ClockTime(fields.Integer("time", token.substr(0, 2), 0), fields.Integer("time", token.substr(3, 2), 0),
                     fields.Time("time", token.substr(6), 9, "seconds"), token, fields);
  }

  // The time of h:m:s on the day the trace has reached (`token` spells it, for the message).
  SimTime ClockTime(int64_t h, int64_t m, SimTime s, std::string_view token, const FieldParser& fields) {
    if (h > 23 || m > 59 || s >= 60 * kNsPerSec) {
      fields.Fail("time", "not a time of day: '" + std::string(token) + "'");
    }
    SimTime t = day_ns_ + (h * 3600 + m * 60) * kNsPerSec + s;
    if (t + kDayNs / 2 < last_time_ns_) {  // past midnight
      if (day_ns_ > kMaxDays * kDayNs) fields.Fail("time", "the clock went back past midnight too many times");
      day_ns_ += kDayNs;
      t += kDayNs;
    }
    last_time_ns_ = t;
    return t;
  }

  // The trailing <seconds> of strace -T.
  static SimTime Duration(std::string_view tail, const FieldParser& fields) {
    const size_t lt = tail.rfind('<');
    if (lt == std::string_view::npos || !tail.ends_with('>')) {
      fields.Fail("duration", "missing: record with strace -T (the call's time in <seconds> at the end of the line)");
    }
    return fields.Time("duration", tail.substr(lt + 1, tail.size() - lt - 2), 9, "seconds");
  }

  OpenFiles open_;
  boost::circular_buffer<Slot> slots_;
  int64_t base_ = 0;  // the absolute index of slots_.front()
  std::unordered_map<int64_t, Pending> pending_;
  std::vector<size_t> args_;
  std::string_view path_;
  SimTime day_ns_ = 0;
  SimTime last_time_ns_ = 0;
};

}  // namespace

std::unique_ptr<TraceReader> MakeStraceReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<StraceReader>(path, o);
}

}  // namespace ziosim
