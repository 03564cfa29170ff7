// DiskSim's angles: fractions of a revolution as 32-bit fixed point (dm_angle_t),
// which wrap around as unsigned sums do.
#ifndef ZIOSIM_MODELS_DISKSIM_DISKSIM_ANGLE_H_
#define ZIOSIM_MODELS_DISKSIM_DISKSIM_ANGLE_H_

#include <cmath>
#include <cstdint>

namespace ziosim {

// dm_angle_dtoi (diskmodel/convert.c): the fractional part of an angle above one
// revolution, times 2^32. One revolution exactly becomes 0, as the x86-64 conversion
// DiskSim relies on truncates it. REQUIRES: 0 <= revolutions < 2^31.
inline uint32_t DisksimAngle(double revolutions) {
  if (revolutions > 1.0) revolutions -= std::trunc(revolutions);
  return static_cast<uint32_t>(static_cast<uint64_t>(revolutions * 4294967296.0));
}

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DISKSIM_DISKSIM_ANGLE_H_
