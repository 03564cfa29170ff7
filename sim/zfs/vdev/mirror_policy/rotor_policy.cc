// `rotor`: the original mirror read policy (vdev_mirror.c, 2005-2013).
//
// The mirror's address space is cut into stripes of 2^vdev_mirror_shift bytes
// (2 MiB) and stripe k is read from child k mod nchildren:
//
//     preferred = (zio offset >> vdev_mirror_shift) % nchildren
//
// then the children are walked from `preferred`, wrapping, and the first one
// that is readable is used. The rule is blind to load and to locality: it only
// spreads *random* reads evenly. A single sequential reader reads 2 MiB from
// child 0, then 2 MiB from child 1, ... so one disk works at a time unless the
// prefetch lead spans several stripes; with an 8 MiB lead both disks of a
// 2-way mirror are busy, each seeking between its own stripes.
//
// Shipped by: Solaris / OpenSolaris, illumos-gate for years after, ZFS on
// Linux <= 0.6.1 (replaced by least_pending in 0.6.2), FreeBSD <= 9.x (replaced
// by load_locality in r256956, Oct 2013, i.e. FreeBSD 10.0).
//
// Tunables: vdev_mirror_shift (21; a compile-time constant in OpenZFS).
//
// Not modelled here (the mirror vdev's job, or out of scope): 'replacing' and
// 'spare' mirrors, which always prefer child 0; the root-of-DVAs case (ditto
// copies), which prefers a uniformly random DVA; children skipped because
// their DTL holds the block's txg.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"
#include "sim/core/status.h"

namespace ziosim {

MirrorPolicyInfo RotorMirrorPolicyInfo();

namespace {

int ReadShift(const Tunables& t) {
  const int64_t shift = t.Int("vdev_mirror_shift");
  if (shift < 0 || shift > 62) {
    throw InputError("vdev_mirror_shift must be between 0 and 62 (got " + std::to_string(shift) + ")");
  }
  return static_cast<int>(shift);
}

class RotorPolicy final : public MirrorPolicy {
 public:
  explicit RotorPolicy(const Tunables& t) : shift_(ReadShift(t)) {}

  int Choose(std::span<const MirrorChildState> children, const MirrorRead& io) override {
    const uint64_t n = children.size();
    if (n == 0) throw std::logic_error("rotor mirror policy: no children");
    // As in OpenZFS, the offset is an unsigned 64-bit quantity.
    const uint64_t preferred = (static_cast<uint64_t>(io.mirror_offset) >> shift_) % n;
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t c = (preferred + i) % n;
      if (children[c].readable) return static_cast<int>(c);
    }
    throw std::logic_error("rotor mirror policy: no readable child");
  }

 private:
  const int shift_;
};

}  // namespace

MirrorPolicyInfo RotorMirrorPolicyInfo() {
  return MirrorPolicyInfo{
      .name = "rotor",
      .doc = "Original rule: child = (offset >> vdev_mirror_shift) mod nchildren, i.e. 2 MiB stripes "
             "read from the children in turn; the next readable child if that one is not. Blind to "
             "load and locality. Solaris/illumos, ZFS on Linux <= 0.6.1, FreeBSD <= 9.",
      .tunables = "vdev_mirror_shift",
      .factory = [](const Tunables& t) -> std::unique_ptr<MirrorPolicy> {
        return std::make_unique<RotorPolicy>(t);
      },
  };
}

}  // namespace ziosim
