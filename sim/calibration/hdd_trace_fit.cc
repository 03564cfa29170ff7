#include "sim/calibration/hdd_trace_fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "models/catalog/hdd_from_datasheet.h"
#include "models/device/hdd.h"
#include "models/device/hdd_map.h"
#include "sim/calibration/drive_toml.h"
#include "sim/calibration/least_squares.h"
#include "sim/core/status.h"
#include "sim/workload/validate_replay.h"

namespace ziosim {
namespace {

constexpr int64_t kBlockBytes = 512;
// The slowest SATA link: the catalog's bus is SATA, and the measured per-block
// bus cost (10-20 MB/s SCSI in DiskSim's traces) is folded into the overheads.
constexpr double kLinkGbitS = 1.5;
// Model time to move one block over that link (8b/10b: ten line bits a byte).
constexpr double kLinkBlockMs = kBlockBytes * 10 / kLinkGbitS * 1e-6;
// Hits lie on a line in size; misses among sequential reads lie up to a
// revolution above it. A point is kept as a hit while its residual is under
// 4 robust sigmas, or 5 % of a revolution when the hits are nearly exact.
constexpr double kHitSigmas = 4;
constexpr double kHitFloorRevolutions = 0.05;
constexpr int kTrimPasses = 20;
constexpr int kMinHits = 3;
constexpr int kMinMisses = 10;

// What a trace cannot tell apart, assumed and marked `estimated` in the file.
constexpr int kSurfaces = 4;
constexpr int kZones = 8;
constexpr int kCacheSegments = 4;
constexpr int kQueueDepth = 32;
constexpr int64_t kSegmentRoundBytes = 64 * 1024;

struct Request {
  const ValidateRecord* r;
  int64_t head_lbn;  // where the previous request left the head
  bool sequential;   // starts where the previous request ended
};

std::vector<Request> Annotate(std::span<const ValidateRecord> records) {
  std::vector<Request> out;
  out.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    const ValidateRecord* prev = i > 0 ? &records[i - 1] : nullptr;
    const int64_t prev_end = prev != nullptr ? prev->lbn + prev->blocks : 0;
    out.push_back({&records[i], std::max<int64_t>(0, prev_end - 1), prev != nullptr && records[i].lbn == prev_end});
  }
  return out;
}

// Lower-envelope fit of latency = c0 + c1 * blocks: starts from the fastest
// quarter of each request size (so that the slope is seen from the start),
// then keeps the points within the noise of the line until stable.
struct EnvelopeFit {
  double intercept_ms = 0, per_block_ms = 0, rms_ms = 0;
  std::vector<bool> kept;
  int64_t count = 0;
};

EnvelopeFit FitLowerEnvelope(const std::vector<double>& blocks, const std::vector<double>& ms, double rev_ms) {
  const size_t n = ms.size();
  std::map<double, std::vector<double>> by_size;
  for (size_t i = 0; i < n; ++i) by_size[blocks[i]].push_back(ms[i]);
  std::map<double, double> start;
  for (auto& [size, latencies] : by_size) {
    std::nth_element(latencies.begin(), latencies.begin() + static_cast<std::ptrdiff_t>(latencies.size() / 4),
                     latencies.end());
    start[size] = latencies[latencies.size() / 4];
  }
  std::vector<bool> keep(n);
  for (size_t i = 0; i < n; ++i) keep[i] = ms[i] <= start[blocks[i]];
  EnvelopeFit out;
  for (int pass = 0; pass < kTrimPasses; ++pass) {
    const auto kept = static_cast<Eigen::Index>(std::count(keep.begin(), keep.end(), true));
    Eigen::MatrixXd x(kept, 2);
    Eigen::VectorXd y(kept);
    for (size_t i = 0, row = 0; i < n; ++i) {
      if (!keep[i]) continue;
      x(row, 0) = 1;
      x(row, 1) = blocks[i];
      y(row++) = ms[i];
    }
    // A single size among the kept points leaves the slope free: fit the level alone.
    const bool one_size = (x.col(1).array() == x(0, 1)).all();
    const LinearFit fit = FitLinear(one_size ? Eigen::MatrixXd(x.col(0)) : x, y);
    out.intercept_ms = fit.coefficients(0);
    out.per_block_ms = one_size ? 0.0 : std::max(0.0, fit.coefficients(1));
    out.rms_ms = fit.rms;
    out.count = kept;
    const double cut = std::max(kHitSigmas * RobustSigma(fit.residuals), kHitFloorRevolutions * rev_ms);
    std::vector<bool> next(n);
    for (size_t i = 0; i < n; ++i) next[i] = ms[i] - (out.intercept_ms + out.per_block_ms * blocks[i]) < cut;
    if (next == keep) break;
    keep = std::move(next);
  }
  out.kept = std::move(keep);
  return out;
}

// Radial positions in fractions of the stroke, by LBN (first pass) or by the
// cylinders of a layout (second pass).
class Positions {
 public:
  explicit Positions(int64_t total_blocks) : total_blocks_(total_blocks) {}
  explicit Positions(const HddLayout& layout) : geometry_(MakeHddMap(layout)) {}
  double Of(int64_t lbn) const {
    if (!geometry_) return static_cast<double>(lbn) / static_cast<double>(total_blocks_);
    const int64_t clamped = std::clamp<int64_t>(lbn, 0, geometry_->total_blocks() - 1);
    return static_cast<double>(geometry_->Map(clamped).cylinder) / std::max(1, geometry_->cylinders() - 1);
  }

 private:
  int64_t total_blocks_ = 0;
  std::unique_ptr<HddMap> geometry_;
};

struct MissFit {
  double a_ms = 0, b_ms = 0, c_ms = 0;        // seek(u)
  double outer_block_ms = 0, inner_block_ms = 0;  // media time per block at f = 0 and f = 1
  double rms_ms = 0;
};

// latency - overhead - rev/2 = a + b sqrt(u) + c u + blocks (t0 + t1 f).
MissFit FitMisses(const std::vector<const Request*>& misses, const Positions& pos, double overhead_ms, double rev_ms) {
  const auto n = static_cast<Eigen::Index>(misses.size());
  Eigen::MatrixXd x(n, 5);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Request& q = *misses[static_cast<size_t>(i)];
    const double f = pos.Of(q.r->lbn);
    const double u = std::abs(f - pos.Of(q.head_lbn));
    const double b = static_cast<double>(q.r->blocks);
    x.row(i) << 1, std::sqrt(u), u, b, b * f;
    y(i) = q.r->measured_ms - overhead_ms - rev_ms / 2;
  }
  const LinearFit fit = FitLinear(x, y);
  const Eigen::VectorXd& c = fit.coefficients;
  MissFit m{c(0), c(1), c(2), c(3), c(3) + c(4), fit.rms};
  // A track holds at most a few thousand sectors: bound the per-block time from
  // below by that, and keep the inner edge between 1 and 3 times slower than the
  // outer (constant linear density over radii of about 1:2, with margin).
  const double fastest = rev_ms / 4000;
  m.outer_block_ms = std::max(m.outer_block_ms, fastest);
  m.inner_block_ms = std::clamp(m.inner_block_ms, m.outer_block_ms, 3 * m.outer_block_ms);
  return m;
}

double RateMbS(double block_ms) { return kBlockBytes / (block_ms * 1e3); }
double Seek(const MissFit& m, double u) { return m.a_ms + m.b_ms * std::sqrt(u) + m.c_ms * u; }

}  // namespace

void CheckTraceFitsCapacity(std::span<const ValidateRecord> records, int64_t capacity_bytes,
                            const std::string& trace) {
  const int64_t total_blocks = capacity_bytes / kBlockBytes;
  for (const ValidateRecord& r : records) {
    // Compared as lbn > total - blocks so that a huge blkno cannot overflow.
    if (r.blocks > total_blocks || r.lbn > total_blocks - r.blocks) {
      throw InputError(trace, r.line, "field blkno: block " + std::to_string(r.lbn) + " + " + std::to_string(r.blocks) +
                                          " runs past the given capacity (" + std::to_string(total_blocks) + " blocks)");
    }
  }
}

HddTraceFit FitHddTrace(std::span<const ValidateRecord> records, const HddTraceFitOptions& o) {
  const std::string& trace = o.trace_label;
  if (o.capacity_bytes <= 0 || o.capacity_bytes % kBlockBytes != 0) {
    throw InputError(trace + ": capacity must be a positive multiple of 512 bytes");
  }
  if (!(o.rpm > 0)) throw InputError(trace + ": rpm must be positive");
  const double rev_ms = 60e3 / o.rpm;
  const int64_t total_blocks = o.capacity_bytes / kBlockBytes;
  const std::string span = trace + " requests 1.." + std::to_string(records.size());
  CheckTraceFitsCapacity(records, o.capacity_bytes, trace);
  const std::vector<Request> requests = Annotate(records);

  // Cache hits: the trimmed lower envelope of the sequential reads.
  std::vector<const Request*> sequential;
  std::vector<double> seq_blocks, seq_ms;
  for (const Request& q : requests) {
    if (q.r->op != IoOp::kRead || !q.sequential) continue;
    sequential.push_back(&q);
    seq_blocks.push_back(static_cast<double>(q.r->blocks));
    seq_ms.push_back(q.r->measured_ms);
  }
  if (static_cast<int>(sequential.size()) < kMinHits) {
    throw InputError(span + ": " + std::to_string(sequential.size()) +
                     " reads continue the previous request; the cache-hit fit needs at least " +
                     std::to_string(kMinHits));
  }
  const EnvelopeFit hits = FitLowerEnvelope(seq_blocks, seq_ms, rev_ms);
  std::vector<bool> is_hit(requests.size());
  for (size_t k = 0; k < sequential.size(); ++k) is_hit[static_cast<size_t>(sequential[k] - requests.data())] = hits.kept[k];

  // Read-ahead: the longest run of consecutive sequential hits it must cover.
  int64_t run = 0, read_ahead_blocks = 0, max_blocks = 0, hit_blocks = 0, reads = 0;
  std::vector<const Request*> misses;
  std::vector<double> write_blocks, write_ms;
  for (size_t i = 0; i < requests.size(); ++i) {
    const ValidateRecord& r = *requests[i].r;
    max_blocks = std::max(max_blocks, r.blocks);
    if (r.op == IoOp::kWrite) {
      write_blocks.push_back(static_cast<double>(r.blocks));
      write_ms.push_back(r.measured_ms);
      run = 0;
      continue;
    }
    ++reads;
    if (is_hit[i]) {
      run += r.blocks;
      hit_blocks += r.blocks;
      read_ahead_blocks = std::max(read_ahead_blocks, run);
    } else {
      run = 0;
      misses.push_back(&requests[i]);
    }
  }
  if (static_cast<int>(misses.size()) < kMinMisses) {
    throw InputError(span + ": " + std::to_string(misses.size()) + " reads missed the cache; the seek fit needs at least " +
                     std::to_string(kMinMisses));
  }

  // Misses: a first pass in LBN fractions gives the media rates, hence a layout;
  // the second pass measures distances in that layout's cylinders.
  const double overhead_ms = std::max(0.0, hits.intercept_ms);
  MissFit miss = FitMisses(misses, Positions(total_blocks), overhead_ms, rev_ms);
  HddDatasheet d;
  d.capacity_bytes = o.capacity_bytes;
  d.rpm = o.rpm;
  d.surfaces = kSurfaces;
  d.zones = kZones;
  d.sata_gbit_s = kLinkGbitS;
  d.queue_depth = kQueueDepth;
  auto set_seek = [&](const MissFit& m, int cylinders) {
    // The three-point curve of the HDD model pins d = 1, (C-1)/3 and C-1 cylinders.
    const double floor_ms = 0.01 * rev_ms;  // a settle is never free: 1 % of a revolution, estimated
    d.seek_single_ms = std::max(floor_ms, Seek(m, 1.0 / std::max(1, cylinders - 1)));
    d.seek_average_ms = std::max(d.seek_single_ms, Seek(m, 1.0 / 3));
    d.seek_full_stroke_ms = std::max(d.seek_average_ms, Seek(m, 1.0));
    d.head_switch_ms = d.seek_single_ms;
  };
  auto set_rates = [&](const MissFit& m) {
    d.outer_mb_s = RateMbS(m.outer_block_ms);
    d.inner_mb_s = RateMbS(m.inner_block_ms);
  };
  set_rates(miss);
  set_seek(miss, 2);
  const int64_t segment_bytes =
      (std::max<int64_t>(1, read_ahead_blocks + max_blocks) * kBlockBytes + kSegmentRoundBytes - 1) /
      kSegmentRoundBytes * kSegmentRoundBytes;
  d.cache_segments = kCacheSegments;
  d.cache_bytes = segment_bytes * kCacheSegments;
  d.read_ahead_bytes = read_ahead_blocks * kBlockBytes;
  const HddLayout layout = DeriveHddParams(d, "fit", "fit").layout;
  miss = FitMisses(misses, Positions(layout), overhead_ms, rev_ms);
  set_rates(miss);
  const int cylinders = DeriveHddParams(d, "fit", "fit").layout.cylinders;
  set_seek(miss, cylinders);

  // Writes: buffered (fitted like the hits) or through to the media (their mean).
  HddTraceFit fit;
  fit.writes = static_cast<int64_t>(write_ms.size());
  double write_overhead_ms = 0;
  if (!write_ms.empty()) {
    std::vector<double> sorted = write_ms;
    std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
    fit.write_back = sorted[sorted.size() / 2] < rev_ms / 4;
    double mean_blocks = 0, mean_ms = 0;
    for (size_t i = 0; i < write_ms.size(); ++i) {
      mean_blocks += write_blocks[i] / static_cast<double>(write_ms.size());
      mean_ms += write_ms[i] / static_cast<double>(write_ms.size());
    }
    if (fit.write_back && write_ms.size() >= static_cast<size_t>(kMinHits)) {
      const EnvelopeFit w = FitLowerEnvelope(write_blocks, write_ms, rev_ms);
      write_overhead_ms = w.intercept_ms + w.per_block_ms * mean_blocks;
      fit.write_rms_ms = w.rms_ms;
    } else {
      write_overhead_ms = mean_ms;
      double ss = 0;
      for (double ms : write_ms) ss += (ms - mean_ms) * (ms - mean_ms);
      fit.write_rms_ms = std::sqrt(ss / static_cast<double>(write_ms.size()));
    }
    write_overhead_ms = std::max(0.0, write_overhead_ms - kLinkBlockMs * mean_blocks);
  }
  const double mean_hit_blocks = static_cast<double>(hit_blocks) / static_cast<double>(hits.count);
  const double hit_overhead_ms =
      std::max(0.0, hits.intercept_ms + (hits.per_block_ms - kLinkBlockMs) * mean_hit_blocks);

  fit.fitted_requests = static_cast<int64_t>(records.size());
  fit.read_hits = hits.count;
  fit.read_misses = static_cast<int64_t>(misses.size());
  fit.hit_share = static_cast<double>(hits.count) / static_cast<double>(reads);
  fit.hit_rms_ms = hits.rms_ms;
  fit.miss_rms_ms = miss.rms_ms;
  fit.seek_a_ms = miss.a_ms;
  fit.seek_b_ms = miss.b_ms;
  fit.seek_c_ms = miss.c_ms;
  fit.cylinders = cylinders;

  auto given = [&](const char* key, double v, const std::string& how) {
    fit.figures.push_back(CatalogValue{key, v, false, how});
  };
  auto assumed = [&](const char* key, double v, const std::string& why) {
    fit.figures.push_back(CatalogValue{key, v, true, why});
  };
  const std::string cal = "calibrated: " + span + ", ";
  const std::string hit_how = cal + FormatFigure("%.0f", static_cast<double>(hits.count)) +
                              " sequential reads taken as cache hits, latency = overhead + blocks x cost, residual " +
                              FormatFigure("%.3f", hits.rms_ms) + " ms rms";
  const std::string miss_how = cal + std::to_string(misses.size()) +
                               " misses, latency - overhead - rev/2 = a + b sqrt(u) + c u + blocks x t(radius), residual " +
                               FormatFigure("%.3f", miss.rms_ms) + " ms rms (rotation alone gives " +
                               FormatFigure("%.3f", rev_ms / std::sqrt(12.0)) + ")";
  given("capacity_bytes", static_cast<double>(o.capacity_bytes), o.inputs_source);
  given("rpm", o.rpm, o.inputs_source);
  assumed("sata_gbit_s", kLinkGbitS,
          "the slowest SATA link; the measured per-block bus cost is folded into the overheads at the mean size");
  assumed("queue_depth", kQueueDepth, "a trace with one request outstanding cannot show command queueing");
  assumed("surfaces", kSurfaces, "not identifiable from service times; the seek curve is fitted in fractions of "
                                 "the stroke and mapped onto the cylinders this implies");
  assumed("zones", kZones, "only sets how finely the rate steps between the fitted outer and inner rates");
  given("outer_mb_s", d.outer_mb_s, miss_how + "; per-block time at the outer edge (the bus's when it is slower)");
  given("inner_mb_s", d.inner_mb_s, miss_how + "; per-block time at the inner edge");
  given("seek_single_ms", d.seek_single_ms, miss_how + FormatFigure("; seek(1 cylinder of %.0f)", cylinders));
  given("seek_average_ms", d.seek_average_ms, miss_how + "; seek(u = 1/3)");
  given("seek_full_stroke_ms", d.seek_full_stroke_ms, miss_how + "; seek(u = 1)");
  assumed("head_switch_ms", d.head_switch_ms, "taken as the fitted one-cylinder seek: the trace cannot tell them apart");
  assumed("cache_bytes", static_cast<double>(d.cache_bytes),
          "segments of the read-ahead plus the largest request, rounded up to 64 KiB; one stream cannot show the size");
  assumed("cache_segments", kCacheSegments, "one stream of requests cannot show how many segments there are");
  given("read_ahead_bytes", static_cast<double>(d.read_ahead_bytes),
        cal + "the longest run of sequential hits (" + FormatFigure("%.0f", 100 * fit.hit_share) + " % of reads hit)");
  given("read_miss_overhead_us", 1e3 * overhead_ms, hit_how + "; the intercept (a miss is assumed to cost as much)");
  given("read_hit_overhead_us", 1e3 * hit_overhead_ms, hit_how + FormatFigure("; at the mean hit of %.1f blocks", mean_hit_blocks));
  if (write_ms.empty()) {
    assumed("write_overhead_us", 1e3 * overhead_ms, "the trace has no writes; taken as the read miss overhead");
  } else {
    given("write_overhead_us", 1e3 * write_overhead_ms,
          cal + std::to_string(write_ms.size()) +
              (fit.write_back ? " writes, buffered (median under rev/4): lower envelope at the mean size, residual "
                              : " writes, written through: their mean (the model buffers writes), spread ") +
              FormatFigure("%.3f", fit.write_rms_ms) + " ms rms");
  }
  assumed("completion_overhead_us", 0, "folded into the fitted command overheads: the trace cannot separate them");
  return fit;
}

std::string HddDriveToml(const HddTraceFit& fit, const std::string& name, const std::string& description) {
  return DriveToml("hdd", name, description, fit.figures);
}

HddTraceCheck CheckOnSecondHalf(const HddParams& fitted, const HddParams* spec,
                                std::span<const ValidateRecord> records, const std::string& trace_path) {
  auto replay = [&](const HddParams& p) {
    Simulation sim;
    HddDevice dev(&sim, p.name, p, QueuePolicy::kFifo);
    CheckRecordsFit(records, dev, trace_path);
    return SecondHalfFigures(ReplayValidateRecords(dev, sim, records));
  };
  HddTraceCheck check;
  check.fitted = replay(fitted);
  if (spec != nullptr) check.spec = replay(*spec);
  check.held_out_requests = static_cast<int64_t>(records.size() - records.size() / 2);
  return check;
}

}  // namespace ziosim
