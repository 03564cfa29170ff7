// The run invariants: each check is provoked by a fake that breaks it (a
// device that completes a command twice, a queue past its limits, a pool left
// with a zio in flight) and must name the culprit; real runs must pass them.
#include "sim/core/invariants.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/zfs/vdev/queue/vdev_queue.h"
#include "sim/stats/run_check.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/zio.h"

namespace ziosim {
namespace {

// The message `fn` throws as InternalError, or "" if it throws nothing.
template <typename Fn>
std::string InternalErrorOf(Fn fn) {
  try {
    fn();
  } catch (const InternalError& e) {
    return e.what();
  }
  return "";
}

// Schedule() refuses the past, so a run cannot provoke this: the check itself is tested.
TEST(InvariantsTest, TimeGoingBackwardsIsAnInternalError) {
  EXPECT_EQ(InternalErrorOf([] { CheckClockForward(-5); }),
            "simulated time went backwards (an event ran 5 ns before the clock's time)");
  EXPECT_EQ(InternalErrorOf([] { CheckClockForward(0); }), "");
}

TEST(InvariantsTest, SchedulingInThePastIsAnInternalError) {
  struct Noop : EventHandler {
    void OnEvent(uint32_t, uint64_t) override {}
  } noop;
  Simulation sim;
  sim.Schedule(50, &noop, 0);
  sim.Run();
  EXPECT_EQ(InternalErrorOf([&] { sim.Schedule(49, &noop, 0); }),
            "event scheduled in the past (49 ns < now 50 ns)");
}

TEST(InvariantsTest, CompletionsAndBytesMustMatch) {
  EXPECT_EQ(InternalErrorOf([] { CheckCompletedOnce("replay: d0: trace requests", 3, 4); }),
            "replay: d0: trace requests: 3 issued but 4 completed (each must complete exactly once)");
  EXPECT_EQ(InternalErrorOf([] { CheckBytesDelivered("reader 2", 4096, 0); }),
            "reader 2: 4096 bytes asked but 0 delivered");
  EXPECT_EQ(InternalErrorOf([] { CheckCompletedOnce("x", 7, 7); }), "");
  EXPECT_EQ(InternalErrorOf([] { CheckBytesDelivered("x", 7, 7); }), "");
}

// A device whose faults the test chooses: it completes commands whenever told,
// as often as told, and admits more than its queue depth if asked to.
class FakeDevice : public Device {
 public:
  explicit FakeDevice(Simulation* sim) : Device(sim, "fake0") {}
  bool is_rotational() const override { return true; }
  int64_t capacity_bytes() const override { return int64_t{1} << 30; }
  int queue_depth() const override { return 2; }
  int in_device() const override { return in_device_; }
  void Submit(const DeviceRequest&) override { stats_.OnEnter(sim_->now(), ++in_device_); }
  void Complete() {
    if (in_device_ > 0) --in_device_;
    stats_.OnLeave(sim_->now(), in_device_, false, 4096, 10);
  }
  void OnEvent(uint32_t, uint64_t) override { Complete(); }

 private:
  int in_device_ = 0;
};

TEST(InvariantsTest, DeviceThatCompletesACommandTwiceIsCaught) {
  Simulation sim;
  FakeDevice dev(&sim);
  dev.Submit(DeviceRequest{0, 0, 4096});
  sim.Schedule(10, &dev, 0);
  sim.Schedule(20, &dev, 0);  // the same command again
  sim.Run();
  dev.FinishStats(sim.now());
  EXPECT_EQ(InternalErrorOf([&] { CheckDeviceAccounting(dev, sim.now()); }),
            "fake0: 1 commands submitted but 2 completed and 0 inside (each must complete exactly once)");
}

TEST(InvariantsTest, DeviceStillHoldingACommandIsNotDoubleCounted) {
  Simulation sim;
  FakeDevice dev(&sim);
  dev.Submit(DeviceRequest{0, 0, 4096});
  dev.Submit(DeviceRequest{1, 4096, 4096});
  sim.Schedule(10, &dev, 0);
  sim.Run();
  dev.FinishStats(sim.now());
  EXPECT_EQ(InternalErrorOf([&] { CheckDeviceAccounting(dev, sim.now()); }), "");
}

TEST(InvariantsTest, DeviceBusyLongerThanTheRunIsCaught) {
  Simulation sim;
  FakeDevice dev(&sim);
  dev.Submit(DeviceRequest{0, 0, 4096});
  sim.Schedule(1000, &dev, 0);
  sim.Run();
  dev.FinishStats(sim.now());
  EXPECT_EQ(InternalErrorOf([&] { CheckDeviceAccounting(dev, 999); }),
            "fake0: busy 1000 ns, longer than the 999 ns elapsed");
  EXPECT_EQ(InternalErrorOf([&] { CheckDeviceAccounting(dev, 1000); }), "");
}

TEST(InvariantsTest, DeviceHoldingMoreThanItsQueueDepthIsCaught) {
  Simulation sim;
  FakeDevice dev(&sim);
  for (int i = 0; i < 3; ++i) dev.Submit(DeviceRequest{0, 0, 4096});
  for (int i = 0; i < 3; ++i) sim.Schedule(10, &dev, 0);
  sim.Run();
  dev.FinishStats(sim.now());
  EXPECT_EQ(InternalErrorOf([&] { CheckDeviceAccounting(dev, sim.now()); }),
            "fake0: held 3 commands at once, above its queue depth 2");
}

TEST(InvariantsTest, ResetStatsCarriesCommandsInFlightIntoTheNewWindow) {
  Simulation sim;
  FakeDevice dev(&sim);
  dev.Submit(DeviceRequest{0, 0, 4096});
  dev.ResetStats(0);
  sim.Schedule(10, &dev, 0);
  sim.Run();
  dev.FinishStats(sim.now());
  EXPECT_EQ(dev.stats().submitted(), 1u);
  EXPECT_EQ(InternalErrorOf([&] { CheckDeviceAccounting(dev, sim.now()); }), "");
}

// A queue that reports whatever high-water marks the test gives it.
class FakeQueue : public VdevQueue {
 public:
  void Add(Zio*, SimTime) override {}
  void Done(Zio*, SimTime) override {}
  bool ChangePriority(Zio*, ZioPriority) override { return false; }
  int queued() const override { return queued_; }
  int active() const override { return 0; }
  int64_t last_issued_end() const override { return -1; }
  int active_limit() const override { return 4; }
  int active_limit(ZioPriority) const override { return 3; }
  void Issue(ZioPriority p, int class_active, int total_active) {
    CountIssue(static_cast<int>(p), class_active, total_active);
  }
  int queued_ = 0;
};

TEST(InvariantsTest, QueuePastItsLimitsIsCaught) {
  FakeQueue q;
  q.Issue(ZioPriority::kSyncRead, 3, 4);
  EXPECT_EQ(InternalErrorOf([&] { CheckQueueLimits("d1", q); }), "");
  q.Issue(ZioPriority::kAsyncRead, 4, 4);
  EXPECT_EQ(InternalErrorOf([&] { CheckQueueLimits("d1", q); }),
            "d1: vdev queue had 4 async_read I/Os active, above the class limit 3");
  q.Issue(ZioPriority::kSyncRead, 1, 5);
  EXPECT_EQ(InternalErrorOf([&] { CheckQueueLimits("d1", q); }),
            "d1: vdev queue had 5 I/Os active, above its limit 4");
}

TEST(InvariantsTest, QueueLeftHoldingZiosIsCaught) {
  FakeQueue q;
  q.queued_ = 2;
  EXPECT_EQ(InternalErrorOf([&] { CheckQueueLimits("d1", q); }),
            "d1: vdev queue still holds 2 queued and 0 active I/Os at the end of the run");
}

class Listener : public ZioDoneListener {
 public:
  void OnZioDone(Zio*) override { ++done; }
  int done = 0;
};

TEST(InvariantsTest, PoolWithAZioInFlightIsCaughtAndPassesOnceItLands) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("raidz1 wd-re4-1tb wd-re4-1tb wd-re4-1tb"), ProfileTunables("openzfs-2.2"), /*seed=*/1);
  Listener listener;
  pool.Read(0, 0, 128 << 10, ZioPriority::kSyncRead, &listener, 0);
  ASSERT_GT(pool.live_zios(), 0);
  EXPECT_EQ(InternalErrorOf([&] { CheckPoolQuiescent(pool, sim.now()); }),
            "pool: " + std::to_string(pool.live_zios()) + " zios still live at the end of the run");
  sim.Run();
  pool.SettleStats();
  EXPECT_EQ(listener.done, 1);
  EXPECT_EQ(InternalErrorOf([&] { CheckPoolQuiescent(pool, sim.now()); }), "");
}

// The real class scheduler records its high-water marks: 20 sync reads far
// apart fill exactly the sync_read window (min = max = 10), no more.
TEST(InvariantsTest, ClassQueueRecordsItsHighWaterMarks) {
  struct Sink : VdevQueueSink {
    void IssueToDevice(Zio*) override {}
    Zio* NewAggregate() override { return arena.New(); }
    ZioArena arena;
  } sink;
  Tunables t = ProfileTunables("openzfs-2.2");
  t.Set("ziosim_vdev_scheduler", "class", "test");
  t.Set("zfs_vdev_sync_read_min_active", "10", "test");
  t.Set("zfs_vdev_sync_read_max_active", "10", "test");
  std::unique_ptr<VdevQueue> q = MakeVdevQueue(t, true, &sink);
  ZioArena zios;
  for (int i = 0; i < 20; ++i) {
    Zio* z = zios.New();
    z->type = ZioType::kRead;
    z->priority = ZioPriority::kSyncRead;
    z->offset = int64_t{i} * (64 << 20);
    z->size = 4096;
    q->Add(z, 0);
  }
  EXPECT_EQ(q->stats().max_active_by_class[static_cast<int>(ZioPriority::kSyncRead)], 10);
  EXPECT_EQ(q->stats().max_active, 10);
  EXPECT_EQ(q->active_limit(ZioPriority::kSyncRead), 10);
}

}  // namespace
}  // namespace ziosim
