// Byte arithmetic shared by the ZFS layer and its tests: the binary multiples
// ZFS counts sizes and tunables in, and rounding up to an allocation unit.
#ifndef ZIOSIM_SIM_CORE_BYTES_H_
#define ZIOSIM_SIM_CORE_BYTES_H_

#include <cstdint>

namespace ziosim {

inline constexpr int64_t kKiB = int64_t{1} << 10;
inline constexpr int64_t kMiB = int64_t{1} << 20;
inline constexpr int64_t kGiB = int64_t{1} << 30;

// `x` rounded up to a multiple of `unit` > 0 (OpenZFS's roundup(); P2ROUNDUP
// when `unit` is a power of two). `x` >= 0.
constexpr int64_t RoundUp(int64_t x, int64_t unit) { return (x + unit - 1) / unit * unit; }

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_BYTES_H_
