// Seek time by cylinder distance, from one of the descriptions of a drive's
// actuator: a measured curve (DiskSim "extracted"), HP's sqrt/linear model
// ("hpl", "hplplus10"), the datasheet triple single / average / full stroke as a
// curve ("curve") or as two straight lines ("linear"), or one constant time.
#ifndef ZIOSIM_MODELS_DEVICE_HDD_SEEK_H_
#define ZIOSIM_MODELS_DEVICE_HDD_SEEK_H_

#include <cstdint>
#include <vector>

#include "models/device/hdd_params.h"

namespace ziosim {

class HddSeek {
 public:
  // `cylinders` sizes the three-point fit (average seek = a third of the stroke).
  HddSeek(const HddSeekModel& model, int cylinders);

  // Seek time in ps for a move of `distance` cylinders; 0 for 0.
  int64_t SeekPs(int64_t distance) const {
    return static_cast<uint64_t>(distance) < by_distance_ps_.size() ? by_distance_ps_[distance] : ComputePs(distance);
  }

 private:
  // Moves of up to this many cylinders are looked up, not computed: every access
  // seeks, and a curve's search, division or square root costs more than a load
  // from a table that fits in the CPU's cache (8 bytes a distance, 256 KiB at most).
  static constexpr int64_t kTabulatedDistances = 32768;

  int64_t ComputePs(int64_t distance) const;
  int64_t TablePs(int64_t distance) const;
  int64_t HplPs(int64_t distance) const;
  int64_t LinearPs(int64_t distance) const;

  HddSeekModel::Kind kind_;
  std::vector<int64_t> table_distance_;
  std::vector<int64_t> table_ps_;
  double hpl_[6];
  std::vector<int64_t> first_ten_ps_;
  // Three-point fit: a + b*sqrt(d-1) + c*(d-1), in ps.
  double a_ps_ = 0, b_ps_ = 0, c_ps_ = 0;
  // kLinear: the three figures (ps) and the stroke (cylinders); kConstant: single_ps_.
  int64_t single_ps_ = 0, average_ps_ = 0, full_ps_ = 0;
  int64_t cylinders_ = 1;
  std::vector<int64_t> by_distance_ps_;  // ComputePs(d) for d < min(cylinders, kTabulatedDistances)
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_SEEK_H_
