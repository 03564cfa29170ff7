// The cross-check's reference device: each command takes latency + size /
// bandwidth on the first free of `lanes` servers, in arrival order, exactly as
// the interposers under libzpool and zfs-fuse serve it (scripts/crosscheck/).
#include "models/device/fixed_device.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/catalog/catalog.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

using test::ErrorOf;

struct Done {
  uint64_t tag;
  SimTime submitted, done;
};

class Recorder : public DeviceListener {
 public:
  void OnDeviceDone(const DeviceRequest& req, SimTime submitted, SimTime done) override {
    log.push_back({req.tag, submitted, done});
  }
  std::vector<Done> log;
};

// Every device refuses a command it could not take (Device::CheckRequest): not
// whole sectors, empty, before the start or past the end; an aligned one at the
// very end is taken.
TEST(FixedDeviceTest, RefusesCommandsOffSectorsOrOffTheDevice) {
  Simulation sim;
  FixedDevice dev(&sim, "f", ParseFixedDevice("fixed:latency=1ms,bandwidth=100MB/s,capacity=1M"));
  Recorder rec;
  dev.set_listener(&rec);
  const int64_t end = int64_t{1} << 20;
  for (const auto& [offset, size] : std::vector<std::pair<int64_t, int64_t>>{
           {256, 512}, {0, 700}, {0, 0}, {-512, 512}, {end - 512, 1024}, {end, 512}}) {
    std::string error;
    try {
      dev.Submit(DeviceRequest{1, offset, size, IoOp::kRead});
    } catch (const std::logic_error& e) {  // a caller's bug, not the user's input
      error = e.what();
    }
    EXPECT_NE(error.find("misaligned or outside"), std::string::npos) << "offset " << offset << " size " << size;
  }
  dev.Submit(DeviceRequest{2, end - 1024, 1024, IoOp::kRead});
  sim.Run();
  ASSERT_EQ(rec.log.size(), 1u);
  EXPECT_EQ(rec.log[0].tag, 2u);
}

// A command beyond the device's queue depth is refused too, and named as such.
TEST(FixedDeviceTest, RefusesACommandBeyondTheQueueDepth) {
  Simulation sim;
  FixedDevice dev(&sim, "f", ParseFixedDevice("fixed:latency=1ms,bandwidth=100MB/s,capacity=1M,depth=2"));
  Recorder rec;
  dev.set_listener(&rec);
  dev.Submit(DeviceRequest{1, 0, 512, IoOp::kRead});
  dev.Submit(DeviceRequest{2, 512, 512, IoOp::kRead});
  std::string error;
  try {
    dev.Submit(DeviceRequest{3, 1024, 512, IoOp::kRead});
  } catch (const std::logic_error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("f: submit beyond queue depth 2"), std::string::npos) << error;
  sim.Run();
  EXPECT_EQ(rec.log.size(), 2u);
}

TEST(FixedDeviceTest, ParsesEveryKey) {
  const FixedDeviceParams p =
      ParseFixedDevice("fixed:latency=4ms,bandwidth=150MB/s,lanes=2,rotational=yes,capacity=4G,depth=64");
  EXPECT_EQ(p.latency_ns, 4 * kNsPerMs);
  EXPECT_DOUBLE_EQ(p.bandwidth_bytes_s, 150e6);
  EXPECT_EQ(p.lanes, 2);
  EXPECT_TRUE(p.rotational);
  EXPECT_EQ(p.capacity_bytes, int64_t{4} << 30);
  EXPECT_EQ(p.queue_depth, 64);
  // MiB/s is binary, and a 128 KiB read at 150 MB/s takes 873.813 us (rounded to the ns).
  EXPECT_DOUBLE_EQ(ParseFixedDevice("fixed:latency=1us,bandwidth=1MiB/s").bandwidth_bytes_s, 1048576.0);
  EXPECT_EQ(p.ServiceNs(128 << 10), 4 * kNsPerMs + 873813);
}

TEST(FixedDeviceTest, BadSpellingsNameTheKey) {
  EXPECT_EQ(ErrorOf([] { ParseFixedDevice("fixed:bandwidth=150MB/s"); }), "fixed: latency: missing (e.g. latency=4ms)");
  EXPECT_NE(ErrorOf([] { ParseFixedDevice("fixed:latency=4ms,bandwidth=fast"); }).find("fixed: bandwidth"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseFixedDevice("fixed:latency=4ms,bandwidth=1MB/s,lanes=0"); }).find("fixed: lanes"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseFixedDevice("fixed:latency=4ms,bandwidth=1MB/s,speed=2"); }).find("fixed: speed"),
            std::string::npos);
  EXPECT_NE(ErrorOf([] { ParseFixedDevice("fixed:latency=4qs,bandwidth=1MB/s"); }).find("fixed: latency"),
            std::string::npos);
  EXPECT_THROW(ResolveDrive("fixed:latency=4ms"), InputError);
}

// Three 1 MiB reads at t=0 on two lanes: two start at once, the third waits for
// the first lane that frees; a read arriving later starts on arrival if a lane is idle.
TEST(FixedDeviceTest, ServesInArrivalOrderOnTheFirstFreeLane) {
  Simulation sim;
  FixedDevice d(&sim, "f", ParseFixedDevice("fixed:latency=1ms,bandwidth=1000MiB/s,lanes=2"));
  Recorder rec;
  d.set_listener(&rec);
  for (uint64_t t = 0; t < 3; ++t) d.Submit(DeviceRequest{t, static_cast<int64_t>(t) << 20, 1 << 20, IoOp::kRead});
  EXPECT_EQ(d.in_device(), 3);
  while (sim.Step()) {
  }
  ASSERT_EQ(rec.log.size(), 3u);
  const SimTime one = 2 * kNsPerMs;  // 1 ms + 1 MiB at 1000 MiB/s
  EXPECT_EQ(rec.log[0].done, one);
  EXPECT_EQ(rec.log[1].done, one);
  EXPECT_EQ(rec.log[2].tag, 2u);
  EXPECT_EQ(rec.log[2].done, 2 * one);
  d.FinishStats(sim.now());
  EXPECT_EQ(d.stats().reads(), 3u);
  EXPECT_EQ(d.stats().busy_ns(), 2 * one);
  EXPECT_FALSE(d.is_rotational());
}

TEST(FixedDeviceTest, IsADriveOfAPool) {
  const DriveSpec spec = ResolveDrive("fixed:latency=4ms,bandwidth=150MB/s,rotational=yes,capacity=1G");
  EXPECT_EQ(spec.kind, DriveSpec::Kind::kFixed);
  Simulation sim;
  const auto dev = MakeDevice(&sim, "d0", spec, QueuePolicy::kFifo);
  EXPECT_TRUE(dev->is_rotational());
  EXPECT_EQ(dev->capacity_bytes(), int64_t{1} << 30);
}

}  // namespace
}  // namespace ziosim
