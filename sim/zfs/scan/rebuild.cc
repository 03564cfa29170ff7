#include "sim/zfs/scan/rebuild.h"

#include <algorithm>

#include "sim/core/bytes.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/vdev/draid_vdev.h"
#include "sim/zfs/vdev/leaf_vdev.h"

namespace ziosim {
namespace {

// A zio's tag: (chunk id << 1), bit 0 set for the chunk's write to the spare space.
constexpr uint64_t kWriteTag = 1;

}  // namespace

SequentialRebuild::SequentialRebuild(Simulation* sim, Pool* pool, const ScanTree* tree, int top, int child, int spare,
                                     int64_t stop_after_bytes)
    : sim_(sim),
      pool_(pool),
      draid_(dynamic_cast<DraidVdev*>(pool->top(top))),
      top_(top),
      child_(child),
      spare_(spare),
      stop_after_(stop_after_bytes),
      ranges_(tree->AllocatedRanges(top)) {
  const Tunables& t = pool->tunables();
  max_segment_ = t.Int("zfs_rebuild_max_segment");
  sample_ns_ = t.Int("zfs_txg_timeout") * kNsPerSec;
  // vdev_rebuild_thread: every child of the top-level vdev counts, spare space included.
  max_inflight_ = std::max(kMiB, t.Int("zfs_rebuild_vdev_limit") * static_cast<int64_t>(draid_->children().size()));
  for (const auto& [s, e] : ranges_) res_.to_examine_bytes += e - s;
}

void SequentialRebuild::Start() {
  start_ns_ = sim_->now();
  sim_->ScheduleIn(sample_ns_, this, 0);
  Issue();
  MaybeFinish();
}

void SequentialRebuild::OnEvent(uint32_t /*kind*/, uint64_t /*arg*/) {
  if (done_) return;
  res_.samples.push_back(
      SampleScan(*pool_, sim_->now() - start_ns_, res_.examined_bytes, res_.issued_bytes, false));
  sim_->ScheduleIn(sample_ns_, this, 0);
}

// vdev_rebuild_ranges: the allocated ranges in offset order, chunk by chunk.
void SequentialRebuild::Issue() {
  const int width = draid_->layout().config().group_width();
  const int data = draid_->layout().config().data;
  while (inflight_ < max_inflight_ && range_ < ranges_.size()) {
    if (ReachedStop(res_, stop_after_)) return;
    const auto& [begin, end] = ranges_[range_];
    pos_ = std::max(pos_, begin);
    const int64_t start = pos_;
    const int64_t asize = std::min(end - start, draid_->RebuildChunkAsize(start, max_segment_));
    pos_ += asize;
    if (pos_ >= end) ++range_;
    res_.examined_bytes += asize;
    const int64_t psize = asize / width * data;  // vdev_draid_asize_to_psize
    if (!draid_->GroupHolds(start, psize, child_)) {  // vdev_draid_group_degraded: nothing to rebuild here
      res_.issued_bytes += asize;
      res_.skipped_bytes += asize;
      continue;
    }
    const uint64_t id = next_id_++;
    pending_[id] = Pending{psize, 0};
    inflight_ += psize;
    pool_->ScanRead(top_, start, psize, ZioScan::kResilver, this, id << 1);
  }
}

void SequentialRebuild::OnZioDone(Zio* zio) {
  const uint64_t id = zio->tag >> 1;
  auto it = pending_.find(id);
  if ((zio->tag & kWriteTag) != 0) {
    ++res_.repair_writes;
    res_.repair_bytes += zio->size;
  } else {
    ++res_.blocks_read;
    res_.issued_bytes += zio->size / draid_->layout().config().data * draid_->layout().config().group_width();
    scratch_.clear();
    draid_->RebuildWrites(zio->offset, zio->size, child_, spare_, &scratch_);
    it->second.writes = static_cast<int>(scratch_.size());
    for (const Vdev::RepairWrite& w : scratch_) {
      pool_->WriteLeaf(w.leaf, w.offset, w.size, ZioPriority::kAsyncWrite, this, (id << 1) | kWriteTag);
    }
  }
  if ((zio->tag & kWriteTag) != 0 ? --it->second.writes == 0 : it->second.writes == 0) {
    inflight_ -= it->second.psize;
    pending_.erase(it);
  }
  Issue();
  MaybeFinish();
}

void SequentialRebuild::MaybeFinish() {
  if (done_ || inflight_ > 0) return;
  const bool stopped = ReachedStop(res_, stop_after_);
  if (range_ < ranges_.size() && !stopped) return;
  done_ = true;
  res_.elapsed_ns = sim_->now() - start_ns_;
  res_.complete = range_ == ranges_.size();
  res_.samples.push_back(SampleScan(*pool_, res_.elapsed_ns, res_.examined_bytes, res_.issued_bytes, false));
}

}  // namespace ziosim
