#include "models/device/disksim_queue_order.h"

#include <cstdlib>
#include <stdexcept>

namespace ziosim {

bool DisksimQueueOrder::IsDisksimOrdered(QueuePolicy policy) {
  switch (policy) {
    case QueuePolicy::kSstfLbn:
    case QueuePolicy::kElevatorLbn:
    case QueuePolicy::kCycleLbn:
    case QueuePolicy::kSstfCyl:
    case QueuePolicy::kElevatorCyl:
    case QueuePolicy::kCycleCyl:
    case QueuePolicy::kVscanCyl:
      return true;
    default:
      return false;
  }
}

DisksimQueueOrder::DisksimQueueOrder(QueuePolicy policy, int64_t total_blocks, int cylinders, int queue_depth)
    : policy_(policy),
      down_penalty_(policy == QueuePolicy::kElevatorLbn   ? total_blocks
                    : policy == QueuePolicy::kElevatorCyl ? cylinders
                                                          : 0) {
  if (!IsDisksimOrdered(policy)) throw std::logic_error("internal error: DisksimQueueOrder for another policy");
  sorted_.reserve(static_cast<size_t>(std::max(queue_depth, 1)) + 1);
}

size_t DisksimQueueOrder::PickSorted() {
  size_t pick = 0;
  switch (policy_) {
    case QueuePolicy::kCycleLbn: pick = CycleLbn(); break;
    case QueuePolicy::kCycleCyl: pick = CycleCylinder(); break;
    case QueuePolicy::kSstfCyl:
    case QueuePolicy::kElevatorCyl:
    case QueuePolicy::kVscanCyl: pick = NearestCylinder(); break;
    default: pick = NearestLbn(); break;
  }
  // Where DiskSim would stop ("Selected request is !READY_TO_GO"): the next one ready.
  return FirstReadyFrom(pick);
}

size_t DisksimQueueOrder::FirstReadyFrom(size_t i) const {
  while (!sorted_[i].ready()) i = Next(i);
  return i;
}

// The last command below the reference LBN in the queue's order, or the first if
// none is: where both vscan walks start.
size_t DisksimQueueOrder::LastBelowRef() const {
  size_t temp = 0;
  while (Next(temp) != 0 && ref_.lbn > sorted_[Next(temp)].key.lbn) temp = Next(temp);
  return temp;
}

// The first ready command at or above the reference LBN from `temp` on (or the last
// in the queue, ready or not); none if `temp` is the last.
std::optional<size_t> DisksimQueueOrder::AboveRef(size_t temp) const {
  if (Next(temp) == 0) return std::nullopt;
  size_t t = sorted_[temp].key.lbn >= ref_.lbn ? temp : Next(temp);
  while (Next(t) != 0 && !sorted_[t].ready()) t = Next(t);
  return t;
}

// Up or down by the two distances, a tie alternating (sstfupdown), as both vscan
// walks end.
size_t DisksimQueueOrder::Choose(std::optional<size_t> below, std::optional<size_t> above, int64_t up,
                                 int64_t down) {
  if (!above || !sorted_[*above].ready()) return below.value_or(0);
  if (!below || !sorted_[*below].ready()) return *above;
  const bool tie = up == down;
  const bool go_down = up > down || (tie && down_on_tie_);
  if (tie) down_on_tie_ = !down_on_tie_;
  return go_down ? *below : *above;
}

// ioqueue_get_request_from_lbn_vscan_queue, the direction ascending.
size_t DisksimQueueOrder::NearestLbn() {
  const auto lbn = [&](size_t i) { return sorted_[i].key.lbn; };
  const auto ready = [&](size_t i) { return sorted_[i].ready(); };
  const size_t temp = LastBelowRef();
  std::optional<size_t> below;
  if (lbn(temp) < ref_.lbn) {
    size_t b = temp;
    while (b != 0 && !ready(b)) b = Prev(b);
    if (ready(b)) {
      size_t best = b;
      while (b != 0 && lbn(Prev(b)) == lbn(best)) {  // the first ready of its LBN
        b = Prev(b);
        if (ready(b)) best = b;
      }
      below = best;
    }
  }
  const std::optional<size_t> above = AboveRef(temp);
  const int64_t up = above ? std::llabs(lbn(*above) - ref_.lbn) : 0;
  const int64_t down = below ? std::llabs(ref_.lbn - lbn(*below)) : 0;
  return Choose(below, above, up, down != 0 ? down + down_penalty_ : 0);
}

// ioqueue_get_request_from_lbn_scan_queue.
size_t DisksimQueueOrder::CycleLbn() const {
  const int64_t last = ref_.lbn;
  size_t temp = 0;
  if (last > sorted_[0].key.lbn) {
    while (Next(temp) != 0 && last > sorted_[Next(temp)].key.lbn) temp = Next(temp);
    temp = Next(temp);
  }
  return temp;  // FirstReadyFrom walks on from it, as DiskSim does
}

// ioqueue_identify_request_on_cylinder, surfoverforw off (DiskSim never sets it):
// a ready command on the reference cylinder at or past its surface and block, else
// (a "drop out") the first of the cylinder, stepping over the ones not ready and
// then one more, as DiskSim's recovery does.
size_t DisksimQueueOrder::OnCylinder() const {
  const auto cyl = [&](size_t i) { return sorted_[i].key.cylinder; };
  const auto surface = [&](size_t i) { return sorted_[i].key.surface; };
  const auto ready = [&](size_t i) { return sorted_[i].ready(); };
  const size_t tail = sorted_.size() - 1;
  size_t temp = 0;
  if (cyl(0) < ref_.cylinder && ref_.cylinder <= cyl(tail)) {
    while (Next(temp) != 0 && ref_.cylinder > cyl(Next(temp))) temp = Next(temp);
    temp = Next(temp);
  }
  if (cyl(temp) != ref_.cylinder) return temp;
  const size_t first_on_cylinder = temp;
  while (Next(temp) != 0 && cyl(Next(temp)) == ref_.cylinder && ref_.surface > surface(temp)) temp = Next(temp);
  if (ref_.surface > surface(temp)) {
    temp = first_on_cylinder;
  } else {
    while (Next(temp) != 0 && cyl(Next(temp)) == ref_.cylinder &&
           (!ready(temp) || sorted_[temp].key.lbn < ref_.lbn)) {
      temp = Next(temp);
    }
    if (ready(temp) && sorted_[temp].key.lbn >= ref_.lbn) return temp;
    temp = first_on_cylinder;
  }
  if (!ready(temp)) {
    while (!ready(temp) && Next(temp) != 0 && cyl(Next(temp)) == ref_.cylinder) temp = Next(temp);
    temp = Next(temp);
  }
  return temp;
}

// ioqueue_get_request_from_cyl_vscan_queue, the direction ascending.
size_t DisksimQueueOrder::NearestCylinder() {
  const auto cyl = [&](size_t i) { return sorted_[i].key.cylinder; };
  const auto ready = [&](size_t i) { return sorted_[i].ready(); };
  const size_t on = OnCylinder();
  if (ready(on) && cyl(on) == ref_.cylinder) return on;
  // The neighbours by LBN over the cylinder-sorted queue, as DiskSim walks it.
  const size_t temp = LastBelowRef();
  std::optional<size_t> below;
  if (sorted_[temp].key.lbn < ref_.lbn) {
    size_t b = temp;
    while (b != 0 && !ready(b)) b = Prev(b);
    if (ready(b)) {
      while (b != 0 && cyl(Prev(b)) == cyl(b)) b = Prev(b);  // the first on its cylinder
      while (b != temp && !ready(b)) b = Next(b);
    }
    below = b;
  }
  const std::optional<size_t> above = AboveRef(temp);
  const int64_t up = above ? std::abs(cyl(*above) - ref_.cylinder) : 0;
  const int64_t down = below ? std::abs(ref_.cylinder - cyl(*below)) + down_penalty_ : 0;
  return Choose(below, above, up, down);
}

// ioqueue_get_request_from_cyl_scan_queue.
size_t DisksimQueueOrder::CycleCylinder() const {
  return ref_.cylinder >= sorted_[0].key.cylinder ? OnCylinder() : 0;
}

}  // namespace ziosim
