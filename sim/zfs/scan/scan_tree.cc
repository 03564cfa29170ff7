#include "sim/zfs/scan/scan_tree.h"

#include <algorithm>

#include "sim/zfs/pool.h"

namespace ziosim {
namespace {

// An old object holds as many records as one 128K indirect block points to.
constexpr int64_t kRecordsPerOldObject = 1024;
// Its indirect block's size on disk: the allocation model's compressed L1 (allocator.cc).
constexpr int64_t kOldIndirectPsize = 4096;

}  // namespace

ScanTree::ScanTree(const Pool& pool, const std::vector<FileLayout>& files,
                   const std::vector<std::vector<Dva>>& old_runs, int64_t old_record)
    : pool_(pool), files_(files), old_record_(old_record) {
  for (const FileLayout& f : files_) {
    for (int level = 0; level < 2; ++level) {
      for (const LayoutExtent& e : f.extents(level)) {
        if (e.hole) continue;
        blocks_ += e.count;
        total_asize_ += e.count * e.stride;
        if (e.top2 >= 0) total_asize_ += e.count * pool_.BlockAsize(e.top2, e.psize);
      }
    }
  }
  for (const std::vector<Dva>& runs : old_runs) {
    for (const Dva& r : runs) {
      const int64_t full = pool_.BlockAsize(r.top, old_record_);
      const int64_t count = (r.asize + full - 1) / full;
      runs_.push_back(OldRun{r.top, r.offset, r.asize, old_blocks_, count});
      old_blocks_ += count;
      total_asize_ += r.asize;
    }
  }
  blocks_ += old_blocks_;
  old_objects_ = (old_blocks_ + kRecordsPerOldObject - 1) / kRecordsPerOldObject;
}

int64_t ScanTree::indirect_blocks(int64_t obj) const {
  if (obj >= static_cast<int64_t>(files_.size())) return 1;
  const FileLayout& f = files_[static_cast<size_t>(obj)];
  return f.extents(1).empty() ? 0 : f.indirect_blocks();
}

ScanBlock ScanTree::FromPointer(const BlockPointer& bp) const {
  ScanBlock b;
  b.hole = bp.hole;
  if (bp.hole) return b;
  b.top = bp.top;
  b.offset = bp.offset;
  b.psize = bp.psize;
  b.asize = pool_.BlockAsize(bp.top, bp.psize);
  if (bp.top2 >= 0) {
    b.top2 = bp.top2;
    b.offset2 = bp.offset2;
    b.asize2 = pool_.BlockAsize(bp.top2, bp.psize);
  }
  return b;
}

ScanBlock ScanTree::Indirect(int64_t obj, int64_t i) const {
  const int64_t nfiles = static_cast<int64_t>(files_.size());
  if (obj < nfiles) return FromPointer(files_[static_cast<size_t>(obj)].Locate(1, i));
  ScanBlock b = OldBlock((obj - nfiles) * kRecordsPerOldObject);
  b.psize = std::min(kOldIndirectPsize, b.psize);
  b.asize = 0;
  b.walk_only = true;
  return b;
}

int64_t ScanTree::first_data(int64_t obj, int64_t i) const {
  if (obj >= static_cast<int64_t>(files_.size())) return 0;
  return i * files_[static_cast<size_t>(obj)].ptrs_per_indirect();
}

int64_t ScanTree::end_data(int64_t obj, int64_t i) const {
  const int64_t nfiles = static_cast<int64_t>(files_.size());
  if (obj >= nfiles) {
    const int64_t first = (obj - nfiles) * kRecordsPerOldObject;
    return std::min(kRecordsPerOldObject, old_blocks_ - first);
  }
  const FileLayout& f = files_[static_cast<size_t>(obj)];
  if (f.extents(1).empty()) return f.blocks();
  return std::min(f.blocks(), (i + 1) * f.ptrs_per_indirect());
}

ScanBlock ScanTree::Data(int64_t obj, int64_t blkid) const {
  const int64_t nfiles = static_cast<int64_t>(files_.size());
  if (obj >= nfiles) return OldBlock((obj - nfiles) * kRecordsPerOldObject + blkid);
  return FromPointer(files_[static_cast<size_t>(obj)].Locate(0, blkid));
}

std::vector<std::pair<int64_t, int64_t>> ScanTree::AllocatedRanges(int top) const {
  std::vector<std::pair<int64_t, int64_t>> r;
  for (const FileLayout& f : files_) {
    for (int level = 0; level < 2; ++level) {
      for (const LayoutExtent& e : f.extents(level)) {
        if (e.hole) continue;
        if (e.top == top) r.emplace_back(e.offset, e.offset + e.count * e.stride);
        if (e.top2 == top) {
          const int64_t a2 = pool_.BlockAsize(e.top2, e.psize);
          for (int64_t i = 0; i < e.count; ++i) r.emplace_back(e.offset2 + i * e.stride, e.offset2 + i * e.stride + a2);
        }
      }
    }
  }
  for (const OldRun& run : runs_) {
    if (run.top == top) r.emplace_back(run.offset, run.offset + run.bytes);
  }
  std::sort(r.begin(), r.end());
  std::vector<std::pair<int64_t, int64_t>> merged;
  for (const auto& [s, e] : r) {
    if (!merged.empty() && s <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, e);
    } else {
      merged.emplace_back(s, e);
    }
  }
  return merged;
}

ScanBlock ScanTree::OldBlock(int64_t k) const {
  const auto it = std::upper_bound(runs_.begin(), runs_.end(), k,
                                   [](int64_t v, const OldRun& r) { return v < r.first_block; });
  const OldRun& r = *(it - 1);
  const int64_t j = k - r.first_block;
  const int64_t full = pool_.BlockAsize(r.top, old_record_);
  ScanBlock b;
  b.hole = false;
  b.top = r.top;
  b.offset = r.offset + j * full;
  b.asize = std::min(full, r.bytes - j * full);
  // A shorter last record: the largest whole-sector size whose allocation fits the rest of the run.
  const int64_t sector = int64_t{1} << pool_.ashift();
  b.psize = b.asize == full ? old_record_ : std::max(sector, b.asize * old_record_ / full / sector * sector);
  while (b.psize > sector && pool_.BlockAsize(r.top, b.psize) > b.asize) b.psize -= sector;
  return b;
}

}  // namespace ziosim
