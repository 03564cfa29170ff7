#include "sim/zfs/vdev/queue/deadline_queue.h"

#include <stdexcept>

namespace ziosim {

DeadlineVdevQueue::DeadlineVdevQueue(const DeadlineQueueConfig& config, VdevQueueSink* sink)
    : config_(config), sink_(sink), aggregator_(config.aggregation) {
  if (sink_ == nullptr) throw std::invalid_argument("DeadlineVdevQueue: null sink");
  if (config_.time_unit_ns <= 0) throw std::invalid_argument("DeadlineVdevQueue: time unit must be positive");
}

void DeadlineVdevQueue::Enqueue(Zio* zio) {
  by_deadline_.Insert(Deadline(zio->queued_ns, zio->priority), zio->offset, zio);
  by_offset_[static_cast<int>(zio->type)].Insert(zio->offset, 0, zio);
  ++queued_;
}

void DeadlineVdevQueue::Dequeue(Zio* zio) {
  if (!by_deadline_.Erase(Deadline(zio->queued_ns, zio->priority), zio->offset, zio) ||
      !by_offset_[static_cast<int>(zio->type)].Erase(zio->offset, 0, zio)) {
    throw std::logic_error("internal error: zio missing from its leaf queue");
  }
  --queued_;
}

void DeadlineVdevQueue::Add(Zio* zio, SimTime now) {
  zio->queued_ns = now;
  Enqueue(zio);
  IssueOne(config_.min_pending, now);
}

void DeadlineVdevQueue::Done(Zio* /*io*/, SimTime now) {
  if (pending_ <= 0) throw std::logic_error("internal error: leaf queue completion without an active I/O");
  --pending_;
  for (int i = 0; i < config_.ramp_rate; ++i) {
    if (!IssueOne(config_.max_pending, now)) break;
  }
}

bool DeadlineVdevQueue::ChangePriority(Zio* zio, ZioPriority priority) {
  if (zio->priority == priority) return false;
  if (by_deadline_.Find(Deadline(zio->queued_ns, zio->priority), zio->offset, zio) < 0) return false;
  Dequeue(zio);
  zio->priority = priority;  // its deadline is recomputed from its arrival time
  Enqueue(zio);
  return true;
}

bool DeadlineVdevQueue::IssueOne(int limit, SimTime now) {
  Zio* chosen;
  Zio* io = nullptr;
  while (io == nullptr) {  // optional zios chosen alone are dropped (vdev_queue_io_to_issue bypasses them)
    if (pending_ >= limit || by_deadline_.empty()) return false;
    chosen = by_deadline_.front();
    io = aggregator_.TakeChosen(chosen, by_offset_[static_cast<int>(chosen->type)], [this](Zio* z) { Dequeue(z); },
                                sink_, now, &stats_);
  }

  ++pending_;
  last_end_ = io->end();
  // One window for every class: a class's high-water mark is the total's.
  CountIssue(static_cast<int>(chosen->priority), pending_, pending_);
  sink_->IssueToDevice(io);
  return true;
}

}  // namespace ziosim
