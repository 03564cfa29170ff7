#include "models/disksim/disksim_layout_g4.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "models/device/hdd_extent_map.h"
#include "models/disksim/disksim_angle.h"
#include "sim/core/status.h"

// The rules follow layout_g4.c and layout_g4_load.c of DiskSim 4.0.
//
// ltop(lbn): an LBN inside a remap (the first listed that holds it) lies on the
// remap's destination. Any other LBN is first moved to the tree's LBN space by
// slipcount(), then looked up from the root: in each index node, the entry whose LBN
// run holds it; instance q = lbn / length of the child, moved q * cylinders (down for
// a negative cylinder run); the child sees lbn % length; a track pattern puts it on
// sector low + lbn.
//
// g4_skew(pbn), the start angle: looked up by cylinder and head instead (the first
// entry whose cylinder run holds the cylinder, and whose head matches for a track
// child), summing each entry's offset plus q angle steps, then (sector - low) sector
// widths of 1/spt revolution.
//
// DiskSim's path of nodes starts with the root at its entry 0 before the root's real
// entry, so that entry's cylinder and offset count once more for every LBN: nothing
// when they are 0, as the g4 tools write them. The path holds at most 16 nodes
// (G4_ALLOC_PATH), so the tree is at most 14 index nodes deep.

namespace ziosim::disksim_g4 {
namespace {

using libparam::Location;

constexpr int kMaxIndexDepth = 14;  // G4_ALLOC_PATH (16) less the doubled root and the track
// Track pattern instances kept: one per track of the disk is the rule.
constexpr size_t kMaxLeaves = HddExtentMap::kMaxTracks;

[[noreturn]] void Fail(const Location& where, const std::string& what) {
  throw InputError(where.file, where.line, what);
}

std::string N(int64_t v) { return std::to_string(v); }

// Slips as layout_g4_load.c keeps them: (position, running total), with (0, 0) in
// front unless the first slip sits at position 0.
struct SlipTotal {
  int64_t lbn = 0;
  int64_t total = 0;
};

// A track pattern instance as the LBN walk reaches it: tree LBNs
// [tree_lbn, tree_lbn + count) on consecutive sectors from `sector`.
struct Leaf {
  int64_t tree_lbn = 0;
  int64_t count = 0;
  int64_t cylinder = 0;
  int head = 0;
  int64_t sector = 0;
  int sectors_per_track = 0;
  const Entry* entry = nullptr;  // for errors
};

class Expander {
 public:
  Expander(const Tables& t, int64_t blocks, int surfaces) : t_(t), blocks_(blocks), surfaces_(surfaces) {}

  std::vector<HddExtent> Run();

 private:
  void Check() const;
  void CheckIndex(size_t index) const;
  void LoadSlips();
  // slipcount(): the shift from `lbn` to its tree position, and the first LBN after
  // it whose shift may differ.
  int64_t SlipCount(int64_t lbn, int64_t* constant_until) const;
  // slipcount_rev(): the shift back from tree position `lbn`, or -1 inside a slip.
  int64_t SlipCountBack(int64_t lbn) const;
  // slipcount_bins(): the last slip at or before `lbn` (slips ascend), or 0.
  size_t SlipAtOrBefore(int64_t lbn) const;
  // Appends the leaves under index node `index` whose tree LBNs lie below `tree_end`.
  void Walk(size_t index, int64_t base_lbn, int64_t limit, int64_t base_cylinder, int depth, int64_t tree_end);
  // g4_skew() of a sector and its track's sector width, or nothing where DiskSim
  // answers DM_NX (its angle is then 0).
  std::optional<std::pair<uint32_t, uint32_t>> SkewOf(int64_t cylinder, int64_t head, int64_t sector) const;
  void AddTreeExtents(int64_t lbn, int64_t end, std::vector<HddExtent>* out) const;
  void AddExtent(int64_t lbn, int64_t blocks, int64_t cylinder, int64_t head, int64_t sector, int spt,
                 const Location& where, std::vector<HddExtent>* out) const;

  const Tables& t_;
  int64_t blocks_;
  int surfaces_;
  std::vector<SlipTotal> slips_;
  std::vector<Leaf> leaves_;
};

void Expander::Check() const {
  if (t_.indexes.empty()) Fail(t_.where, "'IDX' lists no index node");
  for (const TrackPattern& tp : t_.tracks) {
    if (tp.high < tp.low || tp.low + tp.high >= tp.sectors_per_track) {
      Fail(tp.where, "'TP' entry (" + N(tp.low) + ", " + N(tp.high) + ", " + N(tp.sectors_per_track) +
                         ") does not fit its track: LBNs low..high lie on sectors 2*low..low+high of spt");
    }
  }
  for (size_t i = 0; i < t_.indexes.size(); ++i) CheckIndex(i);
  if (t_.slips.empty()) Fail(t_.where, "'Slips' is empty; DiskSim needs one entry at least (0, 0 for none)");
  for (const Remap& r : t_.remaps) {
    if (r.sector + r.count > r.sectors_per_track || r.head >= surfaces_) {
      Fail(r.where, "'Remaps' entry for LBN " + N(r.lbn) + ": " + N(r.count) + " sectors from cylinder " +
                        N(r.cylinder) + ", head " + N(r.head) + ", sector " + N(r.sector) +
                        " do not fit a track of " + N(r.sectors_per_track) + " on the disk");
    }
  }
}

void Expander::CheckIndex(size_t index) const {
  const std::vector<Entry>& entries = t_.indexes[index];
  if (entries.empty()) Fail(t_.where, "'IDX' node " + N(static_cast<int64_t>(index)) + " has no entry");
  for (size_t j = 0; j < entries.size(); ++j) {
    const Entry& e = entries[j];
    const size_t children = e.child_is_track ? t_.tracks.size() : t_.indexes.size();
    if (static_cast<size_t>(e.child) >= children) {
      Fail(e.where, "'IDX' entry: child " + N(e.child) + " is not one of the " +
                        N(static_cast<int64_t>(children)) + (e.child_is_track ? " TP entries" : " IDX nodes"));
    }
    if (e.child_is_track && e.head >= surfaces_) {
      Fail(e.where, "'IDX' entry: head " + N(e.head) + " is not one of the " + N(surfaces_) + " surfaces");
    }
    // The LBN look-up takes the first entry that holds an LBN: overlapping runs would
    // hide part of a later one.
    if (j > 0 && e.lbn < entries[j - 1].lbn + entries[j - 1].run) {
      Fail(e.where, "'IDX' entry starts at LBN " + N(e.lbn) + ", inside the previous entry's run");
    }
  }
}

void Expander::LoadSlips() {
  int64_t total = 0;
  for (const Slip& s : t_.slips) {
    total += s.count;
    if (!slips_.empty() && s.lbn <= slips_.back().lbn) {
      Fail(s.where, "'Slips' must list ascending positions; " + N(s.lbn) + " follows " + N(slips_.back().lbn));
    }
    slips_.push_back({s.lbn, total});
  }
  if (slips_.front().lbn > 0) slips_.insert(slips_.begin(), SlipTotal{0, 0});
}

size_t Expander::SlipAtOrBefore(int64_t lbn) const {
  const auto it = std::upper_bound(slips_.begin(), slips_.end(), lbn,
                                   [](int64_t v, const SlipTotal& s) { return v < s.lbn; });
  return it == slips_.begin() ? 0 : static_cast<size_t>(it - slips_.begin() - 1);
}

int64_t Expander::SlipCount(int64_t lbn, int64_t* constant_until) const {
  const size_t first = SlipAtOrBefore(lbn);
  // DiskSim slides forward over the slips the moved position reaches.
  size_t i = first;
  int64_t count = slips_[i].total;
  for (int64_t moved = lbn; i < slips_.size() && slips_[i].lbn <= moved; ++i) {
    count = slips_[i].total;
    moved = lbn + count;
  }
  // Neither the starting slip nor the slide changes before the next slip's position
  // or before the moved position reaches the slip that stopped the slide.
  *constant_until = INT64_MAX;
  if (first + 1 < slips_.size()) *constant_until = slips_[first + 1].lbn;
  if (i < slips_.size()) *constant_until = std::min(*constant_until, slips_[i].lbn - count);
  return count;
}

int64_t Expander::SlipCountBack(int64_t lbn) const {
  const size_t i = SlipAtOrBefore(lbn);
  if (slips_[i].lbn <= lbn && i > 0 && lbn < slips_[i].lbn + (slips_[i].total - slips_[i - 1].total)) return -1;
  return slips_[i].total;
}

void Expander::Walk(size_t index, int64_t base_lbn, int64_t limit, int64_t base_cylinder, int depth,
                    int64_t tree_end) {
  for (const Entry& e : t_.indexes[index]) {
    if (depth > kMaxIndexDepth) Fail(e.where, "'IDX' nodes nest deeper than DiskSim's 14 levels");
    for (int64_t q = 0; q * e.length < e.run; ++q) {
      const int64_t first = e.lbn + q * e.length;  // relative to base_lbn
      if (first >= limit || base_lbn + first >= tree_end) return;
      // The child sees lbn % length, below the run's end and the parent's limit.
      const int64_t child_limit = std::min({e.length, e.run - q * e.length, limit - first});
      const int64_t cylinder = base_cylinder + e.cylinder + (e.cylinder_run < 0 ? -q : q) * e.cylinders;
      if (!e.child_is_track) {
        Walk(static_cast<size_t>(e.child), base_lbn + first, child_limit, cylinder, depth + 1, tree_end);
        continue;
      }
      const TrackPattern& tp = t_.tracks[e.child];
      const int64_t last = std::min(tp.high, child_limit - 1);
      if (last < tp.low) continue;
      if (leaves_.size() == kMaxLeaves) Fail(e.where, "'IDX' repeats track patterns more than 2^24 times");
      leaves_.push_back({base_lbn + first + tp.low, last - tp.low + 1, cylinder, static_cast<int>(e.head),
                         2 * tp.low, static_cast<int>(tp.sectors_per_track), &e});
    }
  }
}

std::optional<std::pair<uint32_t, uint32_t>> Expander::SkewOf(int64_t cylinder, int64_t head, int64_t sector) const {
  const std::vector<Entry>* node = &t_.indexes.back();
  uint32_t angle = DisksimAngle(node->front().offset);  // the doubled root's entry 0
  int64_t max = blocks_ - 1 + SlipCountBack(blocks_ - 1);
  for (int depth = 0;; ++depth) {
    if (depth > kMaxIndexDepth) Fail(t_.where, "'IDX' nodes nest deeper than DiskSim's 14 levels");
    const auto e = std::find_if(node->begin(), node->end(), [&](const Entry& x) {
      const int64_t low = x.cylinder_run > 0 ? x.cylinder : x.cylinder + x.cylinder_run + 1;
      const int64_t high = x.cylinder_run < 0 ? x.cylinder : x.cylinder + x.cylinder_run - 1;
      return low <= cylinder && cylinder <= high && (!x.child_is_track || head == x.head);
    });
    if (e == node->end()) return std::nullopt;
    cylinder -= e->cylinder;
    int64_t q = cylinder / e->cylinders;  // C division, truncating toward 0
    if (e->cylinder_run < 0) q = -q;
    max = std::min(max, e->lbn + e->run - 1) - e->lbn;
    max = std::min(max, (q + 1) * e->length - 1) - q * e->length;
    cylinder %= e->cylinders;
    angle += DisksimAngle(e->offset) + static_cast<uint32_t>(q) * DisksimAngle(e->angle_step);
    if (!e->child_is_track) {
      node = &t_.indexes[e->child];
      continue;
    }
    const TrackPattern& tp = t_.tracks[e->child];
    if (sector < tp.low || sector > tp.high || sector > max) return std::nullopt;
    const uint32_t width = DisksimAngle(1.0 / static_cast<double>(tp.sectors_per_track));
    return std::pair{angle + static_cast<uint32_t>(sector - tp.low) * width, width};
  }
}

void Expander::AddExtent(int64_t lbn, int64_t blocks, int64_t cylinder, int64_t head, int64_t sector, int spt,
                         const Location& where, std::vector<HddExtent>* out) const {
  if (cylinder < 0 || cylinder > INT_MAX) {
    Fail(where, "places LBN " + N(lbn) + " on cylinder " + N(cylinder) + ", which no disk has");
  }
  HddExtent x;
  x.first_lbn = lbn;
  x.blocks = blocks;
  x.cylinder = static_cast<int>(cylinder);
  x.head = static_cast<int>(head);
  x.first_sector = static_cast<int>(sector);
  x.sectors_per_track = spt;
  if (const auto skew = SkewOf(cylinder, head, sector)) std::tie(x.first_angle, x.sector_angle) = *skew;
  out->push_back(x);
}

void Expander::AddTreeExtents(int64_t lbn, int64_t end, std::vector<HddExtent>* out) const {
  while (lbn < end) {
    int64_t until = 0;
    const int64_t shift = SlipCount(lbn, &until);
    until = std::min(until, end);
    const int64_t tree = lbn + shift;
    const auto leaf = std::upper_bound(leaves_.begin(), leaves_.end(), tree,
                                       [](int64_t v, const Leaf& l) { return v < l.tree_lbn; });
    if (leaf == leaves_.begin() || tree >= (leaf - 1)->tree_lbn + (leaf - 1)->count) {
      Fail(t_.where, "LBN " + N(lbn) + " (tree position " + N(tree) +
                         ") falls in no track pattern: DiskSim maps it nowhere (DM_NX)");
    }
    const Leaf& l = *(leaf - 1);
    const int64_t n = std::min(until - lbn, l.tree_lbn + l.count - tree);
    AddExtent(lbn, n, l.cylinder, l.head, l.sector + (tree - l.tree_lbn), l.sectors_per_track, l.entry->where, out);
    lbn += n;
  }
}

std::vector<HddExtent> Expander::Run() {
  Check();
  LoadSlips();
  // The tree positions the LBNs reach: LBN + shift, at most.
  int64_t tree_end = 0;
  for (int64_t lbn = 0, until = 0; lbn < blocks_; lbn = until) {
    const int64_t shift = SlipCount(lbn, &until);
    until = std::min(until, blocks_);
    tree_end = std::max(tree_end, until + shift);
  }
  const std::vector<Entry>& root = t_.indexes.back();
  Walk(t_.indexes.size() - 1, 0, INT64_MAX, root.front().cylinder, 0, tree_end);

  // Remapped runs first: the first remap listed that holds an LBN wins.
  std::vector<HddExtent> out;
  int64_t lbn = 0;
  while (lbn < blocks_) {
    const Remap* remap = nullptr;
    int64_t next_remap = blocks_;
    for (const Remap& r : t_.remaps) {
      if (r.lbn <= lbn && lbn < r.lbn + r.count) {
        remap = &r;
        break;
      }
      if (r.lbn > lbn) next_remap = std::min(next_remap, r.lbn);
    }
    if (remap == nullptr) {
      AddTreeExtents(lbn, next_remap, &out);
      lbn = next_remap;
      continue;
    }
    // The remap holds LBNs until its end or an earlier-listed remap's start.
    int64_t end = std::min(remap->lbn + remap->count, blocks_);
    for (const Remap* r = t_.remaps.data(); r != remap; ++r) {
      if (r->lbn > lbn) end = std::min(end, r->lbn);
    }
    AddExtent(lbn, end - lbn, remap->cylinder, remap->head, remap->sector + (lbn - remap->lbn),
              static_cast<int>(remap->sectors_per_track), remap->where, &out);
    lbn = end;
  }
  return out;
}

}  // namespace

std::vector<HddExtent> Expand(const Tables& tables, int64_t blocks, int surfaces) {
  return Expander(tables, blocks, surfaces).Run();
}

}  // namespace ziosim::disksim_g4
