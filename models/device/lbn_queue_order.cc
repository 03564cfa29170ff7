#include "models/device/lbn_queue_order.h"

#include <cstdlib>
#include <optional>
#include <stdexcept>

namespace ziosim {

LbnQueueOrder::LbnQueueOrder(QueuePolicy policy, int64_t total_blocks, bool by_cylinder, int queue_depth)
    : policy_(policy),
      down_penalty_(policy == QueuePolicy::kElevatorLbn ? total_blocks : 0),
      by_cylinder_(by_cylinder) {
  if (!IsLbnOrdered(policy)) throw std::logic_error("internal error: LbnQueueOrder for a policy not by LBN");
  sorted_.reserve(static_cast<size_t>(std::max(queue_depth, 1)));
}

// ioqueue_get_request_from_lbn_vscan_queue, every command ready, the direction ascending.
size_t LbnQueueOrder::Nearest() {
  const size_t n = sorted_.size();
  const auto lbn = [&](size_t i) { return sorted_[i].key.lbn; };
  // The last command below last_lbn_ in the queue's order, or the first if none is.
  size_t i = 0;
  while (i + 1 < n && last_lbn_ > lbn(i + 1)) ++i;
  std::optional<size_t> below, above;
  if (lbn(i) < last_lbn_) {
    size_t b = i;
    while (b > 0 && lbn(b - 1) == lbn(b)) --b;  // the first of its LBN
    below = b;
  }
  if (i + 1 < n) above = lbn(i) >= last_lbn_ ? i : i + 1;
  if (!above) return *below;
  if (!below) return *above;
  const int64_t up = std::llabs(lbn(*above) - last_lbn_);
  int64_t down = std::llabs(last_lbn_ - lbn(*below));
  if (down != 0) down += down_penalty_;
  const bool tie = up == down;
  const bool go_down = up > down || (tie && down_on_tie_);
  if (tie) down_on_tie_ = !down_on_tie_;
  return go_down ? *below : *above;
}

// ioqueue_get_request_from_lbn_scan_queue, every command ready.
size_t LbnQueueOrder::Cycle() const {
  const size_t n = sorted_.size();
  if (last_lbn_ <= sorted_[0].key.lbn) return 0;
  size_t i = 0;
  while (i + 1 < n && last_lbn_ > sorted_[i + 1].key.lbn) ++i;
  return (i + 1) % n;
}

}  // namespace ziosim
