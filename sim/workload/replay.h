// Replays a block trace (any TraceReader) on one Device, streaming: records
// are read as the simulation reaches them, so memory does not grow with the
// trace (what does grow is noted below). Three ways to pace it:
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
// Requests that the device cannot take yet (it holds queue_depth() commands)
// wait in a FIFO in front of it; a request's simulated latency runs from its
// arrival (entry into that FIFO) to its completion. Offsets and sizes are
// widened to whole device sectors (counted in `realigned`). A request that
// reaches past the device's capacity is an InputError naming its trace line,
// unless `wrap` is set: then its offset is taken modulo the capacity (and
// pulled back so that it ends inside) and it is counted in `wrapped`.
//
// Latencies are kept exactly (8 bytes per request and series) up to
// exact_sample_limit requests; past that each series moves into a log
// histogram of fixed size (relative resolution 2^-12, about 0.025 %), and
// the quantiles and demerit come from it (ReplayResult::exact_quantiles false).
#ifndef ZIOSIM_SIM_WORKLOAD_REPLAY_H_
#define ZIOSIM_SIM_WORKLOAD_REPLAY_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

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
  bool wrap = false;    // wrap offsets beyond the device modulo its capacity instead of failing
  int64_t exact_sample_limit = int64_t{1} << 20;  // latencies kept exactly up to this many per series
};

// Sets options.mode (and depth) from "open", "closed:N" or "validate". Throws
// InputError naming --mode.
void ParseReplayMode(std::string_view text, ReplayOptions& options);
// "open", "closed:4", "validate".
std::string ReplayModeName(const ReplayOptions& options);

// One replayed request, handed to the callback at its completion.
struct ReplayRequestResult {
  int64_t index = 0;  // 0-based position among the replayed requests
  const TraceRecord* record = nullptr;
  int64_t offset_bytes = 0;  // as submitted to the device (realigned, wrapped)
  int64_t size_bytes = 0;
  SimTime arrival_ns = 0;  // simulated time it arrived
  SimTime issued_ns = 0;   // simulated time it entered the device
  SimTime done_ns = 0;
};
using ReplayRequestCallback = std::function<void(const ReplayRequestResult&)>;

struct ReplayResult {
  int64_t requests = 0;
  int64_t reads = 0;
  int64_t writes = 0;
  int64_t bytes = 0;
  int64_t wrapped = 0;    // requests moved by `wrap`
  int64_t realigned = 0;  // requests widened to whole device sectors
  SimTime end_ns = 0;     // last completion; the first request arrives at 0
  double mb_s = 0;        // bytes / end, 10^6 bytes per second
  double iops = 0;
  LatencySummary simulated;  // every request
  // Requests whose trace line carries a measured latency, and the comparison
  // over them; the relative figures are NaN when there are none.
  int64_t measured_requests = 0;
  LatencySummary measured;
  LatencySummary simulated_measured;  // the simulated latencies of those same requests
  double mean_error_pct = 0;          // (simulated mean - measured mean) / measured mean
  double demerit_ms = 0;
  double demerit_pct = 0;  // of the measured mean
  bool exact_quantiles = true;
  int64_t max_waiting = 0;  // most requests waiting in front of the device at once
  double wall_seconds = 0;
};

// Replays `trace` on `dev` (idle, its listener free) from sim.now(), which
// must be 0. The replay owns the device's listener while it runs. Throws
// InputError for a malformed trace line, an empty trace or a request outside
// the device (without wrap), and for bad options.
ReplayResult ReplayTrace(TraceReader& trace, Device& dev, Simulation& sim, const ReplayOptions& options,
                         const ReplayRequestCallback& on_request = {});

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_REPLAY_H_
