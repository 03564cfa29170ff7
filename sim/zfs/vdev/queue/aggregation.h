// I/O aggregation (vdev_queue_aggregate): the zio a scheduler chose may be
// issued together with queued neighbours of the same type as one larger
// device I/O. Both eras share the rule; they differ only in its settings.
//
// From the chosen zio, walk backwards then forwards through the queued zios
// of its type in offset order, taking each neighbour while
//   - the gap between it and the range so far is 0 <= gap <= maxgap
//     (read_gap_limit for reads, 0 for writes; an overlapping neighbour
//     stops the walk, as OpenZFS's unsigned IO_GAP does),
//   - the span of the range stays <= limit, and
//   - it may merge with the chosen zio: same flavour (scrub vs not scrub,
//     OpenZFS's AGG_INHERIT flags), and the era switches allow its class.
// Era switches:
//   cross_class  true (illumos 5313, 2015+; and era 1): the walk goes through
//                every queued zio of the type, whatever its class.
//                false (illumos 4045 as first shipped): the walk sees only the
//                chosen zio's class, as if the other classes were not queued.
//   sync_classes false (4045 as first shipped): sync read/write zios are FIFO
//                and never aggregate, neither as the chosen zio nor as a
//                neighbour.
// Writes use gap 0 and may carry optional zios (RAID-Z skip sectors, see
// Zio::optional), as vdev_queue_aggregate: an optional zio never starts a
// range (leading ones are dropped), may extend it past `limit` (up to
// kMaxAggregateSpan), and trailing ones stay only when a mandatory write
// follows back to back within write_gap of the last mandatory one (the next
// optional zio then turns mandatory, "stretch"); otherwise they are trimmed.
// An optional zio chosen on its own goes alone (Collect returns 1) and the
// queue drops it (VdevQueueSink::DropOptional).
//
// The aggregate covers [first.offset, last.end): the gap bytes are read too
// (they cost media time). It takes the chosen zio's type and priority and
// occupies one active slot of that class.
#ifndef ZIOSIM_SIM_ZFS_VDEV_QUEUE_AGGREGATION_H_
#define ZIOSIM_SIM_ZFS_VDEV_QUEUE_AGGREGATION_H_

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "sim/zfs/vdev/queue/vdev_queue.h"
#include "sim/zfs/vdev/queue/zio_list.h"
#include "sim/core/time.h"
#include "sim/zfs/zio.h"

namespace ziosim {

// SPA_MAXBLOCKSIZE: no aggregate spans more, whatever the tunables say (era 2).
inline constexpr int64_t kMaxAggregateSpan = int64_t{16} << 20;

struct AggregationConfig {
  int64_t limit = 0;         // max span of an aggregate, bytes; 0: never aggregate
  int64_t read_gap = 0;      // max gap bridged between two reads, bytes
  bool cross_class = true;   // neighbours of any class of the same type may merge
  bool sync_classes = true;  // sync read / sync write zios may aggregate
  int64_t write_gap = 0;     // zfs_vdev_write_gap_limit: reach of a trailing optional write
};

class Aggregator {
 public:
  explicit Aggregator(const AggregationConfig& config);

  // Collects, in offset order, the zios that go out with `chosen`, which sits
  // at index `pos` of `by_offset` (the queued zios of chosen's type, keyed by
  // offset). Returns how many there are: 1 means `chosen` goes alone. The list
  // is valid until the next call: see parts().
  int Collect(const SortedZioList& by_offset, int pos);

  // The zios of the last Collect, in offset order (chosen among them).
  const std::vector<Zio*>& parts() const { return parts_; }

  // Builds the aggregate of parts() (REQUIRES: the last Collect returned > 1):
  // a fresh zio from `sink` covering them all, with chosen's type and priority,
  // the constituents linked in offset order (agg_head / agg_next, agg_count),
  // issued_ns = now on it and on every constituent. Counts aggregated,
  // aggregated_zios and gap_bytes in `stats`; removes nothing from any queue.
  Zio* Build(const Zio& chosen, VdevQueueSink* sink, SimTime now, VdevQueueStats* stats) const;

  // vdev_queue_io_to_issue once a scheduler has chosen `chosen`, queued in
  // `by_offset` (the zios of its type): returns the I/O to send to the device,
  // the aggregate of chosen and its neighbours (Collect, Build) or chosen
  // alone, with every zio in it removed from the queue by `dequeue(zio)`.
  // Returns nullptr when chosen is an optional zio alone: it is removed and
  // handed to sink->DropOptional, and the scheduler chooses again.
  template <typename DequeueFn>
  Zio* TakeChosen(Zio* chosen, const SortedZioList& by_offset, DequeueFn dequeue, VdevQueueSink* sink, SimTime now,
                  VdevQueueStats* stats) {
    const int pos = by_offset.Find(chosen->offset, 0, chosen);
    if (pos < 0) throw std::logic_error("internal error: zio missing from its leaf queue");
    if (Collect(by_offset, pos) > 1) {
      for (Zio* part : parts_) dequeue(part);
      return Build(*chosen, sink, now, stats);
    }
    dequeue(chosen);
    if (chosen->optional) {
      sink->DropOptional(chosen);
      return nullptr;
    }
    chosen->issued_ns = now;
    return chosen;
  }

  const AggregationConfig& config() const { return config_; }

 private:
  static bool IsSync(const Zio& z) {
    return z.priority == ZioPriority::kSyncRead || z.priority == ZioPriority::kSyncWrite;
  }
  static bool IsScrub(const Zio& z) { return z.priority == ZioPriority::kScrub; }

  AggregationConfig config_;
  std::vector<Zio*> parts_;  // reused: no allocation per call once grown
  std::vector<Zio*> before_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_QUEUE_AGGREGATION_H_
