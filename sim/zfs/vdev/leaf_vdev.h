// A leaf vdev: one disk. Zios arrive in the vdev's address space, gain the
// 4 MiB front label, wait in the leaf's ZFS queue (sim/zfs/vdev/queue/) and go to
// the device. Below ZFS the platform splits commands larger than its limit
// (FreeBSD <= 12: MAXPHYS = 128 KiB; Linux: max_sectors_kb), and the block
// layer holds commands in FIFO order while the device's own queue (NCQ) is
// full. Metadata reads may be served by the leaf's vdev cache (vdev_cache.h)
// before they reach the queue. Keeps the per-disk statistics `zpool iostat -v` and `gstat` show.
#ifndef ZIOSIM_SIM_ZFS_VDEV_LEAF_VDEV_H_
#define ZIOSIM_SIM_ZFS_VDEV_LEAF_VDEV_H_

#include <deque>
#include <memory>

#include "models/device/device.h"
#include "sim/zfs/vdev/queue/vdev_queue.h"
#include "sim/zfs/vdev/vdev.h"
#include "sim/zfs/vdev/vdev_cache.h"

namespace ziosim {

// Per-leaf counters beyond the device's own DeviceStats.
struct LeafStats {
  uint64_t zios = 0;            // zios that reached this leaf
  int64_t zio_bytes = 0;
  uint64_t device_commands = 0; // commands sent to the device (after aggregation and splitting)
  uint64_t split_ios = 0;       // I/Os the platform cut into several commands
  // Time integrals (ns x count) for mean depths.
  double queued_ns_sum = 0;
  double active_ns_sum = 0;
};

class LeafVdev : public Vdev, public VdevQueueSink, public DeviceListener, public EventHandler {
 public:
  LeafVdev(PoolContext* ctx, std::string name, std::unique_ptr<Device> device);

  bool is_leaf() const override { return true; }
  int64_t asize_bytes() const override;
  bool rotational() const override { return device_->is_rotational(); }
  bool readable() const override { return !faulted_ && !replacing_; }
  void IoStart(Zio* zio) override;
  void ChangePriority(Zio* zio, ZioPriority priority) override;

  // VdevQueueSink
  void IssueToDevice(Zio* io) override;
  Zio* NewAggregate() override { return ctx_->arena.New(); }
  void DropOptional(Zio* zio) override { ctx_->arena.Free(zio); }
  // DeviceListener
  void OnDeviceDone(const DeviceRequest& req, SimTime submitted, SimTime done) override;
  // EventHandler: a vdev cache hit completes (after the read that found it has returned).
  void OnEvent(uint32_t kind, uint64_t arg) override;

  void set_faulted(bool faulted) { faulted_ = faulted; }
  // A new disk in place of a failed one, being resilvered: nothing on it can
  // be read yet (its DTL_MISSING holds every txg), it takes writes.
  void set_replacing(bool replacing) { replacing_ = replacing; }
  bool replacing() const { return replacing_; }
  Device& device() { return *device_; }
  const Device& device() const { return *device_; }
  const VdevQueue& queue() const { return *queue_; }
  VdevQueue& queue() { return *queue_; }
  const LeafStats& stats() const { return stats_; }
  const VdevCache& cache() const { return cache_; }
  // Brings the time integrals up to now (call before reading mean depths).
  void SettleStats();
  // Starts every counter of this leaf, its queue and its device afresh.
  void ResetStats() override;

 private:
  // Queues `zio` (label already added) for the device.
  void Enqueue(Zio* zio);
  // Gives `zio` to the vdev cache; false if it must go to the device itself.
  bool ServedByCache(Zio* zio);
  void StartCacheFill(int line, int64_t offset);
  // `z` left the device: a cache fill hands its data to its waiters; a write updates the cache.
  void Complete(Zio* z);
  void SubmitOrHold(const DeviceRequest& req);
  void FinishIssued(Zio* io);
  void AccountDepths();

  std::unique_ptr<Device> device_;
  std::unique_ptr<VdevQueue> queue_;
  std::deque<DeviceRequest> held_;  // block layer: waiting for a free device tag
  int64_t max_command_bytes_;
  VdevCache cache_;
  ZioPriority cache_fill_priority_;
  bool faulted_ = false;
  bool replacing_ = false;
  LeafStats stats_;
  SimTime depth_since_ = 0;
};

// Whether `v` is a leaf being replaced (resilvered).
inline bool IsReplacing(const Vdev& v) { return v.is_leaf() && static_cast<const LeafVdev&>(v).replacing(); }

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_LEAF_VDEV_H_
