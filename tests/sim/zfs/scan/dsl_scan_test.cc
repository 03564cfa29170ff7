// The scrub of both eras: it reads every DVA of every block once (files,
// their indirect blocks, the old data of a --pool-state pool), whatever the
// layout and the pool; the sorted scan reads each vdev in address order when
// it drains its queues, the legacy one in block-pointer order, which on a
// disk makes the sorted one faster for interleaved files; running out of
// queue memory makes the sorted scan issue before its walk is done; and a
// scrub stopped early predicts the rest.
#include "sim/zfs/scan/dsl_scan.h"
#include "sim/core/bytes.h"
#include "sim/zfs/scan/rebuild.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/workload/scrub.h"
#include "sim/zfs/allocator.h"
#include "sim/zfs/layout_preset.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/pool_state.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/vdev/draid_vdev.h"
#include "sim/zfs/vdev/leaf_vdev.h"

namespace ziosim {
namespace {

constexpr char kDisk[] = "fixed:latency=4ms,bandwidth=150MB/s,rotational=yes,capacity=4G";

struct ScanRecorder : LeafIoObserver {
  // (leaf, physical offset) of every scrub-class leaf zio, and the order the device got them in.
  std::multiset<std::pair<std::string, int64_t>> reads;
  std::map<std::string, std::vector<int64_t>> order;
  void OnLeafIoDone(const LeafVdev& leaf, const Zio& zio, const Zio& issued, SimTime) override {
    if (zio.priority != ZioPriority::kScrub || zio.scan == ZioScan::kNone) return;
    reads.insert({leaf.name(), zio.offset});
    if (&zio == &issued || zio.offset == issued.offset) order[leaf.name()].push_back(issued.offset);
  }
};

struct Run {
  ScanResult result;
  ScanRecorder rec;
  int64_t dvas = 0;
};

Tunables Era(const std::string& profile, std::vector<std::pair<std::string, std::string>> settings = {}) {
  return RunTunables(profile, settings);
}

std::unique_ptr<Run> Scrub(const std::string& spec, const Tunables& t, int files, int64_t file_size,
                           const std::string& layout, const std::string& state_text = "", int64_t stop = 0,
                           int64_t recordsize = 128 << 10) {
  auto run = std::make_unique<Run>();
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(spec, 12), t, /*seed=*/1);
  const PoolState state = ParsePoolState(state_text, "--pool-state");
  std::vector<std::vector<Dva>> old;
  if (state.set) {
    BlockAllocator a(pool, state, 1);
    for (int i = 0; i < pool.top_count(); ++i) old.push_back(a.UsedRuns(i));
  }
  std::vector<FileSpec> specs(static_cast<size_t>(files), FileSpec{file_size, recordsize, 1.0, false});
  const std::vector<FileLayout> layouts = AllocateFiles(pool, specs, ParseLayoutPreset(layout), 1, state);
  const ScanTree tree(pool, layouts, old, recordsize);
  for (int64_t o = 0; o < tree.objects(); ++o) {
    const int64_t n = tree.indirect_blocks(o);
    for (int64_t i = 0; i < std::max<int64_t>(n, 1); ++i) {
      for (int64_t b = tree.first_data(o, i); b < tree.end_data(o, i); ++b) {
        const ScanBlock blk = tree.Data(o, b);
        if (!blk.hole) run->dvas += blk.top2 >= 0 ? 2 : 1;
      }
      if (n > 0) {
        const ScanBlock ind = tree.Indirect(o, i);
        if (!ind.hole && !ind.walk_only) run->dvas += ind.top2 >= 0 ? 2 : 1;
      }
    }
  }
  pool.set_observer(&run->rec);
  DslScan scan(&sim, &pool, &tree, ZioScan::kScrub, stop);
  scan.Start();
  while (!scan.done() && sim.Step()) {
  }
  EXPECT_TRUE(scan.done());
  run->result = scan.Result();
  pool.set_observer(nullptr);
  return run;
}

class EveryBlockOnce : public ::testing::TestWithParam<std::tuple<std::string, std::string, std::string, std::string>> {};

TEST_P(EveryBlockOnce, EachDvaIsReadOnceAndNoSectorTwice) {
  const auto& [spec, profile, layout, state] = GetParam();
  const auto run = Scrub(spec, Era(profile), 3, 24 * kMiB, layout, state);
  const ScanResult& r = run->result;
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.blocks_read, run->dvas);
  EXPECT_EQ(r.examined_bytes, r.to_examine_bytes);
  EXPECT_EQ(r.issued_bytes, r.to_examine_bytes);
  EXPECT_GT(r.to_examine_bytes, 3 * 24 * kMiB);
  // No leaf sector is read twice: each column (each mirror copy) once.
  std::set<std::pair<std::string, int64_t>> unique(run->rec.reads.begin(), run->rec.reads.end());
  EXPECT_EQ(unique.size(), run->rec.reads.size());
}

INSTANTIATE_TEST_SUITE_P(
    Pools, EveryBlockOnce,
    ::testing::Values(std::make_tuple(std::string("mirror 2x") + kDisk, "openzfs-2.1", "sequential", ""),
                      std::make_tuple(std::string("mirror 2x") + kDisk, "zol-0.7", "writers:3", ""),
                      std::make_tuple(std::string("raidz2 5x") + kDisk, "openzfs-2.1", "writers:3", "cap=20,frag=30"),
                      std::make_tuple(std::string("raidz1 3x") + kDisk, "zol-0.7", "sequential", "cap=10"),
                      std::make_tuple(std::string("draid2:4d:1s 7x") + kDisk, "openzfs-2.1", "shuffle:8", "cap=15,frag=20"),
                      std::make_tuple(std::string(kDisk) + " " + kDisk, "openzfs-2.2", "sequential", "")));

// Sorted: each disk in address order while draining; legacy: block-pointer order, so three
// interleaved files make the head go back and forth, and the sorted scrub is faster.
TEST(ScanOrder, SortedReadsEachDiskInAddressOrderAndBeatsLegacyOnInterleavedFiles) {
  const std::string spec = std::string(kDisk);
  const auto sorted = Scrub(spec, Era("openzfs-2.1"), 3, 32 * kMiB, "writers:3");
  const auto legacy = Scrub(spec, Era("openzfs-2.1", {{"zfs_scan_legacy", "true"}}), 3, 32 * kMiB, "writers:3");
  // Each file's blocks lie in runs a txg long, the three files' runs alternating: the legacy
  // scan reads file after file, going back to the start of the disk for each.
  auto descents = [](const std::vector<int64_t>& v) {
    int64_t down = 0;
    for (size_t i = 1; i < v.size(); ++i) down += v[i] < v[i - 1];
    return down;
  };
  EXPECT_LE(descents(sorted->rec.order.begin()->second), 1);
  EXPECT_GE(descents(legacy->rec.order.begin()->second), 2);
  EXPECT_LT(sorted->result.elapsed_ns, legacy->result.elapsed_ns);
  EXPECT_FALSE(sorted->result.legacy);
  EXPECT_TRUE(legacy->result.legacy);
}

// The walk takes txgs of its own when it waits for each indirect block (no read-ahead, 4K
// records: an indirect block per 4 MiB, 1 s txgs); with a tiny queue memory limit the txgs
// after the first issue what was gathered before the walk goes on.
TEST(ScanMemory, ALowQueueLimitIssuesBeforeTheWalkIsDone) {
  const Tunables t = Era("openzfs-2.1", {{"zfs_arc_max", "64M"}, {"zfs_scan_mem_lim_fact", "4096"},
                                         {"zfs_scan_mem_lim_min", "16K"}, {"zfs_no_scrub_prefetch", "true"},
                                         {"zfs_txg_timeout", "1"}, {"zfs_scrub_min_time_ms", "1"}});
  const auto run = Scrub(std::string("mirror 2x") + kDisk, t, 16, 64 * kMiB, "sequential", "", 0, 4096);
  EXPECT_GT(run->result.clearing_txgs, 0);
  EXPECT_TRUE(run->result.complete);
  EXPECT_EQ(run->result.blocks_read, run->dvas);
  EXPECT_GT(run->result.txgs, 2);
}

TEST(ScanStop, AScrubStoppedEarlyPredictsTheRest) {
  ScrubOptions o;
  o.pool = std::string("raidz1 3x") + kDisk;
  o.files = 2;
  o.file_size = 64 * kMiB;
  o.stop_after = 40 * kMiB;
  const ScrubResult part = RunScrub(o);
  EXPECT_FALSE(part.scan.complete);
  EXPECT_GE(part.scan.issued_bytes, 40 * kMiB);
  EXPECT_LT(part.scan.issued_bytes, part.scan.to_examine_bytes);
  o.stop_after = 0;
  const ScrubResult whole = RunScrub(o);
  EXPECT_TRUE(whole.scan.complete);
  // The rate of the first part predicts the whole within 25 % (the drain's tail is not in it).
  EXPECT_NEAR(part.predicted_s, whole.predicted_s, 0.25 * whole.predicted_s);
}

}  // namespace
}  // namespace ziosim

namespace ziosim {
namespace {

// A disk's part of the pool: what a scrub of the healthy pool reads from it,
// (offset, size) per block column or copy.
struct DiskPart : LeafIoObserver {
  std::string disk;
  ZioType type = ZioType::kRead;
  std::multiset<std::pair<int64_t, int64_t>> ios;
  void OnLeafIoDone(const LeafVdev& leaf, const Zio& zio, const Zio&, SimTime) override {
    if (leaf.name() != disk || zio.type != type) return;
    if (type == ZioType::kRead && zio.scan == ZioScan::kNone) return;  // the walk's own reads
    ios.insert({zio.offset, zio.size});
  }
};

// Two files written side by side on a pool 20 % full of old data: the pool,
// its data and the scan tree over it.
struct ScanPool {
  Simulation sim;
  Pool pool;
  std::vector<std::vector<Dva>> old;
  std::vector<FileLayout> layouts;
  std::unique_ptr<ScanTree> tree;
  ScanPool(const std::string& spec, const std::string& profile)
      : pool(&sim, ParsePoolSpec(spec, 12), RunTunables(profile, {}), /*seed=*/1) {
    const PoolState state = ParsePoolState("cap=20,frag=10", "--pool-state");
    BlockAllocator a(pool, state, 1);
    for (int i = 0; i < pool.top_count(); ++i) old.push_back(a.UsedRuns(i));
    std::vector<FileSpec> specs(2, FileSpec{24 * kMiB, 128 << 10, 1.0, false});
    layouts = AllocateFiles(pool, specs, ParseLayoutPreset("writers:2"), 1, state);
    tree = std::make_unique<ScanTree>(pool, layouts, old, 128 << 10);
  }
};

std::multiset<std::pair<int64_t, int64_t>> DiskIos(const std::string& spec, const std::string& profile,
                                                   const std::string& disk, bool resilver, ScanResult* result) {
  ScanPool p(spec, profile);
  Simulation& sim = p.sim;
  Pool& pool = p.pool;
  const ScanTree& tree = *p.tree;
  DiskPart part;
  part.disk = disk;
  part.type = resilver ? ZioType::kWrite : ZioType::kRead;
  if (resilver) {
    for (LeafVdev* l : pool.leaves()) l->set_replacing(l->name() == disk);
  }
  pool.set_observer(&part);
  DslScan scan(&sim, &pool, &tree, resilver ? ZioScan::kResilver : ZioScan::kScrub, 0);
  scan.Start();
  while (!scan.done() && sim.Step()) {
  }
  *result = scan.Result();
  pool.set_observer(nullptr);
  return part.ios;
}

class ResilverWrites : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// The resilver writes to the new disk exactly what the failed one held: every
// sector a scrub of the healthy pool reads from it, once, and nothing else.
TEST_P(ResilverWrites, ExactlyWhatTheFailedDiskHeld) {
  const auto& [spec, profile] = GetParam();
  ScanResult scrub, resilver;
  const auto held = DiskIos(spec, profile, "d1", false, &scrub);
  const auto written = DiskIos(spec, profile, "d1", true, &resilver);
  ASSERT_FALSE(held.empty());
  EXPECT_EQ(written, held);
  EXPECT_TRUE(resilver.complete);
  EXPECT_EQ(resilver.repair_writes, static_cast<int64_t>(written.size()));
  // The resilver reads only the blocks with a part on d1 (all of them on a mirror).
  EXPECT_LE(resilver.blocks_read, scrub.blocks_read);
  EXPECT_EQ(resilver.issued_bytes, resilver.to_examine_bytes);
}

INSTANTIATE_TEST_SUITE_P(
    Pools, ResilverWrites,
    ::testing::Values(std::make_tuple(std::string("mirror 2x") + kDisk, "openzfs-2.1"),
                      std::make_tuple(std::string("mirror 3x") + kDisk, "zol-0.7"),
                      std::make_tuple(std::string("raidz2 6x") + kDisk, "openzfs-2.1"),
                      std::make_tuple(std::string("raidz1 4x") + kDisk, "zol-0.7"),
                      std::make_tuple(std::string("draid2:3d:1s 8x") + kDisk, "openzfs-2.1")));

TEST(Resilver, ReadsAroundTheNewDiskAndRefusesTooManyReplaced) {
  ScrubOptions o;
  o.pool = std::string("raidz1 3x") + kDisk;
  o.files = 1;
  o.file_size = 16 * kMiB;
  o.replaced = {"d0", "d1"};
  EXPECT_THROW(RunScrub(o), InputError);
  o.replaced = {"d7"};
  EXPECT_THROW(RunScrub(o), InputError);
  o.replaced = {"d2"};
  const ScrubResult r = RunScrub(o);
  EXPECT_TRUE(r.scan.complete);
  EXPECT_EQ(r.disks[2].reads, 0u);  // nothing is read from the new disk
  EXPECT_GT(r.scan.repair_bytes, 16 * kMiB / 2 - kMiB);  // about half the data: a third of the columns
}

}  // namespace
}  // namespace ziosim

namespace ziosim {
namespace {

struct WritesPerLeaf : LeafIoObserver {
  std::map<std::string, int64_t> bytes;
  void OnLeafIoDone(const LeafVdev& leaf, const Zio& zio, const Zio&, SimTime) override {
    if (zio.type == ZioType::kWrite) bytes[leaf.name()] += zio.size;
  }
};

// The sequential rebuild of d1 onto the distributed spare writes, to each
// disk holding the spare's space, exactly the bytes of d1 (what a scrub of
// the healthy pool reads from it) that the spare keeps there.
TEST(SequentialRebuild, WritesTheFailedDisksColumnsIntoTheSpareSpace) {
  const std::string spec = std::string("draid2:3d:1s 8x") + kDisk;
  ScanResult scrub;
  const auto held = DiskIos(spec, "openzfs-2.1", "d1", false, &scrub);
  // The same pool and data as DiskIos lays out, d1 failed, rebuilt onto spare 0.
  ScanPool p(spec, "openzfs-2.1");
  Simulation& sim = p.sim;
  Pool& pool = p.pool;
  const ScanTree& tree = *p.tree;
  const auto& draid = dynamic_cast<const DraidVdev&>(*pool.top(0));
  std::map<std::string, int64_t> expected;  // where each of d1's bytes goes: the spare's holder there
  int64_t total = 0;
  for (const auto& [offset, size] : held) {
    expected["d" + std::to_string(draid.layout().SpareChild(0, offset - kVdevLabelStartBytes))] += size;
    total += size;
  }
  pool.leaves()[1]->set_faulted(true);
  WritesPerLeaf writes;
  pool.set_observer(&writes);
  SequentialRebuild rebuild(&sim, &pool, &tree, 0, 1, 0, 0);
  rebuild.Start();
  while (!rebuild.done() && sim.Step()) {
  }
  pool.set_observer(nullptr);
  const ScanResult r = rebuild.Result();
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.repair_bytes, total);
  EXPECT_EQ(writes.bytes, expected);
  EXPECT_EQ(r.issued_bytes, r.to_examine_bytes);
}

}  // namespace
}  // namespace ziosim
