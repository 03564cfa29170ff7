// The kinds of top-level vdev a pool is made of, registered by the keywords
// `zpool create` takes for them: the construction half of OpenZFS's
// vdev_ops_t (vdev_op_type, and the checks of vdev_alloc / zpool's
// construct_spec). The per-I/O half is Vdev's virtual interface (vdev.h).
// The pool spec parser knows a group keyword only through this table, and the
// pool builds every top-level vdev through it, so a new kind is one more file
// that defines its VdevKind and one line in vdev_kind.cc.
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
struct PoolSpecVdev;  // sim/zfs/pool_spec.h: a group as the spec gives it

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
  // Most children a group may have (zpool's limit, or ziosim's where smaller).
  int max_children = 0;
  // The keyword FormatPoolSpec writes for a group (the canonical one).
  std::string (*keyword_for)(const PoolSpecVdev& vdev) = nullptr;
  // Builds top-level vdev number `top_index` over its leaves (in spec order).
  std::unique_ptr<Vdev> (*build)(PoolContext* ctx, int top_index, const PoolSpecVdev& vdev, int ashift,
                                 std::vector<std::unique_ptr<LeafVdev>> leaves) = nullptr;
  // For a kind whose keyword carries more than a parity ("draid2:8d:12c:1s"):
  // whether `word` is one of its keywords, with what it says stored in `vdev`,
  // or a reason in `error` when it is one but malformed. nullptr: `keywords` only.
  bool (*parse_keyword)(std::string_view word, PoolSpecVdev* vdev, std::string* error) = nullptr;
  // Checks a whole group (its leaves known) and fills the defaults that depend
  // on how many there are (dRAID's data disks per group); throws InputError
  // with the reason. nullptr: nothing beyond min_children / max_children.
  void (*complete)(PoolSpecVdev* vdev) = nullptr;
};

// The kind named `name`. Throws InternalError for an unregistered one (the
// parser only produces registered names).
const VdevKind& GetVdevKind(std::string_view name);

// The kind a group keyword opens, with what the keyword says (the parity, and
// dRAID's fields) in `vdev`; nullptr for a word that is no kind's keyword. A
// word that is a kind's but malformed ("draid4") gives the kind and a reason
// in `error` (empty otherwise).
const VdevKind* FindVdevKindByKeyword(std::string_view word, PoolSpecVdev* vdev, std::string* error);

// Every group keyword, in registration order ("mirror", "raidz", "raidz1", ...).
std::vector<std::string> VdevKindKeywords();

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_VDEV_KIND_H_
