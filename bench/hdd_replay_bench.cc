// HDD model throughput: DiskSim's six validation traces replayed through an
// HddDevice built from each drive's DiskSim specs, as `ziosim validate-disksim`
// does. Only the simulation loop is timed (manual time from the replay's own
// wall clock): parsing, drive import and the demerit are set-up and report
// costs, not the model's. items_per_second = requests. Goal: 8 M/s per core
// (docs/speed.md has the figures).
#include <benchmark/benchmark.h>

#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/disksim_valid_dir.h"
#include "models/device/hdd.h"
#include "models/disksim/disksim_import.h"
#include "sim/core/simulation.h"
#include "sim/trace/disksim_validate_trace.h"
#include "sim/workload/validate_replay.h"

namespace ziosim {
namespace {

void BM_HddReplay(benchmark::State& state, const std::string& drive) {
  const std::string parv = kDisksimValidDir + drive + ".parv";
  const std::string trace_path = kDisksimValidDir + drive + ".trace";
  if (!std::filesystem::exists(parv) || !std::filesystem::exists(trace_path)) {
    state.SkipWithError(("DiskSim validation data absent: " + parv).c_str());
    return;
  }
  HddParams params;
  std::vector<ValidateRecord> records;
  try {
    params = ImportDisksimDrive(parv).params;
    DisksimValidateTrace trace(trace_path);
    records = ReadValidateRecords(trace);
    // Built once here so that bad specs or a trace beyond the drive skip this benchmark.
    Simulation probe_sim;
    const HddDevice probe(&probe_sim, drive, params, QueuePolicy::kFifo);
    CheckRecordsFit(records, probe, trace_path);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  int64_t requests = 0;
  for (auto _ : state) {
    Simulation sim;
    HddDevice dev(&sim, drive, params, QueuePolicy::kFifo);
    const ValidateReplayResult r = ReplayValidateRecords(dev, sim, records);
    state.SetIterationTime(r.wall_seconds);
    requests += r.requests;
  }
  state.SetItemsProcessed(requests);
}

BENCHMARK_CAPTURE(BM_HddReplay, atlas_III, std::string("atlas_III"))->UseManualTime();
BENCHMARK_CAPTURE(BM_HddReplay, barracuda, std::string("barracuda"))->UseManualTime();
BENCHMARK_CAPTURE(BM_HddReplay, cheetah4LP, std::string("cheetah4LP"))->UseManualTime();
BENCHMARK_CAPTURE(BM_HddReplay, cheetah9LP, std::string("cheetah9LP"))->UseManualTime();
BENCHMARK_CAPTURE(BM_HddReplay, hp_c2247a, std::string("hp_c2247a"))->UseManualTime();
BENCHMARK_CAPTURE(BM_HddReplay, hp_c2490a, std::string("hp_c2490a"))->UseManualTime();

}  // namespace
}  // namespace ziosim
