#include "models/device/hdd_extent_map.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "sim/core/status.h"

namespace ziosim {
namespace {

[[noreturn]] void Fail(size_t index, const std::string& what) {
  throw InputError("HDD layout: extent " + std::to_string(index) + ": " + what);
}

// One revolution in DiskSim's angle units.
constexpr double kRevolution = 4294967296.0;

}  // namespace

HddExtentMap::HddExtentMap(const HddLayout& layout)
    : extents_(layout.extents), surfaces_(layout.surfaces), cylinders_(layout.cylinders) {
  if (extents_.empty()) throw InputError("HDD layout: no extents");
  if (surfaces_ <= 0 || cylinders_ <= 0) throw InputError("HDD layout: surfaces and cylinders must be positive");
  if (static_cast<int64_t>(surfaces_) * cylinders_ > kMaxTracks) {
    throw InputError("HDD layout: " + std::to_string(cylinders_) + " cylinders of " + std::to_string(surfaces_) +
                     " surfaces exceed the 2^24 tracks an explicit layout may have");
  }
  spt_by_cylinder_.assign(cylinders_, 0);
  for (size_t i = 0; i < extents_.size(); ++i) {
    const HddExtent& e = extents_[i];
    if (e.first_lbn != total_blocks_) {
      Fail(i, "starts at LBN " + std::to_string(e.first_lbn) + ", not at " + std::to_string(total_blocks_));
    }
    if (e.blocks <= 0) Fail(i, "holds no blocks");
    if (e.cylinder < 0 || e.cylinder >= cylinders_ || e.head < 0 || e.head >= surfaces_) {
      Fail(i, "cylinder " + std::to_string(e.cylinder) + ", head " + std::to_string(e.head) + " is outside the disk");
    }
    if (e.sectors_per_track <= 0 || e.first_sector < 0 || e.first_sector + e.blocks > e.sectors_per_track) {
      Fail(i, "sectors " + std::to_string(e.first_sector) + ".." + std::to_string(e.first_sector + e.blocks - 1) +
                  " are not within a track of " + std::to_string(e.sectors_per_track));
    }
    first_lbn_.push_back(e.first_lbn);
    total_blocks_ += e.blocks;
    if (spt_by_cylinder_[e.cylinder] == 0) spt_by_cylinder_[e.cylinder] = e.sectors_per_track;
  }
  IndexTracks();
  // Unmapped cylinders take the sectors per track of the nearest mapped one before
  // them (DiskSim's st_pbn walks down); those before the first, of the first.
  const auto first = std::find_if(spt_by_cylinder_.begin(), spt_by_cylinder_.end(), [](int spt) { return spt > 0; });
  std::fill(spt_by_cylinder_.begin(), first, *first);
  for (size_t c = 1; c < spt_by_cylinder_.size(); ++c) {
    if (spt_by_cylinder_[c] == 0) spt_by_cylinder_[c] = spt_by_cylinder_[c - 1];
  }
}

// Consecutive look-ups mostly stay in one extent or move to the next.
size_t HddExtentMap::ExtentOf(int64_t lbn) const {
  for (size_t i = hint_; i < extents_.size() && i <= hint_ + 1; ++i) {
    if (lbn >= extents_[i].first_lbn && lbn < extents_[i].first_lbn + extents_[i].blocks) return hint_ = i;
  }
  hint_ = static_cast<size_t>(std::upper_bound(first_lbn_.begin(), first_lbn_.end(), lbn) - first_lbn_.begin() - 1);
  return hint_;
}

bool HddExtentMap::FollowsOnTrack(const HddExtent& e, const HddExtent& next) {
  return next.cylinder == e.cylinder && next.head == e.head && next.first_sector >= e.first_sector + e.blocks;
}

TrackRun HddExtentMap::ComputeRun(int64_t lbn, int64_t max_blocks) const {
  if (lbn >= total_blocks_) return {};
  assert(lbn >= 0);
  size_t i = ExtentOf(lbn);
  const HddExtent& e = extents_[i];
  const PhysicalAddress start{e.cylinder, e.head, e.first_sector + static_cast<int>(lbn - e.first_lbn)};
  if (max_blocks <= 0) return {start, 0, 0, SectorsPerTrack(start.cylinder)};
  TrackRun run{start, std::min(max_blocks, extents_[i].first_lbn + extents_[i].blocks - lbn), 0,
               SectorsPerTrack(start.cylinder)};
  run.physical_span = run.blocks;
  int64_t end_sector = run.start.sector + run.blocks;  // one past the last sector passed
  for (; run.blocks < max_blocks && i + 1 < extents_.size() && FollowsOnTrack(extents_[i], extents_[i + 1]); ++i) {
    const HddExtent& next = extents_[i + 1];
    const int64_t take = std::min(max_blocks - run.blocks, next.blocks);
    run.physical_span += next.first_sector - end_sector + take;
    run.blocks += take;
    end_sector = next.first_sector + take;
  }
  return run;
}

int64_t HddExtentMap::FirstLbnOnTrack(int64_t lbn) const {
  size_t i = ExtentOf(lbn);
  while (i > 0 && FollowsOnTrack(extents_[i - 1], extents_[i])) --i;
  return extents_[i].first_lbn;
}

int HddExtentMap::SectorsPerTrack(int cylinder) const {
  return spt_by_cylinder_[std::clamp(cylinder, 0, cylinders_ - 1)];
}

void HddExtentMap::IndexTracks() {
  const size_t tracks = static_cast<size_t>(cylinders_) * surfaces_;
  auto track_of = [&](int32_t i) { return static_cast<size_t>(extents_[i].cylinder) * surfaces_ + extents_[i].head; };
  track_extents_.resize(extents_.size());
  for (size_t i = 0; i < extents_.size(); ++i) track_extents_[i] = static_cast<int32_t>(i);
  std::sort(track_extents_.begin(), track_extents_.end(), [&](int32_t x, int32_t y) {
    return std::pair(track_of(x), extents_[x].first_sector) < std::pair(track_of(y), extents_[y].first_sector);
  });
  track_begin_.assign(tracks + 1, 0);
  for (int32_t i : track_extents_) ++track_begin_[track_of(i) + 1];
  for (size_t t = 0; t < tracks; ++t) track_begin_[t + 1] += track_begin_[t];
}

uint32_t HddExtentMap::Angle(const PhysicalAddress& a) const {
  const size_t track = static_cast<size_t>(a.cylinder) * surfaces_ + a.head;
  const int32_t begin = track_begin_[track], end = track_begin_[track + 1];
  if (begin == end) return 0;
  int32_t i = track_extents_[begin];
  for (int32_t k = begin; k < end; ++k) {
    const HddExtent& x = extents_[track_extents_[k]];
    if (a.sector >= x.first_sector && a.sector < x.first_sector + x.blocks) i = track_extents_[k];
  }
  const HddExtent& e = extents_[i];
  // Unsigned arithmetic wraps as DiskSim's 32-bit angles do.
  return e.first_angle + static_cast<uint32_t>(a.sector - e.first_sector) * e.sector_angle;
}

// The nearest slot: DiskSim's sector width is 2^32 / spt rounded down, so whole-sector
// angles fall a hair short of their slot's start (sector 40 of 100 at 0.39999999).
// A start within half a slot of a turn is slot 0.
int HddExtentMap::AngleSlot(const PhysicalAddress& a) const {
  const int64_t spt = SectorsPerTrack(a.cylinder);
  return static_cast<int>(((static_cast<int64_t>(Angle(a)) * spt + (int64_t{1} << 31)) >> 32) % spt);
}

double HddExtentMap::StartAngle(const PhysicalAddress& a) const { return Angle(a) / kRevolution; }

}  // namespace ziosim
