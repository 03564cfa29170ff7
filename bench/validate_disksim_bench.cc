// `ziosim validate-disksim` end to end on a million requests: each of DiskSim's
// six validation traces repeated 100x (a validate trace holds only gaps, no
// absolute times, so repeating its lines continues its timeline), written to a
// temporary file and then streamed from it as the CLI does: trace parsing, the
// drive's import, the replay and the figures (sort, percentiles, demerit) are
// all timed. items_per_second = requests a second of wall time. Skips where the
// shared data is absent.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bench/disksim_valid_dir.h"
#include "models/device/hdd.h"
#include "models/disksim/disksim_import.h"
#include "sim/core/simulation.h"
#include "sim/trace/disksim_validate_trace.h"
#include "sim/workload/validate_replay.h"

namespace ziosim {
namespace {

constexpr int kRepeats = 100;  // 10,000-request traces -> 1 M requests

// The repeated trace, deleted when the benchmark ends.
class RepeatedTrace {
 public:
  RepeatedTrace(const std::string& source, const std::string& drive)
      : path_((std::filesystem::temp_directory_path() /
               ("ziosim-bench-" + std::to_string(::getpid()) + "-" + drive + ".trace"))
                  .string()) {
    std::ostringstream text;
    text << std::ifstream(source, std::ios::binary).rdbuf();
    std::ofstream out(path_, std::ios::binary);
    for (int i = 0; i < kRepeats; ++i) out << text.str();
  }
  ~RepeatedTrace() { std::filesystem::remove(path_); }
  RepeatedTrace(const RepeatedTrace&) = delete;
  RepeatedTrace& operator=(const RepeatedTrace&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void BM_ValidateDisksim(benchmark::State& state, const std::string& drive) {
  const std::string parv = kDisksimValidDir + drive + ".parv";
  const std::string source = kDisksimValidDir + drive + ".trace";
  if (!std::filesystem::exists(parv) || !std::filesystem::exists(source)) {
    state.SkipWithError(("DiskSim validation data absent: " + parv).c_str());
    return;
  }
  const RepeatedTrace trace_file(source, drive);
  int64_t requests = 0;
  double demerit_ms = 0;
  for (auto _ : state) {
    try {
      DisksimValidateTrace trace(trace_file.path());
      DisksimImport imported = ImportDisksimDrive(parv);
      Simulation sim;
      HddDevice dev(&sim, drive, std::move(imported.params), QueuePolicy::kFifo);
      const ValidateReplayResult r = ReplayValidate(dev, sim, trace);
      requests += r.requests;
      demerit_ms = r.demerit_ms;
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return;
    }
  }
  state.SetItemsProcessed(requests);
  state.counters["demerit_ms"] = demerit_ms;  // the same for every build that keeps results identical
}

// Rates by the wall clock, as a user waits for them; the CPU column is the whole
// process's (the trace is read on a second thread), so rate x CPU/Time is the
// rate per core.
void EndToEnd(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();
}

BENCHMARK_CAPTURE(BM_ValidateDisksim, atlas_III, std::string("atlas_III"))->Apply(EndToEnd);
BENCHMARK_CAPTURE(BM_ValidateDisksim, barracuda, std::string("barracuda"))->Apply(EndToEnd);
BENCHMARK_CAPTURE(BM_ValidateDisksim, cheetah4LP, std::string("cheetah4LP"))->Apply(EndToEnd);
BENCHMARK_CAPTURE(BM_ValidateDisksim, cheetah9LP, std::string("cheetah9LP"))->Apply(EndToEnd);
BENCHMARK_CAPTURE(BM_ValidateDisksim, hp_c2247a, std::string("hp_c2247a"))->Apply(EndToEnd);
BENCHMARK_CAPTURE(BM_ValidateDisksim, hp_c2490a, std::string("hp_c2490a"))->Apply(EndToEnd);

}  // namespace
}  // namespace ziosim
