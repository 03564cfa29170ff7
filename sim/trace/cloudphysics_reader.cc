// The CloudPhysics block trace as libCacheSim ships it (data/cloudPhysicsIO.csv,
// converted from a VMware vscsi trace; Waldspurger et al., FAST 2015):
//
//   version,time,op,size,lbn
//   1,7200000,2a,512,51200000
//
// version is the vscsi record version, time the seconds of the trace clock
// (whole seconds in the shipped sample, so requests come in one-second bursts
// when replayed open-loop), op the SCSI command's opcode in hex (reads 08, 28,
// a8, 88; writes 0a, 2a, aa, 8a; any other command is ignored), size bytes,
// lbn the first 512-byte block. The header line is optional. The trace carries
// no latencies. Times must not go backwards.
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

class CloudPhysicsReader final : public LineTraceReader {
  static constexpr const char* kMissing = "missing (a line holds 5 fields: version,time,op,size,lbn)";
  static constexpr const char* kNames[] = {"version", "time", "op", "size", "lbn"};

 public:
  CloudPhysicsReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kCloudPhysics, options) {}

 private:
  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    SplitCommas(text, f_);
    if (!seen_first_ && f_[0] == "version") {
      seen_first_ = true;
      return;  // the header
    }
    seen_first_ = true;
    if (f_.size() < 5) fields.Fail(kNames[f_.size()], kMissing);
    if (f_.size() > 5) fields.Fail("lbn", "unexpected text after the last field: '" + std::string(f_[5]) + "'");
    fields.Integer("version", f_[0], 0);
    TraceRecord r;
    r.time_ns = fields.Time("time", f_[1], 9, "seconds");
    const int64_t opcode = fields.Hex("op", f_[2]);
    r.size_bytes = fields.Integer("size", f_[3], 0);
    r.offset_bytes = fields.Scaled("lbn", fields.Integer("lbn", f_[4], 0), kSectorBytes);
    r.line = fields.line();
    const bool read = opcode == 0x08 || opcode == 0x28 || opcode == 0xa8 || opcode == 0x88;
    const bool write = opcode == 0x0a || opcode == 0x2a || opcode == 0xaa || opcode == 0x8a;
    if ((!read && !write) || r.size_bytes == 0) {
      ++stats_.ignored;
      return;
    }
    r.op = read ? IoOp::kRead : IoOp::kWrite;
    CheckForward(fields, "time", r.time_ns);
    Emit(r);
  }

  std::vector<std::string_view> f_;
  bool seen_first_ = false;
};

}  // namespace

std::unique_ptr<TraceReader> MakeCloudPhysicsReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<CloudPhysicsReader>(path, o);
}

}  // namespace ziosim
