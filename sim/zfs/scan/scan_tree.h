// What a scan walks: the pool's objects and their block pointers in the order
// dsl_scan visits them (objects in object-number order; in each, depth first:
// an indirect block, then the data blocks it points to). The files are the
// FileLayouts of the allocation model or of a zdb dump; the old data of a
// --pool-state pool (the allocator's used runs before the files were laid
// out) is cut into records, which form objects of their own after the files'
// (a modelling choice: the old files' structure is not known, so their
// records are taken in the order they lie on disk, each object as many
// records as a 128K indirect block points to, that indirect block taken to
// lie where its first record does: the walk reads it there, 4 KiB as the
// allocation model's compressed L1s, and it is not itself scrubbed).
//
// Nothing is materialised per block: a 100 TB pool costs its extents and runs.
#ifndef ZIOSIM_SIM_ZFS_SCAN_SCAN_TREE_H_
#define ZIOSIM_SIM_ZFS_SCAN_SCAN_TREE_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "sim/zfs/file_layout.h"
#include "sim/zfs/metaslab_allocator.h"

namespace ziosim {

class Pool;

// One block pointer as the scan sees it: up to two DVAs (a ditto copy of
// metadata as the second) and the block's physical size.
struct ScanBlock {
  bool hole = true;
  int top = 0;
  int64_t offset = 0;
  int64_t asize = 0;
  int top2 = -1;        // -1: one DVA
  int64_t offset2 = 0;
  int64_t asize2 = 0;
  int64_t psize = 0;
  bool walk_only = false;  // old data's stand-in indirect block: read by the walk, not scrubbed
};

class ScanTree {
 public:
  // `files` are kept by reference; `old_runs` per top-level vdev (BlockAllocator::UsedRuns
  // before the files), cut into blocks of `old_record` bytes.
  ScanTree(const Pool& pool, const std::vector<FileLayout>& files, const std::vector<std::vector<Dva>>& old_runs,
           int64_t old_record);

  int64_t objects() const { return static_cast<int64_t>(files_.size()) + old_objects_; }
  // Indirect blocks of object `obj` (0 for a file of one block: its pointer is in the dnode).
  int64_t indirect_blocks(int64_t obj) const;
  ScanBlock Indirect(int64_t obj, int64_t i) const;
  // Data blocks of object `obj` under indirect block `i` (all of them when the
  // object has no indirect block: i = 0).
  int64_t first_data(int64_t obj, int64_t i) const;
  int64_t end_data(int64_t obj, int64_t i) const;
  ScanBlock Data(int64_t obj, int64_t blkid) const;

  // Every DVA's allocated bytes over all blocks, data and indirect: what a
  // scrub examines (zpool's "to examine").
  int64_t total_asize() const { return total_asize_; }
  // The allocated space of top-level vdev `top` (every DVA there), as merged
  // [start, end) ranges in offset order: what a sequential rebuild reads.
  std::vector<std::pair<int64_t, int64_t>> AllocatedRanges(int top) const;
  int64_t blocks() const { return blocks_; }

 private:
  struct OldRun {  // one allocated run, cut into `count` blocks (the last may be shorter)
    int top;
    int64_t offset, bytes, first_block, count;
  };
  ScanBlock OldBlock(int64_t k) const;  // old-data block k, in offset order over all vdevs
  ScanBlock FromPointer(const BlockPointer& bp) const;

  const Pool& pool_;
  const std::vector<FileLayout>& files_;
  std::vector<OldRun> runs_;
  int64_t old_record_;
  int64_t old_blocks_ = 0;
  int64_t old_objects_ = 0;
  int64_t total_asize_ = 0;
  int64_t blocks_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_SCAN_SCAN_TREE_H_
