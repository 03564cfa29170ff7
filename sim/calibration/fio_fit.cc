#include "sim/calibration/fio_fit.h"

#include <algorithm>
#include <cmath>

#include "sim/calibration/drive_toml.h"
#include "sim/calibration/least_squares.h"
#include "sim/core/status.h"
#include "sim/workload/disk_bench.h"

namespace ziosim {
namespace {

// Reads up to this size are "random small" (IOPS-bound); from the next size
// up, "sequential large" (bandwidth-bound) when fio read them in order.
constexpr int64_t kSmallBlockBytes = 64 * 1024;

struct Line {
  double intercept = 0, slope = 0, rms = 0;
};

// y = intercept + slope q over the points; the slope is 0 when every q is the same.
Line FitLine(const std::vector<double>& q, const std::vector<double>& y) {
  const auto n = static_cast<Eigen::Index>(q.size());
  const bool one_q = std::all_of(q.begin(), q.end(), [&](double v) { return v == q.front(); });
  Eigen::MatrixXd x(n, one_q ? 1 : 2);
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    x(i, 0) = 1;
    if (!one_q) x(i, 1) = q[static_cast<size_t>(i)];
    v(i) = y[static_cast<size_t>(i)];
  }
  const LinearFit fit = FitLinear(x, v);
  return Line{fit.coefficients(0), one_q ? 0.0 : fit.coefficients(1), fit.rms};
}

class Figures {
 public:
  Figures(const DriveSpec& base, FioFit& fit) : fit_(fit) { fit_.figures = base.values; }
  double Get(const std::string& key) const { return Find(key).value; }
  void Set(const std::string& key, double value, const std::string& how) {
    CatalogValue& v = Find(key);
    v.value = value;
    v.estimated = false;
    v.provenance = how;
    fit_.fitted.push_back(key);
  }

 private:
  CatalogValue& Find(const std::string& key) const {
    for (CatalogValue& v : fit_.figures) {
      if (v.key == key) return v;
    }
    throw std::logic_error("internal error: fio fit: base drive has no figure " + key);
  }
  FioFit& fit_;
};

struct Split {
  std::vector<double> rand_q, rand_lat_us, seq_q, seq_t_us, seq_block;
  double qd1_lat_us = 0;  // mean over random QD1 runs
  int qd1_runs = 0;
  double single_stream_mb_s = 0;  // mean over sequential QD1 single-job runs
  int single_streams = 0;
  int64_t small_block = 0;
};

// Time per request as throughput sees it: q commands in flight at `iops`
// (Little's law). Unlike fio's clat it includes the host's time between a
// completion and the next submission, which a QD1 run's throughput pays too.
double LittleUs(const FioRun& r, double q) { return q / r.iops * 1e6; }

Split SplitRuns(std::span<const FioRun> runs) {
  Split s;
  for (const FioRun& r : runs) {
    const double q = static_cast<double>(r.iodepth) * r.numjobs;
    if (r.random && r.block_bytes <= kSmallBlockBytes) {
      s.rand_q.push_back(q);
      s.rand_lat_us.push_back(LittleUs(r, q));
      s.small_block = std::max(s.small_block, r.block_bytes);
      if (q == 1) {
        s.qd1_lat_us += LittleUs(r, q);
        ++s.qd1_runs;
      }
    } else if (!r.random && r.block_bytes > kSmallBlockBytes) {
      s.seq_q.push_back(q);
      s.seq_t_us.push_back(LittleUs(r, q));
      s.seq_block.push_back(static_cast<double>(r.block_bytes));
      if (q == 1) {
        s.single_stream_mb_s += r.mb_s;
        ++s.single_streams;
      }
    }
  }
  if (s.qd1_runs > 0) s.qd1_lat_us /= s.qd1_runs;
  if (s.single_streams > 0) s.single_stream_mb_s /= s.single_streams;
  return s;
}

void FitSsd(const Split& s, Figures& f, FioFit& fit, const std::string& cal) {
  if (s.rand_q.size() < 2 || std::all_of(s.rand_q.begin(), s.rand_q.end(), [&](double q) { return q == s.rand_q[0]; })) {
    throw InputError("calibrate: an SSD fit needs random reads of up to 64 KiB at two or more queue depths");
  }
  if (s.seq_q.empty()) throw InputError("calibrate: an SSD fit needs sequential reads of more than 64 KiB");
  const Line lat = FitLine(s.rand_q, s.rand_lat_us);
  fit.random_rms_us = lat.rms;
  const double l1_us = lat.intercept + lat.slope;
  // Past saturation each further command adds 1 / IOPS_max; a flat line saw no saturation.
  const double per_command_us = std::max(lat.slope, 1e-3);

  const double block = *std::max_element(s.seq_block.begin(), s.seq_block.end());
  const Line seq = FitLine(s.seq_q, s.seq_t_us);
  fit.sequential_rms_us = seq.rms;
  // One stream's time per request: measured when a single-stream run was given, else the line's t(1).
  const double t1_us = std::max(s.single_streams > 0 ? block / s.single_stream_mb_s : seq.intercept + seq.slope,
                                l1_us + 1);
  const double stream_mb_s = block / (t1_us - l1_us);  // bytes per us = MB/s, past the fixed per-command costs
  const double link_mb_s = seq.slope > 0 ? std::max(block / seq.slope, stream_mb_s) : stream_mb_s;

  const std::string lat_how = cal + FormatFigure("random reads: q / IOPS = %.1f", lat.intercept) +
                              FormatFigure(" + %.2f q us", lat.slope) + FormatFigure(", residual %.1f us rms", lat.rms);
  const std::string seq_how = cal + FormatFigure("sequential reads: q / IOPS = %.1f", seq.intercept) +
                              FormatFigure(" + %.1f q us", seq.slope) + FormatFigure(", residual %.1f us rms", seq.rms);
  // Saturated random IOPS are the controller's: its cores each take one command
  // at a time. At most half of L1, so that the flash read and transfers keep the rest.
  const double cores = f.Get("controller_cores");
  const double overhead_us = std::min(cores * per_command_us, 0.5 * l1_us);
  f.Set("controller_overhead_us", overhead_us,
        lat_how + FormatFigure("; %.0f cores x the saturated time per command", cores));
  f.Set("interface_mb_s", link_mb_s, seq_how + "; the ceiling block / slope");
  // QD1 latency is the sum of the stages: what the others leave is the flash read.
  const double small = static_cast<double>(s.small_block);
  const double channels = f.Get("channels");
  f.Set("channel_mb_s", stream_mb_s / channels,
        seq_how + "; one stream's rate past the fixed costs, spread over the channels");
  const double fixed_us =
      overhead_us + f.Get("interface_command_us") + small / f.Get("channel_mb_s") + small / link_mb_s;
  const double read_us = std::max(1.0, l1_us - fixed_us);
  f.Set("read_page_us", read_us,
        lat_how + FormatFigure("; QD1 time %.1f us less the controller, link and transfer costs", l1_us));
  // As many dies as keep the link busy: a die holds each page for tR plus its channel transfer.
  const double page = f.Get("page_bytes");
  const double die_cycle_us = read_us + page / f.Get("channel_mb_s");
  const double dies = std::max(1.0, std::ceil(link_mb_s * die_cycle_us / page));
  f.Set("dies_per_channel", std::ceil(dies / channels),
        seq_how + "; enough dies (tR + page transfer each) to fill the link");
}

void FitHdd(const Split& s, Figures& f, const std::string& cal) {
  if (s.qd1_runs == 0) throw InputError("calibrate: an HDD fit needs a random read run at queue depth 1");
  if (s.single_streams == 0) throw InputError("calibrate: an HDD fit needs a sequential read run with one stream at depth 1");
  const double rev_ms = 60e3 / f.Get("rpm");
  const double outer = s.single_stream_mb_s;
  const double ratio = f.Get("inner_mb_s") / f.Get("outer_mb_s");
  f.Set("outer_mb_s", outer, cal + FormatFigure("mean of %.0f sequential single-stream runs", s.single_streams));
  f.Set("inner_mb_s", outer * ratio, cal + FormatFigure("the outer rate times the base drive's inner/outer ratio %.3f", ratio));
  const double transfer_ms = static_cast<double>(s.small_block) / outer * 1e-3;
  const double overhead_ms = (f.Get("read_miss_overhead_us") + f.Get("completion_overhead_us")) * 1e-3;
  const double seek_ms = s.qd1_lat_us * 1e-3 - rev_ms / 2 - overhead_ms - transfer_ms;
  if (seek_ms <= 0) {
    throw InputError("calibrate: random QD1 latency " + FormatFigure("%.3f ms", s.qd1_lat_us * 1e-3) +
                     " is below half a revolution plus overheads: not a " + FormatFigure("%.0f rpm disk", f.Get("rpm")) +
                     " (a cached or solid-state device? try --kind ssd)");
  }
  const double scale = seek_ms / f.Get("seek_average_ms");
  const std::string how = cal + FormatFigure("random QD1 latency %.3f ms", s.qd1_lat_us * 1e-3) +
                          " - rev/2 - base overheads - transfer";
  f.Set("seek_average_ms", seek_ms, how);
  f.Set("seek_single_ms", f.Get("seek_single_ms") * scale, how + "; the base's single/average ratio kept");
  f.Set("seek_full_stroke_ms", f.Get("seek_full_stroke_ms") * scale, how + "; the base's full/average ratio kept");
}

}  // namespace

FioFit FitFio(const DriveSpec& base, std::span<const FioRun> runs, const std::string& label) {
  if (base.values.empty()) throw InputError("calibrate: --base must be a catalog drive file, not a DiskSim spec");
  FioFit fit;
  Figures f(base, fit);
  const Split s = SplitRuns(runs);
  fit.random_runs = static_cast<int>(s.rand_q.size());
  fit.sequential_runs = static_cast<int>(s.seq_q.size());
  const std::string cal = "calibrated: fio " + label + ", ";
  if (base.kind == DriveSpec::Kind::kSsd) {
    FitSsd(s, f, fit, cal);
  } else {
    FitHdd(s, f, cal);
  }
  return fit;
}

std::vector<FioPrediction> PredictFio(const DriveSpec& drive, std::span<const FioRun> runs,
                                      const std::vector<bool>& held_out, int64_t ios_per_run) {
  std::vector<FioPrediction> out;
  for (size_t i = 0; i < runs.size(); ++i) {
    const FioRun& r = runs[i];
    DiskBenchOptions o;
    o.pattern = r.random ? BenchPattern::kRandom : BenchPattern::kSequential;
    o.block_bytes = r.block_bytes;
    o.queue_depth = r.iodepth;
    o.jobs = r.numjobs;
    o.count = ios_per_run;
    const DiskBenchResult b = RunDiskBench(drive, o);
    out.push_back({&r, held_out[i], b.mb_s, 100 * (b.mb_s - r.mb_s) / r.mb_s});
  }
  return out;
}

}  // namespace ziosim
