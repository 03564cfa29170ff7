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

#include "sim/core/random.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;
// Free-space runs of a fragmented pool.
constexpr double kFragRunMin = 64.0 * kKiB;
constexpr double kFragRunMax = 4.0 * kMiB;

int64_t RoundUp(int64_t x, int64_t q) { return (x + q - 1) / q * q; }

}  // namespace

// Free space of every top-level vdev and the rotor (metaslab.c, reference 4.2-4.3).
class BlockAllocator::Space {
 public:
  Space(const Pool& pool, double fill, uint64_t seed) : pool_(pool), fill_(fill), seed_(seed) {
    const Tunables& t = pool.tunables();
    // Aligned placement: the first-fit allocator's, not DF's (ziosim_df_align).
    aligned_ = t.Bool("ziosim_df_align");
    const int64_t aliquot = t.Int("metaslab_aliquot");
    const bool per_data_disk = t.Choice("ziosim_aliquot_per") == "data_disks";
    const int64_t sector = int64_t{1} << pool.ashift();
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
      top.quantum = sector * (parity + 1);
      top.materialized.assign(static_cast<size_t>(top.ms_count), false);
      for (auto& c : top.cursor) c.assign(static_cast<size_t>(top.ms_count), {});
      top.alloc = std::llround(static_cast<double>(top.usable) * fill_);
      tops_.push_back(std::move(top));
    }
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
    int64_t quantum = 0;            // smallest allocation: sector x (parity + 1)
    int64_t alloc = 0;
    // Smallest asize a whole-vdev search failed for since the last free.
    int64_t failed_min = INT64_MAX;
    // Free segments, end -> start (so the segment holding an offset is
    // upper_bound(offset) and allocating from its front changes no key);
    // a segment never crosses a metaslab boundary.
    std::map<int64_t, int64_t> free;
    std::vector<bool> materialized;   // per metaslab: its free segments are in `free`
    // DF cursors per metaslab and alignment class (log2), as ms_lbas[] (sm_ppd in 2010) live in
    // each metaslab; [0] primary, [1] secondary. 0: the metaslab's start.
    std::array<std::vector<std::array<int64_t, 64>>, 2> cursor;
    std::array<int64_t, 2> active{0, 0};  // the metaslab each slot allocates from
    std::array<std::pair<int64_t, int64_t>, 4> asize_cache{};  // (psize, asize); psize 0 = empty
    size_t asize_next = 0;
  };

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
    const int64_t start = m << v.ms_shift;
    const int64_t end = start + v.ms_size;
    if (fill_ <= 0) {
      v.free.emplace(end, start);
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
      if (!used) hint = std::next(v.free.emplace_hint(hint, stop, pos));
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
BlockAllocator::~BlockAllocator() = default;
Dva BlockAllocator::Alloc(int64_t psize, const Dva* first_copy) { return space_->Alloc(psize, first_copy); }
void BlockAllocator::Free(const Dva& dva) { space_->Free(dva); }
void BlockAllocator::Claim(const Dva& dva) { space_->Claim(dva); }
int64_t BlockAllocator::free_bytes() const { return space_->free_bytes(); }

}  // namespace ziosim
