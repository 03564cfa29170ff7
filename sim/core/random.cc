#include "sim/core/random.h"

namespace ziosim {

uint64_t StreamSeed(uint64_t run_seed, std::string_view component) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a offset basis
  for (unsigned char c : component) {
    h ^= c;
    h *= 0x100000001b3ULL;  // FNV-1a prime
  }
  uint64_t z = run_seed + 0x9e3779b97f4a7c15ULL + h;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace ziosim
