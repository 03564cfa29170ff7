// The drive's buffer: equal segments, each holding one contiguous run of LBNs
// (DiskSim's segmented cache). Lookups and replacement only; the timing of
// filling a segment (read-ahead, destage) lives in HddDevice.
#ifndef ZIOSIM_MODELS_DEVICE_HDD_CACHE_H_
#define ZIOSIM_MODELS_DEVICE_HDD_CACHE_H_

#include <array>
#include <cstdint>
#include <vector>

namespace ziosim {

struct HddSegment {
  int64_t start = 0;  // first valid LBN
  int64_t end = 0;    // one past the last valid LBN (start == end: empty)
  uint64_t last_use = 0;
  bool holds_write = false;    // last filled by a write
  int64_t dirty_until_ps = 0;  // its write data reach the platter then (write-back destage)
  bool empty() const { return start >= end; }
  bool Contains(int64_t lbn) const { return lbn >= start && lbn < end; }
};

class HddSegmentCache {
 public:
  // With `reserve_write_segment`, segment 0 takes every write and no read miss
  // (reads may still hit the data it holds). Without `reads_hit_write_data`, a read
  // finds no segment last filled by a write (DiskSim's "Allow read hits on write
  // data" = 0: such data are read again from the media).
  HddSegmentCache(int segments, int segment_blocks, bool reserve_write_segment, bool reads_hit_write_data = true);

  int segment_blocks() const { return segment_blocks_; }
  // Segment i. Its run changes only through the methods below, which count the
  // changes (version()).
  const HddSegment& at(int i) const { return segments_[i]; }

  // Segment holding `lbn` for a read (the first, if several do), or -1.
  int Find(int64_t lbn) const;
  // Counts the changes of any segment's run of LBNs.
  uint64_t version() const { return version_; }
  // Find(lbn), knowing that it returned `found` when version() was `seen`: only
  // the segments changed since are looked at, when the change log still holds
  // them (a drive's scheduler asks again for every queued command at every
  // dispatch, while only a segment or two change in between). `seen` = kNever:
  // never looked, the whole search.
  int FindAgain(int64_t lbn, int found, uint64_t seen) const;
  static constexpr uint64_t kNever = ~uint64_t{0};
  // Segment whose write data, still waiting for the platter at `t_ps`, end
  // exactly at `lbn`, or -1: a sequential write may be combined with it.
  int FindWriteAppend(int64_t lbn, int64_t t_ps) const;
  // Where new data go: for a read miss an empty segment if any, else the least
  // recently used; for a write the same, or the reserved write segment.
  int Victim(bool for_write) const {
    return VictimWhere(for_write, [](int) { return true; });
  }
  // Victim among the segments `usable(i)` says may be taken; -1 if none.
  template <typename Usable>
  int VictimWhere(bool for_write, Usable usable) const {
    if (reserve_write_segment_ && for_write) return usable(0) ? 0 : -1;
    int best = -1;
    for (int i = reserve_write_segment_ ? 1 : 0; i < static_cast<int>(segments_.size()); ++i) {
      if (!usable(i)) continue;
      if (segments_[i].empty()) return i;
      if (best < 0 || segments_[i].last_use < segments_[best].last_use) best = i;
    }
    return best;
  }
  // The most recently used segment.
  int MostRecent() const;
  // Marks segment i used now (moves it to the back of the LRU order).
  void Touch(int i) { segments_[i].last_use = ++clock_; }
  // Sets segment i to hold [start, end), keeping at most segment_blocks() trailing blocks.
  void Fill(int i, int64_t start, int64_t end, bool is_write);
  // Grows segment i to `end`, sliding its start to stay within segment_blocks().
  void Extend(int i, int64_t end);
  // Forgets what segment i holds.
  void Empty(int i) { SetRun(i, 0, 0); }
  // Drops the blocks before `lbn` from segment i (at most all of them).
  void DropBefore(int i, int64_t lbn);
  // Segment i's write data reach the platter at `ps` (0: it holds none unwritten).
  void set_dirty_until(int i, int64_t ps) { segments_[i].dirty_until_ps = ps; }
  // Drops [start, end) from every segment except `keep` (a write makes older copies stale).
  void Invalidate(int64_t start, int64_t end, int keep);

 private:
  // The last kLogSize changes: which segment the change to each version touched.
  static constexpr uint64_t kLogSize = 16;
  // FindAgain marks changed segments in a 64-bit mask; a cache of more searches whole.
  static constexpr size_t kMaxMaskedSegments = 64;
  // Gives segment i the run [start, end) and logs the change (also when the run
  // stays and `changed` says something else about it did).
  void SetRun(int i, int64_t start, int64_t end, bool changed = false);
  // Whether a read of `lbn` finds it in segment i.
  bool Serves(size_t i, int64_t lbn) const {
    return segments_[i].Contains(lbn) && (reads_hit_write_data_ || !segments_[i].holds_write);
  }

  std::vector<HddSegment> segments_;
  uint64_t version_ = 0;
  int64_t end_max_ = 0;  // the largest end of any segment's run
  std::array<int, kLogSize> changed_{};  // changed_[v % kLogSize]: the segment version v changed
  int segment_blocks_;
  bool reserve_write_segment_;
  bool reads_hit_write_data_;
  uint64_t clock_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_CACHE_H_
