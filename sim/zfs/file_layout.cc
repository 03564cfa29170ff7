#include "sim/zfs/file_layout.h"

#include <algorithm>
#include <cassert>
#include <stdexcept>
#include <string>

#include "sim/zfs/pool.h"

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
  assert(level == 0 || level == 1);
  const std::vector<LayoutExtent>& v = extents_[level];
  size_t& last = last_[level];
  // The last extent found, the one after it, or else the last extent whose first block is <= blkid.
  if (last >= v.size() || blkid < v[last].first || blkid >= v[last].first + v[last].count) {
    if (last + 1 < v.size() && blkid >= v[last + 1].first && blkid < v[last + 1].first + v[last + 1].count) {
      ++last;
    } else {
      auto it = std::upper_bound(v.begin(), v.end(), blkid,
                                 [](int64_t id, const LayoutExtent& e) { return id < e.first; });
      if (it == v.begin() || blkid >= std::prev(it)->first + std::prev(it)->count) {
        throw std::out_of_range("FileLayout::Locate: level " + std::to_string(level) + " block " +
                                std::to_string(blkid) + " of object " + std::to_string(object_) + " is not covered");
      }
      last = static_cast<size_t>(std::prev(it) - v.begin());
    }
  }
  const LayoutExtent& e = v[last];
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

void ExtentBuilder::Add(FileLayout& fl, int64_t blkid, const BlockPointer& bp, int64_t stride, int64_t stride2) {
  if (has_ && blkid > e_.first + e_.count) AddHoles(fl, e_.first + e_.count, blkid);
  if (!has_ && blkid > next_) AddHoles(fl, next_, blkid);
  if (has_ && Extends(blkid, bp, stride, stride2)) {
    ++e_.count;
    return;
  }
  Flush(fl);
  e_ = LayoutExtent{};
  e_.first = blkid;
  e_.count = 1;
  e_.hole = bp.hole;
  if (!bp.hole) {
    e_.top = bp.top;
    e_.offset = bp.offset;
    e_.stride = stride;
    e_.psize = bp.psize;
    e_.top2 = bp.top2;
    e_.offset2 = bp.top2 >= 0 ? bp.offset2 : 0;
    stride2_ = stride2;
  }
  has_ = true;
}

void ExtentBuilder::AddHoles(FileLayout& fl, int64_t from, int64_t to) {
  if (to <= from) return;
  if (has_ && e_.hole && e_.first + e_.count == from) {
    e_.count += to - from;
    return;
  }
  Flush(fl);
  e_ = LayoutExtent{};
  e_.first = from;
  e_.count = to - from;
  e_.hole = true;
  has_ = true;
}

void ExtentBuilder::Finish(FileLayout& fl, int64_t end) {
  const int64_t covered = has_ ? e_.first + e_.count : next_;
  AddHoles(fl, covered, end);
  Flush(fl);
}

bool ExtentBuilder::Extends(int64_t blkid, const BlockPointer& bp, int64_t stride, int64_t stride2) const {
  if (blkid != e_.first + e_.count || bp.hole != e_.hole) return false;
  if (bp.hole) return true;
  if (bp.top != e_.top || stride != e_.stride || bp.psize != e_.psize || bp.offset != e_.offset + e_.count * stride) {
    return false;
  }
  if (bp.top2 != e_.top2) return false;
  if (bp.top2 < 0) return true;
  return stride2 == e_.stride && stride2_ == e_.stride && bp.offset2 == e_.offset2 + e_.count * stride;
}

void ExtentBuilder::Flush(FileLayout& fl) {
  if (!has_) return;
  fl.AddExtent(level_, e_);
  next_ = e_.first + e_.count;
  has_ = false;
}

FileLayout BuildFileLayout(const Pool& pool, uint64_t object, int64_t size_bytes, int64_t block_bytes,
                           int ptrs_per_indirect, const std::vector<BlockPointer>& l0,
                           const std::vector<BlockPointer>& l1) {
  FileLayout fl(object, size_bytes, block_bytes, ptrs_per_indirect);
  auto add_level = [&](int level, const std::vector<BlockPointer>& bps, int64_t count) {
    ExtentBuilder b(level);
    for (int64_t i = 0; i < count; ++i) {
      const BlockPointer& bp = bps[static_cast<size_t>(i)];
      if (bp.hole) {
        b.AddHoles(fl, i, i + 1);
        continue;
      }
      const int64_t stride = pool.BlockAsize(bp.top, bp.psize);
      const int64_t stride2 = bp.top2 >= 0 ? pool.BlockAsize(bp.top2, bp.psize) : 0;
      b.Add(fl, i, bp, stride, stride2);
    }
    b.Finish(fl, count);
  };
  add_level(0, l0, fl.blocks());
  if (!l1.empty()) add_level(1, l1, fl.indirect_blocks());
  return fl;
}

}  // namespace ziosim
