// The metaslab model of metaslab_allocator.h (reference section 4, recipe 4.5).
//
// Modelling choices where the reference is silent (also in the report of the
// change that added the allocation model):
//  * One metaslab class, one allocator, one rotor starting at top-level vdev 0;
//    mg_bias is the ZoL 2015+ free-space formula (about -1 % of the aliquot on
//    an even pool); the allocation throttle (7090) is not modelled.
//  * Metaslabs: 2^ms_shift bytes with ms_shift = max(highbit(asize / 200), 17)
//    (the pre-2019 rule); no block straddles a metaslab; metaslabs are used in
//    ascending order (the LBA weight and the segment weight both pick the
//    lowest one on an even pool).
//  * DF (metaslab_df_alloc / metaslab_block_picker): in each metaslab a cursor
//    per alignment class (asize & -asize: ms_lbas[], sm_ppd in 2010), one set
//    for the primary and one for the secondary (ditto on the same vdev) use; a
//    block goes to the active metaslab while it fits there, else to the next
//    one up (so a small L1 lands behind the data in the metaslab being filled,
//    not in the tail gap a previous metaslab kept), at the start of the free
//    segment holding the class cursor or the next one that fits, not rounded up:
//    metaslab_df_alloc calls metaslab_block_picker with an alignment of 1 in
//    every era (since b117; zfs-0.8.0 metaslab.c, and so the zdb layouts of
//    b134 and 2.1.11 show), the cursor alone depends on the alignment class;
//    wrap to the start once when nothing fits after the cursor.
//    `ziosim_df_align` rounds the start up to the alignment instead, as the
//    first-fit allocator (metaslab_ff_alloc, a build option) does. The best-fit fallback
//    (largest free segment < 128 KiB or < 4 % free; 2.x: 16 MiB search limit)
//    is not modelled.
//  * A block's second DVA (ditto) goes to the next top-level vdev's primary
//    metaslab; on a single-vdev pool to a secondary region starting in the
//    first metaslab >= vdev_asize / 8 past the first copy. Every DVA counts
//    toward the rotor's aliquot (as mc_aliquot does).
//  * fragmented:PCT: each metaslab holds old data in alternating used/free runs;
//    free runs are log-uniform in [64 KiB, 4 MiB], used runs are drawn the same
//    way and scaled by PCT/(100-PCT), so PCT % is used on average; runs are
//    whole allocation quanta (the sector; sector x (parity+1) on RAID-Z, the
//    smallest unit a RAID-Z block occupies). The pattern of each metaslab is
//    drawn from its own random stream when a cursor first reaches it.
//  * --pool-state cap=PCT,frag=PCT (pool_state.h; the profile of the old data
//    is described at the top of pool_state.cc): each top-level vdev's
//    metaslabs start as PlanOldData says (the segments of a metaslab drawn
//    from its own random stream, in a random order, used runs between them
//    of at least a quantum). New blocks then go, per slot, to the active
//    metaslab while DF finds room there, else to the metaslab of highest
//    weight that can hold the block (metaslab_should_allocate: its largest
//    free segment), ties to the lowest offset (metaslab_compare):
//      - zfs_metaslab_segment_weight_enabled (OpenZFS 7303; ZoL 0.7+):
//        metaslab_segment_weight: (largest bucket of the free-segment
//        histogram, segments in it); a never-allocated metaslab has its own
//        size's bucket; the active one is passivated once its largest bucket
//        is zfs_metaslab_switch_threshold below the one it was activated at
//        (metaslab_segment_may_passivate).
//      - else metaslab_space_weight: free space, times (100 - (FRAG - 1)) / 100
//        with metaslab_fragmentation_factor_enabled, times 2 - ms_index /
//        ms_count on a rotational vdev with metaslab_lba_weighting_enabled.
//    DF (metaslab_df_alloc): best fit (the smallest free segment that holds
//    the block, the lowest such) when the metaslab's largest free segment is
//    below metaslab_df_alloc_threshold or its free space below
//    metaslab_df_free_pct %; else first fit from the class cursor; with
//    metaslab_df_max_search (2.0+) the forward search stops that many bytes
//    past the first segment looked at (after at least
//    metaslab_min_search_count = 100 segments) and, as 2.0+'s block picker,
//    does not wrap but falls back to best fit; without it (before 2.0) it
//    wraps once, as the empty pool's DF above. Not modelled: the 4 allocators
//    of 0.8+ (one active metaslab per slot, as above), zfs_mg_noalloc_threshold
//    and zfs_mg_fragmentation_threshold (vdevs all alike here), the loss of
//    the active bit over zfs_metaslab_fragmentation_threshold, gang blocks.
//    A state with cap 0 is the empty pool and takes the empty pool's path.
#include "sim/zfs/metaslab_allocator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/bytes.h"
#include "sim/core/random.h"
#include "sim/core/status.h"
#include "sim/zfs/tunables.h"

namespace ziosim {
namespace {

// Free-space runs of a fragmented pool.
constexpr double kFragRunMin = 64.0 * kKiB;
constexpr double kFragRunMax = 4.0 * kMiB;
// metaslab_min_search_count (metaslab.c, OpenZFS 2.0+): segments the DF
// block picker looks at before metaslab_df_max_search may stop it.
constexpr int kMinSearchCount = 100;
// SPACE_MAP_HISTOGRAM_SIZE: the space map histogram's buckets above sm_shift.
constexpr int kSpaceMapHistogramSize = 32;
// SPA_MINBLOCKSIZE: the least weight metaslab_space_weight leaves a metaslab with free space.
constexpr int64_t kMinBlockSize = 512;

int FloorLog2(int64_t x) { return static_cast<int>(std::bit_width(static_cast<uint64_t>(x))) - 1; }

}  // namespace

// Free space of every top-level vdev and the rotor (metaslab.c, reference 4.2-4.3).
class BlockAllocator::Space {
 public:
  Space(const Pool& pool, double fill, uint64_t seed, const PoolState* state = nullptr,
        const std::string& label = "")
      : pool_(pool), fill_(fill), seed_(seed) {
    const Tunables& t = pool.tunables();
    weighted_ = state != nullptr && state->set && state->cap_pct > 0;
    if (weighted_) {
      segment_weight_ = t.Bool("zfs_metaslab_segment_weight_enabled");
      lba_weighting_ = t.Bool("metaslab_lba_weighting_enabled");
      frag_factor_ = t.Bool("metaslab_fragmentation_factor_enabled");
      switch_threshold_ = t.Int("zfs_metaslab_switch_threshold");
      df_alloc_threshold_ = t.Int("metaslab_df_alloc_threshold");
      df_free_pct_ = t.Int("metaslab_df_free_pct");
      df_max_search_ = t.Int("metaslab_df_max_search");
    }
    // Aligned placement: the first-fit allocator's, not DF's (ziosim_df_align).
    aligned_ = t.Bool("ziosim_df_align");
    const int64_t aliquot = t.Int("metaslab_aliquot");
    const bool per_data_disk = t.Choice("ziosim_aliquot_per") == "data_disks";
    for (int i = 0; i < pool.top_count(); ++i) {
      const Vdev* v = pool.top(i);
      Top top;
      top.vdev_asize = v->asize_bytes();
      top.ms_shift = std::max(static_cast<int>(std::bit_width(static_cast<uint64_t>(top.vdev_asize / 200))), 17);
      while (top.ms_shift > 12 && (top.vdev_asize >> top.ms_shift) == 0) --top.ms_shift;  // tiny vdev
      top.ms_size = int64_t{1} << top.ms_shift;
      top.ms_count = top.vdev_asize >> top.ms_shift;
      top.usable = top.ms_count << top.ms_shift;
      const int children = static_cast<int>(v->children().size());
      const int parity = v->nparity();
      top.aliquot = aliquot * std::max(1, per_data_disk ? children - parity : children);
      // The smallest block's asize: a sector, (parity + 1) sectors on RAID-Z, a
      // whole stripe row on dRAID.
      top.quantum = v->PsizeToAsize(1, pool.ashift());
      // dRAID blocks start on a stripe row (vdev_draid_get_astart); OpenZFS
      // aligns each metaslab to it (vdev_draid_metaslab_init).
      top.align = v->block_alignment_bytes();
      top.materialized.assign(static_cast<size_t>(top.ms_count), false);
      for (auto& c : top.cursor) c.assign(static_cast<size_t>(top.ms_count), {});
      top.alloc = std::llround(static_cast<double>(top.usable) * fill_);
      if (weighted_) StartState(top, *state, label, v->rotational());
      tops_.push_back(std::move(top));
    }
  }

  // The allocated runs of top-level vdev t (every metaslab laid out), each cut
  // to where blocks may start and end (dRAID's stripe rows).
  std::vector<Dva> UsedRuns(int t) {
    Top& v = tops_[t];
    for (int64_t m = 0; m < v.ms_count; ++m) Materialize(t, m);
    std::vector<Dva> out;
    auto add = [&](int64_t s, int64_t e) {
      s = RoundUp(s, v.align);
      e = e / v.align * v.align;
      if (e > s) out.push_back(Dva{t, s, e - s});
    };
    // The gaps between free (and lost) space, walking both maps in offset order.
    int64_t pos = 0;
    auto f = v.free.begin();
    auto l = v.lost.begin();
    while (f != v.free.end() || l != v.lost.end()) {
      const bool take_free = l == v.lost.end() || (f != v.free.end() && f->second < l->second);
      const auto& [end, start] = take_free ? *f++ : *l++;
      add(pos, start);
      pos = std::max(pos, end);
    }
    add(pos, v.usable);
    return out;
  }

  int64_t free_bytes() const {
    int64_t f = 0;
    for (const Top& t : tops_) f += t.usable - t.alloc;
    return f;
  }
  int64_t usable_bytes() const {
    int64_t u = 0;
    for (const Top& t : tops_) u += t.usable;
    return u;
  }

  // Allocates copy `prev == nullptr ? 0 : 1` of a block of `psize` bytes.
  Dva Alloc(int64_t psize, const Dva* prev) {
    const int n = static_cast<int>(tops_.size());
    const int start = prev != nullptr ? (prev->top + 1) % n : rotor_;
    for (int pass = 0; pass < (prev != nullptr ? 2 : 1); ++pass) {
      for (int i = 0; i < n; ++i) {
        const int t = (start + i) % n;
        const int64_t asize = Asize(t, psize);
        int64_t off = -1;
        if (prev != nullptr && prev->top == t) {
          off = pass == 0 ? AllocDistant(t, asize, prev->offset) : AllocIn(t, asize, 1, 0);
        } else {
          off = AllocIn(t, asize, 0, 0);
        }
        if (off >= 0) {
          Top& v = tops_[t];
          if (aliquot_ == 0) v.bias = Bias(t);
          aliquot_ += asize;
          if (aliquot_ >= v.aliquot + v.bias) {
            rotor_ = (t + 1) % n;
            aliquot_ = 0;
          }
          return Dva{t, off, asize};
        }
        rotor_ = (t + 1) % n;
        aliquot_ = 0;
      }
    }
    throw InputError("the files do not fit in the pool: no top-level vdev has room for a block of " +
                     std::to_string(psize) + " bytes (" + std::to_string(free_bytes()) + " of " +
                     std::to_string(usable_bytes()) + " bytes free)");
  }

  // Marks a block that is already on disk as allocated. REQUIRES: it lies in free space.
  void Claim(const Dva& d) {
    Top& v = tops_[d.top];
    Materialize(d.top, d.offset >> v.ms_shift);
    auto it = v.free.upper_bound(d.offset);
    if (it == v.free.end() || it->second > d.offset || it->first < d.offset + d.asize) {
      throw std::invalid_argument("BlockAllocator::Claim: block at " + std::to_string(d.offset) + " is not free");
    }
    Carve(d.top, d.offset, d.asize);
  }

  void Free(const Dva& d) {
    Top& v = tops_[d.top];
    v.alloc -= d.asize;
    v.failed_min = INT64_MAX;
    const int64_t s = d.offset;
    const int64_t e = d.offset + d.asize;
    const int64_t ms = s >> v.ms_shift;
    auto prev = v.free.find(s);  // the free segment ending where this block starts
    if (prev != v.free.end() && (prev->second >> v.ms_shift) != ms) prev = v.free.end();
    auto next = v.free.upper_bound(e);  // the segment starting where it ends, if any
    if (next != v.free.end() && (next->second != e || (e >> v.ms_shift) != ms)) next = v.free.end();
    if (weighted_) {
      const int64_t merged_s = prev != v.free.end() ? prev->second : s;
      const int64_t merged_e = next != v.free.end() ? next->first : e;
      if (prev != v.free.end()) HistAdd(v, ms, s - prev->second, -1);
      if (next != v.free.end()) HistAdd(v, ms, next->first - e, -1);
      HistAdd(v, ms, merged_e - merged_s, 1);
      v.ms_free[static_cast<size_t>(ms)] += d.asize;
    }
    if (next != v.free.end()) {
      next->second = prev != v.free.end() ? prev->second : s;
      if (prev != v.free.end()) v.free.erase(prev);
    } else if (prev != v.free.end()) {
      auto node = v.free.extract(prev);
      node.key() = e;
      v.free.insert(std::move(node));
    } else {
      v.free.emplace(e, s);
    }
  }

 private:
  struct Top {
    int64_t vdev_asize = 0;
    int ms_shift = 17;
    int64_t ms_size = 0, ms_count = 0;
    int64_t usable = 0;             // bytes in whole metaslabs
    int64_t aliquot = 0, bias = 0;  // the rotor's bytes on this vdev before it moves on, mg_bias
    int64_t quantum = 0;            // smallest allocation: sector x (parity + 1), a dRAID stripe row
    int64_t align = 1;              // where a block may start: multiples of this (dRAID's stripe row)
    int64_t alloc = 0;
    // Smallest asize a whole-vdev search failed for since the last free.
    int64_t failed_min = INT64_MAX;
    // Free segments, end -> start (so the segment holding an offset is
    // upper_bound(offset) and allocating from its front changes no key);
    // a segment never crosses a metaslab boundary.
    std::map<int64_t, int64_t> free;
    std::vector<bool> materialized;   // per metaslab: its free segments are in `free`
    // dRAID: each metaslab's unaligned head and tail (end -> start): never allocated.
    std::map<int64_t, int64_t> lost;
    // DF cursors per metaslab and alignment class (log2), as ms_lbas[] (sm_ppd in 2010) live in
    // each metaslab; [0] primary, [1] secondary. 0: the metaslab's start.
    std::array<std::vector<std::array<int64_t, 64>>, 2> cursor;
    std::array<int64_t, 2> active{0, 0};  // the metaslab each slot allocates from
    std::array<std::pair<int64_t, int64_t>, 4> asize_cache{};  // (psize, asize); psize 0 = empty
    size_t asize_next = 0;
    // --pool-state only: the old data's plan, and per metaslab its free bytes, its free-segment
    // histogram (kept from the plan before the metaslab is laid out), whether it was ever
    // allocated (ms_sm != NULL), and per slot the bucket it was activated at.
    OldDataPlan plan;
    bool rotational = true;
    std::vector<int64_t> ms_free;
    std::vector<SegmentHistogram> hist;
    std::vector<bool> ever;
    std::array<int, 2> activation_idx{0, 0};
  };

  // --pool-state: the old data's figures per metaslab, before any is laid out.
  void StartState(Top& top, const PoolState& state, const std::string& label, bool rotational) {
    top.plan = PlanOldData(state, top.ms_count, top.ms_shift, top.quantum, label);
    top.rotational = rotational;
    const size_t n = static_cast<size_t>(top.ms_count);
    top.ms_free.assign(n, top.ms_size);
    top.hist.assign(n, SegmentHistogram{});
    top.ever.assign(n, false);
    top.active = {-1, -1};
    top.alloc = 0;
    for (int64_t m = 0; m < top.ms_count; ++m) {
      const size_t k = static_cast<size_t>(m);
      int64_t used = 0;
      if (m < top.plan.touched) {
        used = top.plan.used_bytes;
        top.hist[k] = top.plan.Histogram();
      } else if (m == top.plan.touched && top.plan.partial_used > 0) {
        used = top.plan.partial_used;
        ++top.hist[k][static_cast<size_t>(FloorLog2(top.ms_size - used))];
      } else {
        ++top.hist[k][static_cast<size_t>(top.ms_shift)];
      }
      top.ever[k] = used > 0;
      top.ms_free[k] = top.ms_size - used;
      top.alloc += used;
    }
  }

  // --pool-state: the segments of metaslab m as its plan says (Materialize).
  void MaterializeState(int t, int64_t m, int64_t start, int64_t end) {
    Top& v = tops_[t];
    const OldDataPlan& p = v.plan;
    if (m > p.touched || (m == p.touched && p.partial_used == 0)) {
      AddInitialFree(v, m, start, end, v.free.end());
      return;
    }
    if (m == p.touched) {
      AddInitialFree(v, m, start + p.partial_used, end, v.free.end());
      return;
    }
    if (p.holes() == 0) return;  // full of old data (frag 0)
    RandomStream rng(seed_, "pool-state/top" + std::to_string(t) + "/ms" + std::to_string(m));
    std::vector<int64_t> holes;
    holes.reserve(static_cast<size_t>(p.holes()));
    for (size_t b = 0; b < p.hole_count.size(); ++b) {
      for (int64_t i = 0; i < p.hole_count[b]; ++i) holes.push_back(p.hole_bytes[b]);
    }
    for (size_t i = holes.size(); i > 1; --i) {  // Fisher-Yates
      std::swap(holes[i - 1], holes[static_cast<size_t>(rng.UniformInt(0, static_cast<int64_t>(i) - 1))]);
    }
    // Used runs: one before each hole and one after the last, each a quantum plus its share
    // (exponential spacings: uniform random cut points) of the quanta left over.
    const size_t runs = holes.size() + 1;
    const int64_t spare = p.used_bytes / v.quantum - static_cast<int64_t>(runs);
    const int64_t odd = p.used_bytes % v.quantum;  // a metaslab need not be whole quanta (RAID-Z)
    std::vector<double> e(runs);
    double sum = 0;
    for (double& x : e) {
      x = -std::log(1.0 - rng.Uniform01());
      sum += x;
    }
    int64_t given = 0;
    int64_t pos = start;
    auto hint = v.free.upper_bound(start);
    for (size_t i = 0; i < runs; ++i) {
      int64_t extra = i + 1 < runs ? static_cast<int64_t>(std::floor(e[i] / sum * static_cast<double>(spare))) : 0;
      if (i + 1 == runs) extra = spare - given;
      given += extra;
      pos += (1 + extra) * v.quantum + (i + 1 == runs ? odd : 0);
      if (i < holes.size()) {
        hint = AddInitialFree(v, m, pos, pos + holes[i], hint);
        pos += holes[i];
      }
    }
    if (pos != end) throw std::logic_error("pool state: metaslab " + std::to_string(m) + " laid out to " +
                                           std::to_string(pos - start) + " of " + std::to_string(end - start) + " bytes");
  }

  // Lays free segment [s, e) of metaslab m out (before `hint`, a position in
  // `free` at or after it); returns the position after it. On dRAID, as
  // vdev_draid_metaslab_init aligns a metaslab to the stripe row and cuts its
  // tail, the metaslab's whole pattern moves up to the first row boundary
  // (every segment is whole rows from there) and is cut at the last one; what
  // a segment loses leaves the metaslab's free space and histogram.
  std::map<int64_t, int64_t>::iterator AddInitialFree(Top& v, int64_t m, int64_t s, int64_t e,
                                                      std::map<int64_t, int64_t>::iterator hint) {
    if (v.align > 1) {
      const int64_t start = m << v.ms_shift;
      const int64_t delta = RoundUp(start, v.align) - start;
      const int64_t tail = (start + v.ms_size) / v.align * v.align;
      const int64_t ns = s + delta;
      const int64_t ne = std::max(ns, std::min(e + delta, tail));
      const int64_t lost = (e - s) - (ne - ns);
      v.alloc += lost;
      if (weighted_) {
        HistAdd(v, m, e - s, -1);
        HistAdd(v, m, ne - ns, 1);
        v.ms_free[static_cast<size_t>(m)] -= lost;
      }
      s = ns;
      e = ne;
      if (s == e) return hint;
    }
    return std::next(v.free.emplace_hint(hint, e, s));
  }

  // dRAID: the head and tail of metaslab m that AddInitialFree leaves out of
  // the pattern (neither free nor data).
  void MarkUnaligned(Top& v, int64_t m) {
    if (v.align <= 1) return;
    const int64_t start = m << v.ms_shift;
    const int64_t head = RoundUp(start, v.align);
    const int64_t tail = (start + v.ms_size) / v.align * v.align;
    if (head > start) v.lost.emplace(head, start);
    if (start + v.ms_size > tail) v.lost.emplace(start + v.ms_size, tail);
  }

  // --pool-state: a free segment of `len` bytes in metaslab `ms` appears (delta 1) or goes (-1).
  static void HistAdd(Top& v, int64_t ms, int64_t len, int64_t delta) {
    if (len > 0) v.hist[static_cast<size_t>(ms)][static_cast<size_t>(FloorLog2(len))] += delta;
  }

  // pool.BlockAsize with a few recent answers kept per vdev (data and L1 sizes alternate).
  int64_t Asize(int t, int64_t psize) {
    Top& v = tops_[t];
    for (const auto& [p, a] : v.asize_cache)
      if (p == psize) return a;
    const int64_t a = pool_.BlockAsize(t, psize);
    v.asize_cache[v.asize_next++ % v.asize_cache.size()] = {psize, a};
    return a;
  }

  // ZoL 2015+ (bb3250d07e): bias proportional to the vdev's share of free space.
  int64_t Bias(int t) const {
    const Top& v = tops_[t];
    const int64_t vs_free = v.usable - v.alloc;
    const int64_t mc_free = free_bytes();
    const int64_t ratio = static_cast<int64_t>(static_cast<__int128>(vs_free) * static_cast<int64_t>(tops_.size()) *
                                               100 / (mc_free + 1));
    return (ratio - 100) * v.aliquot / 100;
  }

  // Free segments of metaslab m, created on first use.
  void Materialize(int t, int64_t m) {
    Top& v = tops_[t];
    if (v.materialized[static_cast<size_t>(m)]) return;
    v.materialized[static_cast<size_t>(m)] = true;
    MarkUnaligned(v, m);
    const int64_t start = m << v.ms_shift;
    const int64_t end = start + v.ms_size;
    if (weighted_) {
      MaterializeState(t, m, start, end);
      return;
    }
    if (fill_ <= 0) {
      AddInitialFree(v, m, start, end, v.free.end());
      return;
    }
    RandomStream rng(seed_, "fragmented/top" + std::to_string(t) + "/ms" + std::to_string(m));
    const double used_scale = fill_ / (1.0 - fill_);
    const double log_lo = std::log(kFragRunMin);
    const double log_span = std::log(kFragRunMax) - log_lo;
    bool used = rng.Uniform01() < fill_;
    int64_t pos = start;
    auto hint = v.free.upper_bound(start);
    while (pos < end) {
      double len = std::exp(log_lo + rng.Uniform01() * log_span);
      if (used) len *= used_scale;
      const int64_t n = std::max<int64_t>(v.quantum, std::llround(len / static_cast<double>(v.quantum)) * v.quantum);
      const int64_t stop = std::min(end, pos + n);
      if (!used) hint = AddInitialFree(v, m, pos, stop, hint);
      pos = stop;
      used = !used;
    }
  }

  // metaslab_block_picker: from the free segment holding `from` (or the next
  // one), the first segment starting before `to` that holds `asize` at its
  // start (rounded up to asize & -asize before OpenZFS 2.0). Returns the
  // offset or -1.
  int64_t FirstFit(int t, int64_t from, int64_t to, int64_t asize) {
    Top& v = tops_[t];
    const int64_t align = aligned_ ? (asize & -asize) : 1;
    to = std::min(to, v.usable);
    int64_t pos = std::max<int64_t>(from, 0);
    while (pos < to) {
      const int64_t m = pos >> v.ms_shift;
      Materialize(t, m);
      const int64_t ms_end = (m + 1) << v.ms_shift;
      for (auto it = v.free.upper_bound(pos); it != v.free.end() && it->second < ms_end && it->second < to; ++it) {
        const int64_t s = RoundUp(it->second, align);
        if (s + asize <= it->first) return s;
      }
      pos = ms_end;
    }
    return -1;
  }

  void Carve(int t, int64_t off, int64_t asize) {
    Top& v = tops_[t];
    auto it = v.free.upper_bound(off);  // the segment holding off
    const int64_t s = it->second;
    const int64_t e = it->first;
    if (weighted_) {
      const int64_t ms = off >> v.ms_shift;
      HistAdd(v, ms, e - s, -1);
      HistAdd(v, ms, off - s, 1);
      HistAdd(v, ms, e - off - asize, 1);
      v.ms_free[static_cast<size_t>(ms)] -= asize;
      v.ever[static_cast<size_t>(ms)] = true;
    }
    if (off + asize < e) {
      it->second = off + asize;
      if (s < off) v.free.emplace_hint(it, off, s);
    } else if (s < off) {
      auto node = v.free.extract(it);
      node.key() = off;
      v.free.insert(std::move(node));
    } else {
      v.free.erase(it);
    }
    v.alloc += asize;
  }

  // DF in metaslab m: first fit from m's class cursor, not below `min_off`; wraps once within m.
  int64_t FitIn(int t, int64_t m, int slot, int cls, int64_t asize, int64_t min_off) {
    Top& v = tops_[t];
    const int64_t start = std::max(m << v.ms_shift, min_off);
    const int64_t end = (m + 1) << v.ms_shift;
    int64_t& cursor = v.cursor[slot][static_cast<size_t>(m)][cls];
    const int64_t from = std::max(cursor, start);
    int64_t off = FirstFit(t, from, end, asize);
    if (off < 0 && from > start) off = FirstFit(t, start, from, asize);
    if (off >= 0) cursor = off + asize;
    return off;
  }

  // metaslab_group_alloc: the slot's active metaslab while the block fits there, else the
  // next one up that holds it (the LBA weight ranks the lower of equally free ones first;
  // the lower ones are full), wrapping to the first metaslab at or above `min_off`.
  int64_t AllocIn(int t, int64_t asize, int slot, int64_t min_off) {
    if (weighted_) return AllocWeighted(t, asize, slot, min_off);
    Top& v = tops_[t];
    if (v.usable - v.alloc < asize || (min_off == 0 && asize >= v.failed_min)) return -1;
    const int cls = std::countr_zero(static_cast<uint64_t>(asize));
    const int64_t first = min_off >> v.ms_shift;
    const int64_t from = std::max(v.active[slot], first);
    for (int64_t k = 0; k < v.ms_count - first; ++k) {
      const int64_t m = first + (from - first + k) % (v.ms_count - first);
      const int64_t off = FitIn(t, m, slot, cls, asize, min_off);
      if (off < 0) continue;
      Carve(t, off, asize);
      v.active[slot] = m;
      return off;
    }
    if (min_off == 0) v.failed_min = std::min(v.failed_min, asize);
    return -1;
  }

  // ---- --pool-state: metaslab weights and DF with its best-fit fallback ----

  static int TopBucket(const Top& v, int64_t m) {
    const SegmentHistogram& h = v.hist[static_cast<size_t>(m)];
    for (int b = static_cast<int>(h.size()) - 1; b >= 0; --b) {
      if (h[static_cast<size_t>(b)] > 0) return b;
    }
    return -1;
  }

  // Largest free segment of metaslab m, from its segments (lays it out).
  int64_t LargestFree(int t, int64_t m) {
    Materialize(t, m);
    const Top& v = tops_[t];
    const int64_t s0 = m << v.ms_shift;
    const int64_t e0 = (m + 1) << v.ms_shift;
    int64_t best = 0;
    for (auto it = v.free.upper_bound(s0); it != v.free.end() && it->second < e0; ++it) {
      best = std::max(best, it->first - it->second);
    }
    return best;
  }

  // Whether metaslab m has a free segment of `size` bytes or more (ms_max_size >= asize),
  // from the histogram when it decides, else from the plan or the segments.
  bool Holds(int t, int64_t m, int64_t size) {
    const Top& v = tops_[t];
    const int b = TopBucket(v, m);
    if (b < 0) return false;
    if (size <= (int64_t{1} << b)) return true;
    if (b + 1 < 63 && size >= (int64_t{1} << (b + 1))) return false;
    if (!v.materialized[static_cast<size_t>(m)]) {
      if (m < v.plan.touched) return v.plan.hole_bytes[static_cast<size_t>(b)] >= size;  // one size per class
      return v.ms_free[static_cast<size_t>(m)] >= size;  // one segment
    }
    return LargestFree(t, m) >= size;
  }

  // The largest free segment of m is below `threshold`.
  bool LargestBelow(int t, int64_t m, int64_t threshold) {
    const int b = TopBucket(tops_[t], m);
    if (b < 0) return true;
    if (b + 1 < 63 && (int64_t{1} << (b + 1)) <= threshold) return true;
    if ((int64_t{1} << b) >= threshold) return false;
    return !Holds(t, m, threshold);
  }

  // metaslab_segment_weight's bucket: the metaslab's size's for a never-allocated one.
  int SegmentIndex(const Top& v, int64_t m) const {
    if (v.ms_free[static_cast<size_t>(m)] == v.ms_size) return std::min(v.ms_shift, kSpaceMapHistogramSize + pool_.ashift() - 1);
    return TopBucket(v, m);
  }

  // metaslab_weight, as one comparable number (higher: preferred); 0: full.
  uint64_t Weight(const Top& v, int64_t m) const {
    const size_t k = static_cast<size_t>(m);
    const int64_t free = v.ms_free[k];
    if (free <= 0) return 0;
    if (segment_weight_) {
      const int idx = SegmentIndex(v, m);
      const int64_t count = free == v.ms_size ? 1 : v.hist[k][static_cast<size_t>(idx)];
      return (static_cast<uint64_t>(idx + 1) << 54) | std::min<uint64_t>(static_cast<uint64_t>(count), (uint64_t{1} << 54) - 1);
    }
    uint64_t space = static_cast<uint64_t>(free);
    if (frag_factor_) {
      const int64_t f = MetaslabFragmentation(v.hist[k], !v.ever[k]);
      space = space * static_cast<uint64_t>(100 - (f - 1)) / 100;
      if (space > 0 && space < static_cast<uint64_t>(kMinBlockSize)) space = kMinBlockSize;
    }
    uint64_t weight = space;
    if (v.rotational && lba_weighting_) {
      weight = 2 * weight - (static_cast<uint64_t>(m) * weight) / static_cast<uint64_t>(v.ms_count);
    }
    return weight;
  }

  // metaslab_block_picker of OpenZFS 2.0+: from the segment at the cursor, the first that holds
  // `size` at its start, giving up metaslab_df_max_search bytes past the first one looked at
  // (after kMinSearchCount segments); no wrap: the cursor goes back to the start.
  int64_t Picker(int t, int64_t& cursor, int64_t size, int64_t start, int64_t end) {
    Top& v = tops_[t];
    if (cursor < start) cursor = start;
    int64_t first_found = -1;
    int count = 0;
    for (auto it = v.free.upper_bound(cursor); it != v.free.end() && it->second < end; ++it, ++count) {
      if (first_found < 0) first_found = it->second;
      if (it->second - first_found > df_max_search_ && count >= kMinSearchCount) break;
      if (it->second + size <= it->first) return it->second;
    }
    cursor = 0;
    return -1;
  }

  // The size-sorted search: the smallest free segment that holds `size`, the lowest of equals.
  int64_t BestFit(int t, int64_t size, int64_t start, int64_t end) {
    const Top& v = tops_[t];
    int64_t best = -1;
    int64_t best_len = INT64_MAX;
    for (auto it = v.free.upper_bound(start); it != v.free.end() && it->second < end; ++it) {
      const int64_t len = it->first - it->second;
      if (len >= size && len < best_len) {
        best = it->second;
        best_len = len;
        if (len == size) break;
      }
    }
    return best;
  }

  // metaslab_df_alloc in metaslab m (not below min_off).
  int64_t DfIn(int t, int64_t m, int slot, int cls, int64_t asize, int64_t min_off) {
    Materialize(t, m);
    Top& v = tops_[t];
    const int64_t start = std::max(m << v.ms_shift, min_off);
    const int64_t end = (m + 1) << v.ms_shift;
    int64_t& cursor = v.cursor[slot][static_cast<size_t>(m)][cls];
    const int64_t free_pct = v.ms_free[static_cast<size_t>(m)] * 100 / v.ms_size;
    int64_t off = -1;
    if (!(LargestBelow(t, m, df_alloc_threshold_) || free_pct < df_free_pct_)) {
      if (df_max_search_ > 0) {
        off = Picker(t, cursor, asize, start, end);
      } else {
        const int64_t from = std::max(cursor, start);
        off = FirstFit(t, from, end, asize);
        if (off < 0 && from > start) off = FirstFit(t, start, from, asize);
      }
    }
    if (off < 0) off = BestFit(t, asize, start, end);
    if (off >= 0) cursor = off + asize;
    return off;
  }

  // After an allocation in the slot's active metaslab m: metaslab_segment_may_passivate.
  void MayPassivate(int t, int slot, int64_t m) {
    Top& v = tops_[t];
    if (!segment_weight_) return;
    if (TopBucket(v, m) <= v.activation_idx[slot] - switch_threshold_) v.active[slot] = -1;
  }

  // metaslab_group_alloc on a pool in a --pool-state: the active metaslab, else the best by weight.
  int64_t AllocWeighted(int t, int64_t asize, int slot, int64_t min_off) {
    Top& v = tops_[t];
    if (v.usable - v.alloc < asize) return -1;
    const int cls = std::countr_zero(static_cast<uint64_t>(asize));
    const int64_t first = min_off >> v.ms_shift;
    int64_t& act = v.active[slot];
    if (act >= first && Holds(t, act, asize)) {
      const int64_t off = DfIn(t, act, slot, cls, asize, min_off);
      if (off >= 0) {
        Carve(t, off, asize);
        MayPassivate(t, slot, act);
        return off;
      }
    }
    act = -1;
    order_.clear();
    for (int64_t m = first; m < v.ms_count; ++m) {
      const uint64_t w = Weight(v, m);
      if (w > 0) order_.emplace_back(w, m);
    }
    // metaslab_compare: weight descending, then offset ascending.
    std::sort(order_.begin(), order_.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    });
    for (const auto& [w, m] : order_) {
      if (!Holds(t, m, asize)) continue;
      const int64_t off = DfIn(t, m, slot, cls, asize, min_off);
      if (off < 0) continue;
      act = m;
      v.activation_idx[slot] = segment_weight_ ? static_cast<int>(w >> 54) - 1 : 0;
      Carve(t, off, asize);
      MayPassivate(t, slot, m);
      return off;
    }
    return -1;
  }

 public:
  // ---- what zpool list shows ----
  int64_t CapacityPercent() const {
    const __int128 alloc = usable_bytes() - free_bytes();
    const int64_t size = usable_bytes();
    return size > 0 ? static_cast<int64_t>(alloc * 100 / size) : 0;
  }

  std::vector<int64_t> MetaslabFragmentations(int t) {
    Top& v = tops_[t];
    std::vector<int64_t> out;
    for (int64_t m = 0; m < v.ms_count; ++m) {
      if (weighted_) {
        out.push_back(MetaslabFragmentation(v.hist[static_cast<size_t>(m)], !v.ever[static_cast<size_t>(m)]));
      } else {
        // The empty pool and the fragmented preset keep no histogram: from the segments.
        const SegmentHistogram h = Histogram(t, m);
        int64_t free = 0;
        for (size_t b = 0; b < h.size(); ++b) free += h[b] << b;
        const bool pristine = h[static_cast<size_t>(v.ms_shift)] == 1 && free == v.ms_size;
        out.push_back(MetaslabFragmentation(h, pristine));
      }
    }
    return out;
  }

  int64_t FragmentationPercent() {
    std::vector<int64_t> groups;
    std::vector<int64_t> space;
    for (int t = 0; t < static_cast<int>(tops_.size()); ++t) {
      groups.push_back(GroupFragmentation(MetaslabFragmentations(t)));
      space.push_back(tops_[static_cast<size_t>(t)].usable);
    }
    return ClassFragmentation(groups, space);
  }

  int64_t VdevBytes(int t) const { return tops_[static_cast<size_t>(t)].vdev_asize; }

  // From the segments themselves (lays the metaslab out).
  SegmentHistogram Histogram(int t, int64_t m) {
    Materialize(t, m);
    const Top& v = tops_[t];
    const int64_t s0 = m << v.ms_shift;
    const int64_t e0 = (m + 1) << v.ms_shift;
    SegmentHistogram h{};
    for (auto it = v.free.upper_bound(s0); it != v.free.end() && it->second < e0; ++it) {
      ++h[static_cast<size_t>(FloorLog2(it->first - it->second))];
    }
    return h;
  }

 private:
  // A second copy on the vdev of the first: in a metaslab at least vdev_asize/8 away.
  int64_t AllocDistant(int t, int64_t asize, int64_t first_offset) {
    Top& v = tops_[t];
    const int64_t dist_ms = std::max<int64_t>(1, ((v.vdev_asize >> 3) + v.ms_size - 1) >> v.ms_shift);
    const int64_t m0 = first_offset >> v.ms_shift;
    if ((m0 + dist_ms) < v.ms_count) {
      const int64_t off = AllocIn(t, asize, 1, (m0 + dist_ms) << v.ms_shift);
      if (off >= 0) return off;
    }
    if (m0 - dist_ms >= 0) {
      const int64_t off = FirstFit(t, 0, (m0 - dist_ms + 1) << v.ms_shift, asize);
      if (off >= 0) {
        Carve(t, off, asize);
        return off;
      }
    }
    return -1;
  }

  const Pool& pool_;
  double fill_;
  uint64_t seed_;
  bool aligned_ = false;
  std::vector<Top> tops_;
  // --pool-state (weighted_): the era's metaslab weighting and DF tunables.
  bool weighted_ = false;
  bool segment_weight_ = true, lba_weighting_ = true, frag_factor_ = true;
  int64_t switch_threshold_ = 2, df_alloc_threshold_ = 128 * kKiB, df_free_pct_ = 4, df_max_search_ = 16 * kMiB;
  std::vector<std::pair<uint64_t, int64_t>> order_;  // (weight, metaslab), AllocWeighted's scratch
  int rotor_ = 0;
  int64_t aliquot_ = 0;  // mc_aliquot
};

BlockPointer ToBlockPointer(const Dva& a, const Dva* b, int64_t psize) {
  BlockPointer bp;
  bp.hole = false;
  bp.top = a.top;
  bp.offset = a.offset;
  bp.psize = psize;
  if (b != nullptr) {
    bp.top2 = b->top;
    bp.offset2 = b->offset;
  }
  return bp;
}

BlockAllocator::BlockAllocator(const Pool& pool) : BlockAllocator(pool, 0.0, 0) {}
BlockAllocator::BlockAllocator(const Pool& pool, double old_data_fill, uint64_t seed)
    : space_(std::make_unique<Space>(pool, old_data_fill, seed)) {}
BlockAllocator::BlockAllocator(const Pool& pool, const PoolState& state, uint64_t seed, const std::string& label)
    : space_(std::make_unique<Space>(pool, 0.0, seed, &state, label)) {}
BlockAllocator::~BlockAllocator() = default;
int64_t BlockAllocator::CapacityPercent() const { return space_->CapacityPercent(); }
int64_t BlockAllocator::FragmentationPercent() const { return space_->FragmentationPercent(); }
int64_t BlockAllocator::VdevBytes(int top) const { return space_->VdevBytes(top); }
std::vector<int64_t> BlockAllocator::MetaslabFragmentations(int top) const { return space_->MetaslabFragmentations(top); }
SegmentHistogram BlockAllocator::MetaslabHistogram(int top, int64_t ms) { return space_->Histogram(top, ms); }
Dva BlockAllocator::Alloc(int64_t psize, const Dva* first_copy) { return space_->Alloc(psize, first_copy); }
void BlockAllocator::Free(const Dva& dva) { space_->Free(dva); }
void BlockAllocator::Claim(const Dva& dva) { space_->Claim(dva); }
int64_t BlockAllocator::free_bytes() const { return space_->free_bytes(); }
std::vector<Dva> BlockAllocator::UsedRuns(int top) { return space_->UsedRuns(top); }

}  // namespace ziosim
