// One top-level vdev's queue of the sorted scan (OpenZFS 2.1 dsl_scan.c,
// vdev_scan_io_queue): the DVAs the traversal gathered, by address
// (q_sios_by_addr, one per offset), the extents they form (q_exts_by_addr: a
// range tree that joins ranges within zfs_scan_max_ext_gap; an extent's fill
// counts only the blocks' bytes), and the extents' issue order (q_exts_by_size:
// ext_size_value's power-of-two bucket of fill + fill_weight x fill x fill/size,
// best bucket first, then the lowest address).
#ifndef ZIOSIM_SIM_ZFS_SCAN_SCAN_QUEUE_H_
#define ZIOSIM_SIM_ZFS_SCAN_SCAN_QUEUE_H_

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ziosim {

struct QueuedDva {
  int64_t offset = 0;
  int64_t asize = 0;
  int64_t psize = 0;
};

class ScanQueue {
 public:
  ScanQueue(int ashift, int64_t max_gap_bytes, int fill_weight);

  // scan_io_queue_insert: a DVA of a block with `ndvas` DVAs (a second one at
  // the same offset is dropped, as OpenZFS frees the duplicate sio).
  void Insert(const QueuedDva& dva, int ndvas);
  bool empty() const { return sios_.empty(); }
  int64_t dvas() const { return static_cast<int64_t>(sios_.size()); }
  int64_t extents() const { return static_cast<int64_t>(exts_.size()); }
  // The queue's memory as dsl_scan_should_clear counts it: 48 bytes per extent
  // ((sizeof(range_seg_gap_t) + 8) x 3/2) plus each sio (120 + 16 x ndvas bytes,
  // scan_io_t's LP64 layout).
  int64_t memory_bytes() const { return static_cast<int64_t>(exts_.size()) * 48 + sio_bytes_; }

  // scan_io_queue_fetch_ext + scan_io_queue_gather: the next up-to-33 DVAs of
  // the extent to issue, in offset order, appended to `out`. `lba_order`: the
  // lowest extent (strategy 1, or 0 while draining); else the extent last
  // issued from if it is still there, or the best-scored one.
  void Gather(bool lba_order, std::vector<QueuedDva>* out);

 private:
  struct Extent {
    int64_t end = 0;
    int64_t fill = 0;
  };
  struct Sio {
    int64_t asize = 0;
    int64_t psize = 0;
    int ndvas = 1;
  };
  uint64_t ScoreKey(int64_t start, const Extent& e) const;
  void AddExtent(int64_t start, const Extent& e);
  void RemoveExtent(std::map<int64_t, Extent>::iterator it);

  int ashift_;
  int64_t max_gap_;
  int64_t fill_weight_;
  std::map<int64_t, Extent> exts_;             // start -> extent
  std::set<std::pair<uint64_t, int64_t>> by_score_;  // (issue key, start)
  std::map<int64_t, Sio> sios_;                // offset -> queued DVA
  int64_t sio_bytes_ = 0;
  int64_t last_ext_addr_ = -1;                 // q_last_ext_addr
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_SCAN_SCAN_QUEUE_H_
