// Simulated time: a signed 64-bit count of nanoseconds since the start of a run.
// Integer time keeps runs bit-identical across platforms and free of rounding drift.
#ifndef ZIOSIM_SIM_CORE_TIME_H_
#define ZIOSIM_SIM_CORE_TIME_H_

#include <cmath>
#include <cstdint>

namespace ziosim {

using SimTime = int64_t;  // ns

inline constexpr SimTime kNsPerUs = 1000;
inline constexpr SimTime kNsPerMs = 1000 * kNsPerUs;
inline constexpr SimTime kNsPerSec = 1000 * kNsPerMs;
// Picoseconds per ns: the HDD model's unit, fine enough for a sector's start on a
// 2,000-sector track.
inline constexpr int64_t kPsPerNs = 1000;

// Converts a duration in (possibly fractional) milliseconds, as datasheets and
// DiskSim specs state them, to the nearest nanosecond.
inline SimTime MsToNs(double ms) { return static_cast<SimTime>(std::llround(ms * 1e6)); }
inline double NsToMs(SimTime ns) { return static_cast<double>(ns) / 1e6; }
inline double NsToSec(SimTime ns) { return static_cast<double>(ns) / 1e9; }

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_TIME_H_
