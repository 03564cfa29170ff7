#include "models/queue/deadline_queue.h"

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
  if (pending_ >= limit || by_deadline_.empty()) return false;
  Zio* const chosen = by_deadline_.front();
  SortedZioList& same_type = by_offset_[static_cast<int>(chosen->type)];
  const int offset_pos = same_type.Find(chosen->offset, 0, chosen);
  if (offset_pos < 0) throw std::logic_error("internal error: zio missing from its leaf queue");

  Zio* io = chosen;
  if (aggregator_.Collect(same_type, offset_pos) > 1) {
    for (Zio* part : aggregator_.parts()) Dequeue(part);
    io = aggregator_.Build(*chosen, sink_, now, &stats_);
  } else {
    by_deadline_.EraseAt(0);
    same_type.EraseAt(offset_pos);
    --queued_;
    chosen->issued_ns = now;
  }

  ++pending_;
  last_end_ = io->end();
  ++stats_.issued;
  ++stats_.issued_by_class[static_cast<int>(chosen->priority)];
  sink_->IssueToDevice(io);
  return true;
}

}  // namespace ziosim
