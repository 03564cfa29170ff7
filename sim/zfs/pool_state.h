// `--pool-state cap=PCT,frag=PCT`: a pool that is not empty (issue 15, part 4).
// The CAP and FRAG columns of `zpool list` become old data laid out before the
// files are: every top-level vdev holds CAP % of its metaslab space in old
// data, whose free space is cut into free segments sized so that OpenZFS's
// FRAG metric (metaslab_set_fragmentation, metaslab_group_fragmentation,
// metaslab_class_fragmentation, zfs_frag_table; module/zfs/metaslab.c,
// zfs-2.1.11, unchanged since ZoL 0.6.4) computed over them equals FRAG.
// The profile (which metaslabs hold the old data, how much free space is in
// them) is a modelling choice, documented in docs/allocation-model.md and at
// the top of pool_state.cc. The metaslab model (metaslab_allocator.h) lays the
// old data out and then places new blocks as the era's metaslab weighting
// and DF allocator would.
#ifndef ZIOSIM_SIM_ZFS_POOL_STATE_H_
#define ZIOSIM_SIM_ZFS_POOL_STATE_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ziosim {

struct PoolState {
  bool set = false;  // false: an empty pool (no --pool-state)
  int cap_pct = 0;   // 0..95
  int frag_pct = 0;  // 0..100
  std::string text;  // normalised: "cap=30,frag=10"
};

// Parses "cap=PCT[,frag=PCT]" (keys in either order, each optional, once;
// cap 0 by default, frag 0 by default). An empty text is "not set". Throws
// InputError starting with `label` (the option as the caller spells it).
// frag > 0 with cap = 0 is refused: an empty metaslab's FRAG is 0.
PoolState ParsePoolState(std::string_view text, const std::string& label);

// zfs_frag_table (metaslab.c, ZoL 0.6.4 .. OpenZFS 2.2, unchanged): the
// fragmentation percent of free space in segments of 2^(9+i) .. 2^(10+i)-1
// bytes; the last entry holds every segment of 16 MiB and more.
inline constexpr std::array<int, 16> kZfsFragTable = {100, 100, 98, 95, 90, 80, 70, 60,
                                                      50,  40,  30, 20, 15, 10, 5,  0};

// A metaslab's free-segment histogram: count of free segments per power of
// two (index = floor(log2(size))), as the space map histogram holds them
// (sm_shift = ashift; the metric reads bucket i as 2^(i + shift) bytes).
using SegmentHistogram = std::array<int64_t, 64>;

// metaslab_set_fragmentation over one metaslab's histogram (integer percent;
// 0 for a metaslab without free space, as OpenZFS computes it: total = 0).
// `pristine`: never allocated (ms_sm == NULL): 0.
int64_t MetaslabFragmentation(const SegmentHistogram& h, bool pristine);
// metaslab_group_fragmentation: the plain mean of the metaslabs' figures.
int64_t GroupFragmentation(const std::vector<int64_t>& metaslab_frag);
// metaslab_class_fragmentation: the groups' figures weighted by their
// metaslab space (ms_count << ms_shift).
int64_t ClassFragmentation(const std::vector<int64_t>& group_frag, const std::vector<int64_t>& group_space);

// How the old data of one top-level vdev is laid out (PlanOldData).
struct OldDataPlan {
  int64_t touched = 0;       // metaslabs 0 .. touched-1 hold old data with free segments between
  int64_t used_bytes = 0;    // old data per touched metaslab (a multiple of the quantum)
  // frag = 0: metaslab `touched` holds this much old data from its start and is free after it.
  int64_t partial_used = 0;
  // Free segments per touched metaslab: hole_count[b] segments of hole_bytes[b] bytes, the
  // smallest multiple of the quantum of at least 2^b (so the histogram counts it in bucket b).
  SegmentHistogram hole_count{};
  SegmentHistogram hole_bytes{};
  int64_t holes() const;
  int64_t free_bytes() const;
  // The histogram of a touched metaslab's free segments (= hole_count).
  const SegmentHistogram& Histogram() const { return hole_count; }
};

// The old data of a vdev of `ms_count` metaslabs of 2^ms_shift bytes whose
// smallest allocation is `quantum` bytes, for `state`. Throws InputError
// (naming `label`) when FRAG cannot be reached at that CAP on this vdev.
OldDataPlan PlanOldData(const PoolState& state, int64_t ms_count, int ms_shift, int64_t quantum,
                        const std::string& label);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_POOL_STATE_H_
