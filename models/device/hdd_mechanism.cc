#include "models/device/hdd_mechanism.h"

#include <cmath>

namespace ziosim {

HddMechanism::HddMechanism(const HddMechanics& mech, const HddMap& geometry, double phase)
    : geometry_(geometry),
      seek_(mech.seek, geometry.cylinders()),
      period_ps_(std::llround(60e12 / mech.rpm)),
      phase_ps_(std::llround(phase * static_cast<double>(period_ps_)) % period_ps_),
      head_switch_ps_(mech.head_switch_ns * 1000),
      write_settle_ps_(mech.write_settle_ns * 1000) {}

}  // namespace ziosim
