#include "sim/zfs/zil.h"

#include <algorithm>

#include "sim/core/bytes.h"
#include "sim/core/status.h"
#include "sim/zfs/txg.h"

namespace ziosim {
namespace {

// zil.c zil_block_buckets: an lwb is the smallest bucket that holds what the
// commit has to write (capped at zil_maxblocksize).
constexpr int64_t kBlockBuckets[] = {4096, 8192 + 4096, 32768 + 4096, 65536 + 4096, 131072 + 4096};
// sizeof(lr_write_t): lr_t (4 x 8) + foid, offset, length, blkoff (4 x 8) + blkptr_t (128).
constexpr int64_t kLrWriteBytes = 192;
// sizeof(zil_chain_t): pad (8) + next lwb's blkptr_t (128) + nused (8) + zio_eck_t (40).
constexpr int64_t kZilChainBytes = 184;
// Without a log device the lwbs and dmu_sync blocks are allocated on the data
// vdevs from the metaslab the txg is filling; where that is depends on the
// allocator, so the model writes them sequentially in a region of this size
// in the middle of each data vdev (estimated: the region is reused as log
// blocks are freed after their txg syncs, and a mid-disk seek is the average
// distance from the data being written).
constexpr int64_t kZilRegionBytes = int64_t{1} << 30;

enum Event : uint32_t { kFlushed = 0, kWakeNow = 1 };

}  // namespace

SyncMode ParseSyncMode(const std::string& text, const std::string& what) {
  if (text == "standard") return SyncMode::kStandard;
  if (text == "always") return SyncMode::kAlways;
  if (text == "disabled") return SyncMode::kDisabled;
  throw InputError(what + ": \"" + text + "\" is not standard, always or disabled");
}

Logbias ParseLogbias(const std::string& text, const std::string& what) {
  if (text == "latency") return Logbias::kLatency;
  if (text == "throughput") return Logbias::kThroughput;
  throw InputError(what + ": \"" + text + "\" is not latency or throughput");
}

Zil::Zil(Pool* pool, SyncMode sync, Logbias logbias, const Txg* txg)
    : pool_(pool),
      txg_(txg),
      sync_(sync),
      logbias_(logbias),
      disabled_(sync == SyncMode::kDisabled || pool->tunables().Bool("zil_disable")),
      has_slog_(pool->log_count() > 0),
      immediate_write_bytes_(pool->tunables().Int("zfs_immediate_write_sz")),
      max_block_bytes_(pool->tunables().Int("zil_maxblocksize")),
      flush_(!pool->tunables().Bool("zfs_nocacheflush")),
      sector_bytes_(int64_t{1} << pool->ashift()) {
  const int tops = pool->top_count() + pool->log_count();
  top_written_.assign(static_cast<size_t>(tops), 0);
  cursor_.resize(static_cast<size_t>(tops));
  for (int t = 0; t < tops; ++t) cursor_[static_cast<size_t>(t)] = RegionBase(t);
}

int64_t Zil::RegionBase(int top) const {
  return top < pool_->top_count() ? RoundUp(pool_->top(top)->asize_bytes() / 2, int64_t{1} << 20) : 0;
}

Zil::~Zil() = default;

bool Zil::WriteMustCommit(bool o_dsync) const {
  if (disabled_) return false;
  return sync_ == SyncMode::kAlways || o_dsync;
}

void Zil::LogWrite(int /*foid*/, int64_t length) {
  if (disabled_) return;
  // zfs_log_write's choice of write_state (illumos 2010 / OpenZFS alike).
  const bool indirect =
      logbias_ == Logbias::kThroughput || (!has_slog_ && length >= immediate_write_bytes_);
  pending_.push_back(Itx{length, txg_ != nullptr ? txg_->open_txg() : 0, indirect});
  ++stats_.records;
  if (indirect) ++stats_.indirect_records;
}

void Zil::Commit(int /*foid*/, ZilCaller* caller, uint64_t tag) {
  ++stats_.commits;
  waiting_.push_back(Waiter{caller, tag});
  if (writing_) return;  // the next batch takes it
  StartBatch();
}

int64_t Zil::LwbSize(int64_t used_bytes) const {
  for (int64_t b : kBlockBuckets) {
    if (used_bytes <= b) return std::min(b, max_block_bytes_);
  }
  return max_block_bytes_;
}

std::pair<int, int64_t> Zil::Allocate(int64_t psize) {
  const int first = has_slog_ ? pool_->top_count() : 0;
  const int count = has_slog_ ? pool_->log_count() : pool_->top_count();
  const int top = first + next_log_top_ % count;
  next_log_top_ = (next_log_top_ + 1) % count;
  const int64_t asize = pool_->BlockAsize(top, psize);
  const int64_t vdev_bytes = pool_->top(top)->asize_bytes();
  const int64_t base = RegionBase(top);
  const int64_t limit = has_slog_ ? vdev_bytes : std::min(vdev_bytes, base + kZilRegionBytes);
  int64_t& cursor = cursor_[static_cast<size_t>(top)];
  if (cursor + asize > limit) cursor = base;  // wrap: earlier log blocks are free again
  const int64_t offset = cursor;
  cursor += asize;
  return {top, offset};
}

void Zil::Write(int top, int64_t offset, int64_t size) {
  top_written_[static_cast<size_t>(top)] = 1;
  ++outstanding_zios_;
  pool_->Write(top, offset, size, ZioPriority::kSyncWrite, this, 0);
}

void Zil::IssueLwb(int64_t used_bytes) {
  const int64_t psize = RoundUp(LwbSize(used_bytes), sector_bytes_);
  const auto [top, offset] = Allocate(psize);
  ++stats_.lwbs;
  stats_.lwb_bytes += psize;
  Write(top, offset, psize);
}

void Zil::StartBatch() {
  // zil_clean: records of a synced txg need no log block any more.
  if (txg_ != nullptr) {
    const uint64_t synced = txg_->synced_txg();
    const auto stale = [synced](const Itx& i) { return i.txg != 0 && i.txg <= synced; };
    const auto cleaned = std::count_if(pending_.begin(), pending_.end(), stale);
    stats_.cleaned_records += static_cast<uint64_t>(cleaned);
    pending_.erase(std::remove_if(pending_.begin(), pending_.end(), stale), pending_.end());
  }
  batch_waiters_.swap(waiting_);
  waiting_.clear();
  if (disabled_ || pending_.empty()) {
    // Nothing to make stable (and no earlier batch in flight): return now, from the event loop.
    pending_.clear();
    writing_ = true;
    pool_->sim()->Schedule(pool_->sim()->now(), this, kWakeNow);
    return;
  }
  writing_ = true;
  ++stats_.batches;
  std::fill(top_written_.begin(), top_written_.end(), 0);
  // zil_lwb_commit: records fill lwbs in log order; a record that does not
  // fit continues in the next lwb (the lwbs are chained by zil_chain_t).
  const int64_t room = max_block_bytes_ - kZilChainBytes;
  int64_t used = 0;
  for (const Itx& itx : pending_) {
    if (itx.indirect) {
      // dmu_sync: the data block goes to disk now, beside the log.
      const int64_t psize = RoundUp(itx.length, sector_bytes_);
      const auto [top, offset] = Allocate(psize);
      stats_.indirect_bytes += psize;
      Write(top, offset, psize);
    }
    int64_t bytes = kLrWriteBytes + (itx.indirect ? 0 : RoundUp(itx.length, 8));
    while (used + bytes > room) {
      bytes -= room - used;
      IssueLwb(max_block_bytes_);
      used = 0;
    }
    used += bytes;
  }
  if (used > 0) IssueLwb(used + kZilChainBytes);
  pending_.clear();
}

void Zil::OnZioDone(Zio* /*zio*/) {
  if (--outstanding_zios_ == 0) BatchWritten();
}

void Zil::BatchWritten() {
  // zil_flush_vdevs: every leaf of every vdev written must empty its write cache.
  SimTime done = pool_->sim()->now();
  if (flush_) {
    for (size_t i = 0; i < pool_->leaves().size(); ++i) {
      if (top_written_[static_cast<size_t>(pool_->leaf_top(i))] == 0) continue;
      ++stats_.flushes;
      done = std::max(done, pool_->leaves()[i]->device().FlushDoneAt());
    }
  }
  flush_start_ns_ = pool_->sim()->now();
  pool_->sim()->Schedule(done, this, kFlushed);
}

void Zil::OnEvent(uint32_t kind, uint64_t /*arg*/) {
  if (kind == kFlushed) stats_.flush_wait_ns += pool_->sim()->now() - flush_start_ns_;
  FinishBatch();
}

void Zil::FinishBatch() {
  // writing_ stays set while the waiters hear: commits they make form the next batch.
  for (const Waiter& w : batch_waiters_) w.caller->OnCommitDone(w.tag);
  batch_waiters_.clear();
  writing_ = false;
  if (!waiting_.empty()) StartBatch();
}

}  // namespace ziosim
