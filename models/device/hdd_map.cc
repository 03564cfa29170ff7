#include "models/device/hdd_map.h"

#include "models/device/hdd_extent_map.h"
#include "models/device/hdd_geometry.h"

namespace ziosim {

std::unique_ptr<HddMap> MakeHddMap(const HddLayout& layout) {
  if (!layout.extents.empty()) return std::make_unique<HddExtentMap>(layout);
  return std::make_unique<HddGeometry>(layout);
}

}  // namespace ziosim
