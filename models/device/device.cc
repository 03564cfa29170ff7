#include "models/device/device.h"

#include <bit>
#include <stdexcept>

namespace ziosim {

void Device::CheckRequest(const DeviceRequest& req) const {
  const int64_t sector = sector_bytes();
  // Sectors are powers of two but for odd test devices: a mask then, not two divisions.
  const bool aligned = std::has_single_bit(static_cast<uint64_t>(sector))
                           ? ((req.offset_bytes | req.size_bytes) & (sector - 1)) == 0
                           : req.offset_bytes % sector == 0 && req.size_bytes % sector == 0;
  if (req.size_bytes <= 0 || req.offset_bytes < 0 || !aligned ||
      req.offset_bytes + req.size_bytes > capacity_bytes()) {
    throw std::logic_error("internal error: " + name() + ": request offset " +
                           std::to_string(req.offset_bytes) + " size " + std::to_string(req.size_bytes) +
                           " is misaligned or outside the device (capacity " +
                           std::to_string(capacity_bytes()) + " bytes)");
  }
  if (in_device() >= queue_depth()) {
    throw std::logic_error("internal error: " + name() + ": submit beyond queue depth " +
                           std::to_string(queue_depth()));
  }
}

}  // namespace ziosim
