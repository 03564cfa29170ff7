#include "sim/zfs/file_layout.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ziosim {

FileLayout::FileLayout(uint64_t object, int64_t size_bytes, int64_t block_bytes, int ptrs_per_indirect)
    : object_(object), size_bytes_(size_bytes), block_bytes_(block_bytes), ptrs_per_indirect_(ptrs_per_indirect) {
  if (size_bytes < 0 || block_bytes <= 0 || ptrs_per_indirect <= 0) {
    throw std::invalid_argument("FileLayout: size " + std::to_string(size_bytes) + ", block " +
                                std::to_string(block_bytes) + ", pointers per indirect " +
                                std::to_string(ptrs_per_indirect) + " (need size >= 0, block > 0, pointers > 0)");
  }
}

void FileLayout::AddExtent(int level, const LayoutExtent& e) {
  if (level < 0 || level > 1) throw std::invalid_argument("FileLayout::AddExtent: level must be 0 or 1");
  std::vector<LayoutExtent>& v = extents_[level];
  const int64_t next = v.empty() ? 0 : v.back().first + v.back().count;
  if (e.first != next || e.count <= 0) {
    throw std::invalid_argument("FileLayout::AddExtent: level " + std::to_string(level) + " extent starts at " +
                                std::to_string(e.first) + " with " + std::to_string(e.count) +
                                " blocks; expected a positive count starting at " + std::to_string(next));
  }
  v.push_back(e);
}

BlockPointer FileLayout::Locate(int level, int64_t blkid) const {
  const std::vector<LayoutExtent>& v = extents_[level];
  // The last extent whose first block is <= blkid.
  auto it = std::upper_bound(v.begin(), v.end(), blkid,
                             [](int64_t id, const LayoutExtent& e) { return id < e.first; });
  if (it == v.begin() || blkid >= std::prev(it)->first + std::prev(it)->count) {
    throw std::out_of_range("FileLayout::Locate: level " + std::to_string(level) + " block " + std::to_string(blkid) +
                            " of object " + std::to_string(object_) + " is not covered");
  }
  const LayoutExtent& e = *std::prev(it);
  BlockPointer bp;
  if (e.hole) return bp;
  const int64_t i = blkid - e.first;
  bp.hole = false;
  bp.top = e.top;
  bp.offset = e.offset + i * e.stride;
  bp.psize = e.psize;
  bp.top2 = e.top2;
  if (e.top2 >= 0) bp.offset2 = e.offset2 + i * e.stride;
  return bp;
}

}  // namespace ziosim
