#include "sim/workload/overhead_calibration.h"

#include <algorithm>

#include "models/device/hdd.h"
#include "sim/stats/demerit.h"

namespace ziosim {

namespace {

enum Class { kReadHit = 0, kReadMiss = 1, kWrite = 2 };

struct Replayed {
  ValidateReplayResult result;
  std::vector<Class> classes;  // per request
};

Replayed Replay(const HddParams& params, std::span<const ValidateRecord> records) {
  Simulation sim;
  HddDevice disk(&sim, params.name, params);
  Replayed r;
  r.classes.reserve(records.size());
  r.result = ReplayValidateRecords(disk, sim, records, [&r](const ValidateRequestResult& q) {
    const bool hit = q.breakdown->cache == HddBreakdown::CacheOutcome::kWholeHit;
    r.classes.push_back(q.record->op == IoOp::kWrite ? kWrite : hit ? kReadHit : kReadMiss);
  });
  return r;
}

SimTime Shifted(SimTime ns, double ms) { return std::max<SimTime>(0, ns + MsToNs(ms)); }

}  // namespace

HeldOutFigures SecondHalfFigures(const ValidateReplayResult& r) {
  const size_t half = r.measured_ms.size() / 2;
  std::vector<double> measured(r.measured_ms.begin() + half, r.measured_ms.end());
  std::vector<double> simulated(r.simulated_ms.begin() + half, r.simulated_ms.end());
  double m = 0, s = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    m += measured[i];
    s += simulated[i];
  }
  return HeldOutFigures{m > 0 ? 100.0 * (s - m) / m : 0.0, DemeritMs(std::move(measured), std::move(simulated))};
}

HddParams ApplyOverheadFit(HddParams p, const OverheadFit& fit) {
  HddInterface& io = p.interface;
  const bool write_back = p.cache.enabled && p.cache.fast_write_level > 0;
  for (int prev = 0; prev < 2; ++prev) {
    io.read_hit_ns[prev] = Shifted(io.read_hit_ns[prev], fit.read_hit_ms);
    io.read_miss_ns[prev] = Shifted(io.read_miss_ns[prev], fit.read_miss_ms);
    SimTime& write = write_back ? io.write_hit_ns[prev] : io.write_miss_ns[prev];
    write = Shifted(write, fit.write_ms);
  }
  return p;
}

OverheadCalibration CalibrateOverheads(const HddParams& spec, std::span<const ValidateRecord> records) {
  const Replayed base = Replay(spec, records);
  const size_t half = records.size() / 2;
  double sum[3] = {0, 0, 0};
  int64_t n[3] = {0, 0, 0};
  for (size_t i = 0; i < half; ++i) {
    sum[base.classes[i]] += base.result.measured_ms[i] - base.result.simulated_ms[i];
    ++n[base.classes[i]];
  }
  OverheadCalibration c;
  c.fit.read_hit_ms = n[kReadHit] > 0 ? sum[kReadHit] / n[kReadHit] : 0;
  c.fit.read_miss_ms = n[kReadMiss] > 0 ? sum[kReadMiss] / n[kReadMiss] : 0;
  c.fit.write_ms = n[kWrite] > 0 ? sum[kWrite] / n[kWrite] : 0;
  c.fit.fitted_requests = static_cast<int64_t>(half);
  c.calibrated = Replay(ApplyOverheadFit(spec, c.fit), records).result;
  c.spec_held_out = SecondHalfFigures(base.result);
  c.calibrated_held_out = SecondHalfFigures(c.calibrated);
  return c;
}

}  // namespace ziosim
