#include "sim/zfs/vdev/queue/class_queue.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ziosim {

ClassVdevQueue::ClassVdevQueue(const ClassQueueConfig& config, VdevQueueSink* sink)
    : config_(config), sink_(sink), aggregator_(config.aggregation) {
  if (sink_ == nullptr) throw std::invalid_argument("ClassVdevQueue: null sink");
}

void ClassVdevQueue::ClassKey(const Zio& z, int64_t* k1, int64_t* k2) const {
  const int p = Index(z.priority);
  if (IsFifo(p)) {
    *k1 = z.queued_ns;  // arrival order; equal times keep insertion order
    *k2 = 0;
  } else if (config_.lba_last == LbaLast::kBucket) {
    *k1 = z.queued_ns >> kBucketShift;
    *k2 = z.offset;
  } else {
    *k1 = z.offset;
    *k2 = 0;
  }
}

void ClassVdevQueue::Enqueue(Zio* zio) {
  int64_t k1, k2;
  ClassKey(*zio, &k1, &k2);
  class_[Index(zio->priority)].Insert(k1, k2, zio);
  by_offset_[static_cast<int>(zio->type)].Insert(zio->offset, 0, zio);
  ++queued_;
}

void ClassVdevQueue::Dequeue(Zio* zio) {
  int64_t k1, k2;
  ClassKey(*zio, &k1, &k2);
  if (!class_[Index(zio->priority)].Erase(k1, k2, zio) ||
      !by_offset_[static_cast<int>(zio->type)].Erase(zio->offset, 0, zio)) {
    throw std::logic_error("internal error: zio missing from its leaf queue");
  }
  --queued_;
}

void ClassVdevQueue::Add(Zio* zio, SimTime now) {
  zio->queued_ns = now;
  Enqueue(zio);
  IssueOne(now);
}

void ClassVdevQueue::Done(Zio* io, SimTime now) {
  const int p = Index(io->priority);
  if (active_[p] <= 0) throw std::logic_error("internal error: leaf queue completion without an active I/O");
  CountActive(p, -1);
  while (IssueOne(now)) {
  }
}

bool ClassVdevQueue::ChangePriority(Zio* zio, ZioPriority priority) {
  if (zio->priority == priority) return false;
  int64_t k1, k2;
  ClassKey(*zio, &k1, &k2);
  if (class_[Index(zio->priority)].Find(k1, k2, zio) < 0) return false;  // issued: keeps its class
  Dequeue(zio);
  zio->priority = priority;
  Enqueue(zio);
  return true;
}

namespace {
constexpr int kScrubClass = static_cast<int>(ZioPriority::kScrub);
}  // namespace

void ClassVdevQueue::CountActive(int p, int delta) {
  active_[p] += delta;
  total_active_ += delta;
  if (config_.nia_delay == 0) return;
  const bool interactive = p != kScrubClass;
  if (delta > 0) {
    if (interactive && ++ia_active_ == 1) nia_credit_ = 1;
    if (!interactive && ia_active_ > 0) --nia_credit_;
  } else if (interactive) {
    nia_credit_ = --ia_active_ == 0 ? 0 : config_.nia_credit;
  } else if (ia_active_ == 0) {
    ++nia_credit_;
  }
}

int ClassVdevQueue::MinActive(int p) const {
  const int min = config_.min_active[p];
  if (p != kScrubClass || config_.nia_delay == 0 || ia_active_ == 0) return min;
  return std::min(nia_credit_, min);
}

int ClassVdevQueue::MaxActive(int p) const {
  if (p == kScrubClass && config_.nia_delay > 0) {
    if (ia_active_ > 0) return std::min(nia_credit_, config_.min_active[p]);
    if (nia_credit_ < config_.nia_delay) return std::max(1, config_.min_active[p]);
  }
  const int max = config_.max_active[p];
  if (p != Index(ZioPriority::kAsyncWrite) || config_.dirty_bytes == nullptr) return max;
  const int min = config_.min_active[p];
  const int64_t dirty = *config_.dirty_bytes;
  const int64_t lo = config_.async_write_lo_bytes, hi = config_.async_write_hi_bytes;
  if (dirty < lo) return min;
  if (dirty > hi || hi <= lo) return max;
  return static_cast<int>((dirty - lo) * (max - min) / (hi - lo)) + min;
}

int ClassVdevQueue::ClassToIssue() const {
  if (total_active_ >= config_.max_active_total) return -1;
  for (int p = 0; p < kNumZioPriorities; ++p) {
    if (!class_[p].empty() && active_[p] < MinActive(p)) return p;
  }
  for (int p = 0; p < kNumZioPriorities; ++p) {
    if (!class_[p].empty() && active_[p] < MaxActive(p)) return p;
  }
  return -1;
}

int ClassVdevQueue::PickInClass(int p) const {
  const SortedZioList& q = class_[p];
  if (IsFifo(p)) return 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  switch (config_.lba_last) {
    case LbaLast::kStart: {
      const int i = q.LowerBound(last_start_ + 1, kMin);
      return i < q.size() ? i : 0;
    }
    case LbaLast::kEnd: {
      const int i = q.LowerBound(last_end_, kMin);
      return i < q.size() ? i : 0;
    }
    case LbaLast::kBucket: {
      const SortedZioList::Entry& oldest = q.entry(0);
      if (oldest.k2 >= last_end_) return 0;
      const int i = q.LowerBound(oldest.k1, last_end_);
      return (i < q.size() && q.entry(i).k1 == oldest.k1) ? i : 0;
    }
  }
  return 0;
}

bool ClassVdevQueue::IssueOne(SimTime now) {
  int p;
  Zio* io = nullptr;
  while (io == nullptr) {  // optional zios chosen alone are dropped (vdev_queue_io_to_issue bypasses them)
    p = ClassToIssue();
    if (p < 0) return false;
    Zio* chosen = class_[p].at(PickInClass(p));
    io = aggregator_.TakeChosen(chosen, by_offset_[static_cast<int>(chosen->type)], [this](Zio* z) { Dequeue(z); },
                                sink_, now, &stats_);
  }

  CountActive(p, 1);
  last_start_ = io->offset;
  last_end_ = io->end();
  CountIssue(p, active_[p], total_active_);
  sink_->IssueToDevice(io);
  return true;
}

}  // namespace ziosim
