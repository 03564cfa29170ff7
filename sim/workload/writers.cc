#include "sim/workload/writers.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "sim/core/invariants.h"
#include "sim/core/status.h"
#include "sim/stats/run_check.h"
#include "sim/zfs/allocator.h"

namespace ziosim {
namespace {

// One `dd`: write() after write() until its bytes are done, then, with
// conv=fsync, a wait until they are on disk.
class Writer : public WriteCaller, public TxgWaiter {
 public:
  Writer(DmuWrite* dmu, Simulation* sim, int index, int64_t file_size, int64_t bs, bool fsync_at_end)
      : dmu_(dmu), sim_(sim), index_(index), file_size_(file_size), bs_(bs), fsync_(fsync_at_end) {}

  void Start() {
    start_ns_ = sim_->now();
    Next();
  }
  void OnWriteDone(uint64_t, int64_t bytes) override {
    ++returned_;
    done_bytes_ += bytes;
    if (done_bytes_ < file_size_) {
      Next();
    } else if (fsync_) {
      dmu_->TxgWaitSynced(this, 0);
    } else {
      Done();
    }
  }
  void OnTxgEvent(uint64_t) override { Done(); }
  int64_t bytes() const { return done_bytes_; }
  SimTime elapsed_ns() const { return end_ns_ - start_ns_; }
  bool finished() const { return finished_; }
  void CheckDone() const {
    const std::string what = "writer " + std::to_string(index_);
    CheckCompletedOnce(what + ": write() calls", calls_, returned_);
    CheckBytesDelivered(what, file_size_, done_bytes_);
  }

 private:
  void Next() {
    ++calls_;
    dmu_->Write(index_, done_bytes_, std::min(bs_, file_size_ - done_bytes_), this, 0);
  }
  void Done() {
    end_ns_ = sim_->now();
    finished_ = true;
  }

  DmuWrite* dmu_;
  Simulation* sim_;
  int index_;
  int64_t file_size_, bs_;
  bool fsync_;
  bool finished_ = false;
  int64_t done_bytes_ = 0;
  int64_t calls_ = 0, returned_ = 0;
  SimTime start_ns_ = 0, end_ns_ = 0;
};

void CheckOptions(const WritersOptions& o) {
  if (o.writers.empty()) throw InputError("--writers: give at least one writer count");
  for (int n : o.writers) {
    if (n < 1 || n > 1024) throw InputError("--writers: " + std::to_string(n) + " is not between 1 and 1024");
  }
  if (o.bs <= 0) throw InputError("--bs: must be positive");
  if (o.file_size <= 0) throw InputError("--file-size: must be positive");
  if (o.recordsize < 512 || o.recordsize > (16 << 20) || (o.recordsize & (o.recordsize - 1)) != 0) {
    throw InputError("--recordsize: must be a power of two from 512 to 16M");
  }
}

// New files: every block a hole, laid out as the allocator sizes them.
std::vector<TxgFile> NewFiles(const Pool& pool, const WritersOptions& o, int n) {
  std::vector<FileSpec> specs(static_cast<size_t>(n));
  for (FileSpec& s : specs) {
    s.size_bytes = o.file_size;
    s.recordsize = o.recordsize;
    s.sparse = true;
  }
  std::vector<TxgFile> files;
  for (const FileLayout& l : AllocateFiles(pool, specs, ParseLayoutPreset("sequential"), o.seed)) {
    files.push_back(MakeTxgFile(pool, l));
  }
  return files;
}

double ReadBack(const WritersOptions& o, int n, const std::vector<FileLayout>& layouts) {
  ReadersOptions r;
  r.pool = o.pool;
  r.ashift = o.ashift;
  r.profile = o.profile;
  r.settings = o.settings;
  r.bs = o.bs;
  r.file_size = o.file_size;
  r.recordsize = o.recordsize;
  r.readers = {n};
  r.seed = o.seed;
  return RunReadersOnLayouts(r, n, layouts).throughput_mb_s;
}

WritersRun RunOnce(const WritersOptions& o, int n) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o.profile, o.settings), o.seed);
  std::vector<TxgFile> files = NewFiles(pool, o, n);
  const PoolState state = ParsePoolState(o.pool_state, o.pool_state_label);
  PoolFigures before;
  if (state.set) {
    BlockAllocator old(pool, state, o.seed, o.pool_state_label);
    before = {old.CapacityPercent(), old.FragmentationPercent()};
  }
  Txg txg(&pool, &files, state, o.seed);
  HostCpu cpu(pool.tunables());
  DmuWrite dmu(&pool, &txg, &cpu, nullptr);

  std::vector<std::unique_ptr<Writer>> writers;
  for (int i = 0; i < n; ++i) {
    writers.push_back(std::make_unique<Writer>(&dmu, &sim, i, o.file_size, o.bs, o.fsync_at_end));
  }
  for (auto& w : writers) w->Start();
  while (std::any_of(writers.begin(), writers.end(), [](auto& w) { return !w->finished(); }) && sim.Step()) {
  }
  if (!std::all_of(writers.begin(), writers.end(), [](auto& w) { return w->finished(); })) {
    throw InternalError("writers stalled with no event pending");
  }
  const SimTime end = sim.now();
  SyncOutAndCheck(txg, sim, "writers");
  const SimTime on_disk = sim.now();
  pool.SettleStats();

  WritersRun run;
  run.writers = n;
  run.elapsed_ns = end;
  run.final_sync_ns = on_disk - end;
  SimTime writer_ns = 0;
  for (auto& w : writers) {
    w->CheckDone();
    run.app_bytes_written += w->bytes();
    writer_ns += w->elapsed_ns();
    run.per_writer_mb_s.push_back(static_cast<double>(w->bytes()) / static_cast<double>(w->elapsed_ns()) * 1e3);
  }
  run.throughput_mb_s = static_cast<double>(run.app_bytes_written) / static_cast<double>(end) * 1e3;
  run.dmu = dmu.stats();
  run.txg = txg.stats();
  run.write_calls_per_s = static_cast<double>(run.dmu.calls) / NsToSec(end);
  uint64_t device_writes = 0;
  for (const LeafVdev* l : pool.leaves()) {
    run.disk_written_bytes.push_back(l->device().stats().written_bytes());
    run.disk_bytes_written += l->device().stats().written_bytes();
    device_writes += l->device().stats().writes();
  }
  run.disk_write_iops = static_cast<double>(device_writes) / NsToSec(on_disk);
  run.txgs = run.txg.synced;
  run.txg_sync_mean_ms = run.txgs > 0 ? NsToMs(run.txg.sync_ns_sum) / static_cast<double>(run.txgs) : 0;
  run.txg_sync_max_ms = NsToMs(run.txg.sync_ns_max);
  run.throttle_pct = 100.0 * static_cast<double>(run.dmu.delay_ns + run.dmu.dirty_wait_ns) /
                     static_cast<double>(writer_ns);
  run.dirty_max_bytes = txg.throttle().dirty_max_bytes();
  run.max_dirty_bytes = run.txg.max_dirty_bytes;
  run.cpu_busy_pct =
      100.0 * static_cast<double>(cpu.busy_ns()) / (static_cast<double>(cpu.costs().cores) * static_cast<double>(end));
  run.disks = ReportDisks(pool, on_disk);

  CheckPoolQuiescent(pool, on_disk);
  for (const TxgFile& f : files) run.layouts.push_back(f.Layout(pool));
  run.placement = PlacementOf(pool, run.layouts);
  run.pool_before = before;
  if (o.read_back) run.read_back_mb_s = ReadBack(o, n, run.layouts);
  return run;
}

}  // namespace

void CheckWritersOptions(const WritersOptions& o) {
  CheckOptions(o);
  const PoolState state = ParsePoolState(o.pool_state, o.pool_state_label);
  Simulation sim;
  const Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o.profile, o.settings), o.seed);
  if (state.set) BlockAllocator(pool, state, o.seed, o.pool_state_label);  // refuses a state this pool cannot take
  // The files must fit (a lower bound: data blocks only, each on top-level vdev 0's geometry).
  const int most = *std::max_element(o.writers.begin(), o.writers.end());
  const int64_t bs = o.file_size > o.recordsize ? o.recordsize : o.file_size;
  const __int128 need = static_cast<__int128>(most) * ((o.file_size + bs - 1) / bs) * pool.BlockAsize(0, bs);
  int64_t space = 0;
  for (int t = 0; t < pool.top_count(); ++t) space += pool.top(t)->asize_bytes();
  if (need > space) {
    throw InputError("--file-size: " + std::to_string(most) + " files of " + std::to_string(o.file_size) +
                     " bytes do not fit in the pool (" + std::to_string(space) + " allocatable bytes)");
  }
}

std::vector<WritersRun> RunWriters(const WritersOptions& o) {
  CheckWritersOptions(o);
  std::vector<WritersRun> runs;
  for (int n : o.writers) runs.push_back(RunOnce(o, n));
  return runs;
}

}  // namespace ziosim
