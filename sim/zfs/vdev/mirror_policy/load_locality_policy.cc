// `load_locality`: the load + locality mirror read policy (FreeBSD r256956,
// Oct 2013; vdev_mirror_load() and vdev_mirror_child_select() in OpenZFS).
//
// Each readable child gets a load, and the read goes to the least loaded one:
//
//     load(c) = in_device(c) + penalty(c)
//     rotating:      last(c) == off                    -> rotating_inc       (0)
//                    |last(c) - off| < seek_offset     -> rotating_seek_inc/2 (5/2 = 2)
//                    otherwise                         -> rotating_seek_inc  (5)
//     non-rotating:  last(c) == off                    -> non_rotating_inc      (0)
//                    otherwise                         -> non_rotating_seek_inc (1)
//
// `in_device` counts I/Os issued to the device and not completed (all classes,
// reads and writes); the ZFS queue's backlog is invisible. `last(c)` is where
// the child's previous I/O ended, so the penalty favours the disk whose head is
// already where the read starts: a sequential stream sticks to one disk until
// that disk holds seek_inc (5) more I/Os than the other, then moves, and the new
// disk now owns the stream. With several streams each disk tends to serve a
// subset of them, which saves seeks that the rotor and least_pending policies
// pay. SSDs still get a +1 seek penalty because sequential reads aggregate into
// fewer commands; random reads therefore favour an SSD over an HDD (+1 vs +5).
//
// The children tied at the minimum load are kept in index order, and
// set[(mirror offset >> vdev_mirror_shift) mod set size] is chosen: a
// deterministic choice per 2 MiB region, so that the first of several idle
// SSDs does not take all the wear. (OpenZFS draws at random only at the root,
// among the DVAs of a ditto block, which is not a mirror vdev.)
//
// Two eras differ in what `last` and `off` mean (tunable mirror_last_offset):
//   selection (FreeBSD 10 - 12, ZoL 0.7.0 - Aug 2017): last = end of the last
//     read the *mirror assigned* to the child (vdev_queue_register_lastoffset
//     at selection time), in mirror space. The near test computed
//     ABS(last - off) on uint64_t, and an unsigned value is never negative, so
//     "near" held only when the read starts *behind* last by less than
//     seek_offset; a forward skip of any size got the full seek_inc. This bug
//     is reproduced.
//   issue (ZoL d6c6590c5d, Aug 2017 -> ZoL 0.8, OpenZFS 2.x): last = end of the
//     last I/O the leaf queue *issued* to the device (after aggregation, any
//     class); off includes the 4 MiB label; the near test is a signed
//     |difference|.
// The mirror vdev supplies last/off in the era's space; this file only applies
// the era's comparison.
//
// A child with no I/O yet (last_offset == -1) is neither exact nor near: it
// pays the full seek penalty. OpenZFS instead starts the queue's last offset at
// 0 (vdev_queue_init / a zeroed vdev_t). In the issue era off >= 4 MiB (label),
// so 0 is never exact and, at the default seek_offset, never near: the same
// result as -1. In the selection era a read at mirror offset 0 would count as
// exact (+0) on a child that has served nothing yet, and nothing else is near
// (the unsigned distance from 0 is huge); a mirror vdev that wants that
// artefact passes 0 instead of -1, which this policy treats as an ordinary
// offset.
//
// Shipped by: FreeBSD 10.0 - 12.x (r256956), ZFS on Linux 0.7.0+ (commit
// 9f500936c8), OpenZFS 2.x (current). Unchanged since introduction except the
// meaning of last/off (d6c6590c5d) and a dRAID distributed-spare shortcut.
//
// Tunables: zfs_vdev_mirror_rotating_inc (0), zfs_vdev_mirror_rotating_seek_inc
// (5), zfs_vdev_mirror_rotating_seek_offset (1 MiB),
// zfs_vdev_mirror_non_rotating_inc (0), zfs_vdev_mirror_non_rotating_seek_inc
// (1), vdev_mirror_shift (21), mirror_last_offset (selection | issue).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"
#include "sim/core/status.h"

namespace ziosim {

MirrorPolicyInfo LoadLocalityMirrorPolicyInfo();

namespace {

struct Params {
  int shift = 21;
  int64_t rotating_inc = 0;
  int64_t rotating_seek_inc = 5;
  int64_t rotating_seek_offset = 1 << 20;
  int64_t non_rotating_inc = 0;
  int64_t non_rotating_seek_inc = 1;
  bool unsigned_near = false;  // mirror_last_offset=selection: the 2013-2017 ABS() on uint64_t
};

Params ReadParams(const Tunables& t) {
  Params p;
  const int64_t shift = t.Int("vdev_mirror_shift");
  if (shift < 0 || shift > 62) {
    throw InputError("vdev_mirror_shift must be between 0 and 62 (got " + std::to_string(shift) + ")");
  }
  p.shift = static_cast<int>(shift);
  p.rotating_inc = t.Int("zfs_vdev_mirror_rotating_inc");
  p.rotating_seek_inc = t.Int("zfs_vdev_mirror_rotating_seek_inc");
  p.rotating_seek_offset = t.Int("zfs_vdev_mirror_rotating_seek_offset");
  p.non_rotating_inc = t.Int("zfs_vdev_mirror_non_rotating_inc");
  p.non_rotating_seek_inc = t.Int("zfs_vdev_mirror_non_rotating_seek_inc");
  const std::string& era = t.Choice("mirror_last_offset");
  if (era == "selection") {
    p.unsigned_near = true;
  } else if (era != "issue") {
    throw InputError("mirror_last_offset must be 'selection' or 'issue' (got '" + era + "')");
  }
  return p;
}

class LoadLocalityPolicy final : public MirrorPolicy {
 public:
  explicit LoadLocalityPolicy(const Tunables& t) : p_(ReadParams(t)) {}

  int Choose(std::span<const MirrorChildState> children, const MirrorRead& io) override {
    // Pass 1: the minimum load and how many children share it (the tie set, in index order).
    int64_t lowest = INT64_MAX;
    uint64_t set_size = 0;
    for (const MirrorChildState& c : children) {
      if (!c.readable) continue;
      const int64_t load = Load(c, io.offset);
      if (load < lowest) {
        lowest = load;
        set_size = 1;
      } else if (load == lowest) {
        ++set_size;
      }
    }
    if (set_size == 0) throw std::logic_error("load_locality mirror policy: no readable child");
    // Pass 2: set[0] if alone, else set[(mirror offset >> shift) mod set size].
    uint64_t k = set_size == 1 ? 0 : (static_cast<uint64_t>(io.mirror_offset) >> p_.shift) % set_size;
    for (size_t c = 0; c < children.size(); ++c) {
      if (children[c].readable && Load(children[c], io.offset) == lowest && k-- == 0) {
        return static_cast<int>(c);
      }
    }
    throw std::logic_error("load_locality mirror policy: unreachable");
  }

 private:
  int64_t Load(const MirrorChildState& c, int64_t off) const { return c.in_device + Penalty(c, off); }

  int64_t Penalty(const MirrorChildState& c, int64_t off) const {
    const bool has_last = c.last_offset != -1;
    const bool exact = has_last && c.last_offset == off;
    if (!c.rotational) return exact ? p_.non_rotating_inc : p_.non_rotating_seek_inc;
    if (exact) return p_.rotating_inc;
    if (has_last && Near(c.last_offset, off)) return p_.rotating_seek_inc / 2;
    return p_.rotating_seek_inc;
  }

  bool Near(int64_t last, int64_t off) const {
    if (p_.unsigned_near) {
      // ABS(last - off) on uint64_t is just last - off modulo 2^64.
      const uint64_t d = static_cast<uint64_t>(last) - static_cast<uint64_t>(off);
      return d < static_cast<uint64_t>(p_.rotating_seek_offset);
    }
    const uint64_t d = last >= off ? static_cast<uint64_t>(last) - static_cast<uint64_t>(off)
                                   : static_cast<uint64_t>(off) - static_cast<uint64_t>(last);
    return d < static_cast<uint64_t>(p_.rotating_seek_offset);
  }

  const Params p_;
};

}  // namespace

MirrorPolicyInfo LoadLocalityMirrorPolicyInfo() {
  return MirrorPolicyInfo{
      .name = "load_locality",
      .doc = "FreeBSD/OpenZFS rule: load = I/Os in the device + a locality penalty (HDD: 0 if the read "
             "starts where the child's last I/O ended, 2 if within 1 MiB, else 5; SSD: 0 or 1); the "
             "least loaded readable child wins, ties broken by the 2 MiB region of the offset. "
             "mirror_last_offset picks the era: 'selection' (FreeBSD 10-12, ZoL 0.7: last set when the "
             "mirror assigns a read, unsigned-distance bug) or 'issue' (ZoL 0.8+, OpenZFS 2.x: last set "
             "when the leaf issues an I/O). FreeBSD r256956 (10.0+), ZFS on Linux 0.7.0+, OpenZFS.",
      .tunables = "vdev_mirror_shift, zfs_vdev_mirror_rotating_inc, zfs_vdev_mirror_rotating_seek_inc, "
                  "zfs_vdev_mirror_rotating_seek_offset, zfs_vdev_mirror_non_rotating_inc, "
                  "zfs_vdev_mirror_non_rotating_seek_inc, mirror_last_offset",
      .factory = [](const Tunables& t) -> std::unique_ptr<MirrorPolicy> {
        return std::make_unique<LoadLocalityPolicy>(t);
      },
  };
}

}  // namespace ziosim
