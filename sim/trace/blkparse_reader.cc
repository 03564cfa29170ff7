// blkparse's default text output (blkparse -i TRACE, format "%D %2c %8s %5T.%9t
// %5p %2a %3d ..."):
//
//   8,16   5        6     0.000031865 18615  D   R 1444645666 + 256 [java]
//   dev  cpu  sequence   time (s)      pid action rwbs sector + nsectors [process]
//
// A request is replayed from its D event (issued to the device) and measured by
// the matching C event (completed), found by device and first sector; D -> C is
// the time the device took. The other events (Q, G, I, M, A, P, U, m, ...) are
// block-layer bookkeeping and are passed over; Q -> D queueing in the host is
// not part of a device replay. A D whose C does not come within
// kBlkparseMatchWindowNs of trace time (or before the trace ends) is replayed
// without a measured latency; a C without a D (issued before the trace began)
// is dropped; both are counted in stats().unmatched. Events without data
// ("D FWS [proc]", "C WS SECTOR [0]": flushes) are passed over too (a D of
// them counts as ignored). A second D for a request still outstanding (a
// requeue) keeps the first. Sectors are 512 bytes. D times
// must not go backwards (blkparse sorts its output by time). Reading stops at
// blkparse's closing summary ("CPU0 (8,16):", "Total (8,16):").
//
// Records come out in D order; those waiting for their C are the only state,
// so memory is bounded by the requests outstanding in the trace.
#include <deque>
#include <unordered_map>

#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

constexpr int64_t kSectorBytes = 512;
// A Linux dev_t holds a 12-bit major and a 20-bit minor (kdev_t.h, MINORBITS).
constexpr int64_t kMaxMajor = int64_t{1} << 12;
constexpr int64_t kMaxMinor = int64_t{1} << 20;
// Outstanding D events held at most; beyond this the oldest is given up on.
constexpr size_t kMaxPending = 1 << 16;
constexpr const char* kMissing =
    "missing (an event line holds: device cpu sequence time pid action rwbs sector + nsectors [process])";
constexpr const char* kFieldNames[] = {"device", "cpu", "sequence", "time", "pid", "action", "rwbs"};

struct Key {
  int64_t device;
  int64_t sector;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    return std::hash<int64_t>()(k.sector * 1000003 + k.device);
  }
};

class BlkparseReader final : public LineTraceReader {
 public:
  BlkparseReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kBlkparse, options) {}

 private:
  struct Pending {
    TraceRecord record;
    Key key;
    bool done = false;
  };

  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    SplitWhitespace(text, t_);
    const size_t comma = t_[0].find(',');
    if (comma == std::string_view::npos) {
      if (t_[0].starts_with("CPU") || t_[0] == "Total") {
        StopReading();  // the summary that ends blkparse's output
        return;
      }
      fields.Fail("device", "expected MAJOR,MINOR, got '" + std::string(t_[0]) + "'");
    }
    const int64_t major = fields.Integer("device", t_[0].substr(0, comma), 0);
    const int64_t minor = fields.Integer("device", t_[0].substr(comma + 1), 0);
    if (major >= kMaxMajor || minor >= kMaxMinor) {
      fields.Fail("device", "'" + std::string(t_[0]) + "' is not a Linux device number (major < 4096, minor < 2^20)");
    }
    if (t_.size() < 6) fields.Fail(kFieldNames[t_.size()], kMissing);
    const std::string_view action = t_[5];
    if (action != "D" && action != "C") return;
    const SimTime time = fields.Time("time", t_[3], 9, "seconds");
    if (t_.size() < 7) fields.Fail("rwbs", kMissing);
    const RwbsKind kind = ParseRwbs(fields, "rwbs", t_[6]);
    // A request without data (a flush) has no "sector + nsectors".
    if (t_.size() < 8 || t_[7].starts_with('[')) {
      if (action == "D") ++stats_.ignored;
      return;
    }
    const int64_t sector = fields.Integer("sector", t_[7], 0);
    // "SECTOR [error]" without "+ COUNT": a request without data (a flush's completion).
    if (t_.size() < 9 || t_[8].starts_with('[')) {
      if (action == "D") ++stats_.ignored;
      return;
    }
    if (t_.size() < 10) fields.Fail("nsectors", kMissing);
    if (t_[8] != "+") fields.Fail("nsectors", "expected '+ COUNT' after the sector, got '" + std::string(t_[8]) + "'");
    const int64_t nsectors = fields.Integer("nsectors", t_[9], 0);
    const Key key{MakeTraceDevice(major, minor), sector};
    if (action == "D") {
      TraceRecord r;
      r.time_ns = time;
      r.op = kind == RwbsKind::kWrite ? IoOp::kWrite : IoOp::kRead;
      r.offset_bytes = fields.Scaled("sector", sector, kSectorBytes);
      r.size_bytes = fields.Scaled("nsectors", nsectors, kSectorBytes);
      r.line = fields.line();
      r.device = key.device;
      if (kind == RwbsKind::kNoData || nsectors == 0) {
        ++stats_.ignored;
        return;
      }
      CheckForward(fields, "time", time);
      if (issued_.contains(key)) {
        ++stats_.ignored;  // requeued and issued again: the first D stands
        return;
      }
      issued_.emplace(key, next_seq_++);
      pending_.push_back(Pending{r, key, false});
    } else {
      if (kind == RwbsKind::kNoData || nsectors == 0) return;
      const auto it = issued_.find(key);
      if (it == issued_.end()) {
        ++stats_.unmatched;  // issued before the trace began
        return;
      }
      Pending& p = pending_[static_cast<size_t>(it->second - first_seq_)];
      if (time < p.record.time_ns) {
        fields.Fail("time", "the request completes before its D event on line " + std::to_string(p.record.line));
      }
      p.record.measured_latency_ns = time - p.record.time_ns;
      p.done = true;
      issued_.erase(it);
    }
    Release(time);
  }

  void Finish() override { Release(-1); }

  // Emits, in D order, the requests at the front that completed; gives up on
  // those that waited too long. now < 0: the trace ended, emit everything.
  void Release(SimTime now) {
    while (!pending_.empty()) {
      Pending& front = pending_.front();
      if (!front.done) {
        const bool expired = now < 0 || now - front.record.time_ns > kBlkparseMatchWindowNs ||
                             pending_.size() > kMaxPending;
        if (!expired) break;
        ++stats_.unmatched;
        issued_.erase(front.key);
      }
      Emit(front.record);
      pending_.pop_front();
      ++first_seq_;
    }
  }

  std::vector<std::string_view> t_;
  std::deque<Pending> pending_;
  int64_t first_seq_ = 0;  // sequence number of pending_.front()
  int64_t next_seq_ = 0;
  std::unordered_map<Key, int64_t, KeyHash> issued_;  // outstanding D -> its sequence number
};

}  // namespace

std::unique_ptr<TraceReader> MakeBlkparseReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<BlkparseReader>(path, o);
}

}  // namespace ziosim
