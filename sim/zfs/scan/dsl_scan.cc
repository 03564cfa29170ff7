#include "sim/zfs/scan/dsl_scan.h"

#include <algorithm>

#include "sim/core/status.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/vdev/leaf_vdev.h"

namespace ziosim {
namespace {

// A read's tag: bit 0 set for the traversal's own read of indirect block (tag >> 2);
// bit 1 set for a resilver's repair write (of pending read tag >> 2); else a
// scan read whose DVA allocates (tag >> 2) bytes.
constexpr uint64_t kIndirectTag = 1;
constexpr uint64_t kRepairTag = 2;

}  // namespace

ScanSample SampleScan(const Pool& pool, SimTime t_ns, int64_t examined, int64_t issued, bool traversing) {
  ScanSample s{t_ns, examined, issued, traversing, {}, {}};
  for (const LeafVdev* l : pool.leaves()) {
    s.disk_read_bytes.push_back(l->device().stats().read_bytes());
    s.disk_written_bytes.push_back(l->device().stats().written_bytes());
  }
  return s;
}

DslScan::DslScan(Simulation* sim, Pool* pool, const ScanTree* tree, ZioScan func, int64_t stop_after_bytes)
    : sim_(sim), pool_(pool), tree_(tree), func_(func), stop_after_(stop_after_bytes) {
  const Tunables& t = pool->tunables();
  legacy_ = t.Bool("zfs_scan_legacy");
  const bool resilver = func == ZioScan::kResilver;
  txg_timeout_ns_ = t.Int("zfs_txg_timeout") * kNsPerSec;
  min_time_ns_ = t.Int(resilver ? "zfs_resilver_min_time_ms" : "zfs_scrub_min_time_ms") * kNsPerMs;
  const SimTime tick_ns = kNsPerSec / t.Int("ziosim_kernel_hz");
  delay_ns_ = t.Int(resilver ? "zfs_resilver_delay" : "zfs_scrub_delay") * tick_ns;
  idle_ns_ = t.Int("zfs_scan_idle") * tick_ns;
  max_inflight_ = t.Int("zfs_top_maxinflight") * static_cast<int64_t>(pool->root().children().size());
  strategy_ = static_cast<int>(t.Int("zfs_scan_issue_strategy"));
  prefetch_ = !t.Bool("zfs_no_scrub_prefetch");
  if (!legacy_) {
    // dsl_scan_should_clear: RAM / zfs_scan_mem_lim_fact (RAM taken as 2 x zfs_arc_max, as the
    // dirty data limit takes it), at least zfs_scan_mem_lim_min, at most 1/20 of the allocated space.
    const int64_t ram = 2 * t.Int("zfs_arc_max");
    mem_hard_ = std::max(ram / t.Int("zfs_scan_mem_lim_fact"), t.Int("zfs_scan_mem_lim_min"));
    mem_hard_ = std::min(mem_hard_, tree->total_asize() / 20);
    mem_soft_ = mem_hard_ - std::min(mem_hard_ / t.Int("zfs_scan_mem_lim_soft_fact"), t.Int("zfs_scan_mem_lim_soft_max"));
    for (int i = 0; i < pool->top_count(); ++i) {
      TopQueue q;
      q.queue = std::make_unique<ScanQueue>(pool->ashift(), t.Int("zfs_scan_max_ext_gap"),
                                            static_cast<int>(t.Int("zfs_scan_fill_weight")));
      // scan_io_queues_run_one: zfs_scan_vdev_limit x the top-level vdev's data disks.
      q.max_inflight_bytes = std::max<int64_t>(1, t.Int("zfs_scan_vdev_limit") * pool->top(i)->data_disks());
      tops_.push_back(std::move(q));
    }
  }
  res_.legacy = legacy_;
  res_.to_examine_bytes = tree->total_asize();
  res_.queue_limit_bytes = mem_hard_;
}

DslScan::~DslScan() = default;

void DslScan::Start() {
  start_ns_ = sim_->now();
  BeginSlice();
}

ScanResult DslScan::Result() const { return res_; }

bool ReachedStop(const ScanResult& r, int64_t stop_after_bytes) {
  return stop_after_bytes > 0 && r.issued_bytes - r.skipped_bytes >= stop_after_bytes;
}

bool DslScan::Stopped() const { return ReachedStop(res_, stop_after_); }

bool DslScan::AnyQueued() const {
  return std::any_of(tops_.begin(), tops_.end(),
                     [](const TopQueue& q) { return !q.queue->empty() || q.next < q.batch.size(); });
}

int64_t DslScan::InFlight() const {
  int64_t n = inflight_reads_ + indirect_inflight_;
  for (const TopQueue& q : tops_) n += q.inflight_bytes;
  return n;
}

int64_t DslScan::QueuedBytes() const {
  int64_t used = 0;
  for (const TopQueue& q : tops_) used += q.queue->memory_bytes();
  return used;
}

// dsl_scan_should_clear's hysteresis: clear at the hard limit, until below the soft one.
bool DslScan::MemoryFull() const {
  const int64_t used = QueuedBytes();
  if (used >= mem_hard_) return true;
  if (used < mem_soft_) return false;
  return clearing_;
}

void DslScan::BeginSlice() {
  ++res_.txgs;
  slice_start_ns_ = sim_->now();
  if (!legacy_) {
    clearing_ = !traversal_done_ && MemoryFull();
    issuing_ = AnyQueued() && (clearing_ || traversal_done_);
    if (issuing_ && clearing_) ++res_.clearing_txgs;
    for (TopQueue& q : tops_) q.stopped = false;
  }
  Run();
}

bool DslScan::SliceOver() const {
  const SimTime spent = sim_->now() - slice_start_ns_;
  return spent >= txg_timeout_ns_ && spent > min_time_ns_;
}

void DslScan::Run() {
  if (done_ || ending_slice_) return;
  if (Stopped()) {
    EndSliceWhenDrained();
    return;
  }
  if (legacy_ || !issuing_) {
    Traverse();
  } else {
    IssueFromQueues();
  }
}

// dsl_scan_visit's walk from the cursor: returns when it blocks (an indirect
// block not yet read, no read slot, a delay) or the slice is over.
bool DslScan::Traverse() {
  while (!waiting_indirect_) {
    if (SliceOver()) {
      EndSliceWhenDrained();
      return false;
    }
    switch (cur_.step) {
      case Step::kObject: {
        if (cur_.obj == tree_->objects()) {
          traversal_done_ = true;
          cur_.step = Step::kDone;
          EndSliceWhenDrained();
          return false;
        }
        const int64_t n = tree_->indirect_blocks(cur_.obj);
        indirect_ready_.assign(static_cast<size_t>(n), 0);
        for (int64_t i = 0; i < n; ++i) {
          const ScanBlock b = tree_->Indirect(cur_.obj, i);
          if (b.hole) {
            indirect_ready_[static_cast<size_t>(i)] = 1;
          } else if (prefetch_) {  // dsl_scan_prefetch: the indirect blocks ahead of the walk
            ReadIndirect(b, i);
          }
        }
        cur_.indirect = 0;
        cur_.step = n > 0 ? Step::kIndirect : Step::kData;
        cur_.blkid = tree_->first_data(cur_.obj, 0);
        break;
      }
      case Step::kIndirect: {
        if (cur_.indirect == tree_->indirect_blocks(cur_.obj)) {
          ++cur_.obj;
          cur_.step = Step::kObject;
          break;
        }
        if (!indirect_ready_[static_cast<size_t>(cur_.indirect)]) {
          // dsl_scan_recurse's arc_read(ARC_FLAG_WAIT): the walk waits for the block.
          if (!prefetch_) ReadIndirect(tree_->Indirect(cur_.obj, cur_.indirect), cur_.indirect);
          waiting_indirect_ = true;
          return false;
        }
        cur_.step = Step::kData;
        cur_.blkid = tree_->first_data(cur_.obj, cur_.indirect);
        break;
      }
      case Step::kData: {
        if (cur_.blkid == tree_->end_data(cur_.obj, cur_.indirect)) {
          if (tree_->indirect_blocks(cur_.obj) > 0) {
            cur_.step = Step::kIndirectSelf;
          } else {
            ++cur_.obj;
            cur_.step = Step::kObject;
          }
          break;
        }
        const ScanBlock b = tree_->Data(cur_.obj, cur_.blkid);
        if (!b.hole && !Visit(b)) return false;
        ++cur_.blkid;
        break;
      }
      case Step::kIndirectSelf: {  // post-order: the indirect block's own scan read
        const ScanBlock b = tree_->Indirect(cur_.obj, cur_.indirect);
        if (!b.hole && !b.walk_only && !Visit(b)) return false;
        ++cur_.indirect;
        cur_.step = Step::kIndirect;
        break;
      }
      case Step::kDone:
        return false;
    }
  }
  return false;
}

void DslScan::ReadIndirect(const ScanBlock& b, int64_t index) {
  ++indirect_inflight_;
  pool_->Read(b.top, b.offset, b.psize, legacy_ ? ZioPriority::kAsyncRead : ZioPriority::kScrub, this,
              (static_cast<uint64_t>(index) << 2) | kIndirectTag, true);
}

// dsl_scan_scrub_cb: the legacy scan reads the block now; the sorted one queues its DVAs.
bool DslScan::Visit(const ScanBlock& b) {
  const int ndvas = b.top2 >= 0 ? 2 : 1;
  const int64_t asize = b.asize + b.asize2;  // every DVA's
  if (func_ == ZioScan::kResilver && !NeedsResilver(b)) {
    // dsl_scan_scrub_cb: a block the resilver does not need is counted as issued at once.
    res_.examined_bytes += asize;
    res_.issued_bytes += asize;
    res_.skipped_bytes += asize;
    return true;
  }
  if (legacy_) {
    if (inflight_reads_ >= max_inflight_) return false;  // resumes on a completion
    if (!delayed_ && delay_ns_ > 0 && pool_->last_read_ns() >= 0 && sim_->now() - pool_->last_read_ns() <= idle_ns_) {
      delayed_ = true;
      sim_->ScheduleIn(delay_ns_, this, kDelayDone);
      return false;
    }
    delayed_ = false;
    IssueRead(b.top, b.offset, b.psize, b.asize);
    if (ndvas == 2) IssueRead(b.top2, b.offset2, b.psize, b.asize2);
  } else {
    tops_[static_cast<size_t>(b.top)].queue->Insert(QueuedDva{b.offset, b.asize, b.psize}, ndvas);
    if (ndvas == 2) tops_[static_cast<size_t>(b.top2)].queue->Insert(QueuedDva{b.offset2, b.asize2, b.psize}, ndvas);
    res_.peak_queue_bytes = std::max(res_.peak_queue_bytes, QueuedBytes());
  }
  res_.examined_bytes += asize;
  return true;
}

// dsl_scan_need_resilver over the block's DVAs.
bool DslScan::NeedsResilver(const ScanBlock& b) const {
  if (pool_->top(b.top)->NeedsResilver(b.offset, b.psize)) return true;
  return b.top2 >= 0 && pool_->top(b.top2)->NeedsResilver(b.offset2, b.psize);
}

void DslScan::IssueRead(int top, int64_t offset, int64_t psize, int64_t asize) {
  if (legacy_) {
    ++inflight_reads_;
  } else {
    tops_[static_cast<size_t>(top)].inflight_bytes += psize;
  }
  pool_->ScanRead(top, offset, psize, func_, this, static_cast<uint64_t>(asize) << 2);
}

// scan_io_queues_run_one for every top-level vdev: batches of an extent, each
// DVA issued while the vdev's bytes in flight are below its limit, until the
// slice's time is up or the queue is empty.
void DslScan::IssueFromQueues() {
  const bool lba = strategy_ == 1 || (strategy_ == 0 && traversal_done_);
  for (size_t t = 0; t < tops_.size(); ++t) {
    TopQueue& q = tops_[t];
    while (!q.stopped && q.inflight_bytes < q.max_inflight_bytes) {
      if (Stopped()) break;
      if (q.next == q.batch.size()) {
        q.batch.clear();
        q.next = 0;
        q.queue->Gather(lba, &q.batch);
        if (q.batch.empty()) {
          q.stopped = true;
          break;
        }
      }
      if (SliceOver()) {  // scan_io_queue_check_suspend, before each DVA
        q.stopped = true;
        break;
      }
      const QueuedDva& d = q.batch[q.next++];
      IssueRead(static_cast<int>(t), d.offset, d.psize, d.asize);
    }
  }
  const bool all_stopped = std::all_of(tops_.begin(), tops_.end(), [](const TopQueue& q) { return q.stopped; });
  if (all_stopped || Stopped()) EndSliceWhenDrained();
}

// The end of dsl_scan_sync: everything issued in the slice completes before the txg ends.
void DslScan::EndSliceWhenDrained() {
  ending_slice_ = true;
  if (InFlight() == 0) sim_->ScheduleIn(0, this, kNextSlice);
}

void DslScan::OnZioDone(Zio* zio) {
  if ((zio->tag & kRepairTag) != 0) {
    ++res_.repair_writes;
    res_.repair_bytes += zio->size;
    auto it = repairs_.find(zio->tag >> 2);
    if (--it->second.writes == 0) {
      Release(it->second.top, it->second.psize);
      repairs_.erase(it);
    }
  } else if ((zio->tag & kIndirectTag) != 0) {
    --indirect_inflight_;
    ++res_.indirect_reads;
    const uint64_t i = zio->tag >> 2;
    if (i < indirect_ready_.size()) indirect_ready_[i] = 1;
    if (waiting_indirect_ && static_cast<int64_t>(i) == cur_.indirect) waiting_indirect_ = false;
  } else {
    res_.issued_bytes += static_cast<int64_t>(zio->tag >> 2);
    ++res_.blocks_read;
    if (!StartRepairs(*zio)) Release(zio->top_vdev, zio->size);
  }
  if (ending_slice_) {
    if (InFlight() == 0) sim_->ScheduleIn(0, this, kNextSlice);
    return;
  }
  Run();
}

// The read's place in flight is given back.
void DslScan::Release(int top, int64_t psize) {
  if (legacy_) {
    --inflight_reads_;
  } else {
    tops_[static_cast<size_t>(top)].inflight_bytes -= psize;
  }
}

// A resilver read's repair writes to the disks being replaced (children of the
// read in OpenZFS: the read holds its place in flight until they are done).
bool DslScan::StartRepairs(const Zio& read) {
  if (func_ != ZioScan::kResilver) return false;
  repair_scratch_.clear();
  pool_->top(read.top_vdev)->RepairWrites(read.offset, read.size, &repair_scratch_);
  if (repair_scratch_.empty()) return false;
  const uint64_t id = next_repair_id_++;
  repairs_[id] = PendingRepair{read.top_vdev, read.size, static_cast<int>(repair_scratch_.size())};
  for (const Vdev::RepairWrite& w : repair_scratch_) {
    pool_->WriteLeaf(w.leaf, w.offset, w.size, ZioPriority::kAsyncWrite, this, (id << 2) | kRepairTag);
  }
  return true;
}

void DslScan::OnEvent(uint32_t kind, uint64_t /*arg*/) {
  if (kind == kDelayDone) {
    Run();  // delayed_ stays set: the waiting read goes now
    return;
  }
  // kNextSlice: the txg is synced.
  ending_slice_ = false;
  res_.samples.push_back(
      SampleScan(*pool_, sim_->now() - start_ns_, res_.examined_bytes, res_.issued_bytes, !issuing_ && !legacy_));
  const bool stopped = Stopped();
  if (stopped || (traversal_done_ && !AnyQueued())) {
    Finish();
    return;
  }
  BeginSlice();
}

void DslScan::Finish() {
  done_ = true;
  res_.elapsed_ns = sim_->now() - start_ns_;
  res_.complete = traversal_done_ && !AnyQueued();
}

}  // namespace ziosim
