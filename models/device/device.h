// A Device is one disk or SSD: it accepts read and write commands (byte
// offset and size), holds them in its own command queue, services them, and
// reports each completion to its listener. HDD and SSD are the two
// implementations; a vdev leaf or a workload sits on top.
//
// Contract: the caller keeps at most queue_depth() commands inside the device
// (in_device() tells how many are there); Submit() beyond that, or outside
// the device's capacity, is an internal error. Completion callbacks run from
// the event loop at the completion instant. Not thread-safe.
#ifndef ZIOSIM_MODELS_DEVICE_DEVICE_H_
#define ZIOSIM_MODELS_DEVICE_DEVICE_H_

#include <bit>
#include <cstdint>
#include <string>

#include "models/device/device_stats.h"
#include "models/device/queue_policy.h"
#include "sim/core/simulation.h"

namespace ziosim {

enum class IoOp : uint8_t { kRead = 0, kWrite = 1 };

// How urgently the host waits for a request, as DiskSim's request flags say it
// (TIME_CRITICAL: a synchronous request; TIME_LIMITED: an asynchronous read), which its
// priority schedulers read (PRI_VSCAN_LBN, PRI_ASPTF_OPT, PRI_ASPCTF_OPT).
enum class Urgency : uint8_t { kNone = 0, kTimeLimited = 1, kTimeCritical = 2 };

struct DeviceRequest {
  uint64_t tag = 0;  // caller's identifier, handed back on completion
  int64_t offset_bytes = 0;
  int64_t size_bytes = 0;
  IoOp op = IoOp::kRead;
  Urgency urgency = Urgency::kNone;
};

class DeviceListener {
 public:
  virtual ~DeviceListener() = default;
  // `submitted` is when the command entered the device, `done` is now.
  virtual void OnDeviceDone(const DeviceRequest& req, SimTime submitted, SimTime done) = 0;
};

class Device : public EventHandler {
 public:
  Device(Simulation* sim, std::string name) : sim_(sim), name_(std::move(name)) {}
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const std::string& name() const { return name_; }
  virtual bool is_rotational() const = 0;
  virtual int64_t capacity_bytes() const = 0;
  // Sector size the device addresses in (offsets and sizes are multiples).
  virtual int64_t sector_bytes() const { return 512; }
  // Most commands the device accepts at once (NCQ / NVMe queue depth).
  virtual int queue_depth() const = 0;
  virtual int in_device() const = 0;

  // REQUIRES: in_device() < queue_depth(); the request lies inside the device.
  virtual void Submit(const DeviceRequest& req) = 0;
  // When a cache flush issued now (SYNCHRONIZE CACHE, DKIOCFLUSHWRITECACHE)
  // completes: everything the device has acknowledged is then on stable media.
  // The flush waits for the write-back destage already modelled and adds no
  // arm work of its own. Devices without a volatile write cache: now.
  virtual SimTime FlushDoneAt() const { return sim_->now(); }

  void set_listener(DeviceListener* listener) { listener_ = listener; }
  const DeviceStats& stats() const { return stats_; }
  // Closes the busy-time accounting at `now` (call before reading stats at the end of a run).
  void FinishStats(SimTime now) { stats_.Finish(now); }
  // Starts the statistics afresh at `now` (e.g. after a warm-up pass).
  void ResetStats(SimTime now) { stats_.Restart(now, in_device()); }

 protected:
  // Validates a request against capacity, sector alignment and queue depth;
  // throws std::logic_error. Inline: in the Submit of a final device class its
  // figures are then direct calls, not virtual ones, on every command.
  void CheckRequest(const DeviceRequest& req) const {
    if (!RequestInRange(req) || in_device() >= queue_depth()) RejectRequest(req);
  }

  Simulation* sim_;
  DeviceListener* listener_ = nullptr;
  DeviceStats stats_;

 private:
  bool RequestInRange(const DeviceRequest& req) const {
    const int64_t sector = sector_bytes();
    // Sectors are powers of two but for odd test devices: a mask then, not two divisions.
    const bool aligned = std::has_single_bit(static_cast<uint64_t>(sector))
                             ? ((req.offset_bytes | req.size_bytes) & (sector - 1)) == 0
                             : req.offset_bytes % sector == 0 && req.size_bytes % sector == 0;
    return req.size_bytes > 0 && req.offset_bytes >= 0 && aligned &&
           req.offset_bytes + req.size_bytes <= capacity_bytes();
  }
  // Throws the error for a request CheckRequest refused.
  [[noreturn]] void RejectRequest(const DeviceRequest& req) const;

  std::string name_;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_DEVICE_H_
