// The vdev kind registry: the built-in kinds, one per file, listed here so
// that the linker keeps each kind's object file (as the mirror policy
// registry does; static registrars in a static library would be dropped).
#include "sim/zfs/vdev/vdev_kind.h"

#include <utility>

#include "sim/core/status.h"

namespace ziosim {

// Defined beside each vdev kind's implementation.
VdevKind DiskVdevKind();
VdevKind MirrorVdevKind();
VdevKind RaidzVdevKind();

namespace {

const std::vector<VdevKind>& Kinds() {
  static const std::vector<VdevKind> kinds = {DiskVdevKind(), MirrorVdevKind(), RaidzVdevKind()};
  return kinds;
}

}  // namespace

const VdevKind& GetVdevKind(std::string_view name) {
  for (const VdevKind& k : Kinds()) {
    if (k.name == name) return k;
  }
  throw InternalError("no vdev kind \"" + std::string(name) + "\" is registered");
}

const VdevKind* FindVdevKindByKeyword(std::string_view word, int* parity) {
  for (const VdevKind& k : Kinds()) {
    for (const auto& [keyword, p] : k.keywords) {
      if (keyword == word) {
        *parity = p;
        return &k;
      }
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
