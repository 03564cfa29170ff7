// Replays a block trace (any TraceReader) on one Device or a zvol on a pool
// (a ReplayTarget), streaming: records are read as the simulation reaches
// them, so memory does not grow with the trace (what does grow is noted
// below). Three ways to pace it:
//
//   open       each request arrives at its recorded time (relative to the
//              first request's), divided by `speed`; arrivals do not wait for
//              completions.
//   closed:N   N requests outstanding; the recorded times are ignored and a
//              completion lets the next request in at once.
//   validate   DiskSim's validate mode: one request outstanding, the next one
//              issued the trace's idle time after the completion. That idle
//              time is the record's think_ns (DiskSim validate traces), else
//              next arrival - (this arrival + measured latency) when the trace
//              measured this request (not below 0), else 0.
//
// Requests that the target cannot take yet (a drive holds queue_depth()
// commands) wait in a FIFO in front of it; a request's simulated latency runs
// from its arrival (entry into that FIFO) to its completion. Offsets and sizes
// are widened to whole target sectors (counted in `realigned`). A request that
// reaches past the target's capacity is an InputError naming its trace line,
// unless `wrap` is set: then its offset is taken modulo the capacity (and
// pulled back so that it ends inside) and it is counted in `wrapped`.
//
// Writes can be passed over (reads_only) and one traced device picked
// (device); what is passed over is not replayed and does not count towards
// `limit`.
//
// Latencies are kept exactly (8 bytes per request and series) up to
// exact_sample_limit requests; past that each series moves into a log
// histogram of fixed size (relative resolution 2^-12, about 0.025 %), and
// the quantiles and demerit come from it (ReplayResult::exact_quantiles false).
#ifndef ZIOSIM_SIM_WORKLOAD_REPLAY_H_
#define ZIOSIM_SIM_WORKLOAD_REPLAY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/device/device.h"
#include "sim/core/simulation.h"
#include "sim/stats/demerit.h"
#include "sim/trace/trace_reader.h"

namespace ziosim {

enum class ReplayMode { kOpen, kClosed, kValidate };

struct ReplayOptions {
  ReplayMode mode = ReplayMode::kOpen;
  int depth = 1;        // closed: requests kept outstanding (>= 1)
  double speed = 1.0;   // open: recorded inter-arrival times are divided by this (> 0)
  int64_t limit = 0;    // replay at most this many requests; 0: all
  bool wrap = false;    // wrap offsets beyond the target modulo its capacity instead of failing
  bool reads_only = false;  // pass over the trace's writes (counted in skipped_writes)
  int64_t device = -1;      // replay only this traced device (TraceRecord::device); -1: all
  bool per_device = false;  // also compare per traced device (ReplayResult::devices)
  int64_t exact_sample_limit = int64_t{1} << 20;  // latencies kept exactly up to this many per series
};

// Sets options.mode (and depth) from "open", "closed:N" or "validate". Throws
// InputError naming --mode.
void ParseReplayMode(std::string_view text, ReplayOptions& options);
// "open", "closed:4", "validate".
std::string ReplayModeName(const ReplayOptions& options);

// What a replay drives: one drive (ReplayTrace on a Device) or a zvol on a
// pool (pool_replay.h). The replay keeps requests the target cannot take yet
// in a FIFO and tells it nothing else; the target reports each completion.
class ReplayTargetListener {
 public:
  virtual ~ReplayTargetListener() = default;
  virtual void OnTargetDone(uint32_t tag, SimTime done) = 0;
};

class ReplayTarget {
 public:
  virtual ~ReplayTarget() = default;
  virtual const std::string& name() const = 0;
  // The bytes requests to `file` may reach: a file-level trace's file
  // (TraceRecord::file), or -1 for the whole target.
  virtual int64_t capacity_bytes(int32_t file) const = 0;
  virtual int64_t sector_bytes() const = 0;  // requests are widened to whole sectors
  // Why a write cannot be replayed here (a one-line reason), or empty when it can.
  virtual std::string refuses_writes() const { return {}; }
  // Whether one more request may be submitted now.
  virtual bool CanSubmit() const = 0;
  // Starts `record`'s request (its op, to its file as in capacity_bytes, with its urgency)
  // at the given offset and size; its completion goes to the listener with `tag`.
  virtual void Submit(uint32_t tag, const TraceRecord& record, int64_t offset_bytes, int64_t size_bytes) = 0;
  // Owns the completions while the replay runs (nullptr: released).
  virtual void set_listener(ReplayTargetListener* listener) = 0;
  // The replay is over at `now`: close busy-time accounting.
  virtual void Finish(SimTime now) = 0;
};

// One replayed request, handed to the callback at its completion.
struct ReplayRequestResult {
  int64_t index = 0;  // 0-based position among the replayed requests
  const TraceRecord* record = nullptr;
  int64_t offset_bytes = 0;  // as submitted to the target (realigned, wrapped)
  int64_t size_bytes = 0;
  SimTime arrival_ns = 0;  // simulated time it arrived
  SimTime issued_ns = 0;   // simulated time it entered the target
  SimTime done_ns = 0;
  int instance = 0;  // which of several instances (ReplayInstance) it belongs to
};
using ReplayRequestCallback = std::function<void(const ReplayRequestResult&)>;

// Simulated latencies of a set of requests and, over those whose trace line
// carries a measured latency, the comparison with it; the relative figures
// are NaN when there are none.
struct ReplayComparison {
  int64_t requests = 0;
  LatencySummary simulated;
  int64_t measured_requests = 0;
  LatencySummary measured;
  LatencySummary simulated_measured;  // the simulated latencies of those same requests
  double mean_error_pct = 0;          // (simulated mean - measured mean) / measured mean
  double demerit_ms = 0;
  double demerit_pct = 0;  // of the measured mean
};

struct ReplayDeviceComparison {
  int64_t device = 0;  // TraceRecord::device
  ReplayComparison comparison;
};

struct ReplayResult {
  int64_t requests = 0;
  int64_t reads = 0;
  int64_t writes = 0;
  int64_t bytes = 0;
  int64_t wrapped = 0;    // requests moved by `wrap`
  int64_t realigned = 0;  // requests widened to whole target sectors
  int64_t skipped_writes = 0;   // writes passed over (reads_only)
  int64_t other_devices = 0;    // requests of other traced devices passed over (device)
  int64_t devices_seen = 0;     // distinct traced devices among the records read
  SimTime start_ns = 0;   // when the replay started (ReplayInstance::start_ns; alone: 0)
  SimTime end_ns = 0;     // last completion
  double mb_s = 0;        // bytes / (end - start), 10^6 bytes per second
  double iops = 0;
  ReplayComparison all;
  ReplayComparison read;   // the reads alone
  ReplayComparison write;  // the writes alone
  std::vector<ReplayDeviceComparison> devices;  // per traced device, by number (per_device only)
  bool exact_quantiles = true;
  int64_t max_waiting = 0;  // most requests waiting in front of the target at once
  double wall_seconds = 0;
};

// One of several replays run at once in one simulation (ReplayTraces): its
// own trace reader and its own target (e.g. its own zvol or files of one
// pool), from `start_ns` on: in open mode its first request arrives then and
// the others keep their recorded spacing; closed and validate start then.
struct ReplayInstance {
  TraceReader* trace = nullptr;
  ReplayTarget* target = nullptr;
  SimTime start_ns = 0;
  ReplayRequestCallback on_request;
};

// The instances' results, and their requests taken together (`pooled`: sums,
// the last completion, every latency in one comparison; with one instance
// equal to it).
struct ReplayGroupResult {
  std::vector<ReplayResult> instances;
  ReplayResult pooled;
};

// Replays every instance at once from sim.now(), which must be 0, until each
// has completed all its requests; options apply to each. Throws as
// ReplayTrace does. Latencies are kept exactly up to
// options.exact_sample_limit in the pooled figures and up to a 1/N share of it
// in each instance's.
ReplayGroupResult ReplayTraces(std::vector<ReplayInstance>& instances, Simulation& sim, const ReplayOptions& options);

// Replays `trace` on `target` (idle) from sim.now(), which must be 0. The
// replay owns the target's listener while it runs. Throws InputError for a
// malformed trace line, an empty trace (after --device / --reads-only), a
// request outside the target (without wrap), a write the target refuses, and
// for bad options.
ReplayResult ReplayTrace(TraceReader& trace, ReplayTarget& target, Simulation& sim, const ReplayOptions& options,
                         const ReplayRequestCallback& on_request = {});
// One drive (idle, its listener free while the target lives) as a replay target.
std::unique_ptr<ReplayTarget> MakeDriveTarget(Device& dev);
// The same on one drive (idle, its listener free).
ReplayResult ReplayTrace(TraceReader& trace, Device& dev, Simulation& sim, const ReplayOptions& options,
                         const ReplayRequestCallback& on_request = {});

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_REPLAY_H_
