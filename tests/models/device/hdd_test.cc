#include "models/device/hdd.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>
#include <optional>
#include <vector>

#include "sim/core/random.h"

namespace ziosim {
namespace {

// A toy drive whose arithmetic is easy to follow by hand: 6000 rpm (10 ms per
// turn), 100 sectors per track (100 us each), no skew, a 1 ms seek for any
// distance, 10 us per block on the bus and no firmware overheads.
HddParams ToyDrive() {
  HddParams p;
  p.name = "toy";
  p.source = "hdd_test";
  p.layout.surfaces = 2;
  p.layout.cylinders = 100;
  HddZone z;
  z.first_cylinder = 0;
  z.last_cylinder = 99;
  z.sectors_per_track = 100;
  p.layout.zones.push_back(z);
  p.mechanics.rpm = 6000;
  p.mechanics.seek.kind = HddSeekModel::Kind::kTable;
  p.mechanics.seek.table = {{1, MsToNs(1.0)}, {100, MsToNs(1.0)}};
  p.mechanics.head_switch_ns = MsToNs(0.5);
  p.interface.bus_read_block_ns = MsToNs(0.01);
  p.interface.bus_write_block_ns = MsToNs(0.01);
  p.cache.segments = 4;
  p.cache.segment_blocks = 200;
  p.cache.read_ahead_scheme = 3;
  p.cache.max_read_ahead_blocks = 100;
  return p;
}

// Submits requests at given times and records each completion time.
class Driver : public DeviceListener, public EventHandler {
 public:
  Driver(Simulation* sim, Device* dev) : sim_(sim), dev_(dev) { dev_->set_listener(this); }
  void ReadAt(SimTime at, int64_t lbn, int64_t blocks) { SubmitAt(at, lbn, blocks, IoOp::kRead); }
  void WriteAt(SimTime at, int64_t lbn, int64_t blocks) { SubmitAt(at, lbn, blocks, IoOp::kWrite); }
  void SubmitAt(SimTime at, int64_t lbn, int64_t blocks, IoOp op) {
    reqs_.push_back(DeviceRequest{reqs_.size(), lbn * 512, blocks * 512, op});
    sim_->Schedule(at, this, 0, reqs_.size() - 1);
  }
  void OnEvent(uint32_t, uint64_t arg) override { dev_->Submit(reqs_[arg]); }
  void OnDeviceDone(const DeviceRequest& req, SimTime submitted, SimTime done) override {
    service.resize(reqs_.size());
    service[req.tag] = done - submitted;
    outcome.resize(reqs_.size());
    outcome[req.tag] = static_cast<HddDevice*>(dev_)->last_breakdown().cache;
  }
  std::vector<SimTime> service;
  std::vector<HddBreakdown::CacheOutcome> outcome;

 private:
  Simulation* sim_;
  Device* dev_;
  std::vector<DeviceRequest> reqs_;
};

// A drive of `p` (FIFO) with a driver: submit through run.drv, then run.sim.Run().
struct ToyRun {
  explicit ToyRun(const HddParams& p) : disk(&sim, "d0", p), drv(&sim, &disk) {}
  Simulation sim;
  HddDevice disk;
  Driver drv;
};

TEST(HddDeviceTest, RotationalLatencyFollowsThePlatterAngle) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ToyDrive());
  Driver drv(&sim, &disk);
  // At t=0 the platter is at angle 0: sector 50 arrives after half a turn.
  drv.ReadAt(0, 50, 1);
  sim.Run();
  EXPECT_EQ(drv.service[0], MsToNs(5.0 + 0.1 + 0.01));
  EXPECT_EQ(disk.last_breakdown().latency_ns, MsToNs(5.0));
}

// A spindle that starts a fifth of a turn on is a fifth of a turn (2 ms) closer
// to sector 50 at t=0; one three quarters on has passed it and waits 7.5 ms.
TEST(HddDeviceTest, SpindlePhaseTurnsThePlatterAtTimeZero) {
  for (auto [phase, latency_ms] : {std::pair{0.2, 3.0}, std::pair{0.75, 7.5}}) {
    Simulation sim;
    HddDevice disk(&sim, "d0", ToyDrive(), QueuePolicy::kFifo, phase);
    Driver drv(&sim, &disk);
    drv.ReadAt(0, 50, 1);
    sim.Run();
    EXPECT_EQ(disk.last_breakdown().latency_ns, MsToNs(latency_ms)) << phase;
    EXPECT_EQ(drv.service[0], MsToNs(latency_ms + 0.1 + 0.01)) << phase;
  }
  Simulation sim;
  EXPECT_THROW(HddDevice(&sim, "d0", ToyDrive(), QueuePolicy::kFifo, 1.0), std::logic_error);
}

TEST(HddDeviceTest, LatencyDependsOnArrivalTime) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ToyDrive());
  Driver drv(&sim, &disk);
  // Sector 0 of a track 100 cylinders away is... the arm is on cylinder 0;
  // LBN 230 is cylinder 1, head 0, sector 30: a 1 ms seek from t=2 ms ends at
  // angle 0.3, exactly when sector 30 starts.
  drv.ReadAt(MsToNs(2.0), 230, 1);
  sim.Run();
  EXPECT_EQ(disk.last_breakdown().seek_ns, MsToNs(1.0));
  EXPECT_EQ(disk.last_breakdown().latency_ns, 0);
  EXPECT_EQ(drv.service[0], MsToNs(1.0 + 0.1 + 0.01));
}

TEST(HddDeviceTest, HeadSwitchCostsTheSwitchTime) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ToyDrive());
  Driver drv(&sim, &disk);
  drv.ReadAt(0, 100 + 10, 1);  // same cylinder, head 1, sector 10
  sim.Run();
  EXPECT_EQ(disk.last_breakdown().seek_ns, MsToNs(0.5));
  EXPECT_EQ(disk.last_breakdown().latency_ns, MsToNs(0.5));  // sector 10 starts at 1 ms
}

TEST(HddDeviceTest, SequentialReadsHitTheReadAheadBuffer) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ToyDrive());
  Driver drv(&sim, &disk);
  drv.ReadAt(0, 0, 8);
  drv.ReadAt(MsToNs(20), 8, 8);   // read-ahead has long reached it
  drv.ReadAt(MsToNs(40), 500, 8); // elsewhere: a miss
  sim.Run();
  EXPECT_EQ(drv.outcome[0], HddBreakdown::CacheOutcome::kMiss);
  EXPECT_EQ(drv.outcome[1], HddBreakdown::CacheOutcome::kWholeHit);
  EXPECT_EQ(drv.service[1], 8 * MsToNs(0.01));  // bus time only
  EXPECT_EQ(drv.outcome[2], HddBreakdown::CacheOutcome::kMiss);
  EXPECT_GT(drv.service[2], MsToNs(1.0));
}

TEST(HddDeviceTest, ReadAheadStopsAtItsTarget) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ToyDrive());
  Driver drv(&sim, &disk);
  drv.ReadAt(0, 0, 8);
  drv.ReadAt(MsToNs(50), 8 + 100, 4);   // just past the 100-block read-ahead: a miss
  sim.Run();
  EXPECT_EQ(drv.outcome[1], HddBreakdown::CacheOutcome::kMiss);
}

TEST(HddDeviceTest, PartialHitSendsTheCachedHeadAndReadsTheRest) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ToyDrive());
  Driver drv(&sim, &disk);
  drv.ReadAt(0, 0, 8);
  drv.ReadAt(MsToNs(1.0), 8, 50);  // read-ahead has only a few of these blocks by 1 ms
  sim.Run();
  EXPECT_EQ(drv.outcome[1], HddBreakdown::CacheOutcome::kPartialHit);
}

// Zero-latency access. The head is over track 0 from the start; a read of sectors
// 0-49 arriving at 2.05 ms finds sector 20 under the head. In order it would wait
// for sector 0 (10 ms) and read to 15 ms. With zero latency it reads 21-49 from
// 2.1 to 5.0 ms, then 0-20 from 10 to 12.1 ms; the host takes the data in order, so
// the bus sends 0-20 from 10.1 ms (ending 12.11, behind the media) and 21-49 after.
TEST(HddDeviceTest, ZeroLatencyReadTakesTheTrackTailFirst) {
  for (bool zero_latency : {false, true}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.zero_latency_reads = zero_latency;
    ToyRun run(p);
    run.drv.ReadAt(2'050'000, 0, 50);
    run.sim.Run();
    if (zero_latency) {
      EXPECT_EQ(run.drv.service[0], 12'400'000 - 2'050'000);
      EXPECT_EQ(run.disk.last_breakdown().latency_ns, 50'000);  // to sector 21
      EXPECT_EQ(run.disk.last_breakdown().transfer_ns, 12'100'000 - 2'100'000);
    } else {
      EXPECT_EQ(run.drv.service[0], 15'010'000 - 2'050'000);
      EXPECT_EQ(run.disk.last_breakdown().latency_ns, 10'000'000 - 2'050'000);
    }
  }
}

// A head that lands before the wanted sectors has nothing to save.
TEST(HddDeviceTest, ZeroLatencyChangesNothingWhenTheHeadLandsAhead) {
  HddParams p = ToyDrive();
  p.cache.zero_latency_reads = true;
  ToyRun run(p);
  run.drv.ReadAt(0, 50, 1);
  run.sim.Run();
  EXPECT_EQ(run.drv.service[0], MsToNs(5.0 + 0.1 + 0.01));
}

// Read any free blocks: a miss keeps the sectors of its track that passed under the
// head on the way to the first wanted one. Arriving at 2.05 ms for sector 50, the
// head reads 21-49 first; 21 then hits, 20 does not.
TEST(HddDeviceTest, ReadAnyFreeBlocksKeepsWhatPassedUnderTheHead) {
  for (bool free_blocks : {false, true}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.read_any_free_blocks = free_blocks;
    ToyRun run(p);
    run.drv.ReadAt(2'050'000, 50, 1);
    run.drv.ReadAt(MsToNs(20), 21, 29);
    run.drv.ReadAt(MsToNs(40), 20, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.outcome[1], free_blocks ? HddBreakdown::CacheOutcome::kWholeHit
                                          : HddBreakdown::CacheOutcome::kMiss);
    EXPECT_EQ(run.drv.outcome[2], HddBreakdown::CacheOutcome::kMiss);
  }
}

// Never disconnect: a read keeps the bus. A 1-block read of sector 50 from t=0 ends on
// the media at 5.1 ms; a disconnected drive then wins the bus again (0.05 ms),
// reselects (0.2 ms) and prepares the data (0.1 ms) before sending it (10 us); one that
// stays connected sends it at once (the command's own arbitration hides in the
// rotational wait). A write-through write lets the bus go while its sector is written,
// on both drives (DiskSim 4.0's disk_buffer_transfer_size), so its completion wins the
// bus and reselects on both: sector 70 starts at 27 ms, the data are in at 20.16 ms.
TEST(HddDeviceTest, NeverDisconnectKeepsTheBusForReadsButNotForWriteThroughWrites) {
  for (bool never_disconnect : {false, true}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.interface.bus_arbitration_ns = MsToNs(0.05);
    p.interface.first_reselect_ns = MsToNs(0.2);
    p.interface.data_prep_ns = MsToNs(0.1);
    p.interface.never_disconnect = never_disconnect;
    ToyRun run(p);
    run.drv.ReadAt(0, 50, 1);
    run.drv.WriteAt(MsToNs(20), 70, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], never_disconnect ? MsToNs(5.1 + 0.01) : MsToNs(5.1 + 0.35 + 0.01));
    EXPECT_EQ(run.drv.service[1], MsToNs(7.1 + 0.25));
  }
}

// DiskSim 4.0's extra write disconnect: a write into the write segment behind a write it
// does not continue reconnects at its end with the "other" reselect (0.1 ms, not the
// first's 0.2 ms), but never on a drive that never disconnects, where DiskSim does not
// mark it (disk_buffer_select_segment). Both writes land at 20 + 7.1 ms on both drives.
TEST(HddDeviceTest, ExtraWriteDisconnectReselectsCheaperUnlessTheDriveNeverDisconnects) {
  SimTime second[2] = {};
  for (bool never_disconnect : {false, true}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.separate_write_segment = true;
    p.interface.extra_write_disconnect = true;
    p.interface.first_reselect_ns = MsToNs(0.2);
    p.interface.other_reselect_ns = MsToNs(0.1);
    p.interface.never_disconnect = never_disconnect;
    ToyRun run(p);
    run.drv.WriteAt(MsToNs(20), 70, 1);
    run.drv.WriteAt(MsToNs(100), 170, 1);  // on the next track, sector 70 again
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(7.1 + 0.2)) << never_disconnect;
    second[never_disconnect ? 1 : 0] = run.drv.service[1];
  }
  EXPECT_EQ(second[1] - second[0], MsToNs(0.1));
}

// A drive that disconnects after a read's command reconnects no sooner than the
// disconnect is over: a 1-block read of sector 50 from t=0 is on the media 5.0-5.1 ms,
// then the drive reselects (0.2 ms), prepares the data (0.1 ms) and sends them (10 us):
// at 5.41 ms after a 2 ms disconnect, at 6.31 ms after a 6 ms one. Likewise when the
// buffer runs dry: a 60-block read of 50 takes sectors 50-99 at 5.0-10.0 ms and, past
// a head switch, sectors 0-9 of the next track at 20.0-21.0 ms. Without a disconnect
// overhead it ends at 21.01 ms; with 10.5 ms, the first reconnection waits until 10.8,
// the first run is sent by 11.3, and the second reconnection waits until 21.8: 22.2 ms.
TEST(HddDeviceTest, ReadReconnectsOnceItsDisconnectIsOver) {
  for (const auto& [lbn, blocks, disconnect_ms, service_ms] :
       {std::tuple{50, 1, 2.0, 5.41}, std::tuple{50, 1, 6.0, 6.31}, std::tuple{50, 60, 0.0, 21.01},
        std::tuple{50, 60, 10.5, 22.2}}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.interface.first_reselect_ns = MsToNs(0.2);
    p.interface.data_prep_ns = MsToNs(0.1);
    p.interface.read_disconnect_ns[0] = p.interface.read_disconnect_ns[1] = MsToNs(disconnect_ms);
    ToyRun run(p);
    run.drv.ReadAt(0, lbn, blocks);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(service_ms)) << blocks << " blocks, disconnect " << disconnect_ms;
  }
}

// The read watermark (half the request: 30 of 60 blocks) holds a reconnection back
// after the buffer runs dry as well as at first (DiskSim's disk_request_needs_bus), but
// never past the sectors left to send. The 60-block read of 50 connects when 30 sectors
// are in (8.0 ms + 0.3), has sent sectors 50-99 by 10.01 ms, and reconnects for the
// last 10 (sectors 0-9 of the next track, 20.0-21.0 ms) once all are in: 21.4 ms.
TEST(HddDeviceTest, ReadReconnectsAtTheWatermarkAfterTheBufferRunsDry) {
  HddParams p = ToyDrive();
  p.cache.read_ahead_scheme = 0;
  p.interface.first_reselect_ns = MsToNs(0.2);
  p.interface.data_prep_ns = MsToNs(0.1);
  p.interface.watermark_by_request_size = true;
  p.interface.read_watermark = 0.5;
  ToyRun run(p);
  run.drv.ReadAt(0, 50, 60);
  run.sim.Run();
  EXPECT_EQ(run.drv.service[0], MsToNs(21.4));
}

// A partial hit whose cached head is short of the watermark (4 of 8 blocks, the
// watermark being the whole request) disconnects like a miss unless the drive sends any
// cached head at once, but either way the media read starts after the head. Blocks 0-7
// are cached; the read of 4-11 at 50.5 ms reads sectors 8-11 at 50.8-51.2 ms. Sent at
// once, the head (50.64 ms) leaves the buffer dry: the drive reconnects when the 4
// sectors left are in (51.2 + 0.3) and ends at 51.54 ms. Otherwise it reconnects when
// all 8 are in and sends them: 51.58 ms.
TEST(HddDeviceTest, PartialHitShortOfTheWatermarkWaitsWithItsHead) {
  for (const auto& [immediate, service_ms] : {std::pair{true, 1.04}, std::pair{false, 1.08}}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.interface.first_reselect_ns = MsToNs(0.2);
    p.interface.data_prep_ns = MsToNs(0.1);
    p.interface.watermark_by_request_size = true;
    p.interface.read_watermark = 1.0;
    p.interface.immediate_partial_hit = immediate;
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 8);
    run.drv.ReadAt(MsToNs(50.5), 4, 8);
    run.sim.Run();
    EXPECT_EQ(run.drv.outcome[1], HddBreakdown::CacheOutcome::kPartialHit);
    EXPECT_EQ(run.drv.service[1], MsToNs(service_ms)) << immediate;
  }
}

// A write-through write's completion reconnects once the disconnect after its data is
// over: a 1-block write of sector 70 at 20 ms has its data in at 20.11 ms and is on the
// platter at 27.1 ms; it completes 0.2 ms (reselection) later, or after an 8 ms
// disconnect (28.11 ms) and the reselection: 8.31 ms after it arrived.
TEST(HddDeviceTest, WriteCompletesOnceTheDisconnectAfterItsDataIsOver) {
  for (const auto& [disconnect_ms, service_ms] : {std::pair{2.0, 7.3}, std::pair{8.0, 8.31}}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.interface.first_reselect_ns = MsToNs(0.2);
    p.interface.data_prep_ns = MsToNs(0.1);
    p.interface.write_disconnect_ns = MsToNs(disconnect_ms);
    ToyRun run(p);
    run.drv.WriteAt(MsToNs(20), 70, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(service_ms)) << disconnect_ms;
  }
}

// An extra write disconnect's own overheads. The second write (sector 70 of head 1, at
// 100 ms) follows one it does not continue into the write segment: its command takes
// 0.6 ms, the mechanism waits a seek delta more, the drive disconnects (0.05 ms),
// pauses (0.4 ms) and reconnects (0.3 ms): its data are in at 101.36 ms. With a 9 ms
// second disconnect the write completes at max(107.1 on the platter, 110.36) + 0.1
// ("other" reselect): 10.46 ms. With a 6.6 ms seek delta the head, ready at 107.7 ms,
// misses sector 70 and writes it a revolution later: 117.2 ms.
TEST(HddDeviceTest, ExtraWriteDisconnectTakesItsOwnOverheads) {
  for (const auto& [seek_delta_ms, second_disconnect_ms, service_ms] :
       {std::tuple{0.25, 9.0, 10.46}, std::tuple{6.6, 0.1, 17.2}}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.separate_write_segment = true;
    p.interface.first_reselect_ns = MsToNs(0.2);
    p.interface.other_reselect_ns = MsToNs(0.1);
    p.interface.data_prep_ns = MsToNs(0.1);
    p.interface.extra_write_disconnect = true;
    p.interface.extradisc_command_ns = MsToNs(0.6);
    p.interface.extradisc_seek_delta_ns = MsToNs(seek_delta_ms);
    p.interface.extradisc_disconnect_ns = MsToNs(0.05);
    p.interface.extradisc_inter_disconnect_ns = MsToNs(0.4);
    p.interface.extradisc_second_disconnect_ns = MsToNs(second_disconnect_ms);
    ToyRun run(p);
    run.drv.WriteAt(MsToNs(20), 70, 1);
    run.drv.WriteAt(MsToNs(100), 170, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(7.3));
    EXPECT_EQ(run.drv.service[1], MsToNs(service_ms)) << seek_delta_ms;
  }
}

// A read hit that arrives while a destage holds the mechanism. The write of sector 70
// at 0 is in the buffer at 0.11 ms and on the platter 7.0-7.1 ms; the read of it at 1 ms
// hits. A "sneaky" hit is sent at once: 1 + 0.05 (hit overhead) + 0.1 (preparation) +
// 0.01 ms. Otherwise DiskSim takes it like a miss: it disconnects after a miss's
// overhead (0.3 ms) and the disconnect (0.2 ms), and reconnects once the destage is
// over (7.1 ms), reselecting (0.2 ms) and preparing the data: done at 7.41 ms.
TEST(HddDeviceTest, ReadHitDuringADestageWaitsLikeAMissUnlessSneaky) {
  for (const auto& [sneaky, service_ms] : {std::pair{true, 0.16}, std::pair{false, 6.41}}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.fast_write_level = 1;
    p.cache.sneaky_full_read_hits = sneaky;
    p.interface.read_hit_ns[0] = p.interface.read_hit_ns[1] = MsToNs(0.05);
    p.interface.read_miss_ns[0] = p.interface.read_miss_ns[1] = MsToNs(0.3);
    p.interface.read_disconnect_ns[0] = p.interface.read_disconnect_ns[1] = MsToNs(0.2);
    p.interface.first_reselect_ns = MsToNs(0.2);
    p.interface.data_prep_ns = MsToNs(0.1);
    ToyRun run(p);
    run.drv.WriteAt(0, 70, 1);
    run.drv.ReadAt(MsToNs(1), 70, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(0.11));
    EXPECT_EQ(run.drv.outcome[1], HddBreakdown::CacheOutcome::kWholeHit);
    EXPECT_EQ(run.drv.service[1], MsToNs(service_ms)) << sneaky;
  }
}

// "Allow read hits on write data" = 0 (the IBM 18ES): a read of what a write just left in
// the buffer goes to the media.
TEST(HddDeviceTest, ReadOfWrittenDataIsAMissWhenReadsMayNotHitWriteData) {
  for (const bool hits : {true, false}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.read_hits_on_write_data = hits;
    ToyRun run(p);
    run.drv.WriteAt(0, 70, 4);
    run.drv.ReadAt(MsToNs(20), 70, 4);
    run.sim.Run();
    EXPECT_EQ(run.drv.outcome[1], hits ? HddBreakdown::CacheOutcome::kWholeHit : HddBreakdown::CacheOutcome::kMiss);
  }
}

// DiskSim's minimum seek delay (3 ms here): a write reaches the media no sooner, its
// seek starting later, and the sector's next pass after that is taken. Write-through:
// sector 70 at t=0 needs no seek, the head is ready at 3.0 ms and writes it at 7.0 ms
// (7.1 ms); sector 71 at 55 ms continues the last write's LBNs but not a media access
// in progress, so its head is ready at 58.0 ms, past 57.1: it writes at 67.1 (12.2 ms).
// Write-back: sector 71 written at 1 ms appends to the destage of sector 70 and
// continues it as it ends (7.1-7.2 ms), so a read of sector 0 of cylinder 2, head 1,
// at 8 ms seeks at once (1 ms) and reads it at 10.0 ms: 2.11 ms.
TEST(HddDeviceTest, MinimumSeekDelayHoldsBackAWriteThatDoesNotContinueAMediaAccess) {
  {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.interface.min_seek_delay_ns = MsToNs(3);
    ToyRun run(p);
    run.drv.WriteAt(0, 70, 1);
    run.drv.WriteAt(MsToNs(55), 71, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(7.1));
    EXPECT_EQ(run.drv.service[1], MsToNs(12.2));
  }
  {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.fast_write_level = 1;
    p.interface.min_seek_delay_ns = MsToNs(3);
    ToyRun run(p);
    run.drv.WriteAt(0, 70, 1);
    run.drv.WriteAt(MsToNs(1), 71, 1);
    run.drv.ReadAt(MsToNs(8), 500, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[2], MsToNs(2.11));
  }
}

// A read-ahead short of its minimum cannot be stopped (DiskSim's
// disk_buffer_stopable_access). The read of 0-7 at 0 ends at 0.8 ms and reads ahead
// from block 8, a sector every 0.1 ms: with a minimum of 50 blocks it holds the arm
// until block 57 is read, at 5.8 ms; with none, a command at 1 ms stops it after the
// sector under the head (1.1 ms). A read of block 1050 (cylinder 5, sector 50) at 1 ms
// then seeks (1 ms) and reads it on the pass at 5.0 or 15.0 ms, reconnects (0.3 ms)
// and sends it: 4.41 or 14.41 ms. A write-through write there also disconnects and
// sends its data once the arm is free: on the platter by 5.1 or 15.1 ms, done 0.2 ms
// later. A write-back write into the read-ahead's segment (block 5) stops the read-ahead
// at once ("Write hit stop prefetch"): its data go at once (0.11 ms); without that rule
// they wait for the minimum (5.8 + 0.3 + 0.01 ms).
TEST(HddDeviceTest, ReadAheadShortOfItsMinimumHoldsTheArm) {
  struct Case {
    int min_blocks;
    IoOp op;
    int64_t lbn;
    bool write_back;
    bool write_hit_stops;
    double service_ms;
  };
  for (const Case& c : {Case{0, IoOp::kRead, 1050, false, true, 4.41}, Case{50, IoOp::kRead, 1050, false, true, 14.41},
                        Case{0, IoOp::kWrite, 1050, false, true, 4.3}, Case{50, IoOp::kWrite, 1050, false, true, 14.3},
                        Case{50, IoOp::kWrite, 5, true, true, 0.11}, Case{50, IoOp::kWrite, 5, true, false, 5.11}}) {
    HddParams p = ToyDrive();
    p.cache.min_read_ahead_blocks = c.min_blocks;
    p.cache.fast_write_level = c.write_back ? 1 : 0;
    p.cache.write_hit_stop_prefetch = c.write_hit_stops;
    p.interface.first_reselect_ns = MsToNs(0.2);
    p.interface.data_prep_ns = MsToNs(0.1);
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 8);
    run.drv.SubmitAt(MsToNs(1), c.lbn, 1, c.op);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[1], MsToNs(c.service_ms))
        << "minimum " << c.min_blocks << ", block " << c.lbn << ", write-back " << c.write_back;
  }
}

// A maximum read-ahead of 0 reads a segment's worth (200 blocks): past the request's
// end ("Read-ahead over requested" = 1) or from its start (0, keeping the requested
// blocks in the segment). After a read of 0-7: block 207 is the last read ahead for
// 1, block 199 for 0.
TEST(HddDeviceTest, ReadAheadOfZeroReadsASegmentsWorth) {
  for (int over_requested : {0, 1}) {
    HddParams p = ToyDrive();
    p.cache.max_read_ahead_blocks = 0;
    p.cache.read_ahead_over_requested = over_requested;
    const int64_t last = over_requested == 1 ? 207 : 199;
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 8);
    run.drv.ReadAt(MsToNs(50), last, 1);
    run.drv.ReadAt(MsToNs(60), last + 1, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.outcome[1], HddBreakdown::CacheOutcome::kWholeHit) << over_requested;
    EXPECT_EQ(run.drv.outcome[2], HddBreakdown::CacheOutcome::kMiss) << over_requested;
  }
}

// "Read-ahead over requested" = -1: the requested blocks leave the segment once sent,
// so reading them again is a miss; the blocks read ahead stay.
TEST(HddDeviceTest, SentBlocksLeaveTheSegmentWhenOverRequestedIsMinusOne) {
  for (int over_requested : {1, -1}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_over_requested = over_requested;
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 8);
    run.drv.ReadAt(MsToNs(50), 0, 8);
    run.drv.ReadAt(MsToNs(100), 8, 8);
    run.sim.Run();
    EXPECT_EQ(run.drv.outcome[1], over_requested == -1 ? HddBreakdown::CacheOutcome::kMiss
                                                   : HddBreakdown::CacheOutcome::kWholeHit);
    EXPECT_EQ(run.drv.outcome[2], HddBreakdown::CacheOutcome::kWholeHit);
  }
}

// Preseeking: a read whose media work is done before its completion gave the arm up
// early, and DiskSim 4.0 leaves its segment empty. Without read-ahead, the read of
// 0-7 at t=0 ends on the media at 0.8 ms and completes at 0.81 ms; reading 0-7 again
// at 50 ms (the platter back at angle 0) hits (8 x 10 us on the bus) at level 0, and
// at levels 1 and 2 reads them again from the media: 0.8 ms + 10 us.
TEST(HddDeviceTest, PreseekingEmptiesTheSegmentOfAReadWhoseMediaWorkIsDone) {
  for (int level : {0, 1, 2}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.preseek_level = level;
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 8);
    run.drv.ReadAt(MsToNs(50), 0, 8);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[1], level == 0 ? MsToNs(0.08) : MsToNs(0.81)) << level;
  }
}

// A read-ahead still running when the read completes goes on as a pure prefetch and
// keeps the segment. With a 1 ms completion the read of 0-7 completes at 1.81 ms; a
// 2-block read-ahead (8-9) has ended at 1.0 ms, a 100-block one runs to the next track.
TEST(HddDeviceTest, PreseekingKeepsTheSegmentWhileItsReadAheadRuns) {
  for (int max_read_ahead : {2, 100}) {
    for (int level : {0, 1}) {
      HddParams p = ToyDrive();
      p.cache.max_read_ahead_blocks = max_read_ahead;
      p.interface.read_completion_ns = MsToNs(1.0);
      p.cache.preseek_level = level;
      ToyRun run(p);
      run.drv.ReadAt(0, 0, 8);
      run.drv.ReadAt(MsToNs(50), 8, 2);
      run.sim.Run();
      const bool kept = level == 0 || max_read_ahead == 100;
      EXPECT_EQ(run.drv.outcome[1], kept ? HddBreakdown::CacheOutcome::kWholeHit : HddBreakdown::CacheOutcome::kMiss)
          << max_read_ahead << " " << level;
    }
  }
}

// Preseeking with a queue: the next command takes the arm as early as the level lets
// it. A bus of 0.2 ms a block, slower than the media (0.1 ms a sector), and a 1 ms
// completion: read 0-7 at t=0 ends on the media at 0.8 ms, sends its last block at
// 1.7 ms and completes at 2.7 ms. The read of LBN 12 or 20 waiting since 50 us takes
// the arm at 0.8 ms (level 2), 1.7 ms (level 1) or 2.7 ms (level 0). Sector 12 passes at
// 1.2 ms, sector 20 at 2.0 ms; caught, its block goes once the bus is free (2.9 ms) and
// it completes at 3.9 ms; missed, it comes round 10 ms later: 11.2-11.3 ms, sent at
// 11.5, done 12.5, or 12.0-12.1, done 13.3.
HddParams SlowBusDrive(int preseek_level) {
  HddParams p = ToyDrive();
  p.queue_depth = 8;
  p.cache.read_ahead_scheme = 0;
  p.cache.preseek_level = preseek_level;
  p.interface.bus_read_block_ns = MsToNs(0.2);
  p.interface.read_completion_ns = MsToNs(1.0);
  return p;
}

// The toy drive with a queue, no read-ahead, a 0.05 ms hit overhead and a 0.3 ms miss
// overhead, on DiskSim's shared bus or not.
HddParams QueuedToyDrive(bool shared_bus) {
  HddParams p = ToyDrive();
  p.queue_depth = 8;
  p.cache.read_ahead_scheme = 0;
  p.interface.commands_wait_for_bus = shared_bus;
  p.interface.read_hit_ns[0] = p.interface.read_hit_ns[1] = MsToNs(0.05);
  p.interface.read_miss_ns[0] = p.interface.read_miss_ns[1] = MsToNs(0.3);
  return p;
}

struct TimedRead {
  double at_ms;
  int64_t lbn;
  int64_t blocks;
};
struct Served {
  std::vector<SimTime> done;  // when each read completed
  std::vector<HddBreakdown::CacheOutcome> outcome;
};
// Sends each read at its time to a drive of `p` and runs the drive dry.
Served ServeReads(const HddParams& p, const std::vector<TimedRead>& reads) {
  ToyRun run(p);
  for (const TimedRead& r : reads) run.drv.ReadAt(MsToNs(r.at_ms), r.lbn, r.blocks);
  run.sim.Run();
  Served out{{}, run.drv.outcome};
  for (size_t i = 0; i < reads.size(); ++i) out.done.push_back(MsToNs(reads[i].at_ms) + run.drv.service[i]);
  return out;
}

TEST(HddDeviceTest, PreseekingLetsAQueuedCommandTakeTheArmEarly) {
  const auto done = [](int level, int64_t lbn) {
    const Served s = ServeReads(SlowBusDrive(level), {{0, 0, 8}, {0.05, lbn, 1}});
    EXPECT_EQ(s.done[0], MsToNs(2.7));
    return s.done[1];
  };
  EXPECT_EQ(done(2, 12), MsToNs(3.9));
  EXPECT_EQ(done(1, 12), MsToNs(12.5));
  EXPECT_EQ(done(0, 12), MsToNs(12.5));
  EXPECT_EQ(done(2, 20), MsToNs(3.9));
  EXPECT_EQ(done(1, 20), MsToNs(3.9));
  EXPECT_EQ(done(0, 20), MsToNs(13.3));
}

// A queued miss needs a segment of its own to take the arm early. With read-ahead the
// segment of read 0-7 stays full while it is read ahead into: with four segments the
// read of LBN 20 takes another at 0.8 ms (the read-ahead stopped after sector 8, at
// 0.9 ms) and completes at 3.9 ms; with one, it waits for read 0-7 to complete at
// 2.7 ms, and sector 20 has passed: 13.3 ms.
TEST(HddDeviceTest, PreseekingNeedsAFreeSegment) {
  for (int segments : {1, 4}) {
    HddParams p = SlowBusDrive(2);
    p.cache.read_ahead_scheme = 3;
    p.cache.segments = segments;
    EXPECT_EQ(ServeReads(p, {{0, 0, 8}, {0.05, 20, 1}}).done[1], segments == 4 ? MsToNs(3.9) : MsToNs(13.3))
        << segments;
  }
}

// A command the host sends while the drive holds a bus it shares with the host (a
// DiskSim drive's) reaches the drive only when the bus is let go. Holding it for the
// whole read ("Hold bus entire read xfer"), the drive has it from 0.1 ms (its first
// sector in) to 2.7 ms: the read of LBN 20 sent at 0.05 ms takes the arm at 0.8 ms
// (preseeking) and completes at 3.9 ms; sent at 0.5 ms, it reaches the drive at 2.7 ms
// and misses sector 20: 12.0-12.1, done 13.3. On a link that interleaves commands with
// data (commands_wait_for_bus false: SATA NCQ) it is there at 0.5 ms: done at 3.9 ms.
TEST(HddDeviceTest, ACommandWaitsForTheBusTheDriveHolds) {
  for (bool shared : {true, false}) {
    for (double at_ms : {0.05, 0.5}) {
      HddParams p = SlowBusDrive(2);
      p.interface.commands_wait_for_bus = shared;
      p.interface.hold_bus_read = true;
      const bool waits = shared && at_ms == 0.5;
      EXPECT_EQ(ServeReads(p, {{0, 0, 8}, {at_ms, 20, 1}}).done[1], waits ? MsToNs(13.3) : MsToNs(3.9))
          << shared << " " << at_ms;
    }
  }
}

// A hit that comes to a DiskSim drive while it serves another takes the miss's way
// (disk_read_arrive): its command overhead (0.3 ms) and disconnect when it comes, a
// reconnection at its turn. Read 0-7 at t=0 takes its command until 0.3 ms, reads
// sectors 0-7 at 10.0-10.8 ms (sector 0 passed at 0.3 ms) and completes at 10.81 ms;
// the read of LBN 500 (cylinder 2, head 1) sent at 0.35 ms seeks from 10.81 ms to
// 11.81 ms and reads sector 0 at 20.0-20.1 ms: done at 20.11 ms. The read of 0-7 sent
// at 0.4 ms, whole in the buffer at its turn, sends its 8 blocks at once (done at
// 20.19 ms); without the shared bus it pays the hit overhead (0.05 ms) then: 20.24 ms.
TEST(HddDeviceTest, AQueuedHitTookItsCommandWhenItCame) {
  for (bool shared : {true, false}) {
    const Served s = ServeReads(QueuedToyDrive(shared), {{0, 0, 8}, {0.35, 500, 1}, {0.4, 0, 8}});
    EXPECT_EQ(s.done[0], MsToNs(10.81));
    EXPECT_EQ(s.done[1], MsToNs(20.11));
    EXPECT_EQ(s.outcome[2], HddBreakdown::CacheOutcome::kWholeHit);
    EXPECT_EQ(s.done[2], shared ? MsToNs(20.19) : MsToNs(20.24)) << shared;
  }
}

// The host's commands have the bus before the drive's next transfer (DiskSim's bus
// goes to the one that waited). As above, read 0-7 completes at 10.81 ms, sending its
// blocks from 10.1 ms; the re-read of 0-7 sent at 0.35 ms is a hit at its turn and
// sends at once: done at 10.89 ms. A read sent at 10.5 ms, while the drive sends,
// reaches it at 10.81 ms and holds the bus for its command until 11.11 ms: the hit
// sends after it, done at 11.19 ms. Sent at 12 ms, it changes nothing.
TEST(HddDeviceTest, TheHostsCommandsTakeTheBusFirst) {
  for (double at_ms : {10.5, 12.0}) {
    const Served s = ServeReads(QueuedToyDrive(true), {{0, 0, 8}, {0.35, 0, 8}, {at_ms, 500, 1}});
    EXPECT_EQ(s.done[1], at_ms == 10.5 ? MsToNs(11.19) : MsToNs(10.89)) << at_ms;
  }
}

// A host command that takes the bus while the drive is disconnected holds back the
// drive's reconnection (DiskSim's bus is one). With a bus of 0.2 ms a block and a 1 ms
// completion, read 0-7 at t=0 takes its command until 0.3 ms, reads sectors 0-7 at
// 10.0-10.8 ms and reconnects at 10.1 ms (its first sector in): its blocks go until
// 11.7 ms, and it completes at 12.7 ms. A read sent at 9.95 ms takes the bus for its
// command (0.3 ms) until 10.25 ms: read 0-7 reconnects then, its blocks go until
// 11.85 ms, done at 12.85 ms. Sent at 9 ms, it is done with the bus by 9.3 ms.
TEST(HddDeviceTest, AHostCommandHoldsBackTheDrivesReconnection) {
  for (double at_ms : {9.95, 9.0}) {
    HddParams p = SlowBusDrive(0);
    p.interface.commands_wait_for_bus = true;
    p.interface.read_miss_ns[0] = p.interface.read_miss_ns[1] = MsToNs(0.3);
    EXPECT_EQ(ServeReads(p, {{0, 0, 8}, {at_ms, 500, 1}}).done[0], at_ms == 9.95 ? MsToNs(12.85) : MsToNs(12.7))
        << at_ms;
  }
}

// A read that joins the read-ahead stream after waiting in a DiskSim drive's queue took
// the miss's way when it came (its overhead then, a reconnection at its turn), not a
// hit's overhead at its turn. With a bus of 0.2 ms a block and a 1 ms completion, read
// 0-7 at t=0 completes at 12.7 ms (as above), its read-ahead reading on from sector 8
// at 10.8 ms: by 12.7 ms through sector 26. The read of 4-40, sent at 1 ms, sends its
// 23 buffered blocks from 12.7 ms and the 14 read after them: done at 12.7 + 37 x 0.2
// + 1 = 21.1 ms; taken as a hit at its turn (no shared bus) it starts 0.05 ms later.
TEST(HddDeviceTest, AQueuedReadJoiningTheReadAheadTookItsCommandWhenItCame) {
  for (bool shared : {true, false}) {
    HddParams p = QueuedToyDrive(shared);
    p.cache.read_ahead_scheme = 3;
    p.interface.bus_read_block_ns = MsToNs(0.2);
    p.interface.read_completion_ns = MsToNs(1.0);
    const Served s = ServeReads(p, {{0, 0, 8}, {1.0, 4, 37}});
    EXPECT_EQ(s.done[0], MsToNs(12.7));
    EXPECT_EQ(s.outcome[1], HddBreakdown::CacheOutcome::kPartialHit);
    EXPECT_EQ(s.done[1], shared ? MsToNs(21.1) : MsToNs(21.15)) << shared;
  }
}

// "Allow sneaky full read hits" on a DiskSim drive with a queue: a read whole in the
// buffer, sent while the drive serves another command, is sent at once, out of turn
// (disk_read_arrive). As in AQueuedHitTookItsCommandWhenItCame, read 0-7 completes at
// 10.81 ms and the read of LBN 500 at 20.11 ms. Re-reading 0-7 at 11 ms, the bus free,
// takes the hit overhead (0.05 ms) and 8 blocks: done at 11.13 ms, before the read of
// LBN 500, which keeps its time. Without sneaky hits it waits its turn: done 20.19 ms.
TEST(HddDeviceTest, ASneakyFullHitIsSentOutOfTurn) {
  for (bool sneaky : {true, false}) {
    HddParams p = QueuedToyDrive(true);
    p.cache.sneaky_full_read_hits = sneaky;
    const Served s = ServeReads(p, {{0, 0, 8}, {0.35, 500, 1}, {11.0, 0, 8}});
    EXPECT_EQ(s.done[1], MsToNs(20.11)) << sneaky;
    EXPECT_EQ(s.done[2], sneaky ? MsToNs(11.13) : MsToNs(20.19)) << sneaky;
    EXPECT_EQ(s.outcome[2], HddBreakdown::CacheOutcome::kWholeHit);
  }
}

// "Allow sneaky intermediate read hits": a read waiting in a DiskSim drive's queue
// whose data are whole in a segment the command in service does not hold is sent as
// soon as the bus is free, out of turn (disk_select_bus_request). As in
// AQueuedHitTookItsCommandWhenItCame, read 0-7 completes at 10.81 ms and the read of
// LBN 500 (sent at 0.35 ms) reads sector 0 at 20.0-20.1 ms; with a first reselection
// of 0.02 ms, it reconnects at 20.12 ms: done at 20.13 ms.
// - re-reading 0-7 at 11 ms (no sneaky full hits: it takes its command, 0.3 ms, and
//   disconnects) reconnects at 11.3 ms and sends its 8 blocks: done at 11.4 ms;
// - re-reading it at 0.4 ms, while read 0-7 holds the segment, it waits until that one
//   completes, and is sent then, the read of LBN 500 seeking: done at 10.91 ms.
// Waiting their turn instead, each reconnects after the read of LBN 500: 20.23 ms.
TEST(HddDeviceTest, AWaitingHitIsSentAsTheBusFrees) {
  for (bool intermediate : {true, false}) {
    for (double at_ms : {11.0, 0.4}) {
      HddParams p = QueuedToyDrive(true);
      p.interface.first_reselect_ns = MsToNs(0.02);
      p.cache.sneaky_intermediate_read_hits = intermediate;
      const Served s = ServeReads(p, {{0, 0, 8}, {0.35, 500, 1}, {at_ms, 0, 8}});
      EXPECT_EQ(s.done[1], MsToNs(20.13)) << intermediate << " " << at_ms;
      EXPECT_EQ(s.outcome[2], HddBreakdown::CacheOutcome::kWholeHit);
      const double done_ms = !intermediate ? 20.23 : at_ms == 11.0 ? 11.4 : 10.91;
      EXPECT_EQ(s.done[2], MsToNs(done_ms)) << intermediate << " " << at_ms;
    }
  }
}

// A waiting hit sent out of turn holds the bus, and the command in service reconnects
// after it; one whose command ends as that command needs the bus goes after it
// (DiskSim's drive serves its own command first). With a bus of 0.2 ms a block, read
// 0-7 at t=0 completes at 11.7 ms; the read of LBN 500 at 20 ms takes its command
// until 20.3 ms, seeks, reads sector 0 at 30.0-30.1 ms and sends it: done at 30.3 ms.
// Re-reading 0-7 at 29 ms, its command until 29.3 ms, it sends its blocks until
// 30.9 ms; the read of LBN 500 then: done at 31.1 ms. Re-read at 29.95 ms, its command
// holds the bus until 30.25 ms (the host's goes first), the read of LBN 500 sends until
// 30.45 ms, and the hit, its turn come, until 32.05 ms.
TEST(HddDeviceTest, AWaitingHitHoldsBackTheCommandInService) {
  for (double at_ms : {29.0, 29.95}) {
    HddParams p = QueuedToyDrive(true);
    p.interface.bus_read_block_ns = MsToNs(0.2);
    p.cache.sneaky_intermediate_read_hits = true;
    const Served s = ServeReads(p, {{0, 0, 8}, {20.0, 500, 1}, {at_ms, 0, 8}});
    EXPECT_EQ(s.done[0], MsToNs(11.7));
    EXPECT_EQ(s.done[1], at_ms == 29.0 ? MsToNs(31.1) : MsToNs(30.45)) << at_ms;
    EXPECT_EQ(s.done[2], at_ms == 29.0 ? MsToNs(30.9) : MsToNs(32.05)) << at_ms;
  }
}

// A write-back write that comes while the destage of the write before holds the arm
// waits for it (disk_write_arrive: it disconnects, and reconnects when the arm is
// released), unless the drive prebuffers writes and another write segment is free. The
// write of 8 blocks at LBN 50 at t=0 completes at 0.08 ms and is destaged when sector
// 50 comes round, 5.0-5.8 ms. The write of LBN 150 at 1 ms takes its data at 5.8 ms
// (done 5.88 ms, service 4.88 ms), or at once with prebuffering and two write segments
// (service 0.08 ms); with one, it waits as well.
TEST(HddDeviceTest, PrebufferingTakesAWriteDuringADestage) {
  for (bool prebuffering : {false, true}) {
    for (int write_segments : {1, 2}) {
      HddParams p = ToyDrive();
      p.cache.read_ahead_scheme = 0;
      p.cache.fast_write_level = 1;
      p.cache.max_write_segments = write_segments;
      p.cache.write_prebuffering = prebuffering;
      ToyRun run(p);
      run.drv.WriteAt(0, 50, 8);
      run.drv.WriteAt(MsToNs(1.0), 150, 8);
      run.sim.Run();
      EXPECT_EQ(run.drv.service[0], MsToNs(0.08));
      const bool at_once = prebuffering && write_segments == 2;
      EXPECT_EQ(run.drv.service[1], at_once ? MsToNs(0.08) : MsToNs(4.88)) << prebuffering << " " << write_segments;
    }
  }
}

// "Allow write prebuffering" on a DiskSim drive with a queue: a write that comes while
// the drive serves another takes its data at once into a free write segment and, with
// write-back, completes then; its sectors are written at its turn. As in
// AQueuedHitTookItsCommandWhenItCame, read 0-7 at t=0 disconnects at 0.3 ms and
// completes at 10.81 ms. The write of 8 blocks at LBN 500 sent at 1 ms sends them at
// once: done at 1.08 ms. Without prebuffering it takes its command and disconnects,
// and at its turn reconnects for its data: done at 10.89 ms. Either way its sectors
// (cylinder 2, head 1) are written at 20.0-20.8 ms, after a seek from 10.81 ms: the read
// of LBN 900 (cylinder 4, head 1) sent at 2 ms seeks then and reads sector 0 at
// 30.0-30.1 ms: done at 30.11 ms.
TEST(HddDeviceTest, AWaitingWriteIsPrebuffered) {
  for (bool prebuffering : {true, false}) {
    HddParams p = QueuedToyDrive(true);
    p.cache.fast_write_level = 1;
    p.cache.write_prebuffering = prebuffering;
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 8);
    run.drv.WriteAt(MsToNs(1.0), 500, 8);
    run.drv.ReadAt(MsToNs(2.0), 900, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(10.81)) << prebuffering;
    EXPECT_EQ(MsToNs(1.0) + run.drv.service[1], prebuffering ? MsToNs(1.08) : MsToNs(10.89)) << prebuffering;
    EXPECT_EQ(MsToNs(2.0) + run.drv.service[2], MsToNs(30.11)) << prebuffering;
  }
}

// A read that gives the arm up to a queued command before it completes leaves its
// segment empty (DiskSim 4.0, CompleteRead). Read 0-7 at t=0 reads ahead after 0.8 ms;
// the read of LBN 500 (cylinder 2) waiting since 50 us stops that read-ahead at once
// with preseeking (level 2), long before read 0-7 completes at 2.7 ms, and only at
// 2.7 ms without it (level 0, when the segment is kept). Reading 0-7 again at 50 ms
// hits without preseeking and goes to the media with it.
TEST(HddDeviceTest, PreseekingToAQueuedCommandEmptiesTheSegment) {
  for (int level : {0, 2}) {
    HddParams p = SlowBusDrive(level);
    p.cache.read_ahead_scheme = 3;
    EXPECT_EQ(ServeReads(p, {{0, 0, 8}, {0.05, 500, 1}, {50, 0, 8}}).outcome[2],
              level == 0 ? HddBreakdown::CacheOutcome::kWholeHit : HddBreakdown::CacheOutcome::kMiss)
        << level;
  }
}

// Sneaky full read hits. A write-back write of 8 blocks at LBN 50 arriving at 1 ms
// completes at 1.08 ms and is destaged when sector 50 comes round, 5.0-5.8 ms. A hit on
// 0-7 (read at t=0) arriving at 2 ms waits for the arm until 5.8 ms without sneaky
// hits (service 3.8 ms + 80 us on the bus), and is sent at once with them (80 us).
TEST(HddDeviceTest, SneakyFullHitDoesNotWaitForTheDestage) {
  for (bool sneaky : {false, true}) {
    HddParams p = ToyDrive();
    p.cache.read_ahead_scheme = 0;
    p.cache.fast_write_level = 1;
    p.cache.sneaky_full_read_hits = sneaky;
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 8);
    run.drv.WriteAt(MsToNs(1.0), 50, 8);
    run.drv.ReadAt(MsToNs(2.0), 0, 8);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[1], MsToNs(0.08));
    EXPECT_EQ(run.drv.outcome[2], HddBreakdown::CacheOutcome::kWholeHit);
    EXPECT_EQ(run.drv.service[2], sneaky ? MsToNs(0.08) : MsToNs(3.88)) << sneaky;
  }
}

// A read-ahead that has switched heads and waits for its sector stops at once for a
// new command, or, on a DiskSim drive (prefetch_stops_at_its_sector), only as that
// sector comes. The read of 90-99 at t=0 reads sectors 90-99 at 9.0-10.0 ms; its
// read-ahead switches to head 1 (0.5 ms) and waits for sector 0 of LBN 100, which
// comes at 20.0 ms. The read of LBN 500 (cylinder 2, head 1) at 12 ms seeks at once
// (1 ms) and reads sector 0 at 20.0-20.1 ms: done at 20.11 ms; on a DiskSim drive it
// seeks from 20.0 ms and reads sector 0 at 30.0-30.1 ms: done at 30.11 ms.
TEST(HddDeviceTest, AReadAheadWaitingForItsSectorStopsAsItComesOnADisksimDrive) {
  for (bool disksim : {false, true}) {
    HddParams p = ToyDrive();
    p.cache.prefetch_stops_at_its_sector = disksim;
    ToyRun run(p);
    run.drv.ReadAt(0, 90, 10);
    run.drv.ReadAt(MsToNs(12.0), 500, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(10.01));
    EXPECT_EQ(MsToNs(12.0) + run.drv.service[1], disksim ? MsToNs(30.11) : MsToNs(20.11)) << disksim;
  }
}

// A read-ahead into the segment of a read whose data the host is still taking holds no
// more than the segment's 16 blocks from the first the host has not taken (DiskSim's
// disk_buffer_block_available); a sector without room passes and comes round a
// revolution later. The read of 0-15 at t=0 reads sectors 0-15 at 0-1.6 ms; on a bus of
// 0.2 ms a block, block k is taken by 0.3 + 0.2k ms and the read completes at 3.3 ms.
// Its read-ahead reads 16-29 (block L needs L < 16 + the blocks taken as its sector
// starts), and sector 30 at 3.0 ms finds none: the segment holds 14-29 at 5 ms, and
// the read of 25 then is a hit (done 5.2 ms). On a bus of 0.01 ms a block nothing holds
// the read-ahead back: by 5 ms it has read past 49, the segment slid beyond 25, and
// the read of 25 waits for sector 25, 12.5-12.6 ms (done 12.61 ms).
TEST(HddDeviceTest, AReadAheadWaitsForRoomInTheSegment) {
  for (double block_ms : {0.2, 0.01}) {
    HddParams p = ToyDrive();
    p.cache.segment_blocks = 16;
    p.interface.bus_read_block_ns = MsToNs(block_ms);
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 16);
    run.drv.ReadAt(MsToNs(5.0), 25, 1);
    run.sim.Run();
    const bool slow = block_ms == 0.2;
    EXPECT_EQ(run.drv.service[0], slow ? MsToNs(3.3) : MsToNs(1.61)) << block_ms;
    EXPECT_EQ(run.drv.outcome[1], slow ? HddBreakdown::CacheOutcome::kWholeHit : HddBreakdown::CacheOutcome::kMiss);
    EXPECT_EQ(MsToNs(5.0) + run.drv.service[1], slow ? MsToNs(5.2) : MsToNs(12.61)) << block_ms;
  }
}

// Almost read hits. After a read of 0-7 at t=0 the read-ahead has read 8-19 by 2.0 ms
// and is reading sector 20 at 2.05 ms. A read of 20 then joins it on drives with almost
// hits (or a read-ahead window): sector 20 ends at 2.1 ms, sent by 2.11 (60 us). Without,
// it is a miss: the read-ahead stops at the end of sector 20 (2.1 ms), which then has
// to come round again: 12.0-12.1 ms, sent by 12.11 (10.06 ms). A read of 25 is no
// almost hit; the window joins it (the head reads 20-24 into the buffer on the way).
TEST(HddDeviceTest, AlmostReadHitJoinsTheReadAheadAtItsNextBlock) {
  struct Case {
    bool almost, window;
    int64_t lbn;
    double service_ms;
  };
  for (const Case& c : {Case{false, false, 20, 10.06}, Case{true, false, 20, 0.06}, Case{false, true, 20, 0.06},
                        Case{true, false, 25, 0.56}, Case{false, true, 25, 0.56}}) {
    HddParams p = ToyDrive();
    p.cache.allow_almost_read_hits = c.almost;
    p.cache.join_read_ahead_window = c.window;
    ToyRun run(p);
    run.drv.ReadAt(0, 0, 8);
    run.drv.ReadAt(MsToNs(2.05), c.lbn, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[1], MsToNs(c.service_ms)) << c.almost << c.window << " " << c.lbn;
  }
}

// Read-ahead on idle hit starts once the hit's command overhead (a read miss's in
// DiskSim, 0.3 ms here) is done. A read of 0-7 at t=0 starts the arm at 0.3 ms, reads
// 0-7 from 10.0 ms and reads ahead 8-9 to 11.0 ms. A hit on 8-9 at 20.95 ms restarts
// the read-ahead for 10-11 at 21.25 ms, just after sector 10 passed (21.0 ms): it
// waits for 31.0 ms. A read of 10-11 at 22 ms is then a miss that waits for the same
// pass (31.0-31.2 ms, sent by 31.21: 9.21 ms); started at 20.95 ms it would have hit.
TEST(HddDeviceTest, ReadAheadOnIdleHitStartsAfterTheCommandOverhead) {
  HddParams p = ToyDrive();
  p.cache.max_read_ahead_blocks = 2;
  p.cache.read_ahead_on_idle_hit = true;
  p.interface.read_miss_ns[0] = p.interface.read_miss_ns[1] = MsToNs(0.3);
  ToyRun run(p);
  run.drv.ReadAt(0, 0, 8);
  run.drv.ReadAt(MsToNs(20.95), 8, 2);
  run.drv.ReadAt(MsToNs(22.0), 10, 2);
  run.sim.Run();
  EXPECT_EQ(run.drv.outcome[1], HddBreakdown::CacheOutcome::kWholeHit);
  EXPECT_EQ(run.drv.outcome[2], HddBreakdown::CacheOutcome::kMiss);
  EXPECT_EQ(run.drv.service[2], MsToNs(9.21));
}

// Bus arbitration (50 us): the command reaches the drive 50 us late, and a
// disconnected drive arbitrates again to reconnect. A read of sector 50 from t=0 ends
// on the media at 5.1 ms and is sent after the arbitration: 5.16 ms. A hit on it at
// 20 ms needs no reconnection: 60 us. A write-through write of sector 70 at 30 ms
// writes it at 37.0-37.1 ms and reconnects for its completion: 7.15 ms.
TEST(HddDeviceTest, ArbitrationDelaysTheCommandAndEachReconnection) {
  HddParams p = ToyDrive();
  p.cache.read_ahead_scheme = 0;
  p.interface.bus_arbitration_ns = MsToNs(0.05);
  ToyRun run(p);
  run.drv.ReadAt(0, 50, 1);
  run.drv.ReadAt(MsToNs(20), 50, 1);
  run.drv.WriteAt(MsToNs(30), 70, 1);
  run.sim.Run();
  EXPECT_EQ(run.drv.service[0], MsToNs(5.16));
  EXPECT_EQ(run.drv.outcome[1], HddBreakdown::CacheOutcome::kWholeHit);
  EXPECT_EQ(run.drv.service[1], MsToNs(0.06));
  EXPECT_EQ(run.drv.service[2], MsToNs(7.15));
}

// A read miss that waits in the drive's queue has its command done while the drive
// serves the one before (DiskSim's disk_read_arrive): its turn starts the arm at once.
// Read miss overhead 0.3 ms, no read-ahead, two commands queued at most. Command 0
// reads sector 50 from t=0: done at 5.11 ms (media 5.0-5.1, bus 10 us). Command 1,
// sector 62 of cylinder 1 (LBN 262), comes at 1 ms, its overhead over by 1.3 ms: at
// 5.11 ms a 1 ms seek reaches the track at 6.11, before sector 62 (6.2-6.3 ms): sent by
// 6.31 ms, 5.31 ms after it came. The same read coming to the idle drive at 5.11 ms
// pays its overhead then, seeks until 6.41 and waits a turn for sector 62: 16.31 ms.
TEST(HddDeviceTest, QueuedReadMissHasItsCommandDoneWhileItWaits) {
  HddParams p = ToyDrive();
  p.cache.read_ahead_scheme = 0;
  p.queue_depth = 2;
  p.interface.read_miss_ns[0] = p.interface.read_miss_ns[1] = MsToNs(0.3);
  for (const bool queued : {true, false}) {
    ToyRun run(p);
    run.drv.ReadAt(0, 50, 1);
    run.drv.ReadAt(queued ? MsToNs(1.0) : MsToNs(5.11), 262, 1);
    run.sim.Run();
    EXPECT_EQ(run.drv.service[0], MsToNs(5.11));
    EXPECT_EQ(run.drv.service[1], queued ? MsToNs(5.31) : MsToNs(16.31 - 5.11)) << (queued ? "queued" : "idle");
  }
}

std::vector<SimTime> RunRandomReads(uint64_t seed) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ToyDrive());
  Driver drv(&sim, &disk);
  RandomStream rng(seed, "reader");
  for (int i = 0; i < 200; ++i) drv.ReadAt(i * MsToNs(30), rng.UniformInt(0, 19000), 8);
  sim.Run();
  return drv.service;
}

// The tags of the commands `drv` saw complete, in completion order.
std::vector<uint64_t> CompletionOrder(const std::vector<SimTime>& service) {
  std::vector<uint64_t> order(service.size());
  for (uint64_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return service[a] < service[b]; });
  return order;
}

// The order the toy drive, with a queue of 8 and `policy`, serves a read of one
// block at `first` (tag 0, at t = 0) and reads of one block at `queued` (tags 1..,
// all at t = 1 us, while tag 0 is served).
std::vector<uint64_t> QueuedOrder(QueuePolicy policy, int64_t first, const std::vector<int64_t>& queued) {
  Simulation sim;
  HddParams p = ToyDrive();
  p.queue_depth = 8;
  HddDevice disk(&sim, "d0", p, policy);
  Driver drv(&sim, &disk);
  drv.ReadAt(0, first, 1);
  for (const int64_t lbn : queued) drv.ReadAt(1000, lbn, 1);
  sim.Run();
  return CompletionOrder(drv.service);
}

// SPTF (NCQ) serves the queued command that can start soonest, worked out by hand
// on the toy drive. Command 0 reads sector 0 of (cylinder 0, head 0) at t=0 and
// is done about 0.11 ms later; meanwhile four commands queue:
//   1: sector 80, same track  -> waits for sector 80, 7.9 ms away
//   2: sector 30, same track  -> 2.9 ms
//   3: sector 20, cylinder 5  -> 1 ms seek, then to sector 20: 1.9 ms
//   4: sector 10, head 1      -> 0.5 ms head switch, then to sector 10: 0.9 ms
// 4 goes first. From head 1 at ~1.1 ms: 2 (switch back, sector 30 at 3 ms) beats 1
// (sector 80 at 8 ms) and 3 (sector 20 has passed: 12 ms). From sector 31 of head
// 0 at ~3.1 ms: 1 (8 ms) beats 3 (seek, then 12 ms). FIFO keeps arrival order.
TEST(HddDeviceTest, SptfServesTheCommandThatCanStartSoonest) {
  EXPECT_EQ(QueuedOrder(QueuePolicy::kSptf, 0, {80, 30, 1020, 110}), (std::vector<uint64_t>{0, 4, 2, 1, 3}));
  EXPECT_EQ(QueuedOrder(QueuePolicy::kFifo, 0, {80, 30, 1020, 110}), (std::vector<uint64_t>{0, 1, 2, 3, 4}));
}

// The LBN-ordered policies on the toy drive: command 0 reads LBN 500 at t=0 while
// four queue, at LBNs 520, 470, 900 and 100 (tags 1-4). SSTF (from the block after
// the last): 520, then 470 (51 down, 900 is 379 up), then 100, 900. ELEVATOR (from
// the last first LBN, never turning down while something lies above): 520, 900,
// then the nearest below, 470, then 100. CYCLE: 520, 900, then the lowest, 100, 470.
TEST(HddDeviceTest, DisksimOrderedPoliciesServeAsDiskSimsSchedulers) {
  const std::vector<std::pair<QueuePolicy, std::vector<uint64_t>>> cases = {
      {QueuePolicy::kSstfLbn, {0, 1, 2, 4, 3}},
      {QueuePolicy::kElevatorLbn, {0, 1, 3, 2, 4}},
      {QueuePolicy::kCycleLbn, {0, 1, 3, 4, 2}},
      {QueuePolicy::kFifo, {0, 1, 2, 3, 4}}};
  for (const auto& [policy, want] : cases) {
    EXPECT_EQ(QueuedOrder(policy, 500, {520, 470, 900, 100}), want) << QueuePolicyName(policy);
  }
}

// DiskSim's disk picks the next command when the arm is released (the last sector
// read), among the commands there then. Two commands that come while command 0's
// last block still crosses the bus (1 us before its completion, after its media
// access) find the arm free: the first to come, LBN 900, takes it, though 510 is
// nearer. Come a little earlier, while the media access runs, 510 goes first.
// The positioning-time policies pick then too: 510, on the same track, is nearer
// than 900 by seek and rotation as well.
TEST(HddDeviceTest, DisksimOrderedPoliciesPickWhenTheArmIsReleased) {
  for (const QueuePolicy policy : {QueuePolicy::kSstfLbn, QueuePolicy::kSptfOpt}) {
    const auto order_with_arrivals_at = [policy](std::optional<SimTime> at) {
      Simulation sim;
      HddParams p = ToyDrive();
      p.queue_depth = 8;
      HddDevice disk(&sim, "d0", p, policy);
      Driver drv(&sim, &disk);
      drv.ReadAt(0, 500, 4);
      if (at) {
        for (const int64_t lbn : {900, 510}) drv.ReadAt(*at, lbn, 1);
      }
      sim.Run();
      return drv.service;  // 1 and 2 came together: the one served first has the shorter time
    };
    const SimTime done = order_with_arrivals_at(std::nullopt)[0];
    const std::vector<SimTime> late = order_with_arrivals_at(done - 1000);
    EXPECT_LT(late[1], late[2]) << QueuePolicyName(policy);
    const std::vector<SimTime> early = order_with_arrivals_at(1000);
    EXPECT_LT(early[2], early[1]) << QueuePolicyName(policy);
  }
}

// A command for ServedOrder: submitted at `at`.
struct Command {
  SimTime at;
  int64_t lbn;
  int64_t blocks;
  IoOp op = IoOp::kRead;
};

// The tags of `commands` (submitted to a drive of `p` with a queue of 8 and `policy`)
// in the order they complete.
std::vector<uint64_t> ServedOrder(QueuePolicy policy, HddParams p, const std::vector<Command>& commands) {
  Simulation sim;
  p.queue_depth = 8;
  HddDevice disk(&sim, "d0", p, policy);
  Driver drv(&sim, &disk);
  for (const Command& c : commands) drv.SubmitAt(c.at, c.lbn, c.blocks, c.op);
  sim.Run();
  std::vector<SimTime> done(commands.size());
  for (size_t i = 0; i < done.size(); ++i) done[i] = commands[i].at + drv.service[i];
  return CompletionOrder(done);
}

// DiskSim's SPTF_OPT costs a waiting read by seek and rotation even when the cache
// holds it; SPCTF_OPT (and the NCQ sptf) asks the cache first. Command 0 reads LBNs
// 0-3 (sectors 0-3 of cylinder 0, head 0) and releases the arm at 0.4 ms. Waiting:
//   1: LBN 2, in the buffer; on the platter, sector 2 comes round at 10.2 ms: 9.8 ms
//   2: LBN 1050 (cylinder 5, sector 50): 1 ms seek, sector 50 at 5.0 ms: 4.6 ms
TEST(HddDeviceTest, SptfOptCostsACachedReadByItsPositioningAndSpctfOptDoesNot) {
  const std::vector<Command> commands = {{0, 0, 4}, {1000, 2, 1}, {1000, 1050, 1}};
  EXPECT_EQ(ServedOrder(QueuePolicy::kSptfOpt, ToyDrive(), commands), (std::vector<uint64_t>{0, 2, 1}));
  EXPECT_EQ(ServedOrder(QueuePolicy::kSpctfOpt, ToyDrive(), commands), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(ServedOrder(QueuePolicy::kSptf, ToyDrive(), commands), (std::vector<uint64_t>{0, 1, 2}));
}

// The initiation delays weigh reads against writes. Command 0 reads sector 0 (arm
// released at 0.1 ms); a read of sector 30 costs 2.9 ms, a write of sector 80 7.9 ms.
// A read initiation delay of 6 ms makes the read 8.9 ms: the write goes first; the
// same delay for writes too puts the read first again.
TEST(HddDeviceTest, SptfOptAddsTheInitiationDelays) {
  const std::vector<Command> commands = {{0, 0, 1}, {1000, 30, 1}, {1000, 80, 1, IoOp::kWrite}};
  HddParams p = ToyDrive();
  EXPECT_EQ(ServedOrder(QueuePolicy::kSptfOpt, p, commands), (std::vector<uint64_t>{0, 1, 2}));
  p.scheduler.read_initiation_delay_ns = MsToNs(6.0);
  EXPECT_EQ(ServedOrder(QueuePolicy::kSptfOpt, p, commands), (std::vector<uint64_t>{0, 2, 1}));
  p.scheduler.write_initiation_delay_ns = MsToNs(6.0);
  EXPECT_EQ(ServedOrder(QueuePolicy::kSptfOpt, p, commands), (std::vector<uint64_t>{0, 1, 2}));
}

// The aged policies. Command 0 reads the whole of track (0, 0) from t = 0 and releases
// the arm at 10 ms. Waiting: 1, LBN 180 (head 1, sector 80: 0.5 ms switch, sector 80
// at 18 ms: 8.0 ms), there since 1 us (age 9.999 ms); 2, LBN 130 (3.0 ms), since 9.9 ms
// (age 0.1 ms). SPTF_OPT takes 2. ASPTF_OPT with weight 1000 credits 1 ms a ms of age:
// 1 costs -1.999, 2 2.9: 1 goes first. WPTF_OPT with weight 11 scales by (11 - age)/11:
// 1 costs 0.73, 2 2.97: 1 first; with a weight of 10^6 the factors are nearly 1: 2 first.
TEST(HddDeviceTest, AgedPositioningPoliciesFavourTheCommandThatWaitedLonger) {
  const std::vector<Command> commands = {{0, 0, 100}, {1000, 180, 1}, {9'900'000, 130, 1}};
  const auto order = [&](QueuePolicy policy, int weight) {
    HddParams p = ToyDrive();
    p.scheduler.age_weight = weight;
    return ServedOrder(policy, p, commands);
  };
  EXPECT_EQ(order(QueuePolicy::kSptfOpt, 1000), (std::vector<uint64_t>{0, 2, 1}));
  EXPECT_EQ(order(QueuePolicy::kAsptfOpt, 0), (std::vector<uint64_t>{0, 2, 1}));
  EXPECT_EQ(order(QueuePolicy::kAsptfOpt, 1000), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(order(QueuePolicy::kAspctfOpt, 1000), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(order(QueuePolicy::kWptfOpt, 11), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(order(QueuePolicy::kWpctfOpt, 11), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(order(QueuePolicy::kWptfOpt, 1'000'000), (std::vector<uint64_t>{0, 2, 1}));
}

// SDF goes by cylinders alone. Command 0 reads LBN 1000 (cylinder 5) and releases the
// arm there. Waiting: 1, LBN 1890 (cylinder 9, 4 away), 2, LBN 30 (cylinder 0, 5 away)
// and 3, LBN 1199 (cylinder 5, head 1: 0 away; a head switch does not count). SDF_EXACT
// takes 3, then from cylinder 5 1, then 2; SDF_APPROX, measuring from the last block of
// the command started last, the same here. Of equal distances the lower LBN wins,
// whichever came first.
TEST(HddDeviceTest, SdfServesTheFewestCylindersAway) {
  const std::vector<Command> commands = {{0, 1000, 1}, {1000, 1890, 1}, {1000, 30, 1}, {1000, 1199, 1}};
  EXPECT_EQ(ServedOrder(QueuePolicy::kSdfExact, ToyDrive(), commands), (std::vector<uint64_t>{0, 3, 1, 2}));
  EXPECT_EQ(ServedOrder(QueuePolicy::kSdfApprox, ToyDrive(), commands), (std::vector<uint64_t>{0, 3, 1, 2}));
  // 1150 and 1050, both on cylinder 5: 1050 first.
  const std::vector<Command> tie = {{0, 1000, 1}, {1000, 1150, 1}, {1000, 1050, 1}};
  EXPECT_EQ(ServedOrder(QueuePolicy::kSdfExact, ToyDrive(), tie), (std::vector<uint64_t>{0, 2, 1}));
}

// With zero-latency reads the estimate is the drive's: command 0 reads sector 0 (arm
// released at 0.1 ms). Waiting: 1, LBNs 100-149 (head 1, sectors 0-49): the head lands
// at 0.6 ms on sector 6's boundary and reads 6-49, waits out the 50 sectors not wanted
// (5 ms), then reads 0-5: 0.5 + 5.0 = 5.5 ms; waiting for sector 0 instead, 9.9 ms.
// 2, LBN 160 (sector 60 of head 1): 0.5 + 5.4 = 5.9 ms either way.
TEST(HddDeviceTest, SptfOptEstimatesAZeroLatencyAccess) {
  const std::vector<Command> commands = {{0, 0, 1}, {1000, 100, 50}, {1000, 160, 1}};
  HddParams p = ToyDrive();
  p.cache.read_ahead_scheme = 0;
  EXPECT_EQ(ServedOrder(QueuePolicy::kSptfOpt, p, commands), (std::vector<uint64_t>{0, 2, 1}));
  p.cache.zero_latency_reads = true;
  EXPECT_EQ(ServedOrder(QueuePolicy::kSptfOpt, p, commands), (std::vector<uint64_t>{0, 1, 2}));
}

// Of commands that cost the same, SPTF takes the one that came first: two reads
// of one sector, the second served from the buffer the first filled.
TEST(HddDeviceTest, SptfBreaksTiesByArrival) {
  Simulation sim;
  HddParams p = ToyDrive();
  p.queue_depth = 8;
  HddDevice disk(&sim, "d0", p, QueuePolicy::kSptf);
  Driver drv(&sim, &disk);
  drv.ReadAt(0, 0, 1);
  for (const int64_t lbn : {1050, 1050, 1050}) drv.ReadAt(1000, lbn, 1);
  sim.Run();
  EXPECT_EQ(CompletionOrder(drv.service), (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(drv.outcome[1], HddBreakdown::CacheOutcome::kMiss);
  EXPECT_EQ(drv.outcome[2], HddBreakdown::CacheOutcome::kWholeHit);
  EXPECT_EQ(drv.outcome[3], HddBreakdown::CacheOutcome::kWholeHit);
}

TEST(HddDeviceTest, DeterministicForTheSameInputs) {
  EXPECT_EQ(RunRandomReads(1), RunRandomReads(1));
  EXPECT_NE(RunRandomReads(1), RunRandomReads(2));
}

}  // namespace
}  // namespace ziosim
