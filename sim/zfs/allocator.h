// The allocation model (reference section 4): turns "these files were written
// this way" into FileLayouts. Each txg writes the files' dirty blocks in an
// order that depends on how they were written (the layout preset: one writer,
// N concurrent writers, the pre-2016 local reordering, a send|recv rewrite)
// through the metaslab model (metaslab_allocator.h), and L1 indirect blocks
// (with ditto copies) land between the data.
#ifndef ZIOSIM_SIM_ZFS_ALLOCATOR_H_
#define ZIOSIM_SIM_ZFS_ALLOCATOR_H_

#include <cstdint>
#include <vector>

#include "sim/zfs/file_layout.h"
#include "sim/zfs/layout_preset.h"
#include "sim/zfs/metaslab_allocator.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_state.h"

namespace ziosim {

struct FileSpec {
  int64_t size_bytes = 0;
  int64_t recordsize = 128 << 10;
  double compression_ratio = 1.0;  // logical / physical, >= 1
  bool sparse = false;             // truncated to size, never written: all holes
};

// Lays out `files` on `pool` as `preset` says, with the tunables of the pool's
// era (metaslab_aliquot, indirect block size, ...). Deterministic in `seed`.
// Throws InputError if the files do not fit. Result i is file i (object 2 + i).
// The modelling choices (write rate, txg size, metadata sizes, fragmentation
// pattern, ...) are listed at the top of allocator.cc and metaslab_allocator.cc.
std::vector<FileLayout> AllocateFiles(const Pool& pool, const std::vector<FileSpec>& files,
                                      const LayoutPreset& preset, uint64_t seed);

// What `zpool list` shows of the pool (CAP and FRAG, integer percent).
struct PoolFigures {
  int64_t cap_pct = 0;
  int64_t frag_pct = 0;
};

// The same on a pool in `state` (--pool-state, pool_state.h): the old data
// is laid out first; `before`, if given, gets the pool's figures then, FRAG
// computed back from the laid-out free space with OpenZFS's formula. A state
// that is not set is the call above. Throws InputError when the preset is
// fragmented:PCT and the state is set (both lay out old data).
std::vector<FileLayout> AllocateFiles(const Pool& pool, const std::vector<FileSpec>& files,
                                      const LayoutPreset& preset, uint64_t seed, const PoolState& state,
                                      PoolFigures* before = nullptr);

// Refuses --pool-state with --layout fragmented:PCT (InputError naming both).
void CheckPoolStateWithLayout(const PoolState& state, const LayoutPreset& preset);

// Where the files' data blocks landed: each block's offset as a percent of
// its top-level vdev's size (vdev_asize), weighted by block, and the runs of
// blocks laid back to back (extents; L1 blocks between data split them too).
struct Placement {
  int64_t blocks = 0;        // data blocks (not holes)
  int64_t extents = 0;       // runs of data blocks back to back on one vdev
  double first_pct = 0;      // lowest block offset
  double median_pct = 0;     // median over blocks
  double last_pct = 0;       // highest block offset
};
Placement PlacementOf(const Pool& pool, const std::vector<FileLayout>& layouts);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ALLOCATOR_H_
