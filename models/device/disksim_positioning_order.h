// DiskSim 4.0's disk schedulers that order by estimated positioning time
// (disksim_ioqueue.c, ioqueue_get_request_from_opt_sptf_queue): SPTF_OPT, SPCTF_OPT,
// WPTF_OPT, WPCTF_OPT, ASPTF_OPT, ASPCTF_OPT, PRI_ASPTF_OPT and PRI_ASPCTF_OPT, with SPTF_ROT_WEIGHT and
// SPTF_SEEK_WEIGHT, which weigh its rotation and seek (Rule); and by seek distance
// (ioqueue_get_request_from_sdf_queue): SDF_APPROX and SDF_EXACT; as its disk model
// runs them, for a drive whose spec names one, or any HDD given such a --policy.
//
// The disk picks among the commands that had reached it when its arm was released
// (as for the address-ordered schedulers: HddDevice::StartNext), once the command
// before has completed (the host's acknowledgement: disk_completion's prefetch swap
// or release), so ages run to then. It costs them from its arm and platter as it last
// recorded them, at the last sector read, by the read-ahead or the access (mech_state
// and currtime, which only sector and seek events move): the platter's angle is not
// brought forward to the pick. It walks them in the queue's order: by LBN, a command
// after those of the same LBN (ioqueue_insert_ordered_to_queue, the cylinders all 0
// as for the address-ordered schedulers: disksim_queue_order.h). Each costs, in ms
// as DiskSim computes them in doubles:
//   delay = the read or write initiation delay;
//   ASPTF, ASPCTF: delay -= age x weight x 0.001 (age in ms since it reached the drive);
//   PRI_ASPTF, PRI_ASPCTF: so for a time-critical or time-limited command only;
//   if delay < best so far:
//     delay += the drive's estimate (disk_buffer_estimate_servtime): for the C
//       variants a read the cache holds whole 0, in part 1e-9 ms; else the seek and
//       rotational latency to its first sector from where the arm and platter are (with
//       a zero-latency access, to the first sector the head can take, plus the rest
//       of the track's turn); a write at least the minimum seek delay; a seek alone
//       of at least best - delay counts as best - delay + 1 ms;
//     WPTF, WPCTF: delay *= (weight - age) / weight;
//     the command is the best if delay < best.
// The best starts at 100,000 ms. DiskSim picks none when nothing costs less (initiation
// delays of 100 s; under WPTF a weight of 0, whose factor is then not a number for a
// command that came that instant), and its disk then stays idle with work queued; the
// drive takes the first to come instead.
// SDF costs a command the cylinders between its first block and, for SDF_APPROX, the
// last block of the command started last (block 0 before any: ioqueue's lastblkno), for
// SDF_EXACT the arm as last recorded (disk_get_distance, head switches not counted),
// with no delay or age, the best starting at 1,000,000 cylinders.
#ifndef ZIOSIM_MODELS_DEVICE_DISKSIM_POSITIONING_ORDER_H_
#define ZIOSIM_MODELS_DEVICE_DISKSIM_POSITIONING_ORDER_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "models/device/hdd_params.h"
#include "models/device/queue_policy.h"

namespace ziosim {

class DisksimPositioningOrder {
 public:
  // One waiting command as the scheduler sees it.
  struct Candidate {
    int64_t lbn = 0;
    bool is_read = true;
    double age_ms = 0;    // since it reached the drive
    bool urgent = false;  // time-critical or time-limited (the PRI variants credit only these)
  };

  // REQUIRES: IsPositioningOrdered(policy). Holds up to `queue_depth` commands without allocating.
  DisksimPositioningOrder(QueuePolicy policy, const HddScheduler& scheduler, int queue_depth);

  static bool IsPositioningOrdered(QueuePolicy policy);
  // Whether `policy` reads the initiation delays and the age weight (the *_opt ones).
  static bool TakesSchedulerTimes(QueuePolicy policy) {
    return IsPositioningOrdered(policy) && policy != QueuePolicy::kSdfApprox && policy != QueuePolicy::kSdfExact;
  }
  // Whether the estimate asks the cache first (the C variants).
  bool check_cache() const { return check_cache_; }
  // What the estimate measures: positioning time in ms, or seek distance in
  // cylinders from the last command's last block (SDF_APPROX) or the arm (SDF_EXACT).
  enum class Measure { kPositioningMs, kCylindersFromLastBlock, kCylindersFromArm };
  Measure measure() const { return measure_; }

  // The position, in arrival order, of the command to start among `n` >= 1 waiting;
  // `candidate(i)` is the i-th one, `estimate(i, bound_ms)` the drive's estimate of
  // its positioning in ms, or any figure above `bound_ms` once its seek reaches that,
  // and `seek(i)` of its seek alone (the rotation and seek weightings ask for it).
  template <typename CandidateOf, typename Estimate, typename SeekOf>
  size_t Pick(size_t n, CandidateOf candidate, Estimate estimate, SeekOf seek) {
    if (n == 1) return 0;
    order_.clear();
    for (size_t i = 0; i < n; ++i) order_.push_back({candidate(i), static_cast<uint32_t>(i), std::nullopt});
    std::sort(order_.begin(), order_.end(), [](const Entry& a, const Entry& b) {
      return a.c.lbn != b.c.lbn ? a.c.lbn < b.c.lbn : a.arrival < b.arrival;
    });
    std::optional<uint32_t> best;
    switch (rule_) {
      case Rule::kLeast: best = Least(estimate); break;
      case Rule::kMostRotationOfTheLeast: best = MostRotationOfTheLeast(estimate, seek); break;
      case Rule::kLeastSeekOfTheRunningLeast: best = LeastSeekOfTheRunningLeast(estimate, seek); break;
    }
    return best.value_or(0);
  }

  // What the drive's estimate returns for a read the cache holds in part (DiskSim's
  // buffer_partial_servtime): above a whole hit's 0, below any positioning.
  static constexpr double kPartialHitMs = 1e-9;
  // What it adds to the bound for a command whose seek alone reaches it (DiskSim's maxtime + 1).
  static constexpr double kBeyondBoundMs = 1.0;

 private:
  static constexpr double kNoneMs = 100000.0;           // DiskSim's starting mintime
  static constexpr double kNoneCylinders = 1000000.0;  // and min_distance
  enum class Age { kNone, kScaled, kCredited, kCreditedIfUrgent };
  // How the costs choose (the weightings' latency_weight is 0: no spec sets it).
  enum class Rule {
    kLeast,                     // the first of the least cost
    kMostRotationOfTheLeast,    // SPTF_ROT_WEIGHT: of the least cost, the most rotation, the last of a tie
    kLeastSeekOfTheRunningLeast,  // SPTF_SEEK_WEIGHT: see LeastSeekOfTheRunningLeast
  };
  struct Entry {
    Candidate c;
    uint32_t arrival;
    std::optional<double> cost;  // the weightings' UnboundedCost, once computed
  };

  double DelayMs(const Entry& e) const { return e.c.is_read ? read_delay_ms_ : write_delay_ms_; }

  template <typename Estimate>
  std::optional<uint32_t> Least(Estimate estimate) const {
    std::optional<uint32_t> best;
    double best_ms = start_;
    for (const Entry& e : order_) {
      double delay = DelayMs(e);
      if (age_ == Age::kCredited || (age_ == Age::kCreditedIfUrgent && e.c.urgent)) {
        delay -= e.c.age_ms * weight_ * 0.001;
      }
      if (!(delay < best_ms)) continue;
      delay += estimate(e.arrival, best_ms - delay);
      if (age_ == Age::kScaled) delay *= (weight_ - e.c.age_ms) / weight_;
      if (delay < best_ms) {
        best = e.arrival;
        best_ms = delay;
      }
    }
    return best;
  }

  // The weightings' cost of `e`: its initiation delay and estimate, the estimate not
  // bounded by a best (their walks keep mintime at its start); none past the start.
  template <typename Estimate>
  std::optional<double> UnboundedCost(const Entry& e, Estimate estimate) const {
    const double delay = DelayMs(e);
    if (!(delay < kNoneMs)) return std::nullopt;
    return delay + estimate(e.arrival, kNoneMs - delay);
  }

  // SPTF_ROT_WEIGHT (ioqueue_get_request_from_opt_sptf_weight_queue): a first walk
  // finds the least cost; a second takes, of the commands that cost no more, the one
  // whose estimate exceeds its seek the most, the last of equals.
  template <typename Estimate, typename SeekOf>
  std::optional<uint32_t> MostRotationOfTheLeast(Estimate estimate, SeekOf seek) {
    double least = kNoneMs;
    for (Entry& e : order_) {
      e.cost = UnboundedCost(e, estimate);
      least = std::min(least, e.cost.value_or(kNoneMs));
    }
    std::optional<uint32_t> best;
    double most_rotation = 0.0;
    for (const Entry& e : order_) {
      if (!e.cost || !(*e.cost <= least)) continue;
      const double rotation = *e.cost - DelayMs(e) - seek(e.arrival);
      if (rotation >= most_rotation) {
        best = e.arrival;
        most_rotation = rotation;
      }
    }
    return best;
  }

  // SPTF_SEEK_WEIGHT (ioqueue_get_request_from_opt_sptf_seek_weight_queue), one walk:
  // a command that costs no more than the least so far (itself included) is taken if
  // its seek is shorter than that of every command taken before it. So the pick is not
  // always of the least cost: an earlier command of a shorter seek keeps its place.
  template <typename Estimate, typename SeekOf>
  std::optional<uint32_t> LeastSeekOfTheRunningLeast(Estimate estimate, SeekOf seek) const {
    std::optional<uint32_t> best;
    double least = kNoneMs;
    double least_seek = kNoneMs;
    for (const Entry& e : order_) {
      const std::optional<double> cost = UnboundedCost(e, estimate);
      if (!cost) continue;
      least = std::min(least, *cost);
      if (!(*cost <= least)) continue;
      if (const double s = seek(e.arrival); s < least_seek) {
        best = e.arrival;
        least_seek = s;
      }
    }
    return best;
  }

  Measure measure_;
  Rule rule_;
  double start_;
  bool check_cache_;
  Age age_;
  double weight_;
  double read_delay_ms_;
  double write_delay_ms_;
  std::vector<Entry> order_;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_DISKSIM_POSITIONING_ORDER_H_
