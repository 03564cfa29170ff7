// What the line-oriented trace readers share (internal to sim/trace/): the
// line loop with --skip-bad, the arrival-order check, field splitting, and
// number parsing that reports "FILE:LINE: field NAME: ..." (the one-pass
// scanning of common lines is in line_scanner.h). Each format lives
// in its own .cc file and is created through OpenTrace (trace_reader.h).
#ifndef ZIOSIM_SIM_TRACE_LINE_TRACE_READER_H_
#define ZIOSIM_SIM_TRACE_LINE_TRACE_READER_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/circular_buffer.hpp>

#include "sim/core/status.h"
#include "sim/trace/line_reader.h"
#include "sim/trace/line_scanner.h"
#include "sim/trace/trace_reader.h"

namespace ziosim {

// "12.5 ms": a trace time in ms, exactly.
std::string FormatTraceMs(SimTime ns);
bool IsBlankLine(std::string_view text);
// Splits on runs of blanks, into at most `max_fields` fields (the rest of the
// line is not looked at).
void SplitWhitespace(std::string_view text, std::vector<std::string_view>& out,
                     size_t max_fields = std::numeric_limits<size_t>::max());
// Splits on commas and trims blanks around each field ("a, b" gives "a", "b").
void SplitCommas(std::string_view text, std::vector<std::string_view>& out);

// Appends to a FIFO that keeps its storage: the readers' queues grow to the
// most requests ever held at once and then allocate nothing per line.
template <typename T>
T& PushBack(boost::circular_buffer<T>& queue, T item) {
  if (queue.full()) queue.set_capacity(std::max<size_t>(16, 2 * queue.capacity()));
  queue.push_back(std::move(item));
  return queue.back();
}

// Parses the fields of one line and knows where it came from.
class FieldParser {
 public:
  FieldParser(const std::string& file, int line) : file_(file), line_(line) {}

  [[noreturn]] void Fail(std::string_view field, const std::string& what) const;

  // A decimal integer >= min. Inline: the common case (1 to 18 digits, which
  // cannot overflow) is read in one pass; anything else takes the checked path.
  int64_t Integer(std::string_view field, std::string_view token, int64_t min = 0) const {
    const char* p = token.data();
    const char* const end = p + token.size();
    int64_t v = 0;
    if (ScanDigits(p, end, v) && p == end && v >= min) return v;
    return CheckedInteger(field, token, min);
  }
  // A hexadecimal integer, with or without "0x".
  int64_t Hex(std::string_view field, std::string_view token) const;
  // A duration or time >= 0 written as a decimal number of units of 10^unit_exp
  // ns ("1.5" with unit_exp 9 is 1.5 s), converted exactly (no binary rounding)
  // to the nearest ns. `unit` names the unit for messages ("seconds").
  // Inline: the common case (DIGITS[.DIGITS], ScanDecimal) is read in one
  // pass; anything else takes the checked path.
  SimTime Time(std::string_view field, std::string_view token, int unit_exp, const char* unit) const {
    const char* p = token.data();
    const char* const end = p + token.size();
    SimTime v = 0;
    if (ScanDecimal(p, end, unit_exp, v) && p == end) return v;
    return CheckedTime(field, token, unit_exp, unit);
  }
  // count * scale, or Fail(field, "too large") if that overflows.
  int64_t Scaled(std::string_view field, int64_t count, int64_t scale) const {
    if (count > std::numeric_limits<int64_t>::max() / 2 / scale) FailTooLarge(field, count);
    return count * scale;
  }

  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  int64_t CheckedInteger(std::string_view field, std::string_view token, int64_t min) const;
  SimTime CheckedTime(std::string_view field, std::string_view token, int unit_exp, const char* unit) const;
  [[noreturn]] void FailTooLarge(std::string_view field, int64_t count) const;

  const std::string& file_;
  int line_;
};

// A reader that consumes a file line by line. Derived classes parse one line
// in ProcessLine() and hand requests to Emit(); the base runs the loop, skips
// blank lines, and applies skip_bad to the InputErrors ProcessLine() throws.
class LineTraceReader : public TraceReader {
 public:
  LineTraceReader(std::string path, TraceFormat format, const TraceReaderOptions& options);

  bool Next(TraceRecord& record) override;
  TraceFormat format() const override { return format_; }
  const std::string& path() const override { return reader_.path(); }

 protected:
  // The unit of the formats that count 512-byte sectors (blkparse, tracefs) or
  // blocks (DiskSim ascii, SPC, CloudPhysics).
  static constexpr int64_t kSectorBytes = 512;

  // Parses one non-blank line; may Emit() requests (now or later).
  virtual void ProcessLine(std::string_view text, const FieldParser& fields) = 0;
  // Called once at the end of the file; may Emit() what is still held.
  virtual void Finish() {}

  void Emit(const TraceRecord& record) { PushBack(out_, record); }
  // Throws "field NAME: goes backwards" if `time_ns` is before the last time
  // accepted; otherwise accepts it. Call after every other check of the line.
  void CheckForward(const FieldParser& fields, std::string_view field, SimTime time_ns);
  // The error CheckForward throws: `time_ns` comes before `earlier_ns`.
  [[noreturn]] static void FailBackwards(const FieldParser& fields, std::string_view field, SimTime time_ns,
                                         SimTime earlier_ns);
  // Stops reading: the rest of the file is not trace (blkparse's summary).
  void StopReading() { stopped_ = true; }

 private:
  LineReader reader_;
  TraceFormat format_;
  bool skip_bad_;
  bool stopped_ = false;
  bool finished_ = false;
  bool have_last_ = false;
  SimTime last_ns_ = 0;
  boost::circular_buffer<TraceRecord> out_;
};

// One factory per format, each in its own file.
std::unique_ptr<TraceReader> MakeDisksimValidateReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeDisksimAsciiReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeBlkparseReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeFioIologReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeFioLatLogReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeStraceReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeDtraceReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeMsrReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeSpcReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeFtraceCsvReader(const std::string& path, const TraceReaderOptions& o);
std::unique_ptr<TraceReader> MakeCloudPhysicsReader(const std::string& path, const TraceReaderOptions& o);

// blkparse and the tracefs CSV spell the request type as rwbs ("R", "WS",
// "RA", "FWS", "D", "N"): a read, a write, or nothing to replay (flush, discard,
// no data). Fails on anything but letters.
enum class RwbsKind { kRead, kWrite, kNoData };
RwbsKind ParseRwbs(const FieldParser& fields, std::string_view field, std::string_view token);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_TRACE_LINE_TRACE_READER_H_
