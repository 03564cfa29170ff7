// The per-leaf scheduler of both eras, driven through MakeVdevQueue with a
// fake sink that records what reaches the device.
// Reference: ../shared/reference/zfs-read-path.md sections 2.1-2.3.
#include "sim/zfs/vdev/queue/vdev_queue.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/zfs/vdev/queue/class_queue.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/zio.h"

namespace ziosim {
namespace {

constexpr int64_t kK = 1024;
constexpr int64_t kM = 1024 * 1024;
constexpr SimTime kBucketNs = SimTime{1} << 29;  // 0.537 s

using P = ZioPriority;

class FakeSink : public VdevQueueSink {
 public:
  void IssueToDevice(Zio* io) override { issued.push_back(io); }
  Zio* NewAggregate() override { return arena.New(); }

  ZioArena arena;
  std::vector<Zio*> issued;
};

class VdevQueueTest : public ::testing::Test {
 protected:
  VdevQueueTest() {
    // Pin every switch the tests rely on, whatever the fallbacks become.
    Set("ziosim_vdev_scheduler", "class");
    Set("ziosim_vdev_lba_last", "end");
    Set("ziosim_vdev_aggregate_sync_reads", "true");
    Set("ziosim_vdev_aggregate_cross_class", "true");
    Set("zfs_vdev_aggregation_limit", "1M");
    Set("zfs_vdev_aggregation_limit_non_rotating", "128K");
    Set("zfs_vdev_read_gap_limit", "32K");
    Set("zfs_vdev_max_active", "1000");
    Set("zfs_vdev_sync_read_min_active", "10");
    Set("zfs_vdev_sync_read_max_active", "10");
    Set("zfs_vdev_async_read_min_active", "1");
    Set("zfs_vdev_async_read_max_active", "3");
    Set("zfs_vdev_max_pending", "10");
    Set("zfs_vdev_min_pending", "4");
    Set("zfs_vdev_ramp_rate", "2");
    Set("zfs_vdev_time_shift", "29");
    Set("ziosim_vdev_time_unit_ns", "1");
  }

  void Set(const std::string& name, const std::string& value) { tunables_.Set(name, value, "test"); }

  void Make(bool rotational = true) { q_ = MakeVdevQueue(tunables_, rotational, &sink_); }

  Zio* NewZio(ZioType type, int64_t offset, int64_t size, P priority) {
    Zio* z = zios_.New();
    z->type = type;
    z->offset = offset;
    z->size = size;
    z->priority = priority;
    return z;
  }
  // A read arriving at `now`.
  Zio* Read(int64_t offset, int64_t size, P priority, SimTime now = 0) {
    Zio* z = NewZio(ZioType::kRead, offset, size, priority);
    q_->Add(z, now);
    return z;
  }
  // `n` 4K reads of class `p`, 10 MiB apart from `base`: never aggregated.
  std::vector<Zio*> Blockers(int n, P p, int64_t base = 1000 * kM) {
    std::vector<Zio*> out;
    for (int i = 0; i < n; ++i) out.push_back(Read(base + i * 10 * kM, 4 * kK, p));
    return out;
  }

  int Issued() const { return static_cast<int>(sink_.issued.size()); }
  Zio* IssuedAt(int i) const { return sink_.issued.at(static_cast<size_t>(i)); }
  std::vector<int64_t> IssuedOffsetsFrom(int first) const {
    std::vector<int64_t> out;
    for (size_t i = static_cast<size_t>(first); i < sink_.issued.size(); ++i) out.push_back(sink_.issued[i]->offset);
    return out;
  }
  ClassVdevQueue& class_queue() { return dynamic_cast<ClassVdevQueue&>(*q_); }

  // Completes the oldest issued I/O not yet completed.
  void CompleteNext(SimTime now = 0) {
    ASSERT_LT(done_, sink_.issued.size());
    q_->Done(sink_.issued[done_++], now);
  }

  Tunables tunables_;
  FakeSink sink_;
  ZioArena zios_;
  std::unique_ptr<VdevQueue> q_;
  size_t done_ = 0;  // completions hand back the issued I/Os in issue order
};

// ---------------------------------------------------------------- class era

TEST_F(VdevQueueTest, ClassLimitsTenSyncReadsAndThreePrefetchesInTheDevice) {
  Make();
  std::vector<Zio*> sync = Blockers(11, P::kSyncRead, 0);
  EXPECT_EQ(Issued(), 10);  // the 11th sync read waits
  Blockers(4, P::kAsyncRead, 500 * kM);
  EXPECT_EQ(Issued(), 13);
  EXPECT_EQ(class_queue().active(P::kSyncRead), 10);
  EXPECT_EQ(class_queue().active(P::kAsyncRead), 3);
  EXPECT_EQ(q_->active(), 13);
  EXPECT_EQ(q_->queued(), 2);
  EXPECT_EQ(class_queue().queued(P::kSyncRead), 1);
  EXPECT_EQ(class_queue().queued(P::kAsyncRead), 1);

  q_->Done(IssuedAt(0), 1000);  // a sync read completes: the waiting one goes, not the prefetch
  ASSERT_EQ(Issued(), 14);
  EXPECT_EQ(IssuedAt(13), sync[10]);
  EXPECT_EQ(class_queue().active(P::kAsyncRead), 3);
  EXPECT_EQ(q_->stats().issued_by_class[0], 11u);
  EXPECT_EQ(q_->stats().issued_by_class[2], 3u);
}

// OpenZFS 2.1's non-interactive credit (docs/scan.md C.4): the scrub class
// waits out 5 of its own completions before it gets its 3 slots, and while a
// demand read is in the device it gets one slot at most, for as long as its credit lasts.
TEST_F(VdevQueueTest, TheScrubClassYieldsToInteractiveIo) {
  Set("ziosim_vdev_nia", "true");
  Set("zfs_vdev_nia_delay", "5");
  Set("zfs_vdev_nia_credit", "5");
  Set("zfs_vdev_scrub_min_active", "1");
  Set("zfs_vdev_scrub_max_active", "3");
  Make();
  Blockers(20, P::kScrub, 0);
  EXPECT_EQ(class_queue().active(P::kScrub), 1);  // no credit yet: one at a time
  for (int i = 0; i < 5; ++i) CompleteNext();
  EXPECT_EQ(class_queue().active(P::kScrub), 3);  // five completions later: max_active
  // A demand read comes into the device (credit 1): the scrub I/Os in it finish, one more goes,
  // and that spends the credit.
  std::vector<Zio*> scrubs(sink_.issued.end() - 3, sink_.issued.end());
  Zio* demand = Blockers(1, P::kSyncRead, 900 * kM)[0];
  for (Zio* z : scrubs) q_->Done(z, 0);
  EXPECT_EQ(class_queue().active(P::kScrub), 1);
  q_->Done(sink_.issued.back(), 0);
  EXPECT_EQ(class_queue().active(P::kScrub), 0);
  q_->Done(demand, 0);  // no interactive I/O left: one at a time again
  EXPECT_EQ(class_queue().active(P::kScrub), 1);

  Set("ziosim_vdev_nia", "false");  // before 2.1: the class limits alone
  Make();
  const size_t before = sink_.issued.size();
  Blockers(20, P::kScrub, 4000 * kM);
  EXPECT_EQ(sink_.issued.size() - before, 3u);
}

TEST_F(VdevQueueTest, MinActivePassGivesPrefetchASlotWithSyncReadsQueued) {
  Make();
  Blockers(13, P::kSyncRead, 0);  // 10 in the device, 3 waiting
  ASSERT_EQ(Issued(), 10);
  Zio* prefetch = Read(900 * kM, 4 * kK, P::kAsyncRead);
  ASSERT_EQ(Issued(), 11);
  EXPECT_EQ(IssuedAt(10), prefetch);
}

TEST_F(VdevQueueTest, MinActivePassRanksAPrefetchBeforeOlderSyncReads) {
  Set("zfs_vdev_sync_read_min_active", "2");
  Set("zfs_vdev_max_active", "6");
  Make();
  Blockers(6, P::kSyncRead, 0);
  ASSERT_EQ(Issued(), 6);                                    // total cap reached
  Zio* late_sync = Read(200 * kM, 4 * kK, P::kSyncRead, 10);  // waits
  Zio* prefetch = Read(300 * kM, 4 * kK, P::kAsyncRead, 20);  // waits
  ASSERT_EQ(Issued(), 6);
  CompleteNext(30);  // one slot: pass 1 finds async_read under its min (0 < 1), sync_read over its (5 >= 2)
  ASSERT_EQ(Issued(), 7);
  EXPECT_EQ(IssuedAt(6), prefetch);
  CompleteNext(40);
  ASSERT_EQ(Issued(), 8);
  EXPECT_EQ(IssuedAt(7), late_sync);  // pass 2
}

TEST_F(VdevQueueTest, TotalMaxActiveStopsEveryClass) {
  Set("zfs_vdev_max_active", "4");
  Make();
  Blockers(3, P::kSyncRead, 0);
  Blockers(3, P::kAsyncRead, 500 * kM);
  EXPECT_EQ(Issued(), 4);
  EXPECT_EQ(q_->active(), 4);
  EXPECT_EQ(q_->queued(), 2);
}

TEST_F(VdevQueueTest, ArrivalIssuesOneCompletionIssuesAsManyAsAllowed) {
  Make();
  Blockers(3, P::kAsyncRead, 0);                      // async_read at its max (3)
  std::vector<Zio*> waiting = Blockers(3, P::kAsyncRead, 500 * kM);
  ASSERT_EQ(Issued(), 3);
  // Two waiting prefetches become demand reads: nothing is issued by the change itself.
  EXPECT_TRUE(q_->ChangePriority(waiting[0], P::kSyncRead));
  EXPECT_TRUE(q_->ChangePriority(waiting[1], P::kSyncRead));
  EXPECT_FALSE(q_->ChangePriority(IssuedAt(0), P::kSyncRead));  // in the device: keeps its class
  EXPECT_EQ(IssuedAt(0)->priority, P::kAsyncRead);
  ASSERT_EQ(Issued(), 3);
  // An arrival issues one I/O although two sync-read slots could be filled.
  Zio* arrival = Read(900 * kM, 4 * kK, P::kAsyncRead, 100);
  ASSERT_EQ(Issued(), 4);
  EXPECT_EQ(IssuedAt(3), waiting[0]);
  // A completion fills every slot it can: the other promoted read, then a prefetch.
  CompleteNext(200);
  ASSERT_EQ(Issued(), 6);
  EXPECT_EQ(IssuedAt(4), waiting[1]);
  EXPECT_EQ(IssuedAt(5), waiting[2]);
  EXPECT_EQ(q_->queued(), 1);
  EXPECT_EQ(class_queue().queued(P::kAsyncRead), 1);
  (void)arrival;
}

TEST_F(VdevQueueTest, SyncReadsAreFifo) {
  Set("zfs_vdev_sync_read_min_active", "1");
  Set("zfs_vdev_sync_read_max_active", "1");
  Make();
  const std::vector<int64_t> offsets = {50 * kM, 10 * kM, 90 * kM, 30 * kM, 70 * kM};
  SimTime t = 0;
  for (int64_t off : offsets) Read(off, 4 * kK, P::kSyncRead, t += 10);
  ASSERT_EQ(Issued(), 1);
  for (int i = 0; i < 4; ++i) CompleteNext(1000 + i);
  EXPECT_EQ(IssuedOffsetsFrom(0), offsets);
}

// Prefetch (async_read, max 1 here) of 4K reads far apart: the order after
// the first one (10M..10M+128K) depends on the era's `last`.
class LbaOrderTest : public VdevQueueTest {
 protected:
  std::vector<int64_t> Run(const std::string& lba_last) {
    Set("ziosim_vdev_lba_last", lba_last);
    Set("zfs_vdev_async_read_max_active", "1");
    Make();
    Read(10 * kM, 128 * kK, P::kAsyncRead, 0);  // in the device
    Read(10 * kM + 64 * kK, 4 * kK, P::kAsyncRead, 0);
    Read(20 * kM, 4 * kK, P::kAsyncRead, 0);
    Read(2 * kM, 4 * kK, P::kAsyncRead, 0);
    Read(10 * kM, 4 * kK, P::kAsyncRead, 0);  // same start as the one in the device
    for (int i = 0; i < 4; ++i) CompleteNext(100 + i);
    return IssuedOffsetsFrom(1);
  }
};

TEST_F(LbaOrderTest, StartContinuesAfterTheStartOfTheLastIo) {
  EXPECT_EQ(Run("start"), (std::vector<int64_t>{10 * kM + 64 * kK, 20 * kM, 2 * kM, 10 * kM}));
  EXPECT_EQ(q_->last_issued_end(), 10 * kM + 4 * kK);
}

TEST_F(LbaOrderTest, EndContinuesFromTheEndOfTheLastIo) {
  EXPECT_EQ(Run("end"), (std::vector<int64_t>{20 * kM, 2 * kM, 10 * kM, 10 * kM + 64 * kK}));
}

TEST_F(VdevQueueTest, BucketServesTheOldestArrivalBucketFirst) {
  for (const char* variant : {"bucket", "end"}) {
    SCOPED_TRACE(variant);
    sink_.issued.clear();
    done_ = 0;
    Set("ziosim_vdev_lba_last", variant);
    Set("zfs_vdev_async_read_max_active", "1");
    Make();
    Read(10 * kM, 128 * kK, P::kAsyncRead, 0);  // in the device
    Read(1 * kM, 4 * kK, P::kAsyncRead, 1);     // bucket 0
    Read(15 * kM, 4 * kK, P::kAsyncRead, 2);
    Read(5 * kM, 4 * kK, P::kAsyncRead, 3);
    Read(12 * kM, 4 * kK, P::kAsyncRead, kBucketNs + 1);  // bucket 1
    Read(11 * kM, 4 * kK, P::kAsyncRead, kBucketNs + 2);
    for (int i = 0; i < 5; ++i) CompleteNext(2 * kBucketNs + i);
    if (std::string(variant) == "bucket") {
      EXPECT_EQ(IssuedOffsetsFrom(1), (std::vector<int64_t>{15 * kM, 1 * kM, 5 * kM, 11 * kM, 12 * kM}));
    } else {
      EXPECT_EQ(IssuedOffsetsFrom(1), (std::vector<int64_t>{11 * kM, 12 * kM, 15 * kM, 1 * kM, 5 * kM}));
    }
  }
}

TEST_F(VdevQueueTest, LastIsSharedByAllClasses) {
  Set("ziosim_vdev_lba_last", "end");
  Set("zfs_vdev_async_read_max_active", "1");
  Make();
  Read(0, 4 * kK, P::kAsyncRead);               // in the device
  Read(1 * kM, 4 * kK, P::kAsyncRead);          // waits
  Read(30 * kM, 4 * kK, P::kAsyncRead);         // waits
  Read(20 * kM, 128 * kK, P::kSyncRead, 5);     // issued at once: last = 20M + 128K
  ASSERT_EQ(Issued(), 2);
  q_->Done(IssuedAt(0), 10);
  ASSERT_EQ(Issued(), 3);
  EXPECT_EQ(IssuedAt(2)->offset, 30 * kM);  // continues after the sync read, not after 4K
}

TEST_F(VdevQueueTest, LastIssuedEnd) {
  Make();
  EXPECT_EQ(q_->last_issued_end(), -1);
  Read(7 * kM, 8 * kK, P::kSyncRead);
  EXPECT_EQ(q_->last_issued_end(), 7 * kM + 8 * kK);
}

// ---------------------------------------------------------------- aggregation

// Queues `n` adjacent (or `gap`-separated) prefetch reads of `size` behind
// three prefetches in the device, then completes one: returns the I/O issued.
class AggregationTest : public VdevQueueTest {
 protected:
  Zio* QueueRunAndRelease(int n, int64_t size, int64_t gap = 0, P p = P::kAsyncRead) {
    Blockers(3, P::kAsyncRead, 5000 * kM);
    if (p == P::kSyncRead) Blockers(10, P::kSyncRead, 6000 * kM);
    const int before = Issued();
    int64_t off = 0;
    for (int i = 0; i < n; ++i, off += size + gap) run_.push_back(Read(off, size, p, 10));
    EXPECT_EQ(Issued(), before);
    const size_t first_done = p == P::kSyncRead ? 3 : 0;  // a blocker of the same class
    q_->Done(sink_.issued[first_done], 100);
    EXPECT_EQ(Issued(), before + 1);
    return sink_.issued.back();
  }
  std::vector<Zio*> run_;
};

TEST_F(AggregationTest, AdjacentReadsMergeUpToOneMiBOnRotatingMedia) {
  Make(/*rotational=*/true);
  Zio* agg = QueueRunAndRelease(80, 16 * kK);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->offset, 0);
  EXPECT_EQ(agg->size, 1 * kM);
  EXPECT_EQ(agg->agg_count, 64);
  EXPECT_EQ(agg->priority, P::kAsyncRead);
  EXPECT_EQ(agg->type, ZioType::kRead);
  // Constituents linked in offset order.
  int n = 0;
  for (Zio* z = agg->agg_head; z != nullptr; z = z->agg_next) EXPECT_EQ(z, run_[static_cast<size_t>(n++)]);
  EXPECT_EQ(n, 64);
  EXPECT_EQ(q_->queued(), 16);
  EXPECT_EQ(q_->stats().aggregated, 1u);
  EXPECT_EQ(q_->stats().aggregated_zios, 64u);
  EXPECT_EQ(q_->stats().gap_bytes, 0);
  EXPECT_EQ(q_->last_issued_end(), 1 * kM);
}

TEST_F(AggregationTest, NonRotatingLimitIs128K) {
  Make(/*rotational=*/false);
  Zio* agg = QueueRunAndRelease(20, 16 * kK);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->size, 128 * kK);
  EXPECT_EQ(agg->agg_count, 8);
}

TEST_F(AggregationTest, OldEraLimit128KOnRotatingMedia) {
  Set("zfs_vdev_aggregation_limit", "128K");
  Make(/*rotational=*/true);
  Zio* agg = QueueRunAndRelease(20, 16 * kK);
  EXPECT_EQ(agg->size, 128 * kK);
}

TEST_F(AggregationTest, ARecordAtTheLimitIsNeverMerged) {
  Set("zfs_vdev_aggregation_limit", "128K");
  Make();
  Zio* io = QueueRunAndRelease(4, 128 * kK);
  EXPECT_FALSE(io->is_aggregate());
  EXPECT_EQ(io, run_[0]);
}

TEST_F(AggregationTest, GapUpTo32KIsBridgedAndCounted) {
  Make();
  Zio* agg = QueueRunAndRelease(4, 16 * kK, 32 * kK);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->agg_count, 4);
  EXPECT_EQ(agg->size, 4 * 16 * kK + 3 * 32 * kK);
  EXPECT_EQ(q_->stats().gap_bytes, 3 * 32 * kK);
}

TEST_F(AggregationTest, GapOver32KSplits) {
  Make();
  Zio* io = QueueRunAndRelease(4, 16 * kK, 32 * kK + 512);
  EXPECT_FALSE(io->is_aggregate());
  EXPECT_EQ(q_->stats().aggregated, 0u);
}

TEST_F(AggregationTest, BackwardAndForwardFromTheChosenZio) {
  Set("ziosim_vdev_lba_last", "end");
  Set("zfs_vdev_async_read_max_active", "1");
  Make();
  Read(64 * kK, 4 * kK, P::kAsyncRead);  // in the device; last = 68K
  for (int64_t off = 0; off < 256 * kK; off += 16 * kK) {
    if (off != 64 * kK) Read(off, 16 * kK, P::kAsyncRead);
  }
  CompleteNext(10);
  Zio* agg = sink_.issued.back();
  // Chosen: 80K (first offset >= 68K). Backwards, 48K..64K ends 16K before
  // it (a bridgeable gap), then 0..48K is contiguous; forwards to 256K.
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->offset, 0);
  EXPECT_EQ(agg->size, 256 * kK);
  EXPECT_EQ(agg->agg_count, 15);
  EXPECT_EQ(q_->stats().gap_bytes, 16 * kK);
}

TEST_F(AggregationTest, OverlappingNeighboursDoNotMerge) {
  Make();
  Blockers(3, P::kAsyncRead, 5000 * kM);
  Read(0, 16 * kK, P::kAsyncRead);
  Read(8 * kK, 16 * kK, P::kAsyncRead);
  CompleteNext();
  EXPECT_FALSE(sink_.issued.back()->is_aggregate());
}

TEST_F(AggregationTest, SyncReadsMergeWhenAllowed) {
  Make();
  Zio* agg = QueueRunAndRelease(4, 16 * kK, 0, P::kSyncRead);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->agg_count, 4);
  EXPECT_EQ(agg->priority, P::kSyncRead);
}

TEST_F(AggregationTest, SyncReadsNeverMergeIn4045) {
  Set("ziosim_vdev_aggregate_sync_reads", "false");
  Set("ziosim_vdev_aggregate_cross_class", "false");
  Make();
  Zio* io = QueueRunAndRelease(4, 16 * kK, 0, P::kSyncRead);
  EXPECT_FALSE(io->is_aggregate());
  EXPECT_EQ(io, run_[0]);
  EXPECT_EQ(q_->stats().aggregated, 0u);
}

TEST_F(AggregationTest, PrefetchesStillMergeIn4045) {
  Set("ziosim_vdev_aggregate_sync_reads", "false");
  Set("ziosim_vdev_aggregate_cross_class", "false");
  Make();
  Zio* agg = QueueRunAndRelease(4, 16 * kK);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->agg_count, 4);
}

// A demand read at 0..128K with a prefetch right after it, both waiting;
// then a demand-read slot frees.
class CrossClassTest : public VdevQueueTest {
 protected:
  void Run() {
    Make();
    Blockers(10, P::kSyncRead, 5000 * kM);
    Blockers(3, P::kAsyncRead, 6000 * kM);
    demand_ = Read(0, 128 * kK, P::kSyncRead, 10);
    prefetch_ = Read(128 * kK, 128 * kK, P::kAsyncRead, 10);
    ASSERT_EQ(Issued(), 13);
    q_->Done(IssuedAt(0), 100);
    ASSERT_EQ(Issued(), 14);
  }
  Zio* demand_ = nullptr;
  Zio* prefetch_ = nullptr;
};

TEST_F(CrossClassTest, Illumos5313MergesAcrossClasses) {
  Run();
  Zio* agg = IssuedAt(13);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->agg_head, demand_);
  EXPECT_EQ(demand_->agg_next, prefetch_);
  EXPECT_EQ(agg->priority, P::kSyncRead);  // the chosen zio's class
  EXPECT_EQ(class_queue().active(P::kSyncRead), 10);
  EXPECT_EQ(class_queue().active(P::kAsyncRead), 3);
  EXPECT_EQ(q_->queued(), 0);
}

TEST_F(CrossClassTest, PerClassAggregationLeavesThePrefetchQueued) {
  Set("ziosim_vdev_aggregate_cross_class", "false");
  Run();
  EXPECT_EQ(IssuedAt(13), demand_);
  EXPECT_EQ(class_queue().queued(P::kAsyncRead), 1);
}

TEST_F(CrossClassTest, PerClassAggregationSkipsOtherClassesBetween) {
  // 4045: the async tree does not hold the sync read between two prefetches,
  // so the prefetches merge across it (its bytes read as a gap).
  Set("ziosim_vdev_aggregate_cross_class", "false");
  Set("zfs_vdev_async_read_max_active", "1");
  Make();
  Read(900 * kM, 4 * kK, P::kAsyncRead);  // in the device
  Blockers(10, P::kSyncRead, 5000 * kM);
  Zio* a = Read(0, 16 * kK, P::kAsyncRead);
  Zio* s = Read(16 * kK, 16 * kK, P::kSyncRead);  // waits: sync reads at max
  Zio* b = Read(32 * kK, 16 * kK, P::kAsyncRead);
  q_->Done(IssuedAt(0), 10);
  Zio* agg = sink_.issued.back();
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->agg_head, a);
  EXPECT_EQ(a->agg_next, b);
  EXPECT_EQ(agg->size, 48 * kK);
  EXPECT_EQ(q_->stats().gap_bytes, 16 * kK);
  EXPECT_EQ(class_queue().queued(P::kSyncRead), 1);
  (void)s;
}

TEST_F(VdevQueueTest, ScrubNeverMergesWithNormalReads) {
  Set("zfs_vdev_scrub_max_active", "1");
  Set("zfs_vdev_scrub_min_active", "1");
  Make();
  Read(900 * kM, 4 * kK, P::kScrub);  // in the device
  Zio* scrub = Read(0, 16 * kK, P::kScrub);
  Blockers(3, P::kAsyncRead, 5000 * kM);
  Read(16 * kK, 16 * kK, P::kAsyncRead);  // waits
  q_->Done(IssuedAt(0), 10);
  EXPECT_EQ(sink_.issued.back(), scrub);
}

TEST_F(AggregationTest, AnAggregateTakesOneActiveSlot) {
  Make();
  Zio* agg = QueueRunAndRelease(8, 16 * kK);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(class_queue().active(P::kAsyncRead), 3);  // two blockers + the aggregate
  EXPECT_EQ(q_->active(), 3);
  Zio* late = Read(700 * kM, 4 * kK, P::kAsyncRead, 200);
  EXPECT_EQ(sink_.issued.back(), agg);  // async_read is at its max
  q_->Done(agg, 300);
  EXPECT_EQ(sink_.issued.back(), late);
  EXPECT_EQ(q_->stats().issued, 5u);  // 3 blockers, the aggregate, the late one
}

// ---------------------------------------------------------------- deadline era

class DeadlineTest : public VdevQueueTest {
 protected:
  DeadlineTest() { Set("ziosim_vdev_scheduler", "deadline"); }
};

TEST_F(DeadlineTest, ArrivalIssuesWhileUnderMinPending) {
  Make();
  Blockers(10, P::kSyncRead, 0);
  EXPECT_EQ(Issued(), 4);
  EXPECT_EQ(q_->active(), 4);
  EXPECT_EQ(q_->queued(), 6);
}

TEST_F(DeadlineTest, CompletionRampsByTwoUpToMaxPending) {
  Make();
  Blockers(30, P::kSyncRead, 0);
  ASSERT_EQ(q_->active(), 4);
  std::vector<int> active;
  for (int i = 0; i < 8; ++i) {
    CompleteNext(100 + i);
    active.push_back(q_->active());
  }
  EXPECT_EQ(active, (std::vector<int>{5, 6, 7, 8, 9, 10, 10, 10}));
  // Once past min_pending, arrivals wait.
  Read(9000 * kM, 4 * kK, P::kSyncRead, 200);
  EXPECT_EQ(q_->active(), 10);
}

TEST_F(DeadlineTest, PrefetchRanksAfterAsyncWritesInTheSameBucket) {
  Make();
  Blockers(4, P::kSyncRead, 5000 * kM);
  Zio* prefetch = Read(1 * kM, 4 * kK, P::kAsyncRead, 1);
  Zio* write = NewZio(ZioType::kWrite, 50 * kM, 4 * kK, P::kAsyncWrite);
  q_->Add(write, 2);
  Zio* demand = Read(90 * kM, 4 * kK, P::kSyncRead, 3);
  ASSERT_EQ(Issued(), 4);
  CompleteNext(10);  // ramp: two issues
  ASSERT_EQ(Issued(), 6);
  EXPECT_EQ(IssuedAt(4), demand);
  EXPECT_EQ(IssuedAt(5), write);
  CompleteNext(11);
  EXPECT_EQ(IssuedAt(6), prefetch);
  EXPECT_EQ(q_->stats().issued_by_class[static_cast<int>(P::kAsyncWrite)], 1u);
}

TEST_F(DeadlineTest, OldPrefetchOvertakesNewerAsyncWrites) {
  Make();
  Blockers(4, P::kSyncRead, 5000 * kM);
  Zio* prefetch = Read(1 * kM, 4 * kK, P::kAsyncRead, 0);                   // deadline 6
  Zio* write = NewZio(ZioType::kWrite, 50 * kM, 4 * kK, P::kAsyncWrite);
  q_->Add(write, 3 * kBucketNs);                                            // deadline 7
  CompleteNext(3 * kBucketNs + 1);
  ASSERT_EQ(Issued(), 6);
  EXPECT_EQ(IssuedAt(4), prefetch);
  EXPECT_EQ(IssuedAt(5), write);
}

TEST_F(DeadlineTest, TickClockBuckets) {
  // FreeBSD hz=1000 with time_shift 6: 64 ms buckets.
  Set("ziosim_vdev_time_unit_ns", "1000000");
  Set("zfs_vdev_time_shift", "6");
  Make();
  Blockers(4, P::kSyncRead, 5000 * kM);
  Zio* prefetch = Read(1 * kM, 4 * kK, P::kAsyncRead, 0);                   // 0 + 6
  Zio* write = NewZio(ZioType::kWrite, 50 * kM, 4 * kK, P::kAsyncWrite);
  q_->Add(write, 65 * kNsPerMs);                                            // 1 + 4
  CompleteNext(70 * kNsPerMs);
  ASSERT_EQ(Issued(), 6);
  EXPECT_EQ(IssuedAt(4), write);
  EXPECT_EQ(IssuedAt(5), prefetch);
}

TEST_F(DeadlineTest, LowestOffsetFirstInsideABucket) {
  Make();
  Blockers(4, P::kSyncRead, 5000 * kM);
  for (int64_t off : {50 * kM, 10 * kM, 90 * kM, 30 * kM, 70 * kM}) Read(off, 4 * kK, P::kSyncRead, 5);
  for (int i = 0; i < 4; ++i) CompleteNext(10 + i);
  // Issued after the blockers: ramp 2, then 2 more (limit max_pending), then 1.
  EXPECT_EQ(IssuedOffsetsFrom(4), (std::vector<int64_t>{10 * kM, 30 * kM, 50 * kM, 70 * kM, 90 * kM}));
  EXPECT_EQ(q_->last_issued_end(), 90 * kM + 4 * kK);
}

TEST_F(DeadlineTest, AggregatesAcrossPrioritiesOfOneType) {
  // Era 1 merges demand and prefetch reads (and ignores the era-2 switches).
  Set("ziosim_vdev_aggregate_sync_reads", "false");
  Set("ziosim_vdev_aggregate_cross_class", "false");
  Set("zfs_vdev_aggregation_limit", "128K");
  Make();
  Blockers(4, P::kSyncRead, 5000 * kM);
  Zio* prefetch = Read(0, 64 * kK, P::kAsyncRead, 1);
  Zio* demand = Read(64 * kK + 16 * kK, 32 * kK, P::kSyncRead, 2);
  Read(112 * kK, 64 * kK, P::kSyncRead, 3);  // past 128K from 0: stays
  CompleteNext(10);
  Zio* agg = IssuedAt(4);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->agg_head, prefetch);
  EXPECT_EQ(prefetch->agg_next, demand);
  EXPECT_EQ(agg->size, 112 * kK);
  EXPECT_EQ(agg->priority, P::kSyncRead);  // the chosen (first by deadline) zio's
  EXPECT_EQ(q_->stats().gap_bytes, 16 * kK);
  ASSERT_EQ(Issued(), 6);  // the ramp's second issue
  EXPECT_EQ(IssuedAt(5)->offset, 112 * kK);
  EXPECT_EQ(q_->last_issued_end(), 176 * kK);
}

TEST_F(DeadlineTest, WritesMergeOnlyWhenAdjacent) {
  Make();
  Blockers(4, P::kSyncRead, 5000 * kM);
  for (int64_t off : {0 * kK, 16 * kK, 36 * kK}) q_->Add(NewZio(ZioType::kWrite, off, 16 * kK, P::kAsyncWrite), 1);
  CompleteNext(10);
  Zio* agg = IssuedAt(4);
  ASSERT_TRUE(agg->is_aggregate());
  EXPECT_EQ(agg->type, ZioType::kWrite);
  EXPECT_EQ(agg->size, 32 * kK);
  EXPECT_EQ(IssuedAt(5)->offset, 36 * kK);
}

TEST_F(DeadlineTest, ChangePriorityReordersAQueuedZio) {
  Make();
  Blockers(4, P::kSyncRead, 5000 * kM);
  Zio* write = NewZio(ZioType::kWrite, 50 * kM, 4 * kK, P::kAsyncWrite);
  q_->Add(write, 1);
  Zio* prefetch = Read(1 * kM, 4 * kK, P::kAsyncRead, 2);
  EXPECT_TRUE(q_->ChangePriority(prefetch, P::kSyncRead));
  CompleteNext(10);
  ASSERT_EQ(Issued(), 6);
  EXPECT_EQ(IssuedAt(4), prefetch);
  EXPECT_EQ(IssuedAt(5), write);
}

TEST_F(VdevQueueTest, CompletionWithoutIssueIsAnError) {
  Make();
  Zio* z = NewZio(ZioType::kRead, 0, 4 * kK, P::kSyncRead);
  EXPECT_THROW(q_->Done(z, 0), std::logic_error);
}

}  // namespace
}  // namespace ziosim
