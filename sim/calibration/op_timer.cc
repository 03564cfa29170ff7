#include "sim/calibration/op_timer.h"

#include <algorithm>

namespace ziosim {

OpTiming SummarizeRepeats(std::vector<double> per_op_ns, int64_t iterations) {
  std::sort(per_op_ns.begin(), per_op_ns.end());
  OpTiming t;
  t.repeats = static_cast<int>(per_op_ns.size());
  t.iterations = iterations;
  if (per_op_ns.empty()) return t;
  const size_t mid = per_op_ns.size() / 2;
  t.median_ns = per_op_ns.size() % 2 == 1 ? per_op_ns[mid] : (per_op_ns[mid - 1] + per_op_ns[mid]) / 2;
  const double q1 = per_op_ns[per_op_ns.size() / 4], q3 = per_op_ns[per_op_ns.size() * 3 / 4];
  if (t.median_ns > 0) t.spread_pct = 100 * (q3 - q1) / t.median_ns;
  return t;
}

}  // namespace ziosim
