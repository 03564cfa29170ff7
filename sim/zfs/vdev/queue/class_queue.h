// Era 2: the class scheduler (illumos 4045, 2013; ZoL 0.6.3+, FreeBSD 10+;
// still current). Each I/O class has a queue and a [min_active, max_active]
// window of I/Os in the device:
//   - the class to serve is the first, in priority order, with queued zios
//     and fewer than min_active in the device; failing that, the first with
//     queued zios and fewer than max_active; nothing once zfs_vdev_max_active
//     are in the device in total;
//   - SYNC_READ and SYNC_WRITE are FIFO (by arrival); the other classes are
//     LBA-ordered, served C-SCAN style from `last`, which is per leaf and
//     shared by every class (see LbaLast for its three historical forms);
//   - an arrival issues at most one I/O, a completion as many as allowed.
// The chosen zio may be aggregated with neighbours (aggregation.h).
//
// The async-write max_active scales with the pool's dirty data (see
// ClassQueueConfig::dirty_bytes). Not modelled: the Nov-2020 round-robin start
// of the min_active pass, the scrub limit while interactive I/O is active
// (zfs_vdev_nia_*) and the pending-synctask clause of the async-write scaling.
// Not thread-safe.
#ifndef ZIOSIM_SIM_ZFS_VDEV_QUEUE_CLASS_QUEUE_H_
#define ZIOSIM_SIM_ZFS_VDEV_QUEUE_CLASS_QUEUE_H_

#include <algorithm>
#include <array>
#include <cstdint>

#include "sim/zfs/vdev/queue/aggregation.h"
#include "sim/zfs/vdev/queue/vdev_queue.h"
#include "sim/zfs/vdev/queue/zio_list.h"

namespace ziosim {

// Where an LBA-ordered class resumes (`ziosim_vdev_lba_last`).
enum class LbaLast : uint8_t {
  kStart,   // 2013-2017: first offset > start of the last issued I/O, else the lowest
  kEnd,     // 2017-2023 (d6c6590c5d): first offset >= end of the last issued I/O, else the lowest
  kBucket,  // 2023+ (8469b5aac0): oldest 2^29 ns arrival bucket first; inside it, first
            // offset >= end of the last issued I/O, else the bucket's lowest offset
};

struct ClassQueueConfig {
  std::array<int, kNumZioPriorities> min_active{10, 10, 1, 2, 1};
  std::array<int, kNumZioPriorities> max_active{10, 10, 3, 10, 3};
  int max_active_total = 1000;
  LbaLast lba_last = LbaLast::kBucket;
  AggregationConfig aggregation;
  // vdev_queue_max_async_writes: with `dirty_bytes` (the pool's dirty data),
  // the async-write max_active runs from min_active below async_write_lo_bytes
  // linearly to max_active above async_write_hi_bytes. Null: max_active as is.
  const int64_t* dirty_bytes = nullptr;
  int64_t async_write_lo_bytes = 0;
  int64_t async_write_hi_bytes = 0;
  // OpenZFS 2.1's non-interactive credit (6f5aac3ca0, vdev_queue_class_min_active /
  // _max_active): while interactive I/O is active the scrub class gets at most
  // min(credit, min_active); once it is all done, min_active until `nia_delay`
  // scrub I/Os have completed. nia_delay 0: off (the eras before 2.1).
  int nia_delay = 0;
  int nia_credit = 0;
};

class ClassVdevQueue final : public VdevQueue {
 public:
  // `sink` must outlive the queue.
  ClassVdevQueue(const ClassQueueConfig& config, VdevQueueSink* sink);

  void Add(Zio* zio, SimTime now) override;
  void Done(Zio* io, SimTime now) override;
  bool ChangePriority(Zio* zio, ZioPriority priority) override;

  int queued() const override { return queued_; }
  int active() const override { return total_active_; }
  int64_t last_issued_end() const override { return last_end_; }
  // A class is served while below min_active (first pass) or max_active (second pass).
  int active_limit() const override { return config_.max_active_total; }
  int active_limit(ZioPriority p) const override {
    return std::max(config_.min_active[Index(p)], config_.max_active[Index(p)]);
  }

  int queued(ZioPriority p) const { return class_[Index(p)].size(); }
  int active(ZioPriority p) const { return active_[Index(p)]; }

 private:
  // The 8469b5aac0 arrival bucket: 2^29 ns, about 0.537 s.
  static constexpr int kBucketShift = 29;

  static int Index(ZioPriority p) { return static_cast<int>(p); }
  static bool IsFifo(int p) { return p == Index(ZioPriority::kSyncRead) || p == Index(ZioPriority::kSyncWrite); }

  // Key of `z` in the queue of its class.
  void ClassKey(const Zio& z, int64_t* k1, int64_t* k2) const;
  void Enqueue(Zio* zio);
  // Removes a queued zio from its class queue and its type's offset list.
  void Dequeue(Zio* zio);
  // min_active and max_active of class `p` now (async writes scale with dirty
  // data; the scrub class follows the non-interactive credit).
  int MinActive(int p) const;
  int MaxActive(int p) const;
  // vdev_queue_pending_add / _remove: the interactive I/Os in the device and the credit.
  void CountActive(int p, int delta);
  // The class to serve now, or -1.
  int ClassToIssue() const;
  // Index in class `p`'s queue of the zio to issue next.
  int PickInClass(int p) const;
  // Issues one I/O if the rules allow; false if none was issued.
  bool IssueOne(SimTime now);

  ClassQueueConfig config_;
  VdevQueueSink* sink_;
  Aggregator aggregator_;
  std::array<SortedZioList, kNumZioPriorities> class_;
  std::array<SortedZioList, 2> by_offset_;  // per ZioType, key (offset, 0)
  std::array<int, kNumZioPriorities> active_{};
  int total_active_ = 0;
  int ia_active_ = 0;   // interactive (all but scrub) I/Os in the device (vq_ia_active)
  int nia_credit_ = 0;  // vq_nia_credit
  int queued_ = 0;
  int64_t last_start_ = 0;  // start of the last issued I/O (OpenZFS vq_last_offset starts at 0)
  int64_t last_end_ = -1;   // end of the last issued I/O; -1 before the first
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_QUEUE_CLASS_QUEUE_H_
