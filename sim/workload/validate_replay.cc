#include "sim/workload/validate_replay.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "sim/core/background_reader.h"
#include "sim/core/invariants.h"
#include "sim/core/scoped_listener.h"
#include "sim/core/status.h"
#include "sim/stats/radix_sort.h"
#include "sim/stats/run_check.h"

namespace ziosim {
namespace {

// What a record must satisfy to fit a device: its figures are found once, as a
// trace is checked record by record.
class RecordFit {
 public:
  explicit RecordFit(const Device& dev)
      : dev_(dev),
        capacity_blocks_(dev.capacity_bytes() / kValidateBlockBytes),
        blocks_per_sector_(std::max<int64_t>(1, dev.sector_bytes() / kValidateBlockBytes)) {}

  // Throws InputError(trace_path, r.line, ...) if `r` lies beyond the device's
  // capacity or is not aligned to its sectors.
  void Check(const ValidateRecord& r, const std::string& trace_path) const {
    // Compared as lbn > capacity - blocks so that a huge blkno cannot overflow.
    if (r.blocks > capacity_blocks_ || r.lbn > capacity_blocks_ - r.blocks) {
      throw InputError(trace_path, r.line,
                       "field blkno: " + std::to_string(r.blocks) + " blocks from block " + std::to_string(r.lbn) +
                           " run past the end of " + dev_.name() + " (" + std::to_string(capacity_blocks_) +
                           " blocks of 512 bytes)");
    }
    if (blocks_per_sector_ > 1 && (r.lbn % blocks_per_sector_ != 0 || r.blocks % blocks_per_sector_ != 0)) {
      throw InputError(trace_path, r.line,
                       "field blkno: request is not aligned to " + dev_.name() + "'s " +
                           std::to_string(dev_.sector_bytes()) + "-byte sectors");
    }
  }

 private:
  const Device& dev_;
  int64_t capacity_blocks_;
  int64_t blocks_per_sector_;
};

// `keys` sorted, as the times `time_of` gives for them (in the same order:
// time_of must not decrease). Sorted keys repeat in runs: one conversion a run.
template <typename TimeOf>
std::vector<double> SortedTimes(std::vector<uint64_t>& keys, TimeOf time_of) {
  SortKeys(keys);
  std::vector<double> times;
  times.reserve(keys.size());
  uint64_t last_key = 0;
  double last_time = time_of(last_key);
  for (const uint64_t k : keys) {
    if (k != last_key) last_time = time_of(last_key = k);
    times.push_back(last_time);
  }
  return times;
}

// The measured side of the figures, gathered from the records as they are
// read: the times in trace order, and sorted. They are sorted as integers,
// which sort as the times do: the trace's fixed-point digits while every time
// has as many decimals (else as doubles).
class MeasuredTimes {
 public:
  void Reserve(size_t records) {
    in_order_ms_.reserve(records);
    keys_.reserve(records);
  }
  void Add(const ValidateRecord& r) {
    in_order_ms_.push_back(r.measured_ms);
    KeepKey(r);
  }
  // Once, after the last Add.
  void Sort() {
    sorted_ms_ = decimals_ >= 0
                     ? SortedTimes(keys_, [d = decimals_](uint64_t k) { return FixedPointMicrosToMs(k, d); })
                     : SortedCopy(in_order_ms_);
    std::vector<uint64_t>().swap(keys_);
  }
  std::vector<double>& in_order_ms() { return in_order_ms_; }
  const std::vector<double>& sorted_ms() const { return sorted_ms_; }

 private:
  // Keeps r's digits while every record so far had them with the same number
  // of decimals; forgets them at the first that does not.
  void KeepKey(const ValidateRecord& r) {
    if (r.measured_decimals == decimals_) {  // never for a record without digits (-1)
      keys_.push_back(r.measured_digits);
    } else if (decimals_ == kNoRecordYet && r.measured_decimals >= 0) {
      decimals_ = r.measured_decimals;
      keys_.push_back(r.measured_digits);
    } else if (decimals_ != kNoKeys) {
      std::vector<uint64_t>().swap(keys_);
      decimals_ = kNoKeys;
    }
  }

  static constexpr int kNoRecordYet = -2, kNoKeys = -3;
  std::vector<double> in_order_ms_;
  std::vector<uint64_t> keys_;  // the digits, while they all have decimals_ decimals
  int decimals_ = kNoRecordYet;
  std::vector<double> sorted_ms_;
};

// Where a replay takes its requests from. The replay keeps one request
// outstanding, so it needs only the current record: a trace can stream.
class RecordSource {
 public:
  // The next request, valid until the next call; null when there are no more.
  virtual const ValidateRecord* Next() = 0;
  // The measured times of every record given, sorted. Once, after Next gave null.
  virtual MeasuredTimes& measured() = 0;

 protected:
  ~RecordSource() = default;
};

// Records already read (and checked to fit).
class SpanSource final : public RecordSource {
 public:
  explicit SpanSource(std::span<const ValidateRecord> records) : records_(records) {}
  const ValidateRecord* Next() override { return next_ < records_.size() ? &records_[next_++] : nullptr; }
  // Gathered here, after the replay's loop, not in it: the records are all at hand.
  MeasuredTimes& measured() override {
    measured_.Reserve(next_);
    for (const ValidateRecord& r : records_.first(next_)) measured_.Add(r);
    measured_.Sort();
    return measured_;
  }

 private:
  std::span<const ValidateRecord> records_;
  size_t next_ = 0;
  MeasuredTimes measured_;
};

// A trace read as it replays, each record checked against the device as it
// comes. Reading, checking and the measured times run on a second thread
// (BackgroundReader), so that they overlap the simulation instead of adding
// to it: the replay thread only simulates.
class TraceSource final : public RecordSource {
 public:
  TraceSource(DisksimValidateTrace& trace, const Device& dev)
      : fit_(dev), reader_([&trace, this](ValidateRecord& r) {
          if (!trace.Next(r)) {
            measured_.Sort();  // on the reading thread, while the replay catches up
            return false;
          }
          fit_.Check(r, trace.path());
          measured_.Add(r);
          return true;
        }) {}
  const ValidateRecord* Next() override { return reader_.Next(); }
  // Safe once Next gave null: the reader's last batch, published after its
  // last call, orders everything it wrote before that.
  MeasuredTimes& measured() override { return measured_; }

 private:
  const RecordFit fit_;
  MeasuredTimes measured_;
  BackgroundReader<ValidateRecord> reader_;  // last: its thread uses the members above
};

// The figures of a replay from the sorted times (sorted once, by radix: std::sort
// took most of the figures' time on a million requests).
void SetFigures(ValidateReplayResult& out, std::span<const double> measured_sorted,
                std::span<const double> simulated_sorted) {
  out.requests = static_cast<int64_t>(out.simulated_ms.size());
  out.measured = SummarizeSorted(measured_sorted);
  out.simulated = SummarizeSorted(simulated_sorted);
  out.demerit_ms = DemeritMsSorted(measured_sorted, simulated_sorted);
  // Relative figures are undefined for a trace whose measured times are all zero.
  const double base = out.measured.mean_ms > 0 ? out.measured.mean_ms : std::numeric_limits<double>::quiet_NaN();
  out.mean_error_pct = 100.0 * (out.simulated.mean_ms - out.measured.mean_ms) / base;
  out.demerit_pct = 100.0 * out.demerit_ms / base;
}

// Issues one request at a time and records each completion. Allocates nothing
// per request (the result vectors grow geometrically when not reserved).
class ReplayDriver final : public EventHandler, public DeviceListener {
 public:
  // `expected_requests` (0 if unknown) reserves the simulated times, so that a
  // replay of records in memory never grows them.
  ReplayDriver(Device& dev, Simulation& sim, RecordSource& source, const ValidateRequestCallback& on_request,
               ValidateReplayResult& out, size_t expected_requests)
      : dev_(dev),
        sim_(sim),
        hdd_(dynamic_cast<const HddDevice*>(&dev)),
        source_(source),
        on_request_(on_request),
        out_(out) {
    simulated_ns_.reserve(expected_requests);
  }

  // Schedules the first request; false if the source has none.
  bool Start() {
    if (!Fetch()) return false;
    sim_.Schedule(sim_.now(), this, kIssue, 0);
    return true;
  }
  int64_t issued() const { return issued_; }
  int64_t completed() const { return completed_; }

  // Fills in the simulated times (in trace order, for the callers that pair
  // requests) and the figures from the completions.
  void Summarize() {
    out_.simulated_ms.resize(simulated_ns_.size());
    std::ranges::transform(simulated_ns_, out_.simulated_ms.begin(), NsKeyToMs);
    // Sorted as integers, which sort as their times do.
    const std::vector<double> simulated_sorted = SortedTimes(simulated_ns_, NsKeyToMs);
    MeasuredTimes& measured = source_.measured();
    out_.measured_ms = std::move(measured.in_order_ms());
    SetFigures(out_, measured.sorted_ms(), simulated_sorted);
  }

  void OnEvent(uint32_t /*kind*/, uint64_t /*arg*/) override {
    issued_ns_ = sim_.now();
    ++issued_;
    dev_.Submit(request_);
  }

  void OnDeviceDone(const DeviceRequest& req, SimTime /*submitted*/, SimTime done) override {
    const int64_t index = static_cast<int64_t>(req.tag);
    if (index != completed_) {
      throw std::logic_error("internal error: validate replay: device completed request " +
                             std::to_string(index) + " while " + std::to_string(completed_) + " was outstanding");
    }
    const SimTime simulated_ns = done - issued_ns_;
    simulated_ns_.push_back(static_cast<uint64_t>(simulated_ns));
    ++(current_->op == IoOp::kWrite ? out_.writes : out_.reads);
    out_.end_ns = done;
    if (on_request_) {
      // The breakdown is the device's view of the command that just completed:
      // it must be read now, before the next command overwrites it.
      on_request_(ValidateRequestResult{index, current_, issued_ns_, simulated_ns, NsToMs(simulated_ns),
                                        hdd_ != nullptr ? &hdd_->last_breakdown() : nullptr});
    }
    ++completed_;
    const SimTime gap_ns = current_->gap_after_ns;
    if (Fetch()) sim_.Schedule(done + gap_ns, this, kIssue, 0);
  }

 private:
  static constexpr uint32_t kIssue = 0;

  // Takes the next record and makes its request, the completed_-th; false if
  // there are no more. The request is made here, an event before it is
  // submitted, not in the issue event itself: the device copies it at once, and
  // a copy right after the stores that built it would wait for them to reach
  // the cache (a wide load cannot be forwarded from narrower stores).
  bool Fetch() {
    current_ = source_.Next();
    if (current_ == nullptr) return false;
    request_ = DeviceRequest{static_cast<uint64_t>(completed_), current_->lbn * kValidateBlockBytes,
                             current_->blocks * kValidateBlockBytes, current_->op};
    return true;
  }

  static double NsKeyToMs(uint64_t ns) { return NsToMs(static_cast<SimTime>(ns)); }

  Device& dev_;
  Simulation& sim_;
  const HddDevice* hdd_;  // set when per-request breakdowns are available
  RecordSource& source_;
  const ValidateRequestCallback& on_request_;
  ValidateReplayResult& out_;
  const ValidateRecord* current_ = nullptr;  // the request outstanding, or about to be issued
  DeviceRequest request_;                    // current_'s request
  SimTime issued_ns_ = 0;
  int64_t issued_ = 0;
  int64_t completed_ = 0;
  std::vector<uint64_t> simulated_ns_;  // in trace order until Summarize sorts them
};

// Replays every request of `source` on `dev`, which must be idle; an empty
// source gives an empty result. `expected_requests`: as ReplayDriver's.
ValidateReplayResult Replay(Device& dev, Simulation& sim, RecordSource& source,
                            const ValidateRequestCallback& on_request, size_t expected_requests) {
  if (dev.in_device() != 0) throw std::logic_error("internal error: validate replay needs an idle device");
  ValidateReplayResult out;
  ReplayDriver driver(dev, sim, source, on_request, out, expected_requests);
  {
    ScopedListener<Device, DeviceListener> scope(dev, &driver);
    const auto wall_start = std::chrono::steady_clock::now();
    if (!driver.Start()) return out;
    sim.Run();
    out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  }
  CheckCompletedOnce("validate replay: " + dev.name() + ": trace requests", driver.issued(), driver.completed());
  CheckDeviceAccounting(dev, sim.now());
  driver.Summarize();
  return out;
}

}  // namespace

std::vector<ValidateRecord> ReadValidateRecords(DisksimValidateTrace& trace) {
  std::vector<ValidateRecord> records;
  ValidateRecord r;
  while (trace.Next(r)) records.push_back(r);
  if (records.empty()) throw InputError(trace.path() + ": the trace holds no requests");
  return records;
}

void CheckRecordsFit(std::span<const ValidateRecord> records, const Device& dev, const std::string& trace_path) {
  const RecordFit fit(dev);
  for (const ValidateRecord& r : records) fit.Check(r, trace_path);
}

ValidateReplayResult ReplayValidateRecords(Device& dev, Simulation& sim, std::span<const ValidateRecord> records,
                                           const ValidateRequestCallback& on_request) {
  SpanSource source(records);
  return Replay(dev, sim, source, on_request, records.size());
}

ValidateReplayResult ReplayValidate(Device& dev, Simulation& sim, DisksimValidateTrace& trace,
                                    const ValidateRequestCallback& on_request) {
  TraceSource source(trace, dev);
  ValidateReplayResult out = Replay(dev, sim, source, on_request, /*expected_requests=*/0);
  if (out.requests == 0) throw InputError(trace.path() + ": the trace holds no requests");
  return out;
}

nlohmann::ordered_json ValidateSummaryJson(const ValidateReplayResult& r, const std::string& drive,
                                           const std::string& parv, const std::string& trace,
                                           size_t spec_keys_ignored) {
  nlohmann::ordered_json j;
  j["drive"] = drive;
  j["parv"] = parv;
  j["trace"] = trace;
  j["spec_keys_ignored"] = spec_keys_ignored;
  j["requests"] = r.requests;
  j["reads"] = r.reads;
  j["writes"] = r.writes;
  j["measured_mean_ms"] = r.measured.mean_ms;
  j["sim_mean_ms"] = r.simulated.mean_ms;
  j["mean_error_pct"] = r.mean_error_pct;
  j["demerit_ms"] = r.demerit_ms;
  j["demerit_pct"] = r.demerit_pct;
  j["measured_p50_ms"] = r.measured.p50_ms;
  j["measured_p90_ms"] = r.measured.p90_ms;
  j["measured_p99_ms"] = r.measured.p99_ms;
  j["sim_p50_ms"] = r.simulated.p50_ms;
  j["sim_p90_ms"] = r.simulated.p90_ms;
  j["sim_p99_ms"] = r.simulated.p99_ms;
  j["sim_end_ms"] = NsToMs(r.end_ns);
  j["wall_seconds"] = r.wall_seconds;
  j["requests_per_sec"] = r.wall_seconds > 0 ? static_cast<double>(r.requests) / r.wall_seconds : 0.0;
  return j;
}

}  // namespace ziosim
