// `least_pending`: ZFS on Linux's 2013 mirror read policy (commit 556011dbec,
// "Improve N-way mirror read performance").
//
// Read from the child with the fewest I/Os *in the device* (issued by the leaf
// queue and not yet completed: vq_pending_tree under the old scheduler,
// vq_active_tree after illumos 4045). I/Os still waiting in ZFS's own queue
// are not counted. When several children tie at the lowest count, time is cut
// into windows of zfs_vdev_mirror_switch_us (10 ms) and window w picks the
// (w mod nlow)-th of the tied children, in child index order:
//
//     pending[c] = readable(c) ? in_device(c) : INT_MAX
//     lowest     = min pending;   nlow = #children at lowest
//     window     = now_ns / (1000 * zfs_vdev_mirror_switch_us)
//     preferred  = the (window mod nlow)-th child with pending == lowest
//
// Why the window: once every disk is saturated the counts tie, and sending all
// reads of a 10 ms window to the same disk lets the Linux elevator merge them
// while the queue is plugged. There is no locality term, so one sequential
// stream alternates between disks: its first blocks go to whichever disk holds
// fewer I/Os (each disk sees 128 KiB reads with 128 KiB holes), and once the
// counts tie the rest of a burst goes to the disk the current window selects.
// ZoL measured 302 -> 433 MB/s on 2x2-way mirrors (1 MiB sequential reads).
//
// Shipped by: ZFS on Linux 0.6.2 - 0.6.5.x (2013-2016). Replaced in ZoL 0.7.0
// by the FreeBSD load_locality policy. Never in illumos or FreeBSD.
//
// Tunables: zfs_vdev_mirror_switch_us (10000).
//
// Differences from the C code, none visible in practice: ZoL divides
// gethrtime() (time since boot) and keeps the window index in an `int`, which
// wraps after ~248 days of uptime; ziosim uses the run's clock (starting at 0)
// and a 64-bit index. 'replacing'/'spare' mirrors (which always prefer child 0)
// and DTL-stale children are the mirror vdev's concern.
#include <climits>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"
#include "sim/core/status.h"

namespace ziosim {

MirrorPolicyInfo LeastPendingMirrorPolicyInfo();

namespace {

SimTime ReadWindowNs(const Tunables& t) {
  const int64_t switch_us = t.Int("zfs_vdev_mirror_switch_us");
  // OpenZFS would divide by zero (a kernel panic) on 0; refuse it up front.
  if (switch_us <= 0 || switch_us > INT64_MAX / kNsPerUs) {
    throw InputError("zfs_vdev_mirror_switch_us must be positive (got " + std::to_string(switch_us) +
                     ")");
  }
  return switch_us * kNsPerUs;
}

class LeastPendingPolicy final : public MirrorPolicy {
 public:
  explicit LeastPendingPolicy(const Tunables& t) : window_ns_(ReadWindowNs(t)) {}

  int Choose(std::span<const MirrorChildState> children, const MirrorRead& io) override {
    int lowest = INT_MAX;
    int64_t nlow = 0;
    for (const MirrorChildState& c : children) {
      if (!c.readable) continue;  // pending = INT_MAX: never among the lowest
      if (c.in_device < lowest) {
        lowest = c.in_device;
        nlow = 1;
      } else if (c.in_device == lowest) {
        ++nlow;
      }
    }
    if (nlow == 0) throw std::logic_error("least_pending mirror policy: no readable child");

    // gethrtime() never runs backwards from 0; a negative clock would only come from a caller bug.
    const int64_t window = io.now_ns >= 0 ? io.now_ns / window_ns_ : 0;
    int64_t k = window % nlow;
    for (size_t c = 0; c < children.size(); ++c) {
      if (children[c].readable && children[c].in_device == lowest && k-- == 0) return static_cast<int>(c);
    }
    throw std::logic_error("least_pending mirror policy: unreachable");
  }

 private:
  const SimTime window_ns_;
};

}  // namespace

MirrorPolicyInfo LeastPendingMirrorPolicyInfo() {
  return MirrorPolicyInfo{
      .name = "least_pending",
      .doc = "ZFS on Linux 2013 rule: the readable child with the fewest I/Os in the device; ties are "
             "broken by time, every read of a zfs_vdev_mirror_switch_us window going to the same tied "
             "child. No locality term. ZFS on Linux 0.6.2 - 0.6.5.x (commit 556011dbec).",
      .tunables = "zfs_vdev_mirror_switch_us",
      .factory = [](const Tunables& t) -> std::unique_ptr<MirrorPolicy> {
        return std::make_unique<LeastPendingPolicy>(t);
      },
  };
}

}  // namespace ziosim
