// An explicit layout: the drive's LBNs as a list of extents, each a run of
// consecutive sectors on one track with the angle its first sector starts at.
// DiskSim's dm_layout_g2 (a DIXtrac map file) and dm_layout_g4 (tables of track
// patterns, slips and remaps) both come down to such a list; the importer
// computes it as DiskSim's code maps each LBN. Immutable after construction but
// for the look-up hint and HddMap's memo of runs: one map serves one thread (its
// drive's).
#ifndef ZIOSIM_MODELS_DEVICE_HDD_EXTENT_MAP_H_
#define ZIOSIM_MODELS_DEVICE_HDD_EXTENT_MAP_H_

#include <cstdint>
#include <vector>

#include "models/device/hdd_map.h"
#include "models/device/hdd_params.h"

namespace ziosim {

class HddExtentMap final : public HddMap {
 public:
  // The map keeps a table per cylinder and per track: 2^24 tracks is far beyond any
  // drive of DiskSim's valid/ folder (11,474 cylinders at most, 20 surfaces or fewer).
  static constexpr int64_t kMaxTracks = int64_t{1} << 24;

  // Throws InputError unless layout.extents cover LBNs 0.. without gaps, each within
  // its track and the layout's cylinders and surfaces.
  explicit HddExtentMap(const HddLayout& layout);

  int surfaces() const override { return surfaces_; }
  int cylinders() const override { return cylinders_; }

  int64_t FirstLbnOnTrack(int64_t lbn) const override;
  // A cylinder without LBNs has the sectors per track of the nearest one before it.
  int SectorsPerTrack(int cylinder) const override;
  // The slot nearest the sector's start (DiskSim's angles are 32-bit fractions).
  int AngleSlot(const PhysicalAddress& a) const override;
  double StartAngle(const PhysicalAddress& a) const override;

 private:
  // Fills track_begin_ and track_extents_.
  void IndexTracks();
  size_t ExtentOf(int64_t lbn) const;
  // Whether `next` continues `e` further along the same track.
  static bool FollowsOnTrack(const HddExtent& e, const HddExtent& next);
  // Start of sector `a` in 2^-32 revolutions, by the extent of its track that holds
  // it, else the track's first (an extent's angles may follow another rule than its
  // track's others: DiskSim gives a g4 remap outside the tables 0); 0 on a track
  // without LBNs, as DiskSim.
  uint32_t Angle(const PhysicalAddress& a) const;
  // The run follows the extents that continue lbn's on its track, sector gaps (slips)
  // counting in the physical span.
  TrackRun ComputeRun(int64_t lbn, int64_t max_blocks) const override;

  std::vector<HddExtent> extents_;
  std::vector<int64_t> first_lbn_;          // extents_[i].first_lbn, for binary search
  std::vector<int> spt_by_cylinder_;
  // The extents of track t (= cylinder * surfaces + head), by first sector, are
  // track_extents_[track_begin_[t] .. track_begin_[t + 1]).
  std::vector<int32_t> track_begin_;
  std::vector<int32_t> track_extents_;
  mutable size_t hint_ = 0;                 // the extent of the last look-up
  int surfaces_ = 0;
  int cylinders_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_EXTENT_MAP_H_
