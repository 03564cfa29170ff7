// libziosim_realtime.so: ziosim devices serving real I/O in real time (see
// ziosim_realtime.h). The simulation's clock is the wall clock: the emulator
// thread runs every event whose time has come, then sleeps until the next one
// or until a new I/O arrives; an arrival is scheduled at its submit instant,
// so the device sees exactly the arrival sequence the program produced.
#include "bindings/realtime/ziosim_realtime.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "models/catalog/catalog.h"
#include "sim/core/status.h"

struct ziosim_rt_io {
  int leaf = 0;
  ziosim::DeviceRequest req;
  ziosim::SimTime arrival_ns = 0;
  ziosim::SimTime start_ns = 0;
  ziosim::SimTime end_ns = 0;
  bool done = false;
  std::condition_variable cv;                 // the waiter of a synchronous I/O
  ziosim_rt_done_fn callback = nullptr;       // or the completion of an asynchronous one
  void* callback_arg = nullptr;
};

namespace ziosim {
namespace {

int64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

class RealtimeEmulator final : public EventHandler, public DeviceListener {
 public:
  RealtimeEmulator(DriveSpec spec, int leaves) : spec_(std::move(spec)), leaves_(leaves) {
    if (leaves < 1) throw InputError("leaves: must be at least 1");
    Rebuild();
    thread_ = std::thread([this] { Loop(); });
  }
  ~RealtimeEmulator() override {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  bool rotational() const { return devices_[0]->is_rotational(); }
  int64_t capacity_bytes() const { return devices_[0]->capacity_bytes(); }
  int64_t origin_ns() const { return origin_ns_; }

  void Start() {
    std::unique_lock<std::mutex> lk(mu_);
    drained_.wait(lk, [this] { return in_flight_ == 0; });
    Rebuild();
  }

  // Sets *arrival_ns (under the lock: an asynchronous I/O may be gone once this returns).
  // Throws InputError for a request the drive cannot take. With a callback, nobody waits.
  ziosim_rt_io* Submit(int leaf, IoOp op, int64_t offset, int64_t size, int64_t* arrival_ns,
                       ziosim_rt_done_fn callback = nullptr, void* callback_arg = nullptr) {
    auto io = std::make_unique<ziosim_rt_io>();
    io->leaf = leaf;
    io->req = DeviceRequest{reinterpret_cast<uint64_t>(io.get()), offset, size, op};
    io->callback = callback;
    io->callback_arg = callback_arg;
    {
      std::lock_guard<std::mutex> lk(mu_);
      Check(io->req, leaf);
      io->arrival_ns = MonotonicNs() - origin_ns_;
      *arrival_ns = io->arrival_ns;
      arrivals_.push_back(io.get());
      ++in_flight_;
    }
    wake_.notify_one();
    return io.release();
  }

  void Wait(ziosim_rt_io* io, int64_t* start_ns, int64_t* end_ns) {
    std::unique_ptr<ziosim_rt_io> owned(io);
    std::unique_lock<std::mutex> lk(mu_);
    io->cv.wait(lk, [io] { return io->done; });
    *start_ns = io->start_ns;
    *end_ns = io->end_ns;
  }

 private:
  enum EventKind : uint32_t { kArrive = 0 };

  // Fresh simulation and devices, clock origin now. Caller holds mu_ (or is the constructor).
  void Rebuild() {
    sim_ = std::make_unique<Simulation>();
    devices_.clear();
    host_queue_.assign(leaves_, {});
    for (int i = 0; i < leaves_; ++i) {
      const std::string name = "d" + std::to_string(i);
      devices_.push_back(
          MakeDevice(sim_.get(), name, spec_, NativeQueuePolicy(spec_), SpindlePhase(ZIOSIM_RT_SEED, name)));
      devices_.back()->set_listener(this);
    }
    origin_ns_ = MonotonicNs();
  }

  void Check(const DeviceRequest& r, int leaf) const {
    if (leaf < 0 || leaf >= leaves_) {
      throw InputError("leaf " + std::to_string(leaf) + ": not from 0 to " + std::to_string(leaves_ - 1));
    }
    const Device& d = *devices_[leaf];
    const int64_t sector = d.sector_bytes();
    if (r.offset_bytes < 0 || r.size_bytes <= 0 || r.offset_bytes % sector != 0 || r.size_bytes % sector != 0 ||
        r.size_bytes > d.capacity_bytes() - r.offset_bytes) {
      throw InputError("leaf " + std::to_string(leaf) + ": " + std::to_string(r.size_bytes) + " bytes at " +
                       std::to_string(r.offset_bytes) + " is not whole " + std::to_string(sector) +
                       "-byte sectors inside the drive's " + std::to_string(d.capacity_bytes()) + " bytes");
    }
  }

  void Loop() {
    std::unique_lock<std::mutex> lk(mu_);
    try {
      while (!stop_) {
        for (ziosim_rt_io* io : arrivals_) {
          sim_->Schedule(std::max(io->arrival_ns, sim_->now()), this, kArrive, reinterpret_cast<uint64_t>(io));
        }
        arrivals_.clear();
        sim_->RunUntil(MonotonicNs() - origin_ns_);
        RunCallbacks(lk);
        // The predicate, not the notification, decides: an arrival or a stop may
        // have come while the callbacks ran unlocked, with nobody waiting.
        const auto woken = [this] { return stop_ || !arrivals_.empty(); };
        if (sim_->empty()) {
          wake_.wait(lk, woken);
          continue;
        }
        const int64_t due = origin_ns_ + sim_->next_event_at();
        if (due > MonotonicNs()) {
          wake_.wait_until(lk, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(due)), woken);
        }
      }
    } catch (const std::exception& e) {
      // Submit checked every request: an error here is the simulator's own.
      std::fprintf(stderr, "ziosim_realtime: internal error: %s\n", e.what());
      std::abort();
    }
  }

  // Completions of asynchronous I/O, outside the lock (a callback may submit).
  void RunCallbacks(std::unique_lock<std::mutex>& lk) {
    if (finished_.empty()) return;
    std::vector<ziosim_rt_io*> batch;
    batch.swap(finished_);
    lk.unlock();
    for (ziosim_rt_io* io : batch) {
      io->callback(io->callback_arg, io->start_ns, io->end_ns);
      delete io;
    }
    lk.lock();
  }

  // An arrival's instant has come: into the drive if it has room, else the host queue.
  void OnEvent(uint32_t /*kind*/, uint64_t arg) override {
    auto* io = reinterpret_cast<ziosim_rt_io*>(arg);
    host_queue_[io->leaf].push_back(io);
    Feed(io->leaf);
  }

  void Feed(int leaf) {
    Device& d = *devices_[leaf];
    std::deque<ziosim_rt_io*>& q = host_queue_[leaf];
    while (!q.empty() && d.in_device() < d.queue_depth()) {
      d.Submit(q.front()->req);
      q.pop_front();
    }
  }

  // Runs inside RunUntil(wall clock): the completion's instant has passed.
  void OnDeviceDone(const DeviceRequest& req, SimTime submitted, SimTime done) override {
    auto* io = reinterpret_cast<ziosim_rt_io*>(req.tag);
    io->start_ns = submitted;
    io->end_ns = done;
    io->done = true;
    const int leaf = io->leaf;  // a synchronous waiter may free io once notified
    if (io->callback != nullptr) {
      finished_.push_back(io);
    } else {
      io->cv.notify_one();
    }
    if (--in_flight_ == 0) drained_.notify_all();
    Feed(leaf);
  }

  const DriveSpec spec_;
  const int leaves_;
  std::mutex mu_;
  std::condition_variable wake_;     // the emulator thread: an arrival, or stop
  std::condition_variable drained_;  // Start(): the last I/O in flight completed
  std::unique_ptr<Simulation> sim_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::vector<std::deque<ziosim_rt_io*>> host_queue_;  // per leaf: arrived, waiting for room in the drive
  std::vector<ziosim_rt_io*> arrivals_;                // submitted, not yet scheduled
  std::vector<ziosim_rt_io*> finished_;                // asynchronous, completed, callback not yet run
  int64_t in_flight_ = 0;
  int64_t origin_ns_ = 0;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

static void CopyError(const std::string& what, char* err, size_t errlen) {
  if (err != nullptr && errlen > 0) std::snprintf(err, errlen, "%s", what.c_str());
}

}  // namespace ziosim

struct ziosim_rt {
  std::unique_ptr<ziosim::RealtimeEmulator> emulator;
};

extern "C" {

int ziosim_rt_abi_version(void) { return ZIOSIM_RT_ABI_VERSION; }

ziosim_rt_t* ziosim_rt_open(const char* drive, int leaves, char* err, size_t errlen) {
  try {
    if (drive == nullptr) throw ziosim::InputError("drive: missing");
    auto rt = std::make_unique<ziosim_rt>();
    rt->emulator = std::make_unique<ziosim::RealtimeEmulator>(ziosim::ResolveDrive(drive), leaves);
    return rt.release();
  } catch (const std::exception& e) {
    ziosim::CopyError(e.what(), err, errlen);
    return nullptr;
  }
}

int ziosim_rt_rotational(const ziosim_rt_t* rt) { return rt->emulator->rotational() ? 1 : 0; }

int64_t ziosim_rt_capacity_bytes(const ziosim_rt_t* rt) { return rt->emulator->capacity_bytes(); }

void ziosim_rt_start(ziosim_rt_t* rt) { rt->emulator->Start(); }

int64_t ziosim_rt_origin_ns(const ziosim_rt_t* rt) { return rt->emulator->origin_ns(); }

ziosim_rt_io_t* ziosim_rt_submit(ziosim_rt_t* rt, int leaf, int op, int64_t offset, int64_t size,
                                 int64_t* arrival_ns, char* err, size_t errlen) {
  try {
    if (op != 'R' && op != 'W') throw ziosim::InputError("op: expected 'R' or 'W'");
    return rt->emulator->Submit(leaf, op == 'R' ? ziosim::IoOp::kRead : ziosim::IoOp::kWrite, offset, size,
                                arrival_ns);
  } catch (const std::exception& e) {
    ziosim::CopyError(e.what(), err, errlen);
    return nullptr;
  }
}

int ziosim_rt_submit_async(ziosim_rt_t* rt, int leaf, int op, int64_t offset, int64_t size, ziosim_rt_done_fn done,
                           void* arg, int64_t* arrival_ns, char* err, size_t errlen) {
  try {
    if (op != 'R' && op != 'W') throw ziosim::InputError("op: expected 'R' or 'W'");
    if (done == nullptr) throw ziosim::InputError("done: missing");
    rt->emulator->Submit(leaf, op == 'R' ? ziosim::IoOp::kRead : ziosim::IoOp::kWrite, offset, size, arrival_ns,
                         done, arg);  // the emulator frees it after the callback
    return 0;
  } catch (const std::exception& e) {
    ziosim::CopyError(e.what(), err, errlen);
    return -1;
  }
}

void ziosim_rt_wait(ziosim_rt_t* rt, ziosim_rt_io_t* io, int64_t* start_ns, int64_t* end_ns) {
  rt->emulator->Wait(io, start_ns, end_ns);
}

void ziosim_rt_close(ziosim_rt_t* rt) { delete rt; }

}  // extern "C"
