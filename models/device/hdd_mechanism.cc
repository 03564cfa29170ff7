#include "models/device/hdd_mechanism.h"

#include <algorithm>
#include <cmath>

namespace ziosim {

HddMechanism::HddMechanism(const HddMechanics& mech, const HddMap& geometry)
    : geometry_(geometry),
      seek_(mech.seek, geometry.cylinders()),
      period_ps_(std::llround(60e12 / mech.rpm)),
      head_switch_ps_(mech.head_switch_ns * 1000),
      write_settle_ps_(mech.write_settle_ns * 1000) {}

int64_t HddMechanism::PositionPs(const PhysicalAddress& to, bool is_write) const {
  const int64_t distance = std::abs(to.cylinder - cylinder_);
  int64_t ps = seek_.SeekPs(distance);
  if (to.head != head_) ps = std::max(ps, head_switch_ps_);
  if (is_write) ps += write_settle_ps_;
  return std::max<int64_t>(ps, 0);
}

int64_t HddMechanism::SectorStartPs(const PhysicalAddress& a) const {
  const HddMap::SectorSlot s = geometry_.AngleSlotOnTrack(a);
  return static_cast<int64_t>(s.slot) * period_ps_ / s.sectors_per_track;
}

}  // namespace ziosim
