// The reference device of the real-ZFS cross-check (scripts/crosscheck/): every
// command takes `latency_ns + size / bandwidth` on one of `lanes` servers, in
// arrival order. It is deliberately not a model of any hardware: it is the
// device that both the simulator and the interposer under libzpool or zfs-fuse
// implement identically, so that a difference between them is a difference of
// the ZFS layer. Spelled wherever a drive name is:
//
//   fixed:latency=4ms,bandwidth=150MB/s,lanes=1,rotational=no,capacity=4G,depth=1024
//
// `rotational` is what ZFS is told (vdev_nonrot); it changes mirror child
// selection and aggregation, not the device's timing. All state lives in arrays
// sized by `depth` at construction; a command allocates nothing.
#ifndef ZIOSIM_MODELS_DEVICE_FIXED_DEVICE_H_
#define ZIOSIM_MODELS_DEVICE_FIXED_DEVICE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/device/device.h"

namespace ziosim {

inline constexpr std::string_view kFixedDevicePrefix = "fixed:";

struct FixedDeviceParams {
  SimTime latency_ns = 0;          // per command, before its data moves
  double bandwidth_bytes_s = 0;    // data rate of one lane
  int lanes = 1;                   // commands in service at once
  bool rotational = false;         // what ZFS is told
  int64_t capacity_bytes = int64_t{1} << 40;
  int queue_depth = 1024;          // commands the device accepts at once (a file or loop device: many)

  // Service time of one command of `size_bytes`.
  SimTime ServiceNs(int64_t size_bytes) const;
};

// Parses "fixed:KEY=VALUE,..." (latency and bandwidth required). Throws InputError
// naming the key, e.g. `fixed: bandwidth: "fast" is not a positive rate ...`.
FixedDeviceParams ParseFixedDevice(std::string_view text);

class FixedDevice final : public Device {
 public:
  FixedDevice(Simulation* sim, std::string name, const FixedDeviceParams& params);

  bool is_rotational() const override { return params_.rotational; }
  int64_t capacity_bytes() const override { return params_.capacity_bytes; }
  int queue_depth() const override { return params_.queue_depth; }
  int in_device() const override { return in_device_; }
  void Submit(const DeviceRequest& req) override;
  void OnEvent(uint32_t kind, uint64_t arg) override;

  const FixedDeviceParams& params() const { return params_; }

 private:
  struct Slot {
    DeviceRequest req;
    SimTime submitted = 0;
  };

  FixedDeviceParams params_;
  std::vector<SimTime> lane_free_at_;  // when each lane finishes its last command
  std::vector<Slot> slots_;            // commands in the device, by slot
  std::vector<int> free_slots_;        // a stack of unused slot numbers
  int in_device_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_FIXED_DEVICE_H_
