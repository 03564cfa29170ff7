// What `iostat -x` / `gstat` would show for one device: busy time (at least
// one command inside), commands and bytes by direction, seek distances and a
// service-time histogram. Fixed-size storage: recording allocates nothing.
#ifndef ZIOSIM_MODELS_DEVICE_DEVICE_STATS_H_
#define ZIOSIM_MODELS_DEVICE_DEVICE_STATS_H_

#include <array>
#include <cstdint>

#include "sim/core/time.h"

namespace ziosim {

// Histogram with log2 buckets: bucket k holds values in [2^k, 2^(k+1)), bucket 0 also holds 0.
class Log2Histogram {
 public:
  static constexpr int kBuckets = 48;
  void Add(int64_t value);
  uint64_t count() const { return count_; }
  uint64_t bucket(int k) const { return buckets_[k]; }
  // Upper edge of the bucket holding the q-quantile (q in [0,1]); 0 if empty.
  int64_t QuantileUpperBound(double q) const;

 private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
};

class DeviceStats {
 public:
  // A command entered the device / left it (in_device counts after the change).
  void OnEnter(SimTime now, int in_device_after);
  void OnLeave(SimTime now, int in_device_after, bool is_write, int64_t bytes, SimTime service_ns);
  void OnSeek(int64_t distance_cylinders) { seek_cylinders_.Add(distance_cylinders); }
  void Finish(SimTime now);
  // Starts afresh at `now` with `in_device` commands inside (counted as submitted in the new window).
  void Restart(SimTime now, int in_device);

  SimTime busy_ns() const { return busy_ns_; }
  uint64_t reads() const { return ops_[0]; }
  uint64_t writes() const { return ops_[1]; }
  // Commands that entered the device; completed ones are reads() + writes().
  uint64_t submitted() const { return submitted_; }
  // The most commands inside the device at once.
  int max_in_device() const { return max_in_device_; }
  int64_t read_bytes() const { return bytes_[0]; }
  int64_t written_bytes() const { return bytes_[1]; }
  const Log2Histogram& service_ns() const { return service_ns_; }
  const Log2Histogram& seek_cylinders() const { return seek_cylinders_; }
  SimTime total_service_ns() const { return total_service_ns_; }

 private:
  SimTime busy_ns_ = 0;
  SimTime busy_since_ = 0;
  bool busy_ = false;
  uint64_t submitted_ = 0;
  int max_in_device_ = 0;
  std::array<uint64_t, 2> ops_{};
  std::array<int64_t, 2> bytes_{};
  SimTime total_service_ns_ = 0;
  Log2Histogram service_ns_;
  Log2Histogram seek_cylinders_;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_DEVICE_STATS_H_
