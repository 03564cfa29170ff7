#include "models/device/hdd_cache.h"

#include <algorithm>

namespace ziosim {

HddSegmentCache::HddSegmentCache(int segments, int segment_blocks, bool reserve_write_segment)
    : segments_(static_cast<size_t>(std::max(segments, 1))),
      segment_blocks_(segment_blocks),
      reserve_write_segment_(reserve_write_segment && segments >= 2) {}

int HddSegmentCache::Find(int64_t lbn) const {
  for (size_t i = 0; i < segments_.size(); ++i) {
    if (segments_[i].Contains(lbn)) return static_cast<int>(i);
  }
  return -1;
}

int HddSegmentCache::FindWriteAppend(int64_t lbn, int64_t t_ps) const {
  for (size_t i = 0; i < segments_.size(); ++i) {
    const HddSegment& s = segments_[i];
    if (s.holds_write && s.dirty_until_ps > t_ps && !s.empty() && s.end == lbn) return static_cast<int>(i);
  }
  return -1;
}

int HddSegmentCache::Victim(bool for_write) const {
  if (reserve_write_segment_ && for_write) return 0;
  const size_t first = reserve_write_segment_ ? 1 : 0;
  size_t best = first;
  for (size_t i = first; i < segments_.size(); ++i) {
    if (segments_[i].empty()) return static_cast<int>(i);
    if (segments_[i].last_use < segments_[best].last_use) best = i;
  }
  return static_cast<int>(best);
}

int HddSegmentCache::MostRecent() const {
  size_t best = 0;
  for (size_t i = 1; i < segments_.size(); ++i) {
    if (segments_[i].last_use > segments_[best].last_use) best = i;
  }
  return static_cast<int>(best);
}

void HddSegmentCache::Fill(int i, int64_t start, int64_t end, bool is_write) {
  HddSegment& s = segments_[i];
  s.start = std::max(start, end - segment_blocks_);
  s.end = end;
  s.holds_write = is_write;
  Touch(i);
}

void HddSegmentCache::Extend(int i, int64_t end) {
  HddSegment& s = segments_[i];
  if (end <= s.end) return;
  s.end = end;
  s.start = std::max(s.start, end - segment_blocks_);
}

void HddSegmentCache::Invalidate(int64_t start, int64_t end, int keep) {
  for (size_t i = 0; i < segments_.size(); ++i) {
    HddSegment& s = segments_[i];
    if (static_cast<int>(i) == keep || s.empty() || s.end <= start || s.start >= end) continue;
    s.start = s.end = 0;  // partial overlap: dropping the whole run keeps segments contiguous
  }
}

}  // namespace ziosim
