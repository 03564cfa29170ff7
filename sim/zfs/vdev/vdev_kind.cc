// The vdev kind registry: the built-in kinds, one per file, listed here so
// that the linker keeps each kind's object file (as the mirror policy
// registry does; static registrars in a static library would be dropped).
#include "sim/zfs/vdev/vdev_kind.h"

#include <utility>

#include "sim/core/status.h"
#include "sim/zfs/pool_spec.h"

namespace ziosim {

// Defined beside each vdev kind's implementation.
VdevKind DiskVdevKind();
VdevKind MirrorVdevKind();
VdevKind RaidzVdevKind();
VdevKind DraidVdevKind();

namespace {

const std::vector<VdevKind>& Kinds() {
  static const std::vector<VdevKind> kinds = {DiskVdevKind(), MirrorVdevKind(), RaidzVdevKind(),
                                                DraidVdevKind()};
  return kinds;
}

}  // namespace

const VdevKind& GetVdevKind(std::string_view name) {
  for (const VdevKind& k : Kinds()) {
    if (k.name == name) return k;
  }
  throw InternalError("no vdev kind \"" + std::string(name) + "\" is registered");
}

const VdevKind* FindVdevKindByKeyword(std::string_view word, PoolSpecVdev* vdev, std::string* error) {
  error->clear();
  for (const VdevKind& k : Kinds()) {
    for (const auto& [keyword, p] : k.keywords) {
      if (keyword == word) {
        vdev->type = k.name;
        vdev->parity = p;
        return &k;
      }
    }
    if (k.parse_keyword != nullptr && k.parse_keyword(word, vdev, error)) {
      vdev->type = k.name;
      return &k;
    }
  }
  return nullptr;
}

std::vector<std::string> VdevKindKeywords() {
  std::vector<std::string> out;
  for (const VdevKind& k : Kinds()) {
    for (const auto& kw : k.keywords) out.push_back(kw.first);
  }
  return out;
}

}  // namespace ziosim
