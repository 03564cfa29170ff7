// A rotating disk, modelled from its physics as DiskSim does: zoned layout with
// skews and slips (HddMap: HddGeometry's zones, or HddExtentMap's extents), seek
// curve and head switch, a platter whose
// angle is a function of simulated time (so rotational latency is computed,
// not drawn), media transfer by zone, bus transfer, firmware overheads that
// depend on the previous command type, and a segmented cache with read-ahead
// and write-back.
//
// One command is serviced at a time (a single actuator). Work that continues
// after a command completes -- read-ahead into a segment, the destage of a
// write-back write -- is kept as state and charged to whichever later command
// needs the arm, so each command costs O(tracks touched), not O(sectors).
#ifndef ZIOSIM_MODELS_DEVICE_HDD_H_
#define ZIOSIM_MODELS_DEVICE_HDD_H_

#include <memory>
#include <string>

#include "models/device/device.h"
#include "models/device/hdd_params.h"

namespace ziosim {

// How the drive served the last command, for per-request reports and tests.
struct HddBreakdown {
  enum class CacheOutcome : uint8_t { kMiss, kWholeHit, kPartialHit, kWriteBuffered };
  CacheOutcome cache = CacheOutcome::kMiss;
  int64_t seek_cylinders = 0;  // distance of the first repositioning (0 if none)
  SimTime wait_ns = 0;         // arm busy with earlier work (destage, read-ahead) before this command
  SimTime seek_ns = 0;         // first positioning: seek, or head switch if longer (+ write settle)
  SimTime latency_ns = 0;      // rotational wait for the first wanted sector
  SimTime transfer_ns = 0;     // media time from first to last wanted sector, switches included
  int cylinder = 0, head = 0, sector = 0;  // physical address of the first block
};

class HddMap;
class HddCacheState;

class HddDevice final : public Device {
 public:
  // Throws InputError if `params` is inconsistent. `spindle_phase`: the platter's
  // angle at time 0, in turns [0, 1) (drives spin unsynchronised, each at its own).
  HddDevice(Simulation* sim, std::string name, HddParams params, QueuePolicy policy = QueuePolicy::kFifo,
            double spindle_phase = 0.0);
  ~HddDevice() override;

  bool is_rotational() const override { return true; }
  int64_t capacity_bytes() const override;
  int queue_depth() const override { return params_.queue_depth; }
  int in_device() const override { return in_device_; }
  void Submit(const DeviceRequest& req) override;
  // The end of the destage of every write-back segment still dirty.
  SimTime FlushDoneAt() const override;
  void OnEvent(uint32_t kind, uint64_t arg) override;

  const HddParams& params() const { return params_; }
  const HddMap& geometry() const { return *geometry_; }
  const HddBreakdown& last_breakdown() const { return last_; }

 private:
  class Impl;
  void StartNext();
  // Which waiting command the drive starts next (its scheduler's pick, now).
  size_t PickNext();
  // With sneaky full read hits: the next command, a read that will miss, takes its
  // segment before the host hears of the completion (Impl::ClaimMissSegment).
  void ClaimSegmentOfNext();
  // As the bus frees (a command's disconnect or completion), the waiting commands a
  // DiskSim drive serves out of turn: reads whole in its buffer, writes it prebuffers.
  void SendWaitingOutOfTurn() {
    if (serves_waiting_out_of_turn_) SendWaitingOutOfTurnNow();
  }
  void SendWaitingOutOfTurnNow();
  // Sends the i-th waiting command out of turn if it is a read the drive may send from
  // its buffer now (Impl::IntermediateHitPs); whether it did.
  bool SendQueuedHit(size_t i);
  // Takes the i-th waiting command's data now if it is a write the drive may prebuffer
  // (Impl::PrebufferPs): not, or until its turn (write-through), or completing it now
  // (write-back).
  enum class Prebuffered { kNo, kUntilItsTurn, kCompleted };
  Prebuffered Prebuffer(size_t i);
  // `req`, submitted at `submitted`, completes at `done_ps` out of turn.
  void CompleteOutOfTurn(const DeviceRequest& req, SimTime submitted, const HddBreakdown& bd, int64_t done_ps);

  HddParams params_;
  // Sneaky intermediate read hits or write prebuffering: waiting commands may be
  // served out of turn.
  bool serves_waiting_out_of_turn_ = false;
  QueuePolicy policy_;
  double spindle_phase_;
  std::unique_ptr<HddMap> geometry_;
  std::unique_ptr<Impl> impl_;
  HddBreakdown last_;
  int in_device_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_H_
