// The moving parts of a disk: the actuator (which cylinder and head it is on,
// how long a move takes) and the spindle (the platter angle as a function of
// time: its phase at time 0, then one turn every 60/rpm seconds). Times here
// are picoseconds, like DiskSim's diskmodel, so a sector's start is exact to
// the ps even on 2,000-sector tracks.
#ifndef ZIOSIM_MODELS_DEVICE_HDD_MECHANISM_H_
#define ZIOSIM_MODELS_DEVICE_HDD_MECHANISM_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "models/device/hdd_map.h"
#include "models/device/hdd_params.h"
#include "models/device/hdd_seek.h"

namespace ziosim {

class HddMechanism {
 public:
  // `phase`: the platter's angle at time 0, in turns [0, 1).
  HddMechanism(const HddMechanics& mech, const HddMap& geometry, double phase);

  int64_t period_ps() const { return period_ps_; }
  int cylinder() const { return cylinder_; }
  int head() const { return head_; }
  const HddMap& geometry() const { return geometry_; }

  // Time to move from the current position to `to`: the seek, or the head switch if
  // that is longer, plus the write settle for writes (never negative in total).
  int64_t PositionPs(const PhysicalAddress& to, bool is_write) const {
    int64_t ps = seek_.SeekPs(std::abs(to.cylinder - cylinder_));
    if (to.head != head_) ps = std::max(ps, head_switch_ps_);
    if (is_write) ps += write_settle_ps_;
    return std::max<int64_t>(ps, 0);
  }
  // Time from `t_ps` until the start of `a`'s sector passes under the head.
  int64_t RotationalWaitPs(int64_t t_ps, const PhysicalAddress& a) const { return WaitUntilPs(t_ps, SectorStartPs(a)); }
  // How long after the index mark passes the start of `a`'s sector does: [0, period).
  int64_t SectorStartPs(const PhysicalAddress& a) const {
    const HddMap::SectorSlot s = geometry_.AngleSlotOnTrack(a);
    return static_cast<int64_t>(s.slot) * period_ps_ / s.sectors_per_track;
  }
  // Time from `t_ps` until the platter turns to `start_ps` after its index mark.
  int64_t WaitUntilPs(int64_t t_ps, int64_t start_ps) const {
    const int64_t wait = start_ps - (t_ps + phase_ps_) % period_ps_;
    return wait < 0 ? wait + period_ps_ : wait;
  }
  int64_t SectorPs(int cylinder) const { return SectorPsOnTrackOf(geometry_.SectorsPerTrack(cylinder)); }
  // A sector's time on a track of `sectors_per_track` sectors.
  int64_t SectorPsOnTrackOf(int sectors_per_track) const { return period_ps_ / sectors_per_track; }
  void MoveTo(const PhysicalAddress& a) {
    cylinder_ = a.cylinder;
    head_ = a.head;
  }
  int64_t SeekPs(int64_t distance) const { return seek_.SeekPs(distance); }

 private:
  const HddMap& geometry_;
  HddSeek seek_;
  int64_t period_ps_;
  int64_t phase_ps_;  // how far the platter has turned at time 0
  int64_t head_switch_ps_;
  int64_t write_settle_ps_;
  int cylinder_ = 0;
  int head_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_HDD_MECHANISM_H_
