// libziosim_realtime.so: ziosim devices serving I/O on the wall clock. Given
// the arrival times it saw, its service must be the simulator's own, event for
// event, and no waiter may be released before its simulated completion.
#include "bindings/realtime/ziosim_realtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/core/simulation.h"

namespace ziosim {
namespace {

// The library's clock: CLOCK_MONOTONIC, which steady_clock reads on Linux.
int64_t MonotonicNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Served {
  int leaf;
  int64_t offset, size, arrival, start, end;
  int64_t released;  // wall clock when the waiter returned, since the origin
};

struct RtCloser {
  void operator()(ziosim_rt_t* rt) const { ziosim_rt_close(rt); }
};
using Rt = std::unique_ptr<ziosim_rt_t, RtCloser>;

Rt Open(const std::string& drive, int leaves) {
  char err[512] = "";
  Rt rt(ziosim_rt_open(drive.c_str(), leaves, err, sizeof err));
  EXPECT_NE(rt, nullptr) << err;
  return rt;
}

// Submits `batch` reads of `size` at once on `leaf`, then waits for them; `rounds` times.
std::vector<Served> ReadBatches(ziosim_rt_t* rt, int leaf, int rounds, int batch, int64_t size, uint64_t seed) {
  std::vector<Served> out;
  uint64_t x = seed;
  for (int r = 0; r < rounds; ++r) {
    std::vector<std::pair<ziosim_rt_io_t*, Served>> pending;
    for (int b = 0; b < batch; ++b) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      const int64_t offset = static_cast<int64_t>((x >> 20) % (1ULL << 24)) * 4096;  // within the first 64 GiB
      Served s{leaf, offset, size, 0, 0, 0, 0};
      char err[256];
      ziosim_rt_io_t* io = ziosim_rt_submit(rt, leaf, 'R', offset, size, &s.arrival, err, sizeof err);
      EXPECT_NE(io, nullptr) << err;
      pending.emplace_back(io, s);
    }
    for (auto& [io, s] : pending) {
      ziosim_rt_wait(rt, io, &s.start, &s.end);
      s.released = MonotonicNs() - ziosim_rt_origin_ns(rt);
      out.push_back(s);
    }
  }
  return out;
}

// Replays `served`'s arrivals through a plain Simulation with the same devices.
class Replay : public EventHandler, public DeviceListener {
 public:
  Replay(const DriveSpec& spec, int leaves, const std::vector<Served>& served) : served_(served) {
    for (int i = 0; i < leaves; ++i) {
      const std::string name = "d" + std::to_string(i);
      devices_.push_back(MakeDevice(&sim_, name, spec, NativeQueuePolicy(spec), SpindlePhase(ZIOSIM_RT_SEED, name)));
      devices_.back()->set_listener(this);
    }
    starts_.resize(served.size());
    ends_.resize(served.size());
    std::vector<size_t> order(served.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return served[a].arrival < served[b].arrival; });
    for (size_t i : order) sim_.Schedule(served[i].arrival, this, 0, i);
    sim_.Run();
  }
  int64_t start(size_t i) const { return starts_[i]; }
  int64_t end(size_t i) const { return ends_[i]; }

 private:
  void OnEvent(uint32_t, uint64_t i) override {
    const Served& s = served_[i];
    devices_[s.leaf]->Submit(DeviceRequest{i, s.offset, s.size, IoOp::kRead});
  }
  void OnDeviceDone(const DeviceRequest& req, SimTime submitted, SimTime done) override {
    starts_[req.tag] = submitted;
    ends_[req.tag] = done;
  }

  Simulation sim_;
  const std::vector<Served>& served_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<int64_t> starts_, ends_;
};

TEST(RealtimeDeviceTest, ServesTheReferenceDeviceInArrivalOrderOnTheWallClock) {
  Rt rt = Open("fixed:latency=2ms,bandwidth=102.4MB/s,lanes=1", 1);
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(ziosim_rt_rotational(rt.get()), 0);
  const std::vector<Served> s = ReadBatches(rt.get(), 0, 2, 3, 102400, 1);  // 2 ms + 1 ms each
  int64_t free_at = 0;
  for (const Served& io : s) {
    EXPECT_EQ(io.start, io.arrival);  // the device takes every command at once (depth 1024)
    free_at = std::max(free_at, io.arrival) + 3'000'000;
    EXPECT_EQ(io.end, free_at);
    EXPECT_GE(io.released, io.end);  // never released before its simulated completion
  }
}

TEST(RealtimeDeviceTest, AnHddServesAsTheSimulatorDoesGivenTheSameArrivals) {
  const std::string drive = "generic-7200-hdd";
  Rt rt = Open(drive, 2);
  ASSERT_NE(rt, nullptr);
  EXPECT_EQ(ziosim_rt_rotational(rt.get()), 1);
  Simulation sim;
  EXPECT_EQ(ziosim_rt_capacity_bytes(rt.get()),
            MakeDevice(&sim, "d0", ResolveDrive(drive), QueuePolicy::kFifo)->capacity_bytes());
  std::vector<Served> a, b;
  std::thread t0([&] { a = ReadBatches(rt.get(), 0, 4, 4, 65536, 7); });  // 4 queued: NCQ reorders them
  std::thread t1([&] { b = ReadBatches(rt.get(), 1, 4, 4, 65536, 9); });
  t0.join();
  t1.join();
  std::vector<Served> all = a;
  all.insert(all.end(), b.begin(), b.end());
  const Replay replay(ResolveDrive(drive), 2, all);
  int reordered = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].start, replay.start(i)) << "I/O " << i;
    EXPECT_EQ(all[i].end, replay.end(i)) << "I/O " << i;
    EXPECT_GE(all[i].released, all[i].end);
    if (i % 4 != 0 && all[i].end < all[i - 1].end) ++reordered;
  }
  EXPECT_GT(reordered, 0);  // the drive's own queue order, not arrival order
}

struct AsyncLog {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Served> served;
  size_t done = 0;
  ziosim_rt_t* rt = nullptr;
};

struct AsyncIo {
  AsyncLog* log;
  size_t index;
};

void OnAsyncDone(void* arg, int64_t start_ns, int64_t end_ns) {
  auto* io = static_cast<AsyncIo*>(arg);
  const int64_t released = MonotonicNs() - ziosim_rt_origin_ns(io->log->rt);
  std::lock_guard<std::mutex> lk(io->log->mu);
  Served& s = io->log->served[io->index];
  s.start = start_ns;
  s.end = end_ns;
  s.released = released;
  ++io->log->done;
  io->log->cv.notify_all();
}

TEST(RealtimeDeviceTest, AsynchronousIoCompletesThroughItsCallbackAsTheSimulatorServesIt) {
  const std::string drive = "generic-7200-hdd";
  Rt rt = Open(drive, 1);
  ASSERT_NE(rt, nullptr);
  AsyncLog log;
  log.rt = rt.get();
  constexpr size_t kIos = 12;
  log.served.resize(kIos);
  std::vector<AsyncIo> ios(kIos);
  for (size_t i = 0; i < kIos; ++i) {
    ios[i] = {&log, i};
    Served s{0, static_cast<int64_t>((i * 7919) % 1000) << 20, 131072, 0, 0, 0, 0};
    {
      std::lock_guard<std::mutex> lk(log.mu);
      log.served[i] = s;
    }
    char err[256];
    int64_t arrival = 0;
    ASSERT_EQ(ziosim_rt_submit_async(rt.get(), 0, 'R', s.offset, s.size, OnAsyncDone, &ios[i], &arrival, err,
                                     sizeof err), 0)
        << err;
    std::lock_guard<std::mutex> lk(log.mu);
    log.served[i].arrival = arrival;
  }
  std::unique_lock<std::mutex> lk(log.mu);
  log.cv.wait(lk, [&] { return log.done == kIos; });
  const Replay replay(ResolveDrive(drive), 1, log.served);
  for (size_t i = 0; i < kIos; ++i) {
    EXPECT_EQ(log.served[i].start, replay.start(i)) << "I/O " << i;
    EXPECT_EQ(log.served[i].end, replay.end(i)) << "I/O " << i;
    EXPECT_GE(log.served[i].released, log.served[i].end);
  }
}

TEST(RealtimeDeviceTest, StartWaitsForTheIoInFlight) {
  Rt rt = Open("fixed:latency=20ms,bandwidth=1GB/s,lanes=1", 1);
  ASSERT_NE(rt, nullptr);
  AsyncLog log;
  log.rt = rt.get();
  log.served.resize(1);
  AsyncIo io{&log, 0};
  char err[256];
  int64_t arrival = 0;
  ASSERT_EQ(ziosim_rt_submit_async(rt.get(), 0, 'R', 0, 4096, OnAsyncDone, &io, &arrival, err, sizeof err), 0);
  const int64_t before = MonotonicNs();
  ziosim_rt_start(rt.get());
  EXPECT_GE(MonotonicNs() - before, 19'000'000);  // it waited for the 20 ms read
  std::unique_lock<std::mutex> lk(log.mu);
  log.cv.wait(lk, [&] { return log.done == 1; });
}

TEST(RealtimeDeviceTest, StartGivesFreshDevicesAndANewOrigin) {
  Rt rt = Open("fixed:latency=1ms,bandwidth=1GB/s,lanes=1", 1);
  ASSERT_NE(rt, nullptr);
  const int64_t first = ziosim_rt_origin_ns(rt.get());
  ReadBatches(rt.get(), 0, 1, 1, 4096, 3);
  ziosim_rt_start(rt.get());
  EXPECT_GT(ziosim_rt_origin_ns(rt.get()), first);
  const std::vector<Served> s = ReadBatches(rt.get(), 0, 1, 1, 4096, 3);
  EXPECT_LT(s[0].arrival, 1'000'000'000);  // times count from the new origin
  EXPECT_EQ(s[0].start, s[0].arrival);     // and the lane is idle
}

TEST(RealtimeDeviceTest, RejectsWhatTheDriveCannotTake) {
  char err[512] = "";
  EXPECT_EQ(ziosim_rt_open("no-such-drive", 1, err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("no-such-drive"), std::string::npos) << err;
  EXPECT_EQ(ziosim_rt_open("generic-ssd", 0, err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("leaves"), std::string::npos) << err;

  Rt rt = Open("fixed:latency=1ms,bandwidth=1GB/s,capacity=1M", 2);
  ASSERT_NE(rt, nullptr);
  int64_t arrival = 0;
  EXPECT_EQ(ziosim_rt_submit(rt.get(), 0, 'R', 1 << 20, 4096, &arrival, err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("inside the drive's 1048576 bytes"), std::string::npos) << err;
  EXPECT_EQ(ziosim_rt_submit(rt.get(), 0, 'R', 100, 4096, &arrival, err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("sectors"), std::string::npos) << err;
  EXPECT_EQ(ziosim_rt_submit(rt.get(), 2, 'R', 0, 4096, &arrival, err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("leaf 2"), std::string::npos) << err;
  EXPECT_EQ(ziosim_rt_submit(rt.get(), 0, 'X', 0, 4096, &arrival, err, sizeof err), nullptr);
  EXPECT_NE(std::string(err).find("op"), std::string::npos) << err;
  EXPECT_EQ(ziosim_rt_submit_async(rt.get(), 0, 'R', 0, 4096, nullptr, nullptr, &arrival, err, sizeof err), -1);
  EXPECT_NE(std::string(err).find("done"), std::string::npos) << err;
}

}  // namespace
}  // namespace ziosim
