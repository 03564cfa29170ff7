#include "models/device/hdd_seek.h"

#include <algorithm>
#include <cmath>

#include "sim/core/time.h"

namespace ziosim {

namespace {
constexpr double kPsPerMs = 1e9;
}  // namespace

HddSeek::HddSeek(const HddSeekModel& model, int cylinders)
    : kind_(model.kind),
      single_ps_((model.kind == HddSeekModel::Kind::kConstant ? model.constant_ns : model.single_cylinder_ns) *
                 kPsPerNs),
      average_ps_(model.average_ns * kPsPerNs),
      full_ps_(model.full_stroke_ns * kPsPerNs),
      cylinders_(std::max(cylinders, 1)) {
  std::copy(std::begin(model.hpl), std::end(model.hpl), hpl_);
  for (const auto& [distance, ns] : model.table) {
    table_distance_.push_back(distance);
    table_ps_.push_back(ns * kPsPerNs);
  }
  for (SimTime ns : model.first_ten) first_ten_ps_.push_back(ns * kPsPerNs);
  if (kind_ == HddSeekModel::Kind::kThreePoint) {
    // Ruemmler & Wilkes: seek ~ sqrt(d) while accelerating, ~ d when coasting.
    // Pin d=1 to the single-cylinder figure, d=(C-1)/3 (the mean random
    // distance) to the average and d=C-1 to the full stroke.
    const double single = model.single_cylinder_ns * 1e3;
    const double x1 = std::max(1.0, (cylinders - 1) / 3.0 - 1);
    const double x2 = std::max(2.0, cylinders - 2.0);
    const double y1 = model.average_ns * 1e3 - single;
    const double y2 = model.full_stroke_ns * 1e3 - single;
    const double s1 = std::sqrt(x1), s2 = std::sqrt(x2);
    const double det = s1 * x2 - s2 * x1;
    a_ps_ = single;
    b_ps_ = (y1 * x2 - y2 * x1) / det;
    c_ps_ = (s1 * y2 - s2 * y1) / det;
  }
  by_distance_ps_.resize(static_cast<size_t>(std::min(cylinders_, kTabulatedDistances)));
  for (size_t d = 0; d < by_distance_ps_.size(); ++d) by_distance_ps_[d] = ComputePs(static_cast<int64_t>(d));
}

int64_t HddSeek::ComputePs(int64_t distance) const {
  if (distance <= 0) return 0;
  switch (kind_) {
    case HddSeekModel::Kind::kTable:
      return TablePs(distance);
    case HddSeekModel::Kind::kHpl:
      return HplPs(distance);
    case HddSeekModel::Kind::kThreePoint: {
      const double x = static_cast<double>(distance - 1);
      return static_cast<int64_t>(a_ps_ + b_ps_ * std::sqrt(x) + c_ps_ * x);
    }
    case HddSeekModel::Kind::kLinear:
      return LinearPs(distance);
    case HddSeekModel::Kind::kConstant:
      return single_ps_;
  }
  return 0;
}

// DiskSim's three-point line: single at 1 cylinder, rising to the average at a third
// of the stroke, then to the full stroke. (DiskSim 4.0's own code computes the
// fraction in integers over the move's own distance, which gives the full-stroke
// time for every move of 2 or more cylinders; this follows its stated formula.)
int64_t HddSeek::LinearPs(int64_t distance) const {
  if (distance == 1) return single_ps_;
  const double c = static_cast<double>(cylinders_);
  const double d = static_cast<double>(distance);
  if (d <= c / 3) return static_cast<int64_t>(single_ps_ + 3 * (d - 1) / c * (average_ps_ - single_ps_));
  return static_cast<int64_t>(average_ps_ + (3 * d - c) / (2 * c) * (full_ps_ - average_ps_));
}

// Exact at measured points, linear between them (truncated to whole ps, as
// DiskSim does), the last segment extended past the end of the table.
int64_t HddSeek::TablePs(int64_t distance) const {
  const size_t n = table_distance_.size();
  if (n == 1 || distance <= table_distance_[0]) return table_ps_[0];
  auto it = std::lower_bound(table_distance_.begin(), table_distance_.end(), distance);
  size_t hi = it == table_distance_.end() ? n - 1 : static_cast<size_t>(it - table_distance_.begin());
  if (hi < n && table_distance_[hi] == distance) return table_ps_[hi];
  const size_t lo = hi - 1;
  const int64_t d0 = table_distance_[lo], d1 = table_distance_[hi];
  return table_ps_[lo] + (table_ps_[hi] - table_ps_[lo]) * (distance - d0) / (d1 - d0);
}

int64_t HddSeek::HplPs(int64_t distance) const {
  if (distance <= 10 && !first_ten_ps_.empty()) return first_ten_ps_[distance - 1];
  if (distance == 1 && hpl_[5] >= 0) return static_cast<int64_t>(hpl_[5] * kPsPerMs);
  const double d = static_cast<double>(distance);
  const double ms = d < hpl_[0] ? hpl_[1] + hpl_[2] * std::sqrt(d) : hpl_[3] + hpl_[4] * d;
  return static_cast<int64_t>(ms * kPsPerMs);
}

}  // namespace ziosim
