#include "sim/workload/validate_replay.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>

#include "sim/core/invariants.h"
#include "sim/core/status.h"
#include "sim/stats/run_check.h"

namespace ziosim {
namespace {

// Issues one request at a time and records each completion. Allocates nothing
// per request: the result vectors are reserved up front.
class ReplayDriver final : public EventHandler, public DeviceListener {
 public:
  ReplayDriver(Device& dev, Simulation& sim, std::span<const ValidateRecord> records,
               const ValidateRequestCallback& on_request, ValidateReplayResult& out)
      : dev_(dev),
        sim_(sim),
        hdd_(dynamic_cast<const HddDevice*>(&dev)),
        records_(records),
        on_request_(on_request),
        out_(out) {}

  void Start() { sim_.Schedule(sim_.now(), this, kIssue, 0); }
  int64_t completed() const { return completed_; }

  void OnEvent(uint32_t /*kind*/, uint64_t index) override {
    const ValidateRecord& r = records_[index];
    issued_ns_ = sim_.now();
    dev_.Submit(DeviceRequest{index, r.lbn * kValidateBlockBytes, r.blocks * kValidateBlockBytes, r.op});
  }

  void OnDeviceDone(const DeviceRequest& req, SimTime /*submitted*/, SimTime done) override {
    const int64_t index = static_cast<int64_t>(req.tag);
    if (index != completed_) {
      throw std::logic_error("internal error: validate replay: device completed request " +
                             std::to_string(index) + " while " + std::to_string(completed_) + " was outstanding");
    }
    const ValidateRecord& r = records_[index];
    const SimTime simulated_ns = done - issued_ns_;
    out_.measured_ms.push_back(r.measured_ms);
    out_.simulated_ms.push_back(NsToMs(simulated_ns));
    out_.end_ns = done;
    if (on_request_) {
      // The breakdown is the device's view of the command that just completed:
      // it must be read now, before the next command overwrites it.
      on_request_(ValidateRequestResult{index, &r, issued_ns_, simulated_ns, out_.simulated_ms.back(),
                                        hdd_ != nullptr ? &hdd_->last_breakdown() : nullptr});
    }
    ++completed_;
    if (completed_ < static_cast<int64_t>(records_.size())) {
      sim_.Schedule(done + r.gap_after_ns, this, kIssue, static_cast<uint64_t>(completed_));
    }
  }

 private:
  static constexpr uint32_t kIssue = 0;

  Device& dev_;
  Simulation& sim_;
  const HddDevice* hdd_;  // set when per-request breakdowns are available
  std::span<const ValidateRecord> records_;
  const ValidateRequestCallback& on_request_;
  ValidateReplayResult& out_;
  SimTime issued_ns_ = 0;
  int64_t completed_ = 0;
};

// Clears the device's listener however the replay ends, so that it never
// points at the replay's driver once that is gone.
class ListenerScope {
 public:
  ListenerScope(Device& dev, DeviceListener* listener) : dev_(dev) { dev_.set_listener(listener); }
  ~ListenerScope() { dev_.set_listener(nullptr); }
  ListenerScope(const ListenerScope&) = delete;
  ListenerScope& operator=(const ListenerScope&) = delete;

 private:
  Device& dev_;
};

void Summarize(std::span<const ValidateRecord> records, ValidateReplayResult& out) {
  out.requests = static_cast<int64_t>(records.size());
  for (const ValidateRecord& r : records) ++(r.op == IoOp::kWrite ? out.writes : out.reads);
  out.measured = SummarizeLatencies(out.measured_ms);
  out.simulated = SummarizeLatencies(out.simulated_ms);
  out.demerit_ms = DemeritMs(out.measured_ms, out.simulated_ms);
  // Relative figures are undefined for a trace whose measured times are all zero.
  const double base = out.measured.mean_ms > 0 ? out.measured.mean_ms : std::numeric_limits<double>::quiet_NaN();
  out.mean_error_pct = 100.0 * (out.simulated.mean_ms - out.measured.mean_ms) / base;
  out.demerit_pct = 100.0 * out.demerit_ms / base;
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
  const int64_t capacity_blocks = dev.capacity_bytes() / kValidateBlockBytes;
  const int64_t blocks_per_sector = std::max<int64_t>(1, dev.sector_bytes() / kValidateBlockBytes);
  for (const ValidateRecord& r : records) {
    // Compared as lbn > capacity - blocks so that a huge blkno cannot overflow.
    if (r.blocks > capacity_blocks || r.lbn > capacity_blocks - r.blocks) {
      throw InputError(trace_path, r.line,
                       "field blkno: " + std::to_string(r.blocks) + " blocks from block " + std::to_string(r.lbn) +
                           " run past the end of " + dev.name() + " (" + std::to_string(capacity_blocks) +
                           " blocks of 512 bytes)");
    }
    if (r.lbn % blocks_per_sector != 0 || r.blocks % blocks_per_sector != 0) {
      throw InputError(trace_path, r.line,
                       "field blkno: request is not aligned to " + dev.name() + "'s " +
                           std::to_string(dev.sector_bytes()) + "-byte sectors");
    }
  }
}

ValidateReplayResult ReplayValidateRecords(Device& dev, Simulation& sim, std::span<const ValidateRecord> records,
                                           const ValidateRequestCallback& on_request) {
  if (dev.in_device() != 0) throw std::logic_error("internal error: validate replay needs an idle device");
  ValidateReplayResult out;
  out.measured_ms.reserve(records.size());
  out.simulated_ms.reserve(records.size());
  if (records.empty()) return out;

  ReplayDriver driver(dev, sim, records, on_request, out);
  {
    ListenerScope scope(dev, &driver);
    driver.Start();
    const auto wall_start = std::chrono::steady_clock::now();
    sim.Run();
    out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  }
  CheckCompletedOnce("validate replay: " + dev.name() + ": trace requests", static_cast<int64_t>(records.size()),
                     driver.completed());
  CheckDeviceAccounting(dev, sim.now());
  Summarize(records, out);
  return out;
}

ValidateReplayResult ReplayValidate(Device& dev, Simulation& sim, DisksimValidateTrace& trace,
                                    const ValidateRequestCallback& on_request) {
  const std::vector<ValidateRecord> records = ReadValidateRecords(trace);
  CheckRecordsFit(records, dev, trace.path());
  return ReplayValidateRecords(dev, sim, records, on_request);
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
