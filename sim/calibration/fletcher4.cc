#include "sim/calibration/fletcher4.h"

namespace ziosim {

std::array<uint64_t, 4> Fletcher4(std::span<const uint32_t> words) {
  uint64_t a = 0, b = 0, c = 0, d = 0;
  for (const uint32_t w : words) {
    a += w;
    b += a;
    c += b;
    d += c;
  }
  return {a, b, c, d};
}

}  // namespace ziosim
