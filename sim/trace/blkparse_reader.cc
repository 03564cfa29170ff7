// blkparse's default text output (blkparse -i TRACE, format "%D %2c %8s %5T.%9t
// %5p %2a %3d ..."):
//
//   8,16   5        3     0.000030000  4242  D   R 1000 + 8 [dd]
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
#include "sim/core/tag_index.h"
#include "sim/trace/line_trace_reader.h"

namespace ziosim {
namespace {

// A Linux dev_t holds a 12-bit major and a 20-bit minor (kdev_t.h, MINORBITS).
constexpr int64_t kMaxMajor = int64_t{1} << 12;
constexpr int64_t kMaxMinor = int64_t{1} << 20;
// Outstanding D events held at most; beyond this the oldest is given up on.
constexpr size_t kMaxPending = 1 << 16;
// device cpu sequence time pid action rwbs sector + nsectors: what follows
// (the process name, which may hold blanks) is not read.
constexpr size_t kFieldsUsed = 10;

struct Key {
  int64_t device;
  int64_t sector;
  bool operator==(const Key&) const = default;
};
uint32_t Tag(const Key& k) {
  return MixTag(static_cast<uint64_t>(k.sector) * 0x9E3779B97F4A7C15ULL ^ static_cast<uint64_t>(k.device));
}

class BlkparseReader final : public LineTraceReader {
  static constexpr const char* kMissing =
      "missing (an event line holds: device cpu sequence time pid action rwbs sector + nsectors [process])";
  static constexpr const char* kFieldNames[] = {"device", "cpu", "sequence", "time", "pid", "action", "rwbs"};

 public:
  BlkparseReader(const std::string& path, const TraceReaderOptions& options)
      : LineTraceReader(path, TraceFormat::kBlkparse, options) {}

 private:
  struct Pending {
    TraceRecord record;
    Key key;
    bool done = false;
  };

  // What a line says, once read.
  struct Event {
    int64_t device = 0;  // MakeTraceDevice
    char action = 0;     // 'D', 'C', or 0 for the other actions
    SimTime time = 0;
    RwbsKind kind = RwbsKind::kNoData;
    bool has_sector = false;  // "SECTOR" follows rwbs (not for a flush)
    bool has_count = false;   // and "+ COUNT"
    int64_t sector = 0;
    int64_t nsectors = 0;
  };

  void ProcessLine(std::string_view text, const FieldParser& fields) override {
    Event e;
    if (!Scan(text, fields, e) && !Split(text, fields, e)) return;
    if (e.action == 0) return;
    if (!e.has_sector || !e.has_count) {
      if (e.action == 'D') ++stats_.ignored;  // a request without data (a flush)
      return;
    }
    Accept(e, fields);
  }

  // The line as blkparse prints it ("  8,16   5  3  0.000030000  4242  D   R
  // 1000 + 8 [dd]"), in one pass. False on any other spelling.
  bool Scan(std::string_view text, const FieldParser& fields, Event& e) const {
    LineScanner s(text);
    int64_t major = 0, minor = 0, number = 0;
    s.SkipBlanks();
    const char* device_start = s.position();
    if (!(s.Digits(major) && s.Char(',') && s.Digits(minor))) return false;
    const std::string_view device(device_start, static_cast<size_t>(s.position() - device_start));
    std::string_view action;
    if (!(s.Blanks() && s.Digits(number) && s.Blanks() && s.Digits(number) && s.Blanks() &&
          s.Decimal(9, e.time) && s.Blanks() && s.Digits(number) && s.Blanks() && s.Word(action))) {
      return false;
    }
    if (action.size() != 1 || (action[0] != 'D' && action[0] != 'C')) {
      e.device = Device(fields, major, minor, device);
      return true;  // block-layer bookkeeping, passed over
    }
    std::string_view rwbs;
    if (!(s.Blanks() && s.Word(rwbs))) return false;
    e.device = Device(fields, major, minor, device);
    e.action = action[0];
    e.kind = ParseRwbs(fields, "rwbs", rwbs);
    if (!s.Blanks() || s.Rest().starts_with('[')) return true;  // no sector: a flush
    if (!s.Digits(e.sector) || !(s.Blanks() || s.AtEnd())) return false;
    e.has_sector = true;
    if (s.AtEnd() || s.Rest().starts_with('[')) return true;  // no count: a flush's completion
    if (!(s.Char('+') && s.Blanks() && s.Digits(e.nsectors) && (s.AtEnd() || s.Blanks()))) return false;
    e.has_count = true;
    return true;
  }

  // Any other line, field by field, failing on the first field that is wrong.
  // False when the line ends the trace.
  bool Split(std::string_view text, const FieldParser& fields, Event& e) {
    SplitWhitespace(text, t_, kFieldsUsed);
    const size_t comma = t_[0].find(',');
    if (comma == std::string_view::npos) {
      if (t_[0].starts_with("CPU") || t_[0] == "Total") {
        StopReading();  // the summary that ends blkparse's output
        return false;
      }
      fields.Fail("device", "expected MAJOR,MINOR, got '" + std::string(t_[0]) + "'");
    }
    e.device = Device(fields, fields.Integer("device", t_[0].substr(0, comma), 0),
                      fields.Integer("device", t_[0].substr(comma + 1), 0), t_[0]);
    if (t_.size() < 6) fields.Fail(kFieldNames[t_.size()], kMissing);
    if (t_[5] != "D" && t_[5] != "C") return true;
    e.action = t_[5][0];
    e.time = fields.Time("time", t_[3], 9, "seconds");
    if (t_.size() < 7) fields.Fail("rwbs", kMissing);
    e.kind = ParseRwbs(fields, "rwbs", t_[6]);
    if (t_.size() < 8 || t_[7].starts_with('[')) return true;
    e.sector = fields.Integer("sector", t_[7], 0);
    e.has_sector = true;
    if (t_.size() < 9 || t_[8].starts_with('[')) return true;
    if (t_.size() < 10) fields.Fail("nsectors", kMissing);
    if (t_[8] != "+") fields.Fail("nsectors", "expected '+ COUNT' after the sector, got '" + std::string(t_[8]) + "'");
    e.nsectors = fields.Integer("nsectors", t_[9], 0);
    e.has_count = true;
    return true;
  }

  static int64_t Device(const FieldParser& fields, int64_t major, int64_t minor, std::string_view token) {
    if (major >= kMaxMajor || minor >= kMaxMinor) {
      fields.Fail("device", "'" + std::string(token) + "' is not a Linux device number (major < 4096, minor < 2^20)");
    }
    return MakeTraceDevice(major, minor);
  }

  // A D or C event of a request with data.
  void Accept(const Event& e, const FieldParser& fields) {
    const SimTime time = e.time;
    const Key key{e.device, e.sector};
    if (e.action == 'D') {
      TraceRecord r;
      r.time_ns = time;
      r.op = e.kind == RwbsKind::kWrite ? IoOp::kWrite : IoOp::kRead;
      r.offset_bytes = fields.Scaled("sector", e.sector, kSectorBytes);
      r.size_bytes = fields.Scaled("nsectors", e.nsectors, kSectorBytes);
      r.line = fields.line();
      r.device = key.device;
      if (e.kind == RwbsKind::kNoData || e.nsectors == 0) {
        ++stats_.ignored;
        return;
      }
      CheckForward(fields, "time", time);
      if (FindIssued(key) != TagIndex::kNone) {
        ++stats_.ignored;  // requeued and issued again: the first D stands
        return;
      }
      issued_.Insert(Tag(key), static_cast<uint32_t>(first_seq_ + static_cast<int64_t>(pending_.size())));
      PushBack(pending_, Pending{r, key, false});
    } else {
      if (e.kind == RwbsKind::kNoData || e.nsectors == 0) return;
      const uint32_t issued = FindIssued(key);
      if (issued == TagIndex::kNone) {
        ++stats_.unmatched;  // issued before the trace began
        return;
      }
      Pending& p = At(issued);
      if (time < p.record.time_ns) {
        fields.Fail("time", "the request completes before its D event on line " + std::to_string(p.record.line));
      }
      p.record.measured_latency_ns = time - p.record.time_ns;
      p.done = true;
      issued_.Erase(Tag(key), issued);
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
        issued_.Erase(Tag(front.key), static_cast<uint32_t>(first_seq_));
      }
      Emit(front.record);
      pending_.pop_front();
      ++first_seq_;
    }
  }

  // The pending request whose sequence number's low 32 bits are `seq`
  // (pending_ holds fewer than 2^32, so they name one).
  Pending& At(uint32_t seq) { return pending_[static_cast<uint32_t>(seq - static_cast<uint32_t>(first_seq_))]; }
  // The outstanding D of `key` (issued, not completed, not given up on), or kNone.
  uint32_t FindIssued(const Key& key) {
    return issued_.Find(Tag(key), [&](uint32_t seq) { return At(seq).key == key; });
  }

  std::vector<std::string_view> t_;
  boost::circular_buffer<Pending> pending_;
  int64_t first_seq_ = 0;  // sequence number of pending_.front()
  TagIndex issued_;        // the outstanding D events, by their sequence numbers' low 32 bits
};

}  // namespace

std::unique_ptr<TraceReader> MakeBlkparseReader(const std::string& path, const TraceReaderOptions& o) {
  return std::make_unique<BlkparseReader>(path, o);
}

}  // namespace ziosim
