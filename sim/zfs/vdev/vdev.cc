#include "sim/zfs/vdev/vdev.h"

namespace ziosim {

int64_t Vdev::PsizeToAsize(int64_t psize, int ashift) const {
  const int64_t sector = int64_t{1} << ashift;
  return (psize + sector - 1) / sector * sector;
}

void Vdev::ResetStats() {
  for (const auto& c : children_) c->ResetStats();
}

void Vdev::AddChild(std::unique_ptr<Vdev> child) {
  child->parent_ = this;
  children_.push_back(std::move(child));
}

Zio* Vdev::NewChildZio(Zio* parent, Vdev* child, int64_t offset, int64_t size) {
  Zio* z = ctx_->arena.New();
  z->type = parent->type;
  z->priority = parent->priority;
  z->metadata = parent->metadata;  // ZIO_FLAG_VDEV_INHERIT carries DONT_CACHE down
  z->scan = parent->scan;          // ... and SCRUB / RESILVER
  z->offset = offset;
  z->size = size;
  z->vdev = child;
  z->parent = parent;
  z->created_ns = ctx_->sim->now();
  z->next_sibling = parent->first_child;
  if (parent->first_child != nullptr) parent->first_child->prev_sibling = z;
  parent->first_child = z;
  return z;
}

void Vdev::Unlink(Zio* zio) {
  Zio* parent = zio->parent;
  if (zio->prev_sibling != nullptr) {
    zio->prev_sibling->next_sibling = zio->next_sibling;
  } else {
    parent->first_child = zio->next_sibling;
  }
  if (zio->next_sibling != nullptr) zio->next_sibling->prev_sibling = zio->prev_sibling;
}

void Vdev::ChangePriority(Zio* zio, ZioPriority priority) {
  zio->priority = priority;
  for (Zio* c = zio->first_child; c != nullptr; c = c->next_sibling) c->vdev->ChangePriority(c, priority);
}

void Vdev::Finish(Zio* zio) {
  Zio* parent = zio->parent;
  if (parent == nullptr) {
    if (zio->listener != nullptr) zio->listener->OnZioDone(zio);
    ctx_->arena.Free(zio);
    return;
  }
  if (zio->error != 0 && parent->error == 0) parent->error = zio->error;
  Unlink(zio);
  ctx_->arena.Free(zio);
  if (--parent->children_pending == 0) parent->vdev->IoDone(parent);
}

}  // namespace ziosim
