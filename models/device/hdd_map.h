// The interface through which the HDD model asks where a logical block lives: a
// zoned layout computed from a few numbers per zone (HddGeometry, DiskSim's
// dm_layout_g1), or an explicit table of extents (HddExtentMap, DiskSim's
// dm_layout_g2 and g4). MakeHddMap picks the one a layout describes. A map
// remembers its last runs (mutable): one map serves one thread (its drive's).
#ifndef ZIOSIM_MODELS_DEVICE_HDD_MAP_H_
#define ZIOSIM_MODELS_DEVICE_HDD_MAP_H_

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <memory>

#include "models/device/hdd_params.h"

namespace ziosim {

struct PhysicalAddress {
  int cylinder = 0;
  int head = 0;
  int sector = 0;  // physical sector index on the track, 0 .. spt-1
  bool operator==(const PhysicalAddress&) const = default;
};

// A stretch of consecutive LBNs that sit on one track, in rotational order.
struct TrackRun {
  PhysicalAddress start;      // physical address of the first LBN of the run
  int64_t blocks = 0;         // LBNs in the run
  int64_t physical_span = 0;  // physical sectors the head passes over (>= blocks: slips inside)
  int sectors_per_track = 0;  // of the run's track: SectorsPerTrack(start.cylinder); 0 or
                              // meaningless for an empty run past the last LBN
};

class HddMap {
 public:
  virtual ~HddMap() = default;

  int64_t total_blocks() const { return total_blocks_; }
  virtual int surfaces() const = 0;
  virtual int cylinders() const = 0;

  // REQUIRES: 0 <= lbn < total_blocks().
  PhysicalAddress Map(int64_t lbn) const {
    assert(lbn >= 0 && lbn < total_blocks_);
    return LongestRun(lbn).start;  // a run's first sector is where its first LBN maps
  }
  // The run of LBNs starting at `lbn` that stays on lbn's track, at most `max_blocks` long.
  // REQUIRES: 0 <= lbn. The run is empty if max_blocks <= 0 or lbn >= total_blocks().
  TrackRun RunOnTrack(int64_t lbn, int64_t max_blocks) const {
    if (max_blocks <= 0 || lbn >= total_blocks_) return ComputeRun(lbn, max_blocks);
    // A shorter run without slips is the longest one cut short; with slips inside,
    // its span depends on where it stops.
    const TrackRun longest = LongestRun(lbn);
    const bool whole = max_blocks >= longest.blocks;
    if (!whole && longest.blocks != longest.physical_span) return ComputeRun(lbn, max_blocks);
    // One value for both cases, not a return of each: two values merging here
    // would be built in memory and copied with wide loads, which stall on the
    // narrow stores that have just built them.
    return {longest.start, whole ? longest.blocks : max_blocks, whole ? longest.physical_span : max_blocks,
            longest.sectors_per_track};
  }
  // The first LBN of the stretch of lbn's track that holds lbn.
  // REQUIRES: 0 <= lbn < total_blocks().
  virtual int64_t FirstLbnOnTrack(int64_t lbn) const = 0;

  virtual int SectorsPerTrack(int cylinder) const = 0;
  // Index (0 .. spt-1) of the angular slot where physical sector `a` starts; slot k
  // spans [k/spt, (k+1)/spt) of a revolution, angle 0 being the platter's index mark.
  virtual int AngleSlot(const PhysicalAddress& a) const = 0;
  // AngleSlot(a) and SectorsPerTrack(a.cylinder) at once, for the rotational wait
  // every access computes: a map that finds both with one look-up says so here.
  struct SectorSlot {
    int slot = 0;
    int sectors_per_track = 0;
  };
  virtual SectorSlot AngleSlotOnTrack(const PhysicalAddress& a) const {
    return {AngleSlot(a), SectorsPerTrack(a.cylinder)};
  }
  // The same as a fraction of a revolution in [0, 1).
  virtual double StartAngle(const PhysicalAddress& a) const = 0;

 protected:
  // RunOnTrack without the memo, for any lbn >= 0 and max_blocks.
  virtual TrackRun ComputeRun(int64_t lbn, int64_t max_blocks) const = 0;

  int64_t total_blocks_ = 0;  // set by the map's constructor

 private:
  // A command maps the same few tracks several times over (its first block, each
  // track it crosses, the read-ahead's next block, the next command's read-ahead
  // replay), so the last runs found are remembered, and a look-up that finds one
  // costs a few compares, inline. An entry holds the LBNs [first_lbn, first_lbn + blocks) of a
  // run from first_lbn to the end of its stretch (track, period, zone, or before a
  // remapped sector) with no slip inside: LBN first_lbn + k sits k sectors after
  // `start`, and the run from it is the rest of the entry's, exactly what
  // ComputeRun gives.
  struct RunMemo {
    int64_t first_lbn = 0;
    uint64_t blocks = 0;  // LBNs from first_lbn; 0 until filled
    PhysicalAddress start;
    int sectors_per_track = 0;
  };
  static constexpr size_t kRunMemos = 4;

  // first_lbn <= lbn < first_lbn + blocks, with one unsigned compare.
  static bool Holds(const RunMemo& m, int64_t lbn) { return static_cast<uint64_t>(lbn - m.first_lbn) < m.blocks; }
  static TrackRun FromMemo(const RunMemo& m, int64_t lbn) {
    const int64_t skip = lbn - m.first_lbn;
    const int64_t n = static_cast<int64_t>(m.blocks) - skip;
    return {{m.start.cylinder, m.start.head, m.start.sector + static_cast<int>(skip)}, n, n, m.sectors_per_track};
  }

  // The run from `lbn` to the end of its stretch. REQUIRES: 0 <= lbn < total_blocks().
  // Most look-ups fall in the entry the previous one used (a command's block,
  // then its run, its last block, ...), which is tried first. Otherwise every
  // entry is tested and the verdicts or-ed into a mask, so that one branch
  // decides: a loop that stops at the first hit branches on each entry, and for
  // random requests mispredicts. Entries never disagree on an LBN (each is
  // ComputeRun's answer), so any that holds it serves.
  TrackRun LongestRun(int64_t lbn) const {
    if (Holds(run_memo_[run_memo_last_], lbn)) return FromMemo(run_memo_[run_memo_last_], lbn);
    unsigned hits = 0;
    for (size_t i = 0; i < kRunMemos; ++i) hits |= static_cast<unsigned>(Holds(run_memo_[i], lbn)) << i;
    if (hits == 0) return ComputeAndRemember(lbn);
    run_memo_last_ = static_cast<size_t>(std::countr_zero(hits));
    return FromMemo(run_memo_[run_memo_last_], lbn);
  }
  // LongestRun without the memo; remembered if it has no slip inside.
  TrackRun ComputeAndRemember(int64_t lbn) const;

  mutable std::array<RunMemo, kRunMemos> run_memo_{};
  mutable size_t run_memo_next_ = 0;  // the entry to replace next (round robin)
  mutable size_t run_memo_last_ = 0;  // the entry used last
};

// The map `layout` describes: its extents if it lists any, else its zones.
// Throws InputError if the layout is inconsistent.
std::unique_ptr<HddMap> MakeHddMap(const HddLayout& layout);

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_MAP_H_
