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
  int64_t SeekPs(int64_t distance) const;

 private:
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
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_SEEK_H_
