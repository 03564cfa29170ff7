// End-to-end speed: the readers workload through the whole read path. Reports
// simulated device commands per second of host time (items_per_second).
#include <benchmark/benchmark.h>

#include "sim/workload/readers.h"

namespace ziosim {
namespace {

void RunScenario(benchmark::State& state, const char* pool, int readers, int64_t file_size, int64_t recordsize) {
  ReadersOptions o;
  o.pool = pool;
  o.readers = {readers};
  o.file_size = file_size;
  o.recordsize = recordsize;
  o.profile = "freebsd-11";
  int64_t commands = 0;
  for (auto _ : state) {
    const ReadersRun r = RunReaders(o)[0];
    for (const DiskReport& d : r.disks) commands += static_cast<int64_t>(d.reads);
  }
  state.SetItemsProcessed(commands);
}

// The field report behind the project: a 100 GiB file, 1 MiB records, 5-wide RAID-Z2.
void BM_Readers_Raidz2_100GiB(benchmark::State& state) {
  RunScenario(state, "raidz2 5xhgst-nas-4tb", 1, int64_t{100} << 30, 1 << 20);
}
BENCHMARK(BM_Readers_Raidz2_100GiB)->Unit(benchmark::kMillisecond);

void BM_Readers_Mirror_10x1GiB(benchmark::State& state) {
  RunScenario(state, "mirror 2xwd-re4-1tb", 10, int64_t{1} << 30, 128 << 10);
}
BENCHMARK(BM_Readers_Mirror_10x1GiB)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ziosim
