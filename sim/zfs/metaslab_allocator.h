// The metaslab model (metaslab.c, reference section 4): where one block goes.
// An empty pool fills each top-level vdev from low offsets (DF first fit from
// the metaslab cursor); the rotor moves to the next top-level vdev after an
// aliquot of allocated bytes; a ditto copy goes to another top-level vdev or
// far from the first copy. Block by block, for the allocation model of
// allocator.h and the live write path (txg.h) alike, so a file written through
// either gets the same layout for the same write order. The modelling choices
// are listed at the top of metaslab_allocator.cc.
#ifndef ZIOSIM_SIM_ZFS_METASLAB_ALLOCATOR_H_
#define ZIOSIM_SIM_ZFS_METASLAB_ALLOCATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/zfs/file_layout.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_state.h"

namespace ziosim {

// One DVA: a block's address on a top-level vdev with its allocated size.
struct Dva {
  int top = -1;
  int64_t offset = 0;
  int64_t asize = 0;
};

// Largest block ZFS writes (SPA_MAXBLOCKSIZE).
inline constexpr int64_t kMaxBlockBytes = int64_t{16} << 20;

// The block pointer of a block of `psize` at `a`, with its ditto copy at `ditto` (or none).
BlockPointer ToBlockPointer(const Dva& a, const Dva* ditto, int64_t psize);

class BlockAllocator {
 public:
  // An empty pool; deterministic.
  explicit BlockAllocator(const Pool& pool);
  // A pool `old_data_fill` (0 to 0.95) full of old data in scattered runs
  // (the fragmented:PCT layout preset), drawn from `seed` as each metaslab is
  // first used.
  BlockAllocator(const Pool& pool, double old_data_fill, uint64_t seed);
  // A pool in `state` (--pool-state; pool_state.h): old data in the low
  // metaslabs of every top-level vdev, its free segments drawn from `seed` as
  // each metaslab is first used; new blocks placed by the era's metaslab
  // weight and DF allocator (the tunables zfs_metaslab_segment_weight_enabled,
  // metaslab_df_*, ...). A state with cap 0 is the empty pool, exactly.
  // Throws InputError (naming `label`) when the state cannot be laid out.
  BlockAllocator(const Pool& pool, const PoolState& state, uint64_t seed, const std::string& label = "--pool-state");
  ~BlockAllocator();
  BlockAllocator(const BlockAllocator&) = delete;
  BlockAllocator& operator=(const BlockAllocator&) = delete;

  // Allocates a block of `psize` bytes; with `first_copy`, its ditto copy
  // (another top-level vdev, or >= 1/8 of the vdev away). Throws InputError
  // when the pool is full.
  Dva Alloc(int64_t psize, const Dva* first_copy = nullptr);
  // Returns a block's space (the caller defers frees by TXG_DEFER_SIZE txgs).
  void Free(const Dva& dva);
  // Takes the space of a block already on disk. Throws std::invalid_argument
  // unless it lies in free space (a bug in the caller).
  void Claim(const Dva& dva);
  int64_t free_bytes() const;
  // The allocated space of top-level vdev `top`, as runs in offset order
  // (asize = run length; on dRAID cut to whole stripe rows). Lays every
  // metaslab out. With an old-data state and nothing allocated since: where
  // the old data lies.
  std::vector<Dva> UsedRuns(int top);

  // What zpool list would show: allocated / size of the metaslab space, in
  // percent (integer, as the CAP column), and FRAG computed with OpenZFS's
  // formula (pool_state.h) over the current free segments.
  int64_t CapacityPercent() const;
  int64_t FragmentationPercent() const;
  // Top-level vdev `top`'s size (its asize) and its metaslabs' FRAG figures.
  int64_t VdevBytes(int top) const;
  std::vector<int64_t> MetaslabFragmentations(int top) const;
  // Counts of free segments per power of two of metaslab `ms` of `top`, from
  // the segments themselves (the metaslab is laid out if it was not yet).
  SegmentHistogram MetaslabHistogram(int top, int64_t ms);

 private:
  class Space;
  std::unique_ptr<Space> space_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_METASLAB_ALLOCATOR_H_
