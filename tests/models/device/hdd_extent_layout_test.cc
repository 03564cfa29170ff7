// The HDD model on an explicit layout (DiskSim's g2 and g4 become one): media
// transfers pass over slipped sectors, and each track starts where its extents say.
#include <gtest/gtest.h>

#include "models/device/hdd.h"

namespace ziosim {
namespace {

// hdd_test.cc's toy drive (6000 rpm: 10 ms a turn, 100 sectors of 100 us, 1 ms seeks,
// 10 us per block on the bus), laid out by extents: track (0, 0) holds LBNs 0-49 on
// sectors 0-49 and 50-98 on 51-99 (sector 50 slipped); track (0, 1) LBNs 99-198
// from a quarter turn on.
HddParams ExtentDrive() {
  HddParams p;
  p.name = "extents";
  p.source = "hdd_extent_layout_test";
  p.layout.surfaces = 2;
  p.layout.cylinders = 100;
  const uint32_t sector = static_cast<uint32_t>((int64_t{1} << 32) / 100);
  p.layout.extents = {{0, 50, 0, 0, 0, 100, 0, sector},
                      {50, 49, 0, 0, 51, 100, 51 * sector, sector},
                      {99, 100, 0, 1, 0, 100, uint32_t{1} << 30, sector}};
  p.mechanics.rpm = 6000;
  p.mechanics.seek.kind = HddSeekModel::Kind::kTable;
  p.mechanics.seek.table = {{1, MsToNs(1.0)}, {100, MsToNs(1.0)}};
  p.mechanics.head_switch_ns = MsToNs(0.5);
  p.interface.bus_read_block_ns = MsToNs(0.01);
  p.interface.bus_write_block_ns = MsToNs(0.01);
  p.cache.read_ahead_scheme = 0;
  p.cache.max_read_ahead_blocks = 0;
  return p;
}

class Submitter : public EventHandler {
 public:
  Submitter(Simulation* sim, Device* dev) : sim_(sim), dev_(dev) {}
  void ReadAt(SimTime at, int64_t lbn, int64_t blocks) {
    req_ = DeviceRequest{0, lbn * 512, blocks * 512, IoOp::kRead};
    sim_->Schedule(at, this, 0, 0);
  }
  void OnEvent(uint32_t, uint64_t) override { dev_->Submit(req_); }

 private:
  Simulation* sim_;
  Device* dev_;
  DeviceRequest req_;
};

TEST(HddExtentLayoutTest, TransferPassesOverASlippedSector) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ExtentDrive());
  EXPECT_EQ(disk.capacity_bytes(), 199 * 512);
  Submitter s(&sim, &disk);
  s.ReadAt(0, 40, 20);  // sectors 40-49 and 51-60: 21 sector times
  sim.Run();
  EXPECT_EQ(disk.last_breakdown().latency_ns, MsToNs(4.0));
  EXPECT_EQ(disk.last_breakdown().transfer_ns, MsToNs(2.1));
}

TEST(HddExtentLayoutTest, TrackStartsAtItsExtentsAngle) {
  Simulation sim;
  HddDevice disk(&sim, "d0", ExtentDrive());
  Submitter s(&sim, &disk);
  s.ReadAt(0, 99, 1);  // head 1, sector 0, a quarter turn (2.5 ms) on; the switch takes 0.5 ms
  sim.Run();
  EXPECT_EQ(disk.last_breakdown().seek_ns, MsToNs(0.5));
  EXPECT_EQ(disk.last_breakdown().latency_ns, MsToNs(2.0));
}

}  // namespace
}  // namespace ziosim
