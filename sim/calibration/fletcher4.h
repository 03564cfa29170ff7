// Fletcher-4 as ZFS defines it (zio_checksum.h, fletcher_4_native): four
// 64-bit running sums over the buffer's 32-bit words, a += w, b += a, c += b,
// d += c. Scalar, one word at a time: the rate `ziosim calibrate --kind host`
// measures is that of the portable implementation, not a SIMD one.
#ifndef ZIOSIM_SIM_CALIBRATION_FLETCHER4_H_
#define ZIOSIM_SIM_CALIBRATION_FLETCHER4_H_

#include <array>
#include <cstdint>
#include <span>

namespace ziosim {

// The four sums over `words` (native byte order), starting from zero.
std::array<uint64_t, 4> Fletcher4(std::span<const uint32_t> words);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_FLETCHER4_H_
