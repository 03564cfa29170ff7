// Where a file's blocks live on the pool: for each level-0 (data) block and
// each level-1 (indirect) block, its block pointer: the DVA (top-level vdev,
// offset in that vdev's space), its physical size, or a hole. Built by the
// allocation model (allocator.h) or imported from `zdb -ddddd` output.
//
// Storage is by extents (runs of blocks laid back to back on one vdev), so a
// 100 GB file costs kilobytes, and a look-up is a binary search, or none when it
// falls in the extent found last or the next one.
#ifndef ZIOSIM_SIM_ZFS_FILE_LAYOUT_H_
#define ZIOSIM_SIM_ZFS_FILE_LAYOUT_H_

#include <cstdint>
#include <vector>

namespace ziosim {

class Pool;

struct BlockPointer {
  bool hole = true;     // no data: reads cost CPU only
  int top = 0;          // top-level vdev of the (first) DVA
  int64_t offset = 0;   // in that vdev's address space
  int64_t psize = 0;    // physical (compressed) bytes read from disk
  // A second DVA (ditto copy of metadata), or top2 = -1.
  int top2 = -1;
  int64_t offset2 = 0;
};

// A run of `count` consecutive blocks of one level whose physical copies sit
// back to back: block first+i is at offset + i*stride on vdev `top`.
struct LayoutExtent {
  int64_t first = 0;
  int64_t count = 0;
  int top = 0;
  int64_t offset = 0;
  int64_t stride = 0;   // allocated size (asize) of each block
  int64_t psize = 0;
  bool hole = false;
  int top2 = -1;        // ditto copies (metadata): second DVA run
  int64_t offset2 = 0;
};

class FileLayout {
 public:
  FileLayout() = default;
  FileLayout(uint64_t object, int64_t size_bytes, int64_t block_bytes, int ptrs_per_indirect);

  uint64_t object() const { return object_; }
  int64_t size_bytes() const { return size_bytes_; }
  int64_t block_bytes() const { return block_bytes_; }         // logical block size
  int ptrs_per_indirect() const { return ptrs_per_indirect_; } // L0 blocks per L1 (128 or 1024)
  int64_t blocks() const { return (size_bytes_ + block_bytes_ - 1) / block_bytes_; }
  int64_t indirect_blocks() const { return (blocks() + ptrs_per_indirect_ - 1) / ptrs_per_indirect_; }

  // Appends extents in ascending `first` order, contiguous with what is there.
  // REQUIRES: e.first == the next uncovered block of that level.
  void AddExtent(int level, const LayoutExtent& e);
  // The pointer of block `blkid` at `level` (0: data, 1: indirect).
  // REQUIRES: the level's extents cover blkid. Level 0 always covers blocks();
  // level 1 covers indirect_blocks(), or nothing at all (extents(1) empty) when
  // the file has no indirect block: a sparse file (no block pointers) or a file
  // of one block (its pointer is in the dnode).
  // Throws std::out_of_range for an uncovered blkid (a bug in the caller).
  // Remembers the extent found, where the next look-up of a reader going
  // through the file starts: a layout serves one simulation (thread) at a time.
  BlockPointer Locate(int level, int64_t blkid) const;
  const std::vector<LayoutExtent>& extents(int level) const { return extents_[level]; }

 private:
  uint64_t object_ = 0;
  int64_t size_bytes_ = 0;
  int64_t block_bytes_ = 0;
  int ptrs_per_indirect_ = 1024;
  std::vector<LayoutExtent> extents_[2];
  mutable size_t last_[2] = {0, 0};  // per level: the extent Locate found last
};

// Appends blocks of one level to a FileLayout in blkid order, merging blocks
// laid back to back (same vdev, same size, each `stride` bytes after the last;
// the ditto copies likewise) into extents. Used by the allocation model and
// the zdb import.
class ExtentBuilder {
 public:
  explicit ExtentBuilder(int level) : level_(level) {}

  // Blocks must come in ascending blkid order; gaps become holes. `stride`
  // (`stride2`) is the asize of the block (of its ditto copy).
  void Add(FileLayout& fl, int64_t blkid, const BlockPointer& bp, int64_t stride, int64_t stride2);
  void AddHoles(FileLayout& fl, int64_t from, int64_t to);
  // Adds holes up to `end` blocks and writes the last extent.
  void Finish(FileLayout& fl, int64_t end);

 private:
  bool Extends(int64_t blkid, const BlockPointer& bp, int64_t stride, int64_t stride2) const;
  void Flush(FileLayout& fl);

  int level_;
  bool has_ = false;
  int64_t next_ = 0;
  LayoutExtent e_;
  int64_t stride2_ = 0;
};

// A FileLayout from one block pointer per block: `l0` has blocks() entries,
// `l1` indirect_blocks() entries or none (a file of one block). Extents are
// merged as the allocation model merges them.
FileLayout BuildFileLayout(const Pool& pool, uint64_t object, int64_t size_bytes, int64_t block_bytes,
                           int ptrs_per_indirect, const std::vector<BlockPointer>& l0,
                           const std::vector<BlockPointer>& l1);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_FILE_LAYOUT_H_
