// DiskSim "ascii" traces (DiskSim 4.0 manual, section 4.1; disksim_iotrace.c):
//
//   time_ms devno blkno nsectors flags
//
// one request per line: arrival time in milliseconds (fractional), device
// number, first 512-byte block, length in 512-byte blocks, and flags in hex,
// of which bit 0 set means a read (DiskSim's READ = 0x1), and the urgency DiskSim's
// priority schedulers read comes from the others as iotrace_ascii_get_ioreq_event
// takes it: TIME_CRITICAL (0x2) and TIME_LIMITED (0x4) as given, an ASYNCHRONOUS
// (0x100) read time-limited, a SYNCHRONOUS (0x80) request otherwise time-critical.
// All devices are replayed onto the one target drive. Times must not go backwards: DiskSim
// itself requires ascending times.
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

class DisksimAsciiReader final : public LineTraceReader {
  static constexpr const char* kMissing = "missing (a line holds 5 fields: time_ms devno blkno nsectors flags)";
  // DiskSim's request flags (disksim_reqflags.h).
  static constexpr uint64_t kRead = 0x1;
  static constexpr uint64_t kTimeCritical = 0x2;
  static constexpr uint64_t kTimeLimited = 0x4;
  static constexpr uint64_t kSynchronous = 0x80;
  static constexpr uint64_t kAsynchronous = 0x100;

  static Urgency UrgencyOf(uint64_t flags) {
    if ((flags & kAsynchronous) != 0 && (flags & kRead) != 0) flags |= kTimeLimited;
    if ((flags & kAsynchronous) == 0 && (flags & kSynchronous) != 0) flags |= kTimeCritical;
    if ((flags & kTimeCritical) != 0) return Urgency::kTimeCritical;
    return (flags & kTimeLimited) != 0 ? Urgency::kTimeLimited : Urgency::kNone;
  }

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
    const auto flags = static_cast<uint64_t>(fields.Hex("flags", tokens_[4]));
    r.op = (flags & kRead) != 0 ? IoOp::kRead : IoOp::kWrite;
    r.urgency = UrgencyOf(flags);
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
