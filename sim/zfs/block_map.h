// Where the read path (dmu.h) finds a file's block pointers: one source of
// truth shared with the write path. A read-only run reads the files as laid
// out before it (LayoutBlockMap); a run that writes reads through the txg's
// files (Txg implements BlockMap), so a record a sync rewrote (copy on write)
// is read from its new place, and a record dirty in a txg not yet on disk is
// in memory (its dirty dbuf), not read at all. The Dmu caches the files'
// geometry and asks may_dirty() once, so a read-only run pays one virtual
// Locate per block access.
#ifndef ZIOSIM_SIM_ZFS_BLOCK_MAP_H_
#define ZIOSIM_SIM_ZFS_BLOCK_MAP_H_

#include <cstdint>
#include <vector>

#include "sim/zfs/file_layout.h"

namespace ziosim {

class BlockMap {
 public:
  virtual ~BlockMap() = default;
  virtual int files() const = 0;
  virtual int64_t block_bytes(int file) const = 0;
  virtual int64_t blocks(int file) const = 0;
  virtual int ptrs_per_indirect(int file) const = 0;
  // The pointer of block `blkid` at `level` (0: data, 1: indirect); the
  // indirect level of a file with no indirect block is a hole.
  virtual BlockPointer Locate(int file, int level, int64_t blkid) const = 0;
  // Whether data block `blkid` was dirtied in a txg not yet synced: its data
  // is in memory whatever the disk holds.
  virtual bool Unsynced(int file, int64_t blkid) const = 0;
  // Whether Unsynced can ever be true (a write path dirties these files).
  virtual bool may_dirty() const = 0;
};

// The files as laid out before the run; nothing is ever dirty.
class LayoutBlockMap final : public BlockMap {
 public:
  // `files` must outlive the map.
  explicit LayoutBlockMap(const std::vector<FileLayout>* files) : files_(files) {}
  int files() const override { return static_cast<int>(files_->size()); }
  int64_t block_bytes(int file) const override { return At(file).block_bytes(); }
  int64_t blocks(int file) const override { return At(file).blocks(); }
  int ptrs_per_indirect(int file) const override { return At(file).ptrs_per_indirect(); }
  BlockPointer Locate(int file, int level, int64_t blkid) const override {
    const FileLayout& f = At(file);
    if (level == 1 && f.extents(1).empty()) return BlockPointer{};
    return f.Locate(level, blkid);
  }
  bool Unsynced(int, int64_t) const override { return false; }
  bool may_dirty() const override { return false; }

 private:
  const FileLayout& At(int file) const { return (*files_)[static_cast<size_t>(file)]; }
  const std::vector<FileLayout>* files_;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_BLOCK_MAP_H_
