#include "models/device/hdd_cache.h"

#include <algorithm>

namespace ziosim {

HddSegmentCache::HddSegmentCache(int segments, int segment_blocks)
    : segments_(static_cast<size_t>(std::max(segments, 1))), segment_blocks_(segment_blocks) {}

int HddSegmentCache::Find(int64_t lbn) const {
  for (size_t i = 0; i < segments_.size(); ++i) {
    if (segments_[i].Contains(lbn)) return static_cast<int>(i);
  }
  return -1;
}

int HddSegmentCache::FindWriteAppend(int64_t lbn) const {
  for (size_t i = 0; i < segments_.size(); ++i) {
    const HddSegment& s = segments_[i];
    if (s.holds_write && !s.empty() && s.end == lbn) return static_cast<int>(i);
  }
  return -1;
}

int HddSegmentCache::Victim(int avoid) const {
  int best = -1;
  for (size_t i = 0; i < segments_.size(); ++i) {
    if (static_cast<int>(i) == avoid) continue;
    if (segments_[i].empty()) return static_cast<int>(i);
    if (best < 0 || segments_[i].last_use < segments_[best].last_use) best = static_cast<int>(i);
  }
  return best < 0 ? 0 : best;
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
