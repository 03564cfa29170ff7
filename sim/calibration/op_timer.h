// Timing a short operation on the machine that runs ziosim, for
// `ziosim calibrate --kind host`: steady_clock around a loop of the operation,
// the loop long enough to dwarf the clock's own cost, repeated; the median
// per-operation time is the figure and the interquartile range / median its
// spread (a loop another process preempted lands in the top quarter, not in it).
#ifndef ZIOSIM_SIM_CALIBRATION_OP_TIMER_H_
#define ZIOSIM_SIM_CALIBRATION_OP_TIMER_H_

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

namespace ziosim {

struct OpTiming {
  double median_ns = 0;   // per operation
  double spread_pct = 0;  // 100 x (third quartile - first quartile) / median over the repeats
  int repeats = 0;
  int64_t iterations = 0;  // operations per repeat
};

// Makes the compiler assume `p`'s memory is read and written here, so that it
// neither drops the work that produced it nor hoists it out of the loop.
inline void KeepAlive(const void* p) { asm volatile("" : : "r"(p) : "memory"); }

// The summary of per-operation times, one per repeat.
OpTiming SummarizeRepeats(std::vector<double> per_op_ns, int64_t iterations);

// Times `op(i)` (i: the iteration, to vary the work): one warm-up call, then
// iterations doubled until a loop lasts an eighth of `target_ns`, scaled to
// `target_ns`, and `repeats` loops of that many.
template <typename Op>
OpTiming TimeOp(Op&& op, int repeats, int64_t target_ns) {
  using Clock = std::chrono::steady_clock;
  auto loop_ns = [&op](int64_t n) {
    const Clock::time_point start = Clock::now();
    for (int64_t i = 0; i < n; ++i) op(i);
    return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  };
  loop_ns(1);
  int64_t n = 1;
  double ns = loop_ns(n);
  while (ns < static_cast<double>(target_ns) / 8 && n < (int64_t{1} << 40)) ns = loop_ns(n *= 2);
  n = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(n) * static_cast<double>(target_ns) / ns));
  std::vector<double> per_op;
  for (int r = 0; r < repeats; ++r) per_op.push_back(loop_ns(n) / static_cast<double>(n));
  return SummarizeRepeats(std::move(per_op), n);
}

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_OP_TIMER_H_
