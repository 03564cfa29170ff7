#include "models/device/hdd_mechanism.h"

#include <cmath>

namespace ziosim {

HddMechanism::HddMechanism(const HddMechanics& mech, const HddMap& geometry)
    : geometry_(geometry),
      seek_(mech.seek, geometry.cylinders()),
      period_ps_(std::llround(60e12 / mech.rpm)),
      head_switch_ps_(mech.head_switch_ns * 1000),
      write_settle_ps_(mech.write_settle_ns * 1000) {}

}  // namespace ziosim
