// The kinds of top-level vdev a pool is made of, registered by the keywords
// `zpool create` takes for them: the construction half of OpenZFS's
// vdev_ops_t (vdev_op_type, and the checks of vdev_alloc / zpool's
// construct_spec). The per-I/O half is Vdev's virtual interface (vdev.h).
// The pool spec parser knows a group keyword only through this table, and the
// pool builds every top-level vdev through it, so a new kind (dRAID) is one
// more file that defines its VdevKind and one line in vdev_kind.cc.
#ifndef ZIOSIM_SIM_ZFS_VDEV_VDEV_KIND_H_
#define ZIOSIM_SIM_ZFS_VDEV_VDEV_KIND_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ziosim {

class LeafVdev;
class Vdev;
struct PoolContext;

struct VdevKind {
  // The kind's name, as PoolSpecVdev::type holds it: "disk", "mirror", "raidz".
  std::string name;
  // What it is, for error messages and docs.
  std::string doc;
  // The words that open a group of this kind, each with the parity it gives
  // ("raidz" and "raidz1" give 1). Empty for "disk": a bare drive.
  std::vector<std::pair<std::string, int>> keywords;
  // Fewest children a group of this kind with `parity` may have.
  int (*min_children)(int parity) = nullptr;
  // The keyword FormatPoolSpec writes for `parity` (the canonical one).
  std::string (*keyword_for)(int parity) = nullptr;
  // Builds top-level vdev number `top_index` over its leaves (in spec order).
  std::unique_ptr<Vdev> (*build)(PoolContext* ctx, int top_index, int parity, int ashift,
                                 std::vector<std::unique_ptr<LeafVdev>> leaves) = nullptr;
};

// The kind named `name`. Throws InternalError for an unregistered one (the
// parser only produces registered names).
const VdevKind& GetVdevKind(std::string_view name);

// The kind a group keyword opens, with the parity it gives; nullptr for a word
// that is no kind's keyword.
const VdevKind* FindVdevKindByKeyword(std::string_view word, int* parity);

// Every group keyword, in registration order ("mirror", "raidz", "raidz1", ...).
std::vector<std::string> VdevKindKeywords();

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_VDEV_KIND_H_
