#include "sim/zfs/vdev/leaf_vdev.h"

#include <algorithm>
#include <cerrno>

#include "sim/zfs/pool_spec.h"
#include "sim/zfs/vdev/vdev_kind.h"

namespace ziosim {

VdevKind DiskVdevKind() {
  return VdevKind{"disk",
                  "a single disk as a top-level vdev (a bare drive in the spec; several of them stripe)",
                  {},
                  [](int) { return 1; },
                  1,
                  [](const PoolSpecVdev&) { return std::string(); },
                  [](PoolContext*, int, const PoolSpecVdev&, int, std::vector<std::unique_ptr<LeafVdev>> leaves) {
                    return std::unique_ptr<Vdev>(std::move(leaves.front()));
                  }};
}

LeafVdev::LeafVdev(PoolContext* ctx, std::string name, std::unique_ptr<Device> device)
    : Vdev(ctx, "disk", std::move(name)),
      device_(std::move(device)),
      max_command_bytes_(ctx->tunables.Int("ziosim_max_device_io")),
      cache_(ctx->tunables.Int("zfs_vdev_cache_size"), ctx->tunables.Int("zfs_vdev_cache_max"),
             static_cast<int>(ctx->tunables.Int("zfs_vdev_cache_bshift"))),
      // A fill is ZIO_PRIORITY_CACHE_FILL, valued as a sync read by the deadline scheduler; from
      // the class scheduler on it is ZIO_PRIORITY_NOW, which vdev_queue_io files as an async read.
      cache_fill_priority_(ctx->tunables.Choice("ziosim_vdev_scheduler") == "deadline" ? ZioPriority::kSyncRead
                                                                                      : ZioPriority::kAsyncRead) {
  queue_ = MakeVdevQueue(ctx->tunables, device_->is_rotational(), this, &ctx->dirty_bytes);
  device_->set_listener(this);
}

int64_t LeafVdev::asize_bytes() const {
  return device_->capacity_bytes() - kVdevLabelStartBytes - kVdevLabelEndBytes;
}

void LeafVdev::IoStart(Zio* zio) {
  if (faulted_ || (replacing_ && zio->type == ZioType::kRead)) {
    // The parent should not have chosen us; fail the I/O as ZFS would (ENXIO).
    zio->error = ENXIO;
    Finish(zio);
    return;
  }
  zio->offset += kVdevLabelStartBytes;
  if (ServedByCache(zio)) return;
  Enqueue(zio);
}

void LeafVdev::Enqueue(Zio* zio) {
  AccountDepths();
  zio->queued_ns = ctx_->sim->now();
  if (!zio->optional) {  // skip-sector pads count only as device bytes, when they go out
    ++stats_.zios;
    stats_.zio_bytes += zio->size;
  }
  queue_->Add(zio, ctx_->sim->now());
}

bool LeafVdev::ServedByCache(Zio* zio) {
  int line = -1;
  int64_t fill_offset = 0;
  switch (cache_.Read(zio, ctx_->sim->now(), &line, &fill_offset)) {
    case VdevCache::Action::kBypass:
      return false;
    case VdevCache::Action::kHit:
      // The copy costs no I/O; the zio completes once the caller's IoStart has returned.
      ctx_->sim->Schedule(ctx_->sim->now(), this, 0, reinterpret_cast<uint64_t>(zio));
      return true;
    case VdevCache::Action::kJoinFill:
      return true;
    case VdevCache::Action::kFill:
      StartCacheFill(line, fill_offset);
      return true;
  }
  return false;
}

// zio_vdev_delegated_io of the whole aligned line, DONT_CACHE, through the queue.
void LeafVdev::StartCacheFill(int line, int64_t offset) {
  Zio* fill = ctx_->arena.New();
  fill->type = ZioType::kRead;
  fill->priority = cache_fill_priority_;
  fill->offset = offset;
  fill->size = cache_.line_bytes();
  fill->vdev = this;
  fill->tag = static_cast<uint64_t>(line);
  fill->cache_fill = true;
  fill->created_ns = ctx_->sim->now();
  Enqueue(fill);
}

void LeafVdev::OnEvent(uint32_t /*kind*/, uint64_t arg) { Finish(reinterpret_cast<Zio*>(arg)); }

// A zio still waiting in the queue moves to the new class; an issued one
// keeps its class (it holds that class's active slot).
void LeafVdev::ChangePriority(Zio* zio, ZioPriority priority) {
  if (queue_->ChangePriority(zio, priority)) zio->priority = priority;
}

// How urgent a leaf I/O of class `p` is to a drive whose scheduler asks (DiskSim's
// priority schedulers): the sync classes time-critical, as DiskSim marks a synchronous
// request; the other reads (prefetch, scrub) time-limited, as it marks an asynchronous
// read; the other writes (the txg's, resilver's) neither.
static Urgency UrgencyOf(ZioPriority p, IoOp op) {
  if (p == ZioPriority::kSyncRead || p == ZioPriority::kSyncWrite) return Urgency::kTimeCritical;
  return op == IoOp::kRead ? Urgency::kTimeLimited : Urgency::kNone;
}

// Cuts `io` into commands of at most the platform's limit; the tag carries the zio.
void LeafVdev::IssueToDevice(Zio* io) {
  io->issued_ns = ctx_->sim->now();
  const int64_t pieces = (io->size + max_command_bytes_ - 1) / max_command_bytes_;
  io->device_pieces = static_cast<int>(pieces);
  if (pieces > 1) ++stats_.split_ios;
  const IoOp op = io->type == ZioType::kWrite ? IoOp::kWrite : IoOp::kRead;
  const Urgency urgency = UrgencyOf(io->priority, op);
  for (int64_t off = 0; off < io->size; off += max_command_bytes_) {
    const int64_t size = std::min(max_command_bytes_, io->size - off);
    SubmitOrHold(DeviceRequest{reinterpret_cast<uint64_t>(io), io->offset + off, size, op, urgency});
  }
}

void LeafVdev::SubmitOrHold(const DeviceRequest& req) {
  ++stats_.device_commands;
  if (held_.empty() && device_->in_device() < device_->queue_depth()) {
    device_->Submit(req);
  } else {
    held_.push_back(req);
  }
}

void LeafVdev::OnDeviceDone(const DeviceRequest& req, SimTime /*submitted*/, SimTime /*done*/) {
  Zio* io = reinterpret_cast<Zio*>(req.tag);
  if (--io->device_pieces == 0) FinishIssued(io);
  while (!held_.empty() && device_->in_device() < device_->queue_depth()) {
    const DeviceRequest next = held_.front();
    held_.pop_front();
    device_->Submit(next);
  }
}

// The device finished all of `io`: the queue may issue more, then the zio (or
// every zio inside an aggregate) completes up the tree.
void LeafVdev::FinishIssued(Zio* io) {
  AccountDepths();
  const SimTime now = ctx_->sim->now();
  queue_->Done(io, now);
  if (!io->is_aggregate()) {
    if (ctx_->observer != nullptr) ctx_->observer->OnLeafIoDone(*this, *io, *io, now);
    Complete(io);
    return;
  }
  for (Zio* z = io->agg_head; z != nullptr;) {
    Zio* next = z->agg_next;
    if (ctx_->observer != nullptr) ctx_->observer->OnLeafIoDone(*this, *z, *io, now);
    Complete(z);
    z = next;
  }
  ctx_->arena.Free(io);
}

void LeafVdev::Complete(Zio* z) {
  if (z->type == ZioType::kWrite) cache_.Write(z->offset, z->size);
  if (!z->cache_fill) {
    Finish(z);
    return;
  }
  Zio* waiter = cache_.FillDone(static_cast<int>(z->tag), ctx_->sim->now());
  ctx_->arena.Free(z);
  while (waiter != nullptr) {
    Zio* next = waiter->cache_next;
    Finish(waiter);
    waiter = next;
  }
}

void LeafVdev::AccountDepths() {
  const SimTime now = ctx_->sim->now();
  const double dt = static_cast<double>(now - depth_since_);
  stats_.queued_ns_sum += dt * queue_->queued();
  stats_.active_ns_sum += dt * queue_->active();
  depth_since_ = now;
}

void LeafVdev::ResetStats() {
  stats_ = LeafStats{};
  cache_.ResetStats();
  depth_since_ = ctx_->sim->now();
  queue_->ResetStats();
  device_->ResetStats(ctx_->sim->now());
}

void LeafVdev::SettleStats() {
  AccountDepths();
  device_->FinishStats(ctx_->sim->now());
}

}  // namespace ziosim
