#include "models/device/device.h"

#include <stdexcept>

namespace ziosim {

void Device::RejectRequest(const DeviceRequest& req) const {
  if (!RequestInRange(req)) {
    throw std::logic_error("internal error: " + name() + ": request offset " +
                           std::to_string(req.offset_bytes) + " size " + std::to_string(req.size_bytes) +
                           " is misaligned or outside the device (capacity " +
                           std::to_string(capacity_bytes()) + " bytes)");
  }
  throw std::logic_error("internal error: " + name() + ": submit beyond queue depth " +
                         std::to_string(queue_depth()));
}

}  // namespace ziosim
