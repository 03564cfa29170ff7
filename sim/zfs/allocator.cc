// The allocation model of allocator.h (reference section 4, recipe 4.5).
//
// Modelling choices where the reference is silent (also in the report of the
// change that added this file):
//  * Write rate: the writers together produce kWriteRateBytesPerSec (200 MB/s)
//    of logical data, so a txg holds 200 MB x zfs_txg_timeout (1 GB at 5 s).
//    The early sync at zfs_dirty_data_sync is not modelled. With writers:N the
//    txg is shared equally by the writers that have a file at the start of the
//    txg (N at most; fewer when fewer files remain): the pre-2017 model, where
//    dnodes are synced one after another and each file's txg-worth of blocks
//    forms one run, runs in dnode (file index) order. The post-2017 parallel
//    sync and the 2018+ allocators (one metaslab per allocator) are not modelled.
//  * A writer that finishes a file mid-txg continues with the next file in the
//    same txg; a file is written by one writer, front to back.
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
//  * psize: ceil(logical / compression_ratio) rounded up to the sector; a block
//    that would not save 1/8 is stored uncompressed (zio_compress_data). The
//    last block of a multi-block file is a whole record: uncompressed when the
//    ratio is 1 (compression off), else its data compressed (the zero tail is
//    free). A file no larger than recordsize has one block of its size rounded
//    up to 512 bytes (dnode_set_blksz).
//  * L1 indirect blocks: 2^(ibs-7) pointers; psize 4 KiB at ibs 17 (a 128 KiB
//    block of block pointers compresses to a few KiB), the sector at ibs < 17;
//    two DVAs. A file of one block has no L1 (its pointer is in the dnode).
//    Each txg writes every L1 that covers dirty blocks of the file right after
//    the last of them (an L1 is allocated once its children are ready), so the
//    L1s lie between the data, one per span of 2^(ibs-7) records, as zdb shows
//    on a real pool; the copy of an earlier txg is freed kTxgDefer txgs later. L2+
//    indirect blocks, dnode blocks and the objset/MOS are not allocated.
//  * fragmented:PCT: each metaslab holds old data in alternating used/free runs;
//    free runs are log-uniform in [64 KiB, 4 MiB], used runs are drawn the same
//    way and scaled by PCT/(100-PCT), so PCT % is used on average; runs are
//    whole allocation quanta (the sector; sector x (parity+1) on RAID-Z, the
//    smallest unit a RAID-Z block occupies). The pattern of each metaslab is
//    drawn from its own random stream when a cursor first reaches it.
//  * shuffle:K: the blocks of each file's run in a txg are allocated in a
//    random order within consecutive windows of K blocks (fixed windows from the
//    start of the run).
//  * sendrecv: one stream, files in order (data as sequential); each file's L1s
//    are written once, after all its data, instead of per txg (a simplification:
//    a real receive also writes its indirect blocks per txg).
#include "sim/zfs/allocator.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <deque>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#include "sim/core/random.h"
#include "sim/core/status.h"
#include "sim/core/text.h"

namespace ziosim {
namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = 1024 * kKiB;
// Logical bytes per second all writers together produce (sets the txg size).
constexpr int64_t kWriteRateBytesPerSec = 200'000'000;
// L1 psize at ibs 17 (128 KiB of block pointers, compressed).
constexpr int64_t kL1PsizeLarge = 4 * kKiB;
// Free-space runs of a fragmented pool.
constexpr double kFragRunMin = 64.0 * kKiB;
constexpr double kFragRunMax = 4.0 * kMiB;
// Frees are deferred TXG_DEFER_SIZE txgs.
constexpr int64_t kTxgDefer = 2;
// Object number of the first file (objects 0 and 1 are the meta-dnode and the master node).
constexpr uint64_t kFirstObject = 2;

constexpr char kPresetForms[] =
    "sequential, writers:N (N >= 2), shuffle:K (K >= 2), fragmented:PCT (0-95), sendrecv";

[[noreturn]] void BadPreset(std::string_view text, const std::string& why) {
  throw InputError("layout preset '" + std::string(text) + "': " + why + "; valid forms are " + kPresetForms);
}

int64_t RoundUp(int64_t x, int64_t q) { return (x + q - 1) / q * q; }

// Free space of every top-level vdev and the rotor (metaslab.c, reference 4.2-4.3).
class PoolSpace {
 public:
  PoolSpace(const Pool& pool, double fill, uint64_t seed) : pool_(pool), fill_(fill), seed_(seed) {
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
    int64_t ms_size = 0;
    int64_t ms_count = 0;
    int64_t usable = 0;
    int64_t aliquot = 0;
    int64_t bias = 0;
    int64_t quantum = 0;
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

// One file being written.
struct FileWork {
  size_t index = 0;
  int64_t bs = 0;
  int64_t nblocks = 0;
  int64_t psize_full = 0;
  int64_t psize_last = 0;
  int64_t next = 0;  // next blkid to be written
  ExtentBuilder l0{0};
  std::vector<Dva> l1a, l1b;  // the latest copy of each L1 (both DVAs)
};

int64_t CompressedPsize(int64_t lsize, int64_t data_bytes, double ratio, int64_t sector) {
  if (ratio <= 1.0) return RoundUp(lsize, sector);
  const int64_t c = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(static_cast<double>(data_bytes) / ratio)));
  if (c > lsize - lsize / 8) return RoundUp(lsize, sector);  // saves less than 1/8: stored uncompressed
  return std::min(RoundUp(c, sector), RoundUp(lsize, sector));
}

void CheckFile(const FileSpec& f, size_t i) {
  const std::string where = "file " + std::to_string(i) + ": ";
  if (f.size_bytes < 0) throw InputError(where + "size " + std::to_string(f.size_bytes) + " is negative");
  if (f.recordsize < 512 || f.recordsize > kMaxBlockBytes || !std::has_single_bit(static_cast<uint64_t>(f.recordsize))) {
    throw InputError(where + "recordsize " + std::to_string(f.recordsize) +
                     " is not a power of two from 512 to 16M");
  }
  if (!(f.compression_ratio >= 1.0) || !std::isfinite(f.compression_ratio)) {
    throw InputError(where + "compression ratio " + std::to_string(f.compression_ratio) + " must be >= 1");
  }
}

}  // namespace

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

LayoutPreset ParseLayoutPreset(std::string_view text) {
  LayoutPreset p;
  if (text == "sequential") {
    p.kind = LayoutPreset::Kind::kSequential;
    p.text = "sequential";
    return p;
  }
  if (text == "sendrecv") {
    p.kind = LayoutPreset::Kind::kSendRecv;
    p.text = "sendrecv";
    return p;
  }
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) BadPreset(text, "unknown preset");
  const std::string_view name = text.substr(0, colon);
  const std::string_view arg = text.substr(colon + 1);
  int64_t lo = 0;
  int64_t hi = 0;
  if (name == "writers") {
    p.kind = LayoutPreset::Kind::kWriters;
    lo = 2;
    hi = 4096;
  } else if (name == "shuffle") {
    p.kind = LayoutPreset::Kind::kShuffle;
    lo = 2;
    hi = 1 << 20;
  } else if (name == "fragmented") {
    p.kind = LayoutPreset::Kind::kFragmented;
    lo = 0;
    hi = 95;
  } else {
    BadPreset(text, "unknown preset '" + std::string(name) + "'");
  }
  int64_t v = 0;
  if (!ParseInt64(arg, &v)) BadPreset(text, "'" + std::string(arg) + "' is not a whole number");
  if (v < lo || v > hi) {
    BadPreset(text, std::string(name) + " must be " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  p.param = static_cast<int>(v);
  p.text = std::string(name) + ":" + std::to_string(v);
  return p;
}

std::vector<FileLayout> AllocateFiles(const Pool& pool, const std::vector<FileSpec>& files,
                                      const LayoutPreset& preset, uint64_t seed) {
  using Kind = LayoutPreset::Kind;
  for (size_t i = 0; i < files.size(); ++i) CheckFile(files[i], i);
  if (pool.top_count() <= 0) throw InputError("the pool has no top-level vdev");
  if (preset.kind == Kind::kFragmented && (preset.param < 0 || preset.param > 95)) {
    BadPreset(preset.text, "fragmented must be 0..95");
  }
  const Tunables& tun = pool.tunables();
  const int64_t sector = int64_t{1} << pool.ashift();
  const int ibs = static_cast<int>(tun.Int("zfs_default_ibs"));
  const int ptrs = 1 << (ibs - 7);
  const int64_t l1_psize = std::min(int64_t{1} << ibs, RoundUp(ibs >= 17 ? kL1PsizeLarge : sector, sector));
  const int64_t txg_bytes = kWriteRateBytesPerSec * tun.Int("zfs_txg_timeout");
  const double fill = preset.kind == Kind::kFragmented ? preset.param / 100.0 : 0.0;
  const bool sendrecv = preset.kind == Kind::kSendRecv;
  const int window = preset.kind == Kind::kShuffle ? std::max(2, preset.param) : 1;
  const int nwriters = preset.kind == Kind::kWriters ? std::max(1, preset.param) : 1;

  PoolSpace space(pool, fill, seed);
  std::vector<FileLayout> out;
  out.reserve(files.size());
  std::vector<FileWork> work(files.size());
  // Lower bound of the space the files need: each block on its cheapest vdev.
  auto min_asize = [&](int64_t psize) {
    int64_t m = INT64_MAX;
    for (int t = 0; t < pool.top_count(); ++t) m = std::min(m, pool.BlockAsize(t, psize));
    return m;
  };
  int64_t need = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const FileSpec& f = files[i];
    FileWork& w = work[i];
    w.index = i;
    w.bs = f.size_bytes > f.recordsize ? f.recordsize : RoundUp(std::max<int64_t>(f.size_bytes, 1), 512);
    out.emplace_back(kFirstObject + i, f.size_bytes, w.bs, ptrs);
    w.nblocks = out.back().blocks();
    if (f.sparse || w.nblocks == 0) continue;
    const int64_t tail = f.size_bytes - (w.nblocks - 1) * w.bs;
    w.psize_full = CompressedPsize(w.bs, w.bs, f.compression_ratio, sector);
    w.psize_last = CompressedPsize(w.bs, tail, f.compression_ratio, sector);
    if (w.nblocks > 1) {
      w.l1a.assign(static_cast<size_t>(out.back().indirect_blocks()), Dva{});
      w.l1b = w.l1a;
    }
    need += (w.nblocks - 1) * min_asize(w.psize_full) + min_asize(w.psize_last) +
            static_cast<int64_t>(w.l1a.size()) * 2 * min_asize(l1_psize);
  }
  if (need > space.free_bytes()) {
    throw InputError("the files do not fit in the pool: they need at least " + std::to_string(need) +
                     " bytes of allocated space and the pool has " + std::to_string(space.free_bytes()) +
                     " bytes free" + (fill > 0 ? " (" + std::to_string(preset.param) + " % taken by old data)" : ""));
  }

  RandomStream shuffle_rng(seed, "layout-shuffle");
  std::deque<std::pair<int64_t, Dva>> frees;  // (due txg, block)
  auto write_l1 = [&](FileWork& w, int64_t j, int64_t txg) {
    const size_t k = static_cast<size_t>(j);
    if (w.l1a[k].top >= 0) {
      frees.emplace_back(txg + kTxgDefer, w.l1a[k]);
      frees.emplace_back(txg + kTxgDefer, w.l1b[k]);
    }
    w.l1a[k] = space.Alloc(l1_psize, nullptr);
    w.l1b[k] = space.Alloc(l1_psize, &w.l1a[k]);
  };
  std::vector<int64_t> order;
  std::vector<Dva> placed;
  auto write_run = [&](FileWork& w, int64_t lo, int64_t hi, int64_t txg) {
    FileLayout& fl = out[w.index];
    int64_t next_l1 = lo / ptrs;  // the next L1 of this run to be written
    for (int64_t start = lo; start < hi; start += window) {
      const int64_t end = std::min(hi, start + window);
      order.clear();
      for (int64_t b = start; b < end; ++b) order.push_back(b);
      for (size_t i = order.size(); i > 1; --i) {  // Fisher-Yates; no-op for windows of 1
        std::swap(order[i - 1], order[static_cast<size_t>(shuffle_rng.UniformInt(0, static_cast<int64_t>(i) - 1))]);
      }
      placed.assign(order.size(), Dva{});
      for (int64_t b : order) {
        const int64_t psize = b == w.nblocks - 1 ? w.psize_last : w.psize_full;
        placed[static_cast<size_t>(b - start)] = space.Alloc(psize, nullptr);
      }
      for (int64_t b = start; b < end; ++b) {
        const Dva& d = placed[static_cast<size_t>(b - start)];
        const int64_t psize = b == w.nblocks - 1 ? w.psize_last : w.psize_full;
        w.l0.Add(fl, b, ToBlockPointer(d, nullptr, psize), d.asize, 0);
      }
      // An L1's write is allocated once its dirty children of this txg are
      // (the parent zio's DVA_ALLOCATE waits for its children to be ready), so
      // it lands right behind the last of them, while the next L1's children
      // are still being written: between the data, one per L1 span.
      while (!sendrecv && !w.l1a.empty() && next_l1 <= (hi - 1) / ptrs && std::min(hi, (next_l1 + 1) * ptrs) <= end) {
        write_l1(w, next_l1++, txg);
      }
    }
    if (w.l1a.empty()) return;
    if (sendrecv && hi == w.nblocks) {
      for (int64_t j = 0; j < static_cast<int64_t>(w.l1a.size()); ++j) write_l1(w, j, txg);
    }
  };

  // The writers: each takes the next unwritten file when it has none.
  std::deque<size_t> queue;
  for (size_t i = 0; i < files.size(); ++i) {
    if (!files[i].sparse && work[i].nblocks > 0) queue.push_back(i);
  }
  std::vector<int64_t> active(static_cast<size_t>(nwriters), -1);
  std::vector<int64_t> credit(static_cast<size_t>(nwriters), 0);
  struct Run {
    size_t file;
    int64_t lo, hi;
  };
  std::vector<Run> runs;
  for (int64_t txg = 0;; ++txg) {
    int64_t busy = 0;
    for (size_t w = 0; w < active.size(); ++w) {
      if (active[w] < 0 && !queue.empty()) {
        active[w] = static_cast<int64_t>(queue.front());
        queue.pop_front();
      }
      if (active[w] >= 0) ++busy;
    }
    if (busy == 0) break;
    while (!frees.empty() && frees.front().first <= txg) {
      space.Free(frees.front().second);
      frees.pop_front();
    }
    const int64_t share = std::max<int64_t>(1, txg_bytes / busy);
    runs.clear();
    for (size_t w = 0; w < active.size(); ++w) {
      if (active[w] < 0) continue;
      credit[w] += share;
      while (active[w] >= 0) {
        FileWork& f = work[static_cast<size_t>(active[w])];
        const int64_t take = std::min(credit[w] / f.bs, f.nblocks - f.next);
        if (take <= 0) break;
        runs.push_back(Run{f.index, f.next, f.next + take});
        f.next += take;
        credit[w] -= take * f.bs;
        if (f.next == f.nblocks) {
          if (queue.empty()) {
            active[w] = -1;
            credit[w] = 0;
          } else {
            active[w] = static_cast<int64_t>(queue.front());
            queue.pop_front();
          }
        }
      }
    }
    // Dirty dnodes are synced in object order.
    std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.file < b.file; });
    for (const Run& r : runs) write_run(work[r.file], r.lo, r.hi, txg);
  }

  for (size_t i = 0; i < files.size(); ++i) {
    FileWork& w = work[i];
    FileLayout& fl = out[i];
    w.l0.Finish(fl, w.nblocks);
    if (w.l1a.empty()) continue;  // no indirect block: extents(1) stays empty
    ExtentBuilder l1(1);
    for (size_t j = 0; j < w.l1a.size(); ++j) {
      if (w.l1a[j].top < 0) continue;
      l1.Add(fl, static_cast<int64_t>(j), ToBlockPointer(w.l1a[j], &w.l1b[j], l1_psize), w.l1a[j].asize, w.l1b[j].asize);
    }
    l1.Finish(fl, fl.indirect_blocks());
  }
  return out;
}

struct BlockAllocator::Impl {
  explicit Impl(const Pool& pool) : space(pool, 0.0, 0) {}
  PoolSpace space;
};

BlockAllocator::BlockAllocator(const Pool& pool) : impl_(std::make_unique<Impl>(pool)) {}
BlockAllocator::~BlockAllocator() = default;
Dva BlockAllocator::Alloc(int64_t psize, const Dva* first_copy) { return impl_->space.Alloc(psize, first_copy); }
void BlockAllocator::Free(const Dva& dva) { impl_->space.Free(dva); }
void BlockAllocator::Claim(const Dva& dva) { impl_->space.Claim(dva); }
int64_t BlockAllocator::free_bytes() const { return impl_->space.free_bytes(); }

FileLayout BuildFileLayout(const Pool& pool, uint64_t object, int64_t size_bytes, int64_t block_bytes,
                           int ptrs_per_indirect, const std::vector<BlockPointer>& l0,
                           const std::vector<BlockPointer>& l1) {
  FileLayout fl(object, size_bytes, block_bytes, ptrs_per_indirect);
  auto add_level = [&](int level, const std::vector<BlockPointer>& bps, int64_t count) {
    ExtentBuilder b(level);
    for (int64_t i = 0; i < count; ++i) {
      const BlockPointer& bp = bps[static_cast<size_t>(i)];
      if (bp.hole) {
        b.AddHoles(fl, i, i + 1);
        continue;
      }
      const int64_t stride = pool.BlockAsize(bp.top, bp.psize);
      const int64_t stride2 = bp.top2 >= 0 ? pool.BlockAsize(bp.top2, bp.psize) : 0;
      b.Add(fl, i, bp, stride, stride2);
    }
    b.Finish(fl, count);
  };
  add_level(0, l0, fl.blocks());
  if (!l1.empty()) add_level(1, l1, fl.indirect_blocks());
  return fl;
}

}  // namespace ziosim
