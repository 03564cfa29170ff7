#include "sim/workload/scrub.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "sim/core/status.h"
#include "sim/core/time.h"
#include "sim/stats/run_check.h"
#include "sim/workload/reader.h"
#include "sim/zfs/layout_preset.h"
#include "sim/zfs/pool_state.h"
#include "sim/zfs/scan/rebuild.h"
#include "sim/zfs/vdev/draid_vdev.h"
#include "sim/zfs/vdev/leaf_vdev.h"

namespace ziosim {
namespace {

constexpr int kMaxFiles = 100000;

void CheckOptions(const ScrubOptions& o) {
  if (o.files < 0 || o.files > kMaxFiles) {
    throw InputError("--files: " + std::to_string(o.files) + " is not between 0 and " + std::to_string(kMaxFiles));
  }
  if (o.file_size <= 0) throw InputError("--file-size: must be positive");
  if (o.recordsize < 512 || o.recordsize > (16 << 20) || (o.recordsize & (o.recordsize - 1)) != 0) {
    throw InputError("--recordsize: must be a power of two from 512 to 16M");
  }
  if (o.stop_after < 0) throw InputError("--stop-after: must not be negative");
  if (o.readers < 0 || o.readers > o.files) {
    throw InputError("--readers: " + std::to_string(o.readers) + " readers need as many files (--files " +
                     std::to_string(o.files) + "); each reads its own");
  }
  if (o.bs <= 0) throw InputError("--bs: must be positive");
}

// Where the old data lies: an allocator in the same state the files' allocator
// starts from (the same seed draws the same old data), every metaslab laid out.
std::vector<std::vector<Dva>> OldData(const Pool& pool, const PoolState& state, const LayoutPreset& preset,
                                      uint64_t seed) {
  std::vector<std::vector<Dva>> runs;
  const double fill = WriteOrderOf(preset).old_data_fill;
  if (!state.set && fill <= 0) return runs;
  BlockAllocator old = state.set ? BlockAllocator(pool, state, seed) : BlockAllocator(pool, fill, seed);
  for (int t = 0; t < pool.top_count(); ++t) runs.push_back(old.UsedRuns(t));
  return runs;
}

struct Rebuild {
  int top = 0, child = 0, spare = 0;
};

// --sequential: the one replaced disk, of a dRAID with a free distributed
// spare; the disk is failed (its columns are read around) rather than new.
Rebuild RebuildTarget(Pool& pool, const ScrubOptions& o) {
  if (o.replaced.size() != 1) throw InputError("--sequential: rebuilds one disk (give one --replace)");
  LeafVdev* leaf = pool.Leaf(o.replaced[0], "--replace");
  Rebuild b;
  b.top = pool.leaf_top(pool.LeafIndex(leaf));
  auto* draid = dynamic_cast<DraidVdev*>(pool.top(b.top));
  if (draid == nullptr) {
    throw InputError("--sequential: " + o.replaced[0] + " is not in a dRAID vdev (ziosim rebuilds onto distributed "
                     "spares only)");
  }
  while (b.spare < draid->layout().config().spares && draid->spared_child(b.spare) >= 0) ++b.spare;
  if (b.spare == draid->layout().config().spares) {
    throw InputError("--sequential: " + draid->name() + " has no free distributed spare (draid...:<N>s)");
  }
  const auto& kids = draid->children();
  b.child = static_cast<int>(std::find_if(kids.begin(), kids.end(), [&](auto& c) { return c.get() == leaf; }) -
                             kids.begin());
  leaf->set_replacing(false);
  leaf->set_faulted(true);
  return b;
}

// A scan stopped early: its walking and its reading each continued at their
// rate so far, the reading over the share of the pool it has needed so far
// (all of it for a scrub). The sorted scan's txgs do one or the other; the
// legacy scan's and a rebuild's do both at once, so their read rate alone is
// the whole rate (zpool status's).
double Predict(const ScanResult& s) {
  const int64_t read = s.issued_bytes - s.skipped_bytes;
  if (read <= 0 || s.examined_bytes == 0) return 0;
  const double total = static_cast<double>(s.to_examine_bytes);
  const double needed = 1.0 - static_cast<double>(s.skipped_bytes) / static_cast<double>(s.issued_bytes);
  double walk_s = 0, issue_s = 0;
  SimTime prev = 0;
  for (const ScanSample& x : s.samples) {
    (x.traversing && !s.legacy ? walk_s : issue_s) += NsToSec(x.t_ns - prev);
    prev = x.t_ns;
  }
  issue_s += NsToSec(s.elapsed_ns - prev);
  return walk_s * total / static_cast<double>(s.examined_bytes) + issue_s * total * needed / static_cast<double>(read);
}

}  // namespace

void CheckScrubOptions(const ScrubOptions& o) {
  CheckOptions(o);
  const PoolState state = ParsePoolState(o.pool_state, o.pool_state_label);
  CheckPoolStateWithLayout(state, ParseLayoutPreset(o.layout));
  Simulation sim;
  const Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o.profile, o.settings), o.seed);
  if (state.set) BlockAllocator(pool, state, o.seed, o.pool_state_label);
}

ScrubResult RunScrub(const ScrubOptions& o) {
  CheckScrubOptions(o);
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o.profile, o.settings), o.seed);
  const PoolState state = ParsePoolState(o.pool_state, o.pool_state_label);
  const LayoutPreset preset = ParseLayoutPreset(o.layout);
  std::vector<FileSpec> specs(static_cast<size_t>(o.files));
  for (FileSpec& s : specs) {
    s.size_bytes = o.file_size;
    s.recordsize = o.recordsize;
  }
  for (const std::string& name : o.replaced) {
    LeafVdev* leaf = pool.Leaf(name, "--replace");
    if (leaf->replacing()) throw InputError("--replace: " + name + " is given twice");
    leaf->set_replacing(true);
  }
  for (const std::string& name : o.faulted) {
    LeafVdev* leaf = pool.Leaf(name, "--fault");
    if (leaf->replacing()) throw InputError("--fault: " + name + " is also given to --replace");
    leaf->set_faulted(true);
  }
  const Rebuild rebuild = o.sequential ? RebuildTarget(pool, o) : Rebuild{};
  if (!pool.root().readable()) {
    throw InputError(std::string(o.replaced.empty() ? "--fault" : "--replace") +
                     ": the pool cannot lose that many disks at once: nothing to read the data from");
  }
  ScrubResult r;
  const std::vector<std::vector<Dva>> old = OldData(pool, state, preset, o.seed);
  const std::vector<FileLayout> layouts = AllocateFiles(pool, specs, preset, o.seed, state, &r.pool_before);
  const ScanTree tree(pool, layouts, old, o.recordsize);
  if (tree.blocks() == 0) {
    throw InputError("--files: the pool holds no data to " + std::string(o.replaced.empty() ? "scrub" : "resilver") +
                     " (give --files or --pool-state)");
  }

  // The readers, if any, start with the scan; the run lasts until both are done.
  Dmu dmu(&pool, &layouts, PrimaryCache::kAll, nullptr);
  std::vector<std::unique_ptr<Reader>> readers;
  for (int i = 0; i < o.readers; ++i) {
    readers.push_back(std::make_unique<Reader>(&dmu, &sim, i, i, ReadRange{0, o.file_size}, o.bs, false, o.seed));
  }
  auto readers_done = [&] { return std::all_of(readers.begin(), readers.end(), [](auto& x) { return x->finished(); }); };
  for (auto& x : readers) x->Start();
  for (const LeafVdev* l : pool.leaves()) {
    r.disk_read_bytes_before.push_back(l->device().stats().read_bytes());
    r.disk_written_bytes_before.push_back(l->device().stats().written_bytes());
  }
  // Both live to the end of the run: their events may still be pending while the last I/O lands.
  std::unique_ptr<SequentialRebuild> seq;
  std::unique_ptr<DslScan> scan;
  if (o.sequential) {
    seq = std::make_unique<SequentialRebuild>(&sim, &pool, &tree, rebuild.top, rebuild.child, rebuild.spare,
                                              o.stop_after);
    seq->Start();
  } else {
    scan = std::make_unique<DslScan>(&sim, &pool, &tree, o.replaced.empty() ? ZioScan::kScrub : ZioScan::kResilver,
                                     o.stop_after);
    scan->Start();
  }
  auto scan_done = [&] { return seq ? seq->done() : scan->done(); };
  while (!(scan_done() && readers_done()) && sim.Step()) {
  }
  if (!scan_done()) throw std::logic_error("internal error: the scan stalled with no event pending");
  r.scan = seq ? seq->Result() : scan->Result();
  r.sequential = seq != nullptr;
  if (!readers_done()) throw std::logic_error("internal error: readers stalled with no event pending");
  dmu.StopFeeding();
  int64_t reader_bytes = 0;
  SimTime last_ns = 0;
  for (auto& x : readers) {
    x->CheckDone();
    reader_bytes += x->bytes();
    last_ns = std::max(last_ns, x->elapsed_ns());
    r.per_reader_mb_s.push_back(static_cast<double>(x->bytes()) / static_cast<double>(x->elapsed_ns()) * 1e3);
  }
  if (last_ns > 0) r.readers_mb_s = static_cast<double>(reader_bytes) / static_cast<double>(last_ns) * 1e3;
  while (pool.live_zios() > 0 && sim.Step()) {  // prefetches still in flight land
  }
  pool.SettleStats();
  r.pool = FormatPoolSpec(pool.spec());
  r.profile = o.profile;
  r.file_bytes = static_cast<int64_t>(o.files) * o.file_size;
  for (int t = 0; t < pool.top_count(); ++t) {
    const int64_t size = pool.top(t)->asize_bytes();
    r.size_bytes += size;
    r.usable_bytes += static_cast<int64_t>(static_cast<double>(size) * static_cast<double>(o.recordsize) /
                                           static_cast<double>(pool.BlockAsize(t, o.recordsize)));
  }
  const double elapsed_s = NsToSec(r.scan.elapsed_ns);
  r.issued_mb_s = elapsed_s > 0 ? static_cast<double>(r.scan.issued_bytes) / elapsed_s / 1e6 : 0;
  r.predicted_s = r.scan.complete ? elapsed_s : Predict(r.scan);
  // The disks over the whole run: the scan, and the readers when they outlast it.
  r.disks = ReportDisks(pool, sim.now());
  CheckPoolQuiescent(pool, sim.now());
  return r;
}

}  // namespace ziosim
