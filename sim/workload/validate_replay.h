// Replays a DiskSim validate trace against a Device as DiskSim's `validate`
// mode does: a closed loop with one request outstanding, request k+1 issued
// `gap_after` after request k completes, the first at the simulation's current
// time (0 for a fresh Simulation, the frame DiskSim's platter angle uses).
// It compares the simulated service times with the measured ones by mean error
// and demerit.
#ifndef ZIOSIM_SIM_WORKLOAD_VALIDATE_REPLAY_H_
#define ZIOSIM_SIM_WORKLOAD_VALIDATE_REPLAY_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/device/device.h"
#include "models/device/hdd.h"
#include "sim/stats/demerit.h"
#include "sim/trace/disksim_validate_trace.h"

namespace ziosim {

// One replayed request, handed to the per-request callback.
struct ValidateRequestResult {
  int64_t index = 0;  // 0-based position in the trace
  // In the records replayed, or, for a streamed trace, valid during the callback only.
  const ValidateRecord* record = nullptr;
  SimTime issued_ns = 0;
  SimTime simulated_ns = 0;  // completion - issue
  double simulated_ms = 0;
  // How an HddDevice served it; null for other devices.
  const HddBreakdown* breakdown = nullptr;
};
using ValidateRequestCallback = std::function<void(const ValidateRequestResult&)>;

struct ValidateReplayResult {
  int64_t requests = 0;
  int64_t reads = 0;
  int64_t writes = 0;
  std::vector<double> measured_ms;   // in trace order (8 bytes a request)
  std::vector<double> simulated_ms;  // in trace order
  LatencySummary measured;
  LatencySummary simulated;
  double mean_error_pct = 0;  // (simulated mean - measured mean) / measured mean
  double demerit_ms = 0;
  double demerit_pct = 0;     // of the measured mean
  SimTime end_ns = 0;         // simulated time when the last request completed
  // Host time spent in the replay loop: the simulation, and any wait for the
  // trace's records when it streams (ReplayValidate reads them on a second
  // thread); never the drive's import or the figures.
  double wall_seconds = 0;
};

// Reads every record of `trace`. Throws InputError on a malformed line or an
// empty trace. For callers that replay a trace more than once; a single
// replay streams it (ReplayValidate).
std::vector<ValidateRecord> ReadValidateRecords(DisksimValidateTrace& trace);

// Throws InputError(trace_path, line, ...) for the first of `records` that lies
// beyond `dev`'s capacity or is not aligned to its sectors.
void CheckRecordsFit(std::span<const ValidateRecord> records, const Device& dev,
                     const std::string& trace_path);

// Replays `records` (already checked to fit) on `dev`, which must be idle. The
// replay owns the device's listener while it runs and clears it afterwards.
// `on_request`, if set, sees each request at its completion.
ValidateReplayResult ReplayValidateRecords(Device& dev, Simulation& sim,
                                           std::span<const ValidateRecord> records,
                                           const ValidateRequestCallback& on_request = {});

// The figures of a validation run as one JSON object, the same for the CLI's
// --json and the Python module: drive, files, counts, means, error, demerit,
// percentiles, host speed.
nlohmann::ordered_json ValidateSummaryJson(const ValidateReplayResult& r, const std::string& drive,
                                           const std::string& parv, const std::string& trace,
                                           size_t spec_keys_ignored);

// ReplayValidateRecords on `trace` read as it replays, on a second thread
// that runs ahead of the replay by a few thousand records: memory holds those
// (and the two result vectors and the figures' sort keys, 32 bytes a request),
// not the trace. A malformed line or a record beyond `dev` throws InputError
// when the replay reaches it; an empty trace throws once the replay finds it
// empty.
ValidateReplayResult ReplayValidate(Device& dev, Simulation& sim, DisksimValidateTrace& trace,
                                    const ValidateRequestCallback& on_request = {});

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_VALIDATE_REPLAY_H_
