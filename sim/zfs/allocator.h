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

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ALLOCATOR_H_
