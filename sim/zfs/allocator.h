// The allocation model (metaslab.c, reference section 4): turns "these files
// were written this way" into FileLayouts. An empty pool fills each top-level
// vdev from low offsets (DF first fit from the metaslab cursor); the rotor
// moves to the next top-level vdev after an aliquot of allocated bytes; each
// txg writes the files' dirty blocks in an order that depends on how they
// were written (one writer, N concurrent writers, the pre-2016 local
// reordering, a send|recv rewrite), and L1 indirect blocks (with ditto copies)
// land between the data.
#ifndef ZIOSIM_SIM_ZFS_ALLOCATOR_H_
#define ZIOSIM_SIM_ZFS_ALLOCATOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/zfs/file_layout.h"
#include "sim/zfs/pool.h"

namespace ziosim {

struct FileSpec {
  int64_t size_bytes = 0;
  int64_t recordsize = 128 << 10;
  double compression_ratio = 1.0;  // logical / physical, >= 1
  bool sparse = false;             // truncated to size, never written: all holes
};

// How the files came to be on disk. Presets (`ParseLayoutPreset`):
//   sequential       one writer per file, files one after another
//   writers:N        the files written by N concurrent writers (txg-sized runs interleave)
//   shuffle:K        one writer, blocks reordered within windows of K (pre-2016 issue taskq)
//   fragmented:PCT   the pool PCT % full of old data with free space in scattered holes
//   sendrecv         rewritten by zfs send | zfs recv: one stream, file after file
struct LayoutPreset {
  enum class Kind { kSequential, kWriters, kShuffle, kFragmented, kSendRecv } kind = Kind::kSequential;
  int param = 0;
  std::string text;
};
// Throws InputError naming the preset and listing the valid forms.
LayoutPreset ParseLayoutPreset(std::string_view text);

// Lays out `files` on `pool` as `preset` says, with the tunables of the pool's
// era (metaslab_aliquot, indirect block size, ...). Deterministic in `seed`.
// Throws InputError if the files do not fit. Result i is file i (object 2 + i).
// The modelling choices (write rate, txg size, metadata sizes, fragmentation
// pattern, ...) are listed at the top of allocator.cc.
std::vector<FileLayout> AllocateFiles(const Pool& pool, const std::vector<FileSpec>& files,
                                      const LayoutPreset& preset, uint64_t seed);

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

// The metaslab model AllocateFiles uses (rotor, aliquot, DF cursors, ditto
// placement), block by block, for the live write path (txg.h): a file written
// through it gets the layout AllocateFiles would give the same write order.
class BlockAllocator {
 public:
  // An empty pool; deterministic.
  explicit BlockAllocator(const Pool& pool);
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

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A FileLayout from one block pointer per block: `l0` has blocks() entries,
// `l1` indirect_blocks() entries or none (a file of one block). Extents are
// merged as AllocateFiles merges them.
FileLayout BuildFileLayout(const Pool& pool, uint64_t object, int64_t size_bytes, int64_t block_bytes,
                           int ptrs_per_indirect, const std::vector<BlockPointer>& l0,
                           const std::vector<BlockPointer>& l1);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ALLOCATOR_H_
