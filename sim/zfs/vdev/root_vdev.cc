#include "sim/zfs/vdev/root_vdev.h"

#include <algorithm>
#include <cerrno>

namespace ziosim {

int64_t RootVdev::asize_bytes() const {
  int64_t total = 0;
  for (const auto& c : children()) total += c->asize_bytes();
  return total;
}

bool RootVdev::rotational() const {
  return std::any_of(children().begin(), children().end(), [](const auto& c) { return c->rotational(); });
}

bool RootVdev::readable() const {
  return std::all_of(children().begin(), children().end(), [](const auto& c) { return c->readable(); });
}

void RootVdev::IoStart(Zio* zio) {
  Vdev* top = child(static_cast<size_t>(zio->top_vdev));
  zio->children_pending = 1;
  top->IoStart(NewChildZio(zio, top, zio->offset, zio->size));
}

}  // namespace ziosim
