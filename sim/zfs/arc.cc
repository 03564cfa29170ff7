// The ARC and the dbuf cache as bookkeeping (reference section 6); the cache
// device's ring and feed clock are l2arc.h's.
//
// Headers live in a vector and are linked by index, found through an
// open-addressing index (arc_index.h; no allocation per access once both have grown); the
// lists are intrusive.
//   - MRU and MFU each have a data and a metadata list, as arc.c's multilists
//     per buffer type; eviction takes the older of the two tails (one LRU per
//     state), the L2ARC feed walks them in arc.c's order (MFU meta, MRU meta,
//     MFU data, MRU data). A block in the dbuf cache is referenced, so, as in
//     arc.c, it is on no list (not evictable, not fed) and returns to the
//     head of its list when the dbuf cache lets it go.
//   - The ghost lists remember evicted blocks (lsize counted); a header that
//     falls off a ghost list but has an L2 copy stays as an L2-only header.
//   - A header holds where its L2 copy is; the L2Arc's ring names the header
//     (index and generation) of each copy, so a copy the hand overwrites is
//     dropped from its header, and a header whose slot was reused is left alone.
#include "sim/zfs/arc.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "sim/zfs/arc_index.h"
#include "sim/zfs/l2arc.h"

namespace ziosim {
namespace {

constexpr uint32_t kNil = ArcIndex::kNone;
// arc.c ARC_MINTIME (hz >> 4, "62 ms"): a second demand access this soon after
// the first does not make a block frequently used.
constexpr SimTime kArcMinTime = 62 * kNsPerMs;
constexpr int kArcPMinShift = 4;                // arc_p_min_shift: p stays in [c/16, c - c/16]
constexpr int64_t kArcPMaxMult = 10;            // arc_adapt's dampener (zfs_arc_p_dampener_disable = 0)

enum class St : uint8_t { kFree, kMru, kMfu, kMruGhost, kMfuGhost, kL2Only };

struct Hdr {
  ArcKey key;
  int64_t lsize = 0, psize = 0;
  SimTime access = 0;      // b_arc_access
  uint64_t seq = 0;        // when it was last put at the head of its list
  int64_t l2_offset = 0, l2_asize = 0;
  uint32_t prev = kNil, next = kNil;    // ARC or ghost list
  uint32_t dprev = kNil, dnext = kNil;  // dbuf cache LRU
  uint32_t gen = 0;        // bumped when the slot is freed (stale L2 ring entries)
  St state = St::kFree;
  bool linked = false;     // on an ARC or ghost list
  bool metadata = false;
  bool prefetch = false;   // ARC_FLAG_PREFETCH: brought in by a prefetch, no demand use yet
  bool l2cache = false;    // ARC_FLAG_L2CACHE: may be written to the L2ARC
  bool on_l2 = false;
  bool dbuf_live = false;  // a decompressed copy exists (held by a read call or in the dbuf cache)
  bool in_dbuf = false;    // in the dbuf cache LRU
};

struct List {
  uint32_t head = kNil, tail = kNil;
  bool empty() const { return head == kNil; }
};

}  // namespace

class Arc::Impl {
 public:
  Impl(const Tunables& t, int64_t l2_capacity_bytes) : l2_(t, l2_capacity_bytes) {
    c_ = t.Int("zfs_arc_max");
    compressed_ = t.Bool("zfs_compressed_arc_enabled");
    const int64_t dbuf = t.Int("dbuf_cache_max_bytes");
    // 0: arc_max / 32 (dbuf_cache_shift = 5). An explicit value is used as
    // given, but never more than half the ARC: dbuf-cached blocks are pinned.
    dbuf_max_ = dbuf == 0 ? c_ / 32 : std::min(dbuf, c_ / 2);
    p_min_ = c_ >> kArcPMinShift;
    p_ = c_ / 2;
    stats_.mru_target_bytes = p_;
    // Headers: ARC + ghosts hold at most about 2 x arc_max, plus L2-only ones.
    const int64_t expect = std::min<int64_t>(1 << 20, (2 * c_ + l2_.capacity_bytes()) / (128 << 10) + 1024);
    index_.Reserve(static_cast<size_t>(expect));
    hdrs_.reserve(static_cast<size_t>(expect));
  }

  ArcLookupResult Lookup(const ArcKey& key, bool prefetch, SimTime now) {
    ArcLookupResult r;
    const uint32_t idx = Find(key);
    if (idx != kNil && InArc(hdrs_[idx].state)) {
      r.where = ArcLookupResult::Where::kArc;
      if (prefetch) {
        ++stats_.prefetch_lookup_hits;
        return r;
      }
      ++stats_.hits;
      Hdr& h = hdrs_[idx];
      if (!h.dbuf_live) {
        // A new arc_buf for the read call (arc_read hit): decompressed from the
        // compressed header unless the block is stored uncompressed.
        if (compressed_ && h.psize < h.lsize) {
          r.needs_decompress = true;
          ++stats_.decompressions;
        }
        h.dbuf_live = true;
        h.l2cache = true;  // a demand arc_read carries ARC_FLAG_L2CACHE
      }
      if (h.in_dbuf) DbufRemove(idx);  // held again: leaves the dbuf cache
      DemandAccess(idx, now);
      return r;
    }
    if (prefetch) {
      ++stats_.prefetch_lookup_misses;
    } else {
      ++stats_.misses;
    }
    if (l2_.present()) {
      if (idx != kNil && hdrs_[idx].on_l2 && !(prefetch && l2_.noprefetch())) {
        ++stats_.l2_hits;
        r.where = ArcLookupResult::Where::kL2;
        r.l2_offset = hdrs_[idx].l2_offset;
        r.l2_bytes = hdrs_[idx].l2_asize;
      } else {
        ++stats_.l2_misses;
      }
    }
    return r;
  }

  bool Contains(const ArcKey& key) const {
    const uint32_t idx = Find(key);
    return idx != kNil && InArc(hdrs_[idx].state);
  }

  void Insert(const ArcKey& key, int64_t lsize, int64_t psize, bool metadata, bool prefetch, SimTime now) {
    uint32_t idx = Find(key);
    if (idx != kNil && InArc(hdrs_[idx].state)) {
      // Already here (a demand read that waited on another read of the block).
      if (!prefetch) {
        Hdr& h = hdrs_[idx];
        h.l2cache = true;
        h.dbuf_live = true;
        if (h.in_dbuf) DbufRemove(idx);
        DemandAccess(idx, now);
      }
      return;
    }
    const int64_t stored = compressed_ ? psize : lsize;
    St next = St::kMru;
    if (idx != kNil) {
      const St was = hdrs_[idx].state;
      if (was == St::kMruGhost || was == St::kMfuGhost) Adapt(stored, was);
      if (was == St::kMruGhost) {
        ++stats_.mru_ghost_hits;
        next = prefetch ? St::kMru : St::kMfu;
      } else if (was == St::kMfuGhost) {
        ++stats_.mfu_ghost_hits;
        next = prefetch ? St::kMru : St::kMfu;
      } else {
        next = St::kMfu;  // arc_l2c_only -> arc_mfu (arc.c before 2.2)
      }
      // Off its ghost list first, so that making room cannot drop it.
      RemoveFromState(idx);
    }
    MakeRoom(stored);
    if (idx == kNil) {
      idx = Alloc();
      hdrs_[idx].key = key;
      index_.Insert(key, idx);
    }
    Hdr& h = hdrs_[idx];
    h.lsize = lsize;
    h.psize = psize;
    h.metadata = metadata;
    h.prefetch = prefetch;
    // arc_read_done clears ARC_FLAG_L2CACHE for a prefetch read with l2arc_noprefetch.
    h.l2cache = !(prefetch && l2_.noprefetch());
    h.access = now;
    h.dbuf_live = !prefetch;  // the demand reader's buffer; a prefetch stays compressed
    h.in_dbuf = false;
    AddToState(idx, next);
    if (stats_.size_bytes >= c_) warm_ = true;
    TrimGhosts();
  }

  void Release(const ArcKey& key, bool cacheable) {
    const uint32_t idx = Find(key);
    if (idx == kNil || !InArc(hdrs_[idx].state)) return;
    if (!cacheable) {
      // dbuf_destroy + arc_freed: data, header and any L2 copy go at once.
      Destroy(idx);
      ++stats_.dropped_on_release;
      return;
    }
    Hdr& h = hdrs_[idx];
    // A read call held it, so it had a demand use even if that read only
    // waited on a prefetch's I/O (arc_access then clears the prefetch flag;
    // the demand read carries ARC_FLAG_L2CACHE).
    h.prefetch = false;
    h.l2cache = true;
    if (h.in_dbuf) {
      UnlinkDbuf(idx);
      LinkDbufHead(idx);
      return;
    }
    h.dbuf_live = true;
    h.in_dbuf = true;
    if (h.linked) Unlink(idx);  // referenced: not evictable while the dbuf cache holds it
    LinkDbufHead(idx);
    stats_.dbuf_bytes += h.lsize;
    while (stats_.dbuf_bytes > dbuf_max_ && !dbuf_.empty()) {
      const uint32_t victim = dbuf_.tail;
      DbufRemove(victim);
      hdrs_[victim].dbuf_live = false;
    }
  }

  int64_t FeedL2(SimTime now) {
    if (!l2_.present()) return 0;
    ++stats_.l2_feeds;
    const int64_t target = l2_.StartFeed(now, warm_, [this](const L2Copy& c) { DropL2Copy(c); });
    if (target <= 0) return 0;
    const int64_t headroom = l2_.HeadroomBytes(target);
    int64_t written = 0;
    bool full = false;
    const List* order[4] = {&lists_[1][1], &lists_[0][1], &lists_[1][0], &lists_[0][0]};
    for (const List* list : order) {
      int64_t passed = 0;
      for (uint32_t i = list->tail; i != kNil; i = hdrs_[i].prev) {
        Hdr& h = hdrs_[i];
        passed += h.lsize;
        if (headroom != 0 && passed > headroom) break;  // searched too far
        if (h.on_l2 || !h.l2cache) continue;
        const int64_t asize = L2Arc::Asize(h.psize);
        if (written + asize > target) {
          full = true;
          break;
        }
        h.on_l2 = true;
        h.l2_offset = l2_.Place(written, asize, i, h.gen);
        h.l2_asize = asize;
        written += asize;
        stats_.l2_size_bytes += asize;
      }
      if (full) break;
    }
    l2_.FinishFeed(written);
    stats_.l2_written_bytes += written;
    return written;
  }

  SimTime NextL2FeedTime() const { return l2_.NextFeedTime(); }

  ArcState StateOf(const ArcKey& key) const {
    const uint32_t idx = Find(key);
    if (idx == kNil) return ArcState::kNone;
    switch (hdrs_[idx].state) {
      case St::kMru: return ArcState::kMru;
      case St::kMfu: return ArcState::kMfu;
      case St::kMruGhost: return ArcState::kMruGhost;
      case St::kMfuGhost: return ArcState::kMfuGhost;
      case St::kL2Only: return ArcState::kL2Only;
      case St::kFree: break;
    }
    return ArcState::kNone;
  }

  const ArcStats& stats() const { return stats_; }
  // Zeroes the event counters; the size fields describe the cache and stay.
  void ResetCounters() {
    ArcStats& s = stats_;
    s.hits = s.misses = s.l2_hits = s.l2_misses = s.prefetch_hits = 0;
    s.evictions = s.dropped_on_release = s.decompressions = 0;
    s.prefetch_lookup_hits = s.prefetch_lookup_misses = s.mru_ghost_hits = s.mfu_ghost_hits = 0;
    s.l2_feeds = s.l2_overwritten = 0;
    s.l2_written_bytes = 0;
  }

 private:
  static bool InArc(St s) { return s == St::kMru || s == St::kMfu; }
  static bool IsGhost(St s) { return s == St::kMruGhost || s == St::kMfuGhost; }

  uint32_t Find(const ArcKey& key) const {
    return index_.Find(key, [this](uint32_t i) -> const ArcKey& { return hdrs_[i].key; });
  }

  uint32_t Alloc() {
    uint32_t idx;
    if (!free_.empty()) {
      idx = free_.back();
      free_.pop_back();
      const uint32_t gen = hdrs_[idx].gen;
      hdrs_[idx] = Hdr{};
      hdrs_[idx].gen = gen;
    } else {
      idx = static_cast<uint32_t>(hdrs_.size());
      hdrs_.emplace_back();
    }
    return idx;
  }

  List& ListOf(const Hdr& h) {
    switch (h.state) {
      case St::kMru: return lists_[0][h.metadata ? 1 : 0];
      case St::kMfu: return lists_[1][h.metadata ? 1 : 0];
      case St::kMruGhost: return ghosts_[0];
      default: return ghosts_[1];
    }
  }

  void LinkHead(uint32_t idx) {
    Hdr& h = hdrs_[idx];
    List& l = ListOf(h);
    h.prev = kNil;
    h.next = l.head;
    if (l.head != kNil) hdrs_[l.head].prev = idx;
    l.head = idx;
    if (l.tail == kNil) l.tail = idx;
    h.seq = ++seq_;
    h.linked = true;
  }

  void Unlink(uint32_t idx) {
    Hdr& h = hdrs_[idx];
    List& l = ListOf(h);
    if (h.prev != kNil) hdrs_[h.prev].next = h.next; else l.head = h.next;
    if (h.next != kNil) hdrs_[h.next].prev = h.prev; else l.tail = h.prev;
    h.prev = h.next = kNil;
    h.linked = false;
  }

  void LinkDbufHead(uint32_t idx) {
    Hdr& h = hdrs_[idx];
    h.dprev = kNil;
    h.dnext = dbuf_.head;
    if (dbuf_.head != kNil) hdrs_[dbuf_.head].dprev = idx;
    dbuf_.head = idx;
    if (dbuf_.tail == kNil) dbuf_.tail = idx;
  }

  void UnlinkDbuf(uint32_t idx) {
    Hdr& h = hdrs_[idx];
    if (h.dprev != kNil) hdrs_[h.dprev].dnext = h.dnext; else dbuf_.head = h.dnext;
    if (h.dnext != kNil) hdrs_[h.dnext].dprev = h.dprev; else dbuf_.tail = h.dprev;
    h.dprev = h.dnext = kNil;
  }

  // The block leaves the dbuf cache (its decompressed copy stays only if a
  // reader holds it) and returns to the head of its ARC list.
  void DbufRemove(uint32_t idx) {
    Hdr& h = hdrs_[idx];
    UnlinkDbuf(idx);
    h.in_dbuf = false;
    stats_.dbuf_bytes -= h.lsize;
    if (InArc(h.state) && !h.linked) LinkHead(idx);
  }

  int64_t Stored(const Hdr& h) const { return compressed_ ? h.psize : h.lsize; }

  void AddToState(uint32_t idx, St s) {
    Hdr& h = hdrs_[idx];
    h.state = s;
    if (InArc(s)) {
      const int64_t b = Stored(h);
      (s == St::kMru ? stats_.mru_bytes : stats_.mfu_bytes) += b;
      (h.metadata ? stats_.metadata_bytes : stats_.data_bytes) += b;
      stats_.size_bytes += b;
      if (!h.in_dbuf) LinkHead(idx);
    } else if (IsGhost(s)) {
      (s == St::kMruGhost ? stats_.mru_ghost_bytes : stats_.mfu_ghost_bytes) += h.lsize;
      LinkHead(idx);
    }
  }

  // Takes the header out of its state (lists and sizes); the state is left for the caller to set.
  void RemoveFromState(uint32_t idx) {
    Hdr& h = hdrs_[idx];
    if (h.linked) Unlink(idx);
    if (InArc(h.state)) {
      const int64_t b = Stored(h);
      (h.state == St::kMru ? stats_.mru_bytes : stats_.mfu_bytes) -= b;
      (h.metadata ? stats_.metadata_bytes : stats_.data_bytes) -= b;
      stats_.size_bytes -= b;
    } else if (IsGhost(h.state)) {
      (h.state == St::kMruGhost ? stats_.mru_ghost_bytes : stats_.mfu_ghost_bytes) -= h.lsize;
    }
    h.state = St::kFree;
  }

  void ChangeState(uint32_t idx, St s) {
    RemoveFromState(idx);
    AddToState(idx, s);
  }

  // arc_access for a demand use of a block in MRU or MFU.
  void DemandAccess(uint32_t idx, SimTime now) {
    Hdr& h = hdrs_[idx];
    if (h.prefetch) {
      // First demand use of a prefetched block: clear the flag, stay put.
      h.prefetch = false;
      ++stats_.prefetch_hits;
      h.access = now;
      MoveToHead(idx);
      return;
    }
    if (h.state == St::kMru) {
      if (now > h.access + kArcMinTime) {
        h.access = now;
        ChangeState(idx, St::kMfu);
      } else {
        MoveToHead(idx);
      }
      return;
    }
    h.access = now;
    MoveToHead(idx);
  }

  void MoveToHead(uint32_t idx) {
    if (!hdrs_[idx].linked) return;
    Unlink(idx);
    LinkHead(idx);
  }

  // arc_adapt: a ghost hit of `bytes` in `ghost` moves p towards that side.
  void Adapt(int64_t bytes, St ghost) {
    const int64_t mrug = stats_.mru_ghost_bytes, mfug = stats_.mfu_ghost_bytes;
    if (ghost == St::kMruGhost) {
      int64_t mult = (mrug >= mfug || mrug == 0) ? 1 : mfug / mrug;
      mult = std::min(mult, kArcPMaxMult);
      p_ = std::min(c_ - p_min_, p_ + bytes * mult);
    } else {
      int64_t mult = (mfug >= mrug || mfug == 0) ? 1 : mrug / mfug;
      mult = std::min(mult, kArcPMaxMult);
      const int64_t delta = std::min(bytes * mult, p_);
      p_ = std::max(p_min_, p_ - delta);
    }
    stats_.mru_target_bytes = p_;
  }

  // The older of a state's two list tails (data, metadata), or kNil.
  uint32_t Victim(int s) const {
    const uint32_t d = lists_[s][0].tail, m = lists_[s][1].tail;
    if (d == kNil) return m;
    if (m == kNil) return d;
    return hdrs_[d].seq <= hdrs_[m].seq ? d : m;
  }

  // arc_evict: until `need` more bytes fit under arc_max, evict from the MRU
  // tail while MRU is above p, else from the MFU tail, else from MRU anyway.
  void MakeRoom(int64_t need) {
    if (stats_.size_bytes + need > c_) warm_ = true;
    while (stats_.size_bytes + need > c_) {
      const uint32_t mru = Victim(0), mfu = Victim(1);
      uint32_t v;
      if (mru != kNil && (stats_.mru_bytes > p_ || mfu == kNil)) {
        v = mru;
      } else if (mfu != kNil) {
        v = mfu;
      } else {
        break;  // everything left is held by the dbuf cache
      }
      Hdr& h = hdrs_[v];
      const St ghost = h.state == St::kMru ? St::kMruGhost : St::kMfuGhost;
      RemoveFromState(v);
      h.dbuf_live = false;
      h.prefetch = false;
      AddToState(v, ghost);
      ++stats_.evictions;
    }
    TrimGhosts();
  }

  // MRU + MRU ghost <= c, MRU ghost + MFU ghost <= c (arc_evict's ghost targets).
  void TrimGhosts() {
    while (stats_.mru_bytes + stats_.mru_ghost_bytes > c_ && !ghosts_[0].empty()) DropGhost(ghosts_[0].tail);
    while (stats_.mru_ghost_bytes + stats_.mfu_ghost_bytes > c_ && !ghosts_[1].empty())
      DropGhost(ghosts_[1].tail);
  }

  void DropGhost(uint32_t idx) {
    RemoveFromState(idx);
    if (hdrs_[idx].on_l2) {
      hdrs_[idx].state = St::kL2Only;
    } else {
      Free(idx);
    }
  }

  void Destroy(uint32_t idx) {
    Hdr& h = hdrs_[idx];
    if (h.in_dbuf) {
      UnlinkDbuf(idx);
      h.in_dbuf = false;
      stats_.dbuf_bytes -= h.lsize;
    }
    RemoveFromState(idx);
    if (h.on_l2) {
      h.on_l2 = false;
      stats_.l2_size_bytes -= h.l2_asize;
    }
    Free(idx);
  }

  void Free(uint32_t idx) {
    Hdr& h = hdrs_[idx];
    index_.Erase(h.key, idx);
    h.state = St::kFree;
    ++h.gen;
    free_.push_back(idx);
  }

  // The hand overwrote copy `c`: its header, unless gone or reused, no longer has it.
  void DropL2Copy(const L2Copy& c) {
    Hdr& h = hdrs_[c.idx];
    if (h.gen != c.gen || !h.on_l2 || h.l2_offset != c.offset) return;  // already gone
    h.on_l2 = false;
    stats_.l2_size_bytes -= h.l2_asize;
    ++stats_.l2_overwritten;
    if (h.state == St::kL2Only) Free(c.idx);
  }

  // Tunables.
  int64_t c_ = 0, dbuf_max_ = 0;
  bool compressed_ = true;

  int64_t p_ = 0, p_min_ = 0;
  bool warm_ = false;  // arc_warm: the ARC has been full
  uint64_t seq_ = 0;

  std::vector<Hdr> hdrs_;
  std::vector<uint32_t> free_;
  ArcIndex index_;
  List lists_[2][2];  // [MRU, MFU][data, metadata]
  List ghosts_[2];    // MRU ghost, MFU ghost
  List dbuf_;         // head: most recently released

  L2Arc l2_;
  ArcStats stats_;
};

Arc::Arc(const Tunables& tunables, int64_t l2_capacity_bytes)
    : impl_(std::make_unique<Impl>(tunables, l2_capacity_bytes)) {}
Arc::~Arc() = default;

ArcLookupResult Arc::Lookup(const ArcKey& key, bool prefetch, SimTime now) {
  return impl_->Lookup(key, prefetch, now);
}
bool Arc::Contains(const ArcKey& key) const { return impl_->Contains(key); }
void Arc::Insert(const ArcKey& key, int64_t lsize, int64_t psize, bool metadata, bool prefetch, SimTime now) {
  impl_->Insert(key, lsize, psize, metadata, prefetch, now);
}
void Arc::Release(const ArcKey& key, bool cacheable) { impl_->Release(key, cacheable); }
int64_t Arc::FeedL2(SimTime now) { return impl_->FeedL2(now); }
SimTime Arc::NextL2FeedTime() const { return impl_->NextL2FeedTime(); }
const ArcStats& Arc::stats() const { return impl_->stats(); }
void Arc::ResetCounters() { impl_->ResetCounters(); }
ArcState Arc::StateOf(const ArcKey& key) const { return impl_->StateOf(key); }

}  // namespace ziosim
