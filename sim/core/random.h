// Per-component random streams. Each component derives its own engine from the
// run seed and a stable name ("disk3", "reader0"), so adding a disk does not
// shift the random numbers another disk draws.
#ifndef ZIOSIM_SIM_CORE_RANDOM_H_
#define ZIOSIM_SIM_CORE_RANDOM_H_

#include <cstdint>
#include <string_view>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

namespace ziosim {

// A stable 64-bit seed for (run seed, component name): FNV-1a over the name,
// mixed with the run seed by SplitMix64's finaliser.
uint64_t StreamSeed(uint64_t run_seed, std::string_view component);

class RandomStream {
 public:
  RandomStream(uint64_t run_seed, std::string_view component)
      : engine_(StreamSeed(run_seed, component)) {}

  // Uniform integer in [lo, hi].
  int64_t UniformInt(int64_t lo, int64_t hi) {
    return boost::random::uniform_int_distribution<int64_t>(lo, hi)(engine_);
  }
  // Uniform real in [0, 1).
  double Uniform01() { return boost::random::uniform_real_distribution<double>(0.0, 1.0)(engine_); }

 private:
  boost::random::mt19937_64 engine_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_RANDOM_H_
