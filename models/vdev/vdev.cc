#include "models/vdev/vdev.h"

namespace ziosim {

void Vdev::AddChild(std::unique_ptr<Vdev> child) {
  child->parent_ = this;
  children_.push_back(std::move(child));
}

Zio* Vdev::NewChildZio(Zio* parent, Vdev* child, int64_t offset, int64_t size) {
  Zio* z = ctx_->arena.New();
  z->type = parent->type;
  z->priority = parent->priority;
  z->offset = offset;
  z->size = size;
  z->vdev = child;
  z->parent = parent;
  z->created_ns = ctx_->sim->now();
  return z;
}

void Vdev::Finish(Zio* zio) {
  Zio* parent = zio->parent;
  if (parent == nullptr) {
    if (zio->listener != nullptr) zio->listener->OnZioDone(zio);
    ctx_->arena.Free(zio);
    return;
  }
  if (zio->error != 0 && parent->error == 0) parent->error = zio->error;
  ctx_->arena.Free(zio);
  if (--parent->children_pending == 0) parent->vdev->IoDone(parent);
}

}  // namespace ziosim
