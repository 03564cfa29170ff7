#include "models/device/hdd_cache.h"

#include <algorithm>
#include <bit>

namespace ziosim {

HddSegmentCache::HddSegmentCache(int segments, int segment_blocks, bool reserve_write_segment,
                                 bool reads_hit_write_data)
    : segments_(static_cast<size_t>(std::max(segments, 1))),
      segment_blocks_(segment_blocks),
      reserve_write_segment_(reserve_write_segment && segments >= 2),
      reads_hit_write_data_(reads_hit_write_data) {}

int HddSegmentCache::Find(int64_t lbn) const {
  if (lbn >= end_max_) return -1;  // past every segment: a stream's next blocks, mostly
  for (size_t i = 0; i < segments_.size(); ++i) {
    if (Serves(i, lbn)) return static_cast<int>(i);
  }
  return -1;
}

int HddSegmentCache::FindAgain(int64_t lbn, int found, uint64_t seen) const {
  if (seen == version_) return found;
  if (seen > version_ || version_ - seen > kLogSize || segments_.size() > kMaxMaskedSegments) return Find(lbn);
  uint64_t changed = 0;
  for (uint64_t v = seen + 1; v <= version_; ++v) changed |= uint64_t{1} << changed_[v % kLogSize];
  // Unchanged segments still hold lbn or not as they did. While `found` holds it,
  // only a changed segment before it can come first now; with none found, only a
  // changed one can hold lbn. A `found` that lost it needs the whole search again.
  if (found >= 0) {
    if (!Serves(static_cast<size_t>(found), lbn)) return Find(lbn);
    changed &= (uint64_t{1} << found) - 1;
  }
  for (; changed != 0; changed &= changed - 1) {
    const int i = std::countr_zero(changed);
    if (Serves(static_cast<size_t>(i), lbn)) return i;
  }
  return found;
}

int HddSegmentCache::FindWriteAppend(int64_t lbn, int64_t t_ps) const {
  for (size_t i = 0; i < segments_.size(); ++i) {
    const HddSegment& s = segments_[i];
    if (s.holds_write && s.dirty_until_ps > t_ps && !s.empty() && s.end == lbn) return static_cast<int>(i);
  }
  return -1;
}

int HddSegmentCache::MostRecent() const {
  size_t best = 0;
  for (size_t i = 1; i < segments_.size(); ++i) {
    if (segments_[i].last_use > segments_[best].last_use) best = i;
  }
  return static_cast<int>(best);
}

void HddSegmentCache::SetRun(int i, int64_t start, int64_t end, bool changed) {
  const int64_t old_end = segments_[i].end;
  if (segments_[i].start == start && old_end == end && !changed) return;
  segments_[i].start = start;
  segments_[i].end = end;
  if (end >= end_max_) {
    end_max_ = end;
  } else if (old_end == end_max_) {
    end_max_ = 0;
    for (const HddSegment& s : segments_) end_max_ = std::max(end_max_, s.end);
  }
  ++version_;
  changed_[version_ % kLogSize] = i;
}

void HddSegmentCache::Fill(int i, int64_t start, int64_t end, bool is_write) {
  // Which reads it serves may change with its kind of data: FindAgain must look again.
  const bool kind_changes = segments_[i].holds_write != is_write;
  segments_[i].holds_write = is_write;
  SetRun(i, std::max(start, end - segment_blocks_), end, kind_changes);
  Touch(i);
}

void HddSegmentCache::Extend(int i, int64_t end) {
  const HddSegment& s = segments_[i];
  if (end <= s.end) return;
  SetRun(i, std::max(s.start, end - segment_blocks_), end);
}

void HddSegmentCache::DropBefore(int i, int64_t lbn) {
  const HddSegment& s = segments_[i];
  SetRun(i, std::min(std::max(s.start, lbn), s.end), s.end);
}

void HddSegmentCache::Invalidate(int64_t start, int64_t end, int keep) {
  for (size_t i = 0; i < segments_.size(); ++i) {
    const HddSegment& s = segments_[i];
    if (static_cast<int>(i) == keep || s.empty() || s.end <= start || s.start >= end) continue;
    SetRun(static_cast<int>(i), 0, 0);  // partial overlap: dropping the whole run keeps segments contiguous
  }
}

}  // namespace ziosim
