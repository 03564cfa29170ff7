// Mirror child selection for reads (vdev_mirror.c): a pluggable strategy with
// a name, its tunables and a docstring. The mirror vdev gathers each child's
// state, applies the exclusion rules every era shares (unreadable children
// are never chosen), asks the policy, and issues the read to that child.
//
// To add a policy (a patch under discussion): derive from MirrorPolicy,
// implement Choose(), and register a factory under a name with
// RegisterMirrorPolicy(); `--set mirror_policy=NAME` then selects it. Python
// policies register through the same registry.
#ifndef ZIOSIM_SIM_ZFS_VDEV_MIRROR_POLICY_MIRROR_POLICY_H_
#define ZIOSIM_SIM_ZFS_VDEV_MIRROR_POLICY_MIRROR_POLICY_H_

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/time.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/zio.h"

namespace ziosim {

// What a policy may know about one child when a read arrives.
struct MirrorChildState {
  bool rotational = true;
  bool readable = true;     // false: faulted/offline; never to be chosen
  int in_device = 0;        // I/Os issued to the device and not completed (vq_active)
  int queued = 0;           // I/Os waiting in the child's ZFS queue
  int64_t last_offset = -1; // end of this child's last I/O, in the same space as MirrorRead::offset
                            // (the era's meaning: see `mirror_last_offset`); -1 if none yet
};

struct MirrorRead {
  int64_t offset = 0;  // in the space last_offset uses
  int64_t size = 0;
  int64_t mirror_offset = 0;  // the zio's offset in mirror space (no label): the 2 MiB hash uses it
  ZioPriority priority = ZioPriority::kSyncRead;
  SimTime now_ns = 0;
};

class MirrorPolicy {
 public:
  virtual ~MirrorPolicy() = default;
  // Returns the index of the child to read from.
  // REQUIRES: at least one child is readable. The result must be readable.
  virtual int Choose(std::span<const MirrorChildState> children, const MirrorRead& io) = 0;
};

using MirrorPolicyFactory = std::function<std::unique_ptr<MirrorPolicy>(const Tunables&)>;

struct MirrorPolicyInfo {
  std::string name;
  std::string doc;        // what it does, which ZFS versions shipped it
  std::string tunables;   // the tunables it reads, comma-separated
  MirrorPolicyFactory factory;
};

// Adds (or replaces) a policy. The built-in ones are registered on first use.
void RegisterMirrorPolicy(MirrorPolicyInfo info);
// Sorted by name.
std::vector<MirrorPolicyInfo> MirrorPolicies();
// InputError naming the known policies if `name` is unknown.
std::unique_ptr<MirrorPolicy> MakeMirrorPolicy(std::string_view name, const Tunables& tunables);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_MIRROR_POLICY_MIRROR_POLICY_H_
