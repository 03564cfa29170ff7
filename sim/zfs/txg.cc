#include "sim/zfs/txg.h"

#include <algorithm>
#include <stdexcept>

#include "sim/core/bytes.h"
#include "sim/core/invariants.h"

namespace ziosim {
namespace {

// Frees wait TXG_DEFER_SIZE txgs before the space can be allocated again.
constexpr uint64_t kTxgDefer = 2;
// Live txgs are open, quiescing and syncing: TXG_SIZE = 4 slots (TXG_MASK 3).
constexpr uint64_t kTxgSlots = 4;
// L1 psize at ibs 17, as allocator.cc (128 KiB of block pointers compresses to a few KiB).
constexpr int64_t kL1PsizeLarge = 4 << 10;
// Label geometry (vdev_impl.h): 256 KiB labels, the uberblock ring in their
// upper 128 KiB, one slot of max(2^ashift, 1 KiB) per txg (UBERBLOCK_SHIFT 10,
// MAX_UBERBLOCK_SHIFT 13), round robin.
constexpr int64_t kLabelBytes = 256 << 10;
constexpr int64_t kUberRingOffset = 128 << 10;
constexpr int kLabels = 4;

// Zio tags: the kind in the top bits, an index below.
constexpr int kTagShift = 60;
enum TagKind : uint64_t { kData = 1, kIndirect = 2, kUberblock = 3 };
uint64_t Tag(TagKind k, uint64_t i) { return (static_cast<uint64_t>(k) << kTagShift) | i; }

BlockPointer ToPointer(const Dva& d, int64_t psize) {
  BlockPointer bp;
  bp.hole = false;
  bp.top = d.top;
  bp.offset = d.offset;
  bp.psize = psize;
  return bp;
}

BlockPointer IndirectPointer(const TxgFile& f, size_t j) {
  const auto& [a, b] = f.l1[j];
  if (a.top < 0) return BlockPointer{};
  BlockPointer bp = ToPointer(a, f.l1_psize);
  bp.top2 = b.top;
  bp.offset2 = b.offset;
  return bp;
}

}  // namespace

FileLayout TxgFile::Layout(const Pool& pool) const {
  std::vector<BlockPointer> l1bp(l1.size());
  for (size_t j = 0; j < l1.size(); ++j) l1bp[j] = IndirectPointer(*this, j);
  return BuildFileLayout(pool, object, size_bytes, block_bytes, ptrs_per_indirect, l0, l1bp);
}

TxgFile MakeTxgFile(const Pool& pool, const FileLayout& layout) {
  TxgFile f;
  f.object = layout.object();
  f.size_bytes = layout.size_bytes();
  f.block_bytes = layout.block_bytes();
  f.ptrs_per_indirect = layout.ptrs_per_indirect();
  const int64_t n = layout.blocks();
  f.l0.resize(static_cast<size_t>(n));
  f.l0_dva.resize(static_cast<size_t>(n));
  f.dirty_txg.assign(static_cast<size_t>(n), 0);
  for (int64_t i = 0; i < n; ++i) {
    const BlockPointer bp = layout.Locate(0, i);
    f.l0[static_cast<size_t>(i)] = bp;
    if (!bp.hole) f.l0_dva[static_cast<size_t>(i)] = Dva{bp.top, bp.offset, pool.BlockAsize(bp.top, bp.psize)};
  }
  if (n > 1) {
    f.l1.resize(static_cast<size_t>(layout.indirect_blocks()));
    if (!layout.extents(1).empty()) {
      for (int64_t j = 0; j < layout.indirect_blocks(); ++j) {
        const BlockPointer bp = layout.Locate(1, j);
        if (bp.hole) continue;
        auto& [a, b] = f.l1[static_cast<size_t>(j)];
        a = Dva{bp.top, bp.offset, pool.BlockAsize(bp.top, bp.psize)};
        if (bp.top2 >= 0) b = Dva{bp.top2, bp.offset2, pool.BlockAsize(bp.top2, bp.psize)};
      }
    }
  }
  return f;
}

Txg::Txg(Pool* pool, std::vector<TxgFile>* files) : Txg(pool, files, PoolState{}, 0) {}

Txg::Txg(Pool* pool, std::vector<TxgFile>* files, const PoolState& state, uint64_t seed)
    : pool_(pool),
      files_(files),
      throttle_(pool->tunables()),
      allocator_(*pool, state, seed),
      timeout_ns_(pool->tunables().Int("zfs_txg_timeout") * kNsPerSec),
      sector_(int64_t{1} << pool->ashift()),
      records_(kTxgSlots),
      txg_dirty_(kTxgSlots, 0) {
  const int ibs = static_cast<int>(pool->tunables().Int("zfs_default_ibs"));
  const int64_t l1_psize = std::min(int64_t{1} << ibs, RoundUp(ibs >= 17 ? kL1PsizeLarge : sector_, sector_));
  for (TxgFile& f : *files_) {
    f.l1_psize = l1_psize;
    for (const Dva& d : f.l0_dva) {  // blocks already on disk keep their space
      if (d.top >= 0) allocator_.Claim(d);
    }
    for (const auto& [a, b] : f.l1) {
      if (a.top >= 0) allocator_.Claim(a);
      if (b.top >= 0) allocator_.Claim(b);
    }
    if (static_cast<int64_t>(f.l1.size()) != (f.blocks() > 1 ? (f.blocks() + f.ptrs_per_indirect - 1) / f.ptrs_per_indirect : 0)) {
      throw std::invalid_argument("Txg: a file's indirect blocks do not match its size");
    }
  }
}

Txg::~Txg() = default;

BlockPointer Txg::Locate(int file, int level, int64_t blkid) const {
  const TxgFile& f = File(file);
  if (level == 0) return f.l0[static_cast<size_t>(blkid)];
  return f.l1.empty() ? BlockPointer{} : IndirectPointer(f, static_cast<size_t>(blkid));
}

bool Txg::Dirty(int file, int64_t blkid, int64_t bytes) {
  TxgFile& f = (*files_)[static_cast<size_t>(file)];
  uint64_t& last = f.dirty_txg[static_cast<size_t>(blkid)];
  if (last == open_txg_) return false;
  last = open_txg_;
  const uint64_t slot = open_txg_ % kTxgSlots;
  records_[slot].push_back(Record{file, blkid});
  txg_dirty_[slot] += bytes;
  dirty_bytes_ += bytes;
  stats_.dirtied_bytes += bytes;
  stats_.max_dirty_bytes = std::max(stats_.max_dirty_bytes, dirty_bytes_);
  pool_->set_dirty_bytes(dirty_bytes_);
  if (txg_dirty_[slot] > throttle_.sync_bytes()) Kick();  // dsl_pool_dirty_space -> txg_kick
  ArmTimer();
  return true;
}

// txg_sync_thread: without a kick, the next sync starts zfs_txg_timeout after the last one started.
void Txg::ArmTimer() {
  if (timer_armed_ || syncing_ != 0) return;
  timer_armed_ = true;
  const SimTime at = std::max(pool_->sim()->now(), last_sync_start_ns_ + timeout_ns_);
  pool_->sim()->Schedule(at, this, kTimer, ++timer_gen_);
}

void Txg::OnEvent(uint32_t kind, uint64_t arg) {
  if (kind != kTimer || arg != timer_gen_ || !timer_armed_) return;  // a timer replaced by a later one
  timer_armed_ = false;
  Kick();
}

// txg_kick: the open txg is closed (quiesced) unless one is quiesced already.
void Txg::Kick() {
  if (quiesced_ == 0 && txg_dirty_[open_txg_ % kTxgSlots] > 0) {
    quiesced_ = open_txg_++;
    records_[open_txg_ % kTxgSlots].clear();
    txg_dirty_[open_txg_ % kTxgSlots] = 0;
  }
  StartNext();
}

void Txg::StartNext() {
  if (syncing_ != 0 || quiesced_ == 0) return;
  const uint64_t txg = quiesced_;
  quiesced_ = 0;
  StartSync(txg);
}

void Txg::WaitSynced(uint64_t txg, TxgWaiter* waiter, uint64_t tag) {
  // 0: the open txg, or the last closed one when the open one holds nothing.
  if (txg == 0) txg = txg_dirty_[open_txg_ % kTxgSlots] > 0 ? open_txg_ : open_txg_ - 1;
  if (txg <= synced_txg_) {
    waiter->OnTxgEvent(tag);
    return;
  }
  sync_waiters_.push_back({txg, {waiter, tag}});
  if (txg >= open_txg_) Kick();
}

void Txg::WaitDirtySpace(TxgWaiter* waiter, uint64_t tag) {
  if (!throttle_.Full(dirty_bytes_)) {
    waiter->OnTxgEvent(tag);
    return;
  }
  space_waiters_.push_back({waiter, tag});
}

void Txg::DeferFree(const Dva& d) {
  if (d.top >= 0) frees_.emplace_back(syncing_ + kTxgDefer, d);
}

void Txg::StartSync(uint64_t txg) {
  syncing_ = txg;
  timer_armed_ = false;  // a pending timer is void: the next one runs from this start
  ++timer_gen_;
  sync_start_ns_ = pool_->sim()->now();
  last_sync_start_ns_ = sync_start_ns_;
  while (!frees_.empty() && frees_.front().first <= txg) {
    allocator_.Free(frees_.front().second);
    frees_.pop_front();
  }
  std::vector<Record>& recs = records_[txg % kTxgSlots];
  sync_list_.assign(recs.begin(), recs.end());
  recs.clear();
  // Dirty dnodes in object order, each one's records in blkid order (dbuf_sync_list).
  std::sort(sync_list_.begin(), sync_list_.end(),
            [](const Record& a, const Record& b) { return a.file != b.file ? a.file < b.file : a.blkid < b.blkid; });
  uberblock_phase_ = false;
  pending_writes_ = 1;  // held until every write is issued: a write may complete at once
  size_t file_begin = 0;  // first record of the current file
  for (size_t i = 0; i < sync_list_.size(); ++i) {
    const Record& r = sync_list_[i];
    if (i > 0 && sync_list_[i - 1].file != r.file) file_begin = i;
    TxgFile& f = (*files_)[static_cast<size_t>(r.file)];
    // Compression is not modelled: psize is the record rounded up to the sector.
    const int64_t psize = RoundUp(f.block_bytes, sector_);
    const Dva d = allocator_.Alloc(psize);
    DeferFree(f.l0_dva[static_cast<size_t>(r.blkid)]);
    f.l0_dva[static_cast<size_t>(r.blkid)] = d;
    f.l0[static_cast<size_t>(r.blkid)] = ToPointer(d, psize);
    ++stats_.data_blocks;
    stats_.data_psize_bytes += psize;
    stats_.data_asize_bytes += d.asize;
    ++pending_writes_;
    pool_->Write(d.top, d.offset, psize, ZioPriority::kAsyncWrite, this, Tag(kData, i));
    // After a file's last dirty record: the L1s above its dirty records.
    const bool last_of_file = i + 1 == sync_list_.size() || sync_list_[i + 1].file != r.file;
    if (last_of_file && !f.l1.empty()) {
      int64_t prev = -1;
      for (size_t k = file_begin; k <= i; ++k) {
        const int64_t j = sync_list_[k].blkid / f.ptrs_per_indirect;
        if (j != prev) IssueIndirect(f, j);
        prev = j;
      }
    }
  }
  if (--pending_writes_ == 0) IssueUberblocks();
}

void Txg::IssueIndirect(TxgFile& f, int64_t j) {
  auto& [a, b] = f.l1[static_cast<size_t>(j)];
  DeferFree(a);
  DeferFree(b);
  a = allocator_.Alloc(f.l1_psize);
  b = allocator_.Alloc(f.l1_psize, &a);
  for (const Dva* d : {&a, &b}) {
    ++stats_.indirect_blocks;
    stats_.indirect_asize_bytes += d->asize;
    ++pending_writes_;
    pool_->Write(d->top, d->offset, RoundUp(f.l1_psize, sector_), ZioPriority::kAsyncWrite, this, Tag(kIndirect, 0));
  }
}

// vdev_uberblock_sync: the txg's uberblock to its slot of every label of every leaf.
void Txg::IssueUberblocks() {
  uberblock_phase_ = true;
  const int64_t ub_bytes = std::clamp<int64_t>(sector_, 1 << 10, 1 << 13);
  const int64_t slot_offset = kUberRingOffset + static_cast<int64_t>(syncing_ % ((128 << 10) / ub_bytes)) * ub_bytes;
  pending_writes_ = 1;
  for (size_t i = 0; i < pool_->leaves().size(); ++i) {
    const int64_t psize = pool_->leaves()[i]->device().capacity_bytes() / kLabelBytes * kLabelBytes;
    for (int l = 0; l < kLabels; ++l) {
      const int64_t label = l < 2 ? l * kLabelBytes : psize - (kLabels - l) * kLabelBytes;
      ++pending_writes_;
      stats_.uberblock_bytes += ub_bytes;
      pool_->WriteLabel(i, label + slot_offset, ub_bytes, ZioPriority::kSyncWrite, this, Tag(kUberblock, 0));
    }
  }
  if (--pending_writes_ == 0) FinishSync();
}

void Txg::OnZioDone(Zio* zio) {
  if ((zio->tag >> kTagShift) == kData) {
    const Record& r = sync_list_[zio->tag & ((uint64_t{1} << kTagShift) - 1)];
    Undirty((*files_)[static_cast<size_t>(r.file)].block_bytes);
  }
  if (--pending_writes_ > 0) return;
  if (!uberblock_phase_) {
    IssueUberblocks();
  } else {
    FinishSync();
  }
}

void Txg::Undirty(int64_t bytes) {
  dirty_bytes_ -= bytes;
  stats_.undirtied_bytes += bytes;
  pool_->set_dirty_bytes(dirty_bytes_);
  while (!space_waiters_.empty() && !throttle_.Full(dirty_bytes_)) {
    const auto [w, tag] = space_waiters_.front();
    space_waiters_.pop_front();
    w->OnTxgEvent(tag);
  }
}

void Txg::FinishSync() {
  const SimTime took = pool_->sim()->now() - sync_start_ns_;
  ++stats_.synced;
  stats_.sync_ns_sum += took;
  stats_.sync_ns_max = std::max(stats_.sync_ns_max, took);
  synced_txg_ = syncing_;
  syncing_ = 0;
  sync_list_.clear();
  // Waiters may start writes (and dirty records) from their callbacks: detach them first.
  std::vector<std::pair<TxgWaiter*, uint64_t>> ready;
  auto it = std::stable_partition(sync_waiters_.begin(), sync_waiters_.end(),
                                  [&](const auto& w) { return w.first > synced_txg_; });
  for (auto k = it; k != sync_waiters_.end(); ++k) ready.push_back(k->second);
  sync_waiters_.erase(it, sync_waiters_.end());
  // The sync thread goes on at once with a quiesced txg; the open one closes
  // now if it is over the threshold or waited for, else when the timer says.
  StartNext();
  const bool open_wanted = txg_dirty_[open_txg_ % kTxgSlots] > throttle_.sync_bytes() ||
                           std::any_of(sync_waiters_.begin(), sync_waiters_.end(),
                                       [&](const auto& w) { return w.first >= open_txg_; });
  if (open_wanted) {
    Kick();
  } else if (txg_dirty_[open_txg_ % kTxgSlots] > 0) {
    ArmTimer();
  }
  for (const auto& [w, tag] : ready) w->OnTxgEvent(tag);
}

namespace {
class SyncedOut final : public TxgWaiter {
 public:
  void OnTxgEvent(uint64_t) override { done = true; }
  bool done = false;
};
}  // namespace

void SyncOutAndCheck(Txg& txg, Simulation& sim, const std::string& what) {
  SyncedOut synced;
  txg.WaitSynced(0, &synced, 0);
  while (!synced.done && sim.Step()) {
  }
  if (!synced.done) throw InternalError(what + ": the final txg sync stalled with no event pending");
  CheckCompletedOnce(what + ": dirty bytes released", txg.stats().dirtied_bytes, txg.stats().undirtied_bytes);
  if (txg.dirty_bytes() != 0) {
    throw InternalError(what + ": " + std::to_string(txg.dirty_bytes()) + " dirty bytes left after the final sync");
  }
}

}  // namespace ziosim
