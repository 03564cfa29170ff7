#include "models/device/device_stats.h"

#include <bit>

namespace ziosim {

void Log2Histogram::Add(int64_t value) {
  const uint64_t v = value > 0 ? static_cast<uint64_t>(value) : 0;
  int k = v == 0 ? 0 : std::bit_width(v) - 1;
  if (k >= kBuckets) k = kBuckets - 1;
  ++buckets_[k];
  ++count_;
}

int64_t Log2Histogram::QuantileUpperBound(double q) const {
  if (count_ == 0) return 0;
  const double target = q * static_cast<double>(count_);
  uint64_t seen = 0;
  for (int k = 0; k < kBuckets; ++k) {
    seen += buckets_[k];
    if (static_cast<double>(seen) >= target && buckets_[k] > 0) return int64_t{1} << (k + 1);
  }
  return int64_t{1} << kBuckets;
}

void DeviceStats::OnEnter(SimTime now, int in_device_after) {
  ++submitted_;
  if (in_device_after > max_in_device_) max_in_device_ = in_device_after;
  if (!busy_ && in_device_after > 0) {
    busy_ = true;
    busy_since_ = now;
  }
}

void DeviceStats::OnLeave(SimTime now, int in_device_after, bool is_write, int64_t bytes,
                          SimTime service_ns) {
  const int dir = is_write ? 1 : 0;
  ++ops_[dir];
  bytes_[dir] += bytes;
  total_service_ns_ += service_ns;
  service_ns_.Add(service_ns);
  if (busy_ && in_device_after == 0) {
    busy_ns_ += now - busy_since_;
    busy_ = false;
  }
}

void DeviceStats::Finish(SimTime now) {
  if (busy_) {
    busy_ns_ += now - busy_since_;
    busy_since_ = now;
  }
}

void DeviceStats::Restart(SimTime now, int in_device) {
  *this = DeviceStats{};
  submitted_ = static_cast<uint64_t>(in_device);
  max_in_device_ = in_device;
  busy_ = in_device > 0;
  busy_since_ = now;
}

}  // namespace ziosim
