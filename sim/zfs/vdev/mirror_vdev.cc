#include "sim/zfs/vdev/mirror_vdev.h"

#include <algorithm>
#include <cerrno>

#include "sim/zfs/pool_spec.h"
#include "sim/zfs/vdev/vdev_kind.h"

namespace ziosim {

VdevKind MirrorVdevKind() {
  return VdevKind{
      "mirror",
      "N-way mirror: every child holds the whole block; a read goes to one, chosen by mirror_policy",
      {{"mirror", 0}},
      [](int) { return 2; },
      kMaxVdevWidth,
      [](const PoolSpecVdev&) { return std::string("mirror"); },
      [](PoolContext* ctx, int top_index, const PoolSpecVdev&, int, std::vector<std::unique_ptr<LeafVdev>> leaves) {
        auto m = std::make_unique<MirrorVdev>(ctx, "mirror-" + std::to_string(top_index));
        for (auto& l : leaves) m->AddChild(std::move(l));
        m->Open();
        return std::unique_ptr<Vdev>(std::move(m));
      }};
}

MirrorVdev::MirrorVdev(PoolContext* ctx, std::string name) : Vdev(ctx, "mirror", std::move(name)) {}

void MirrorVdev::Open() {
  const Tunables& t = ctx_->tunables;
  policy_ = MakeMirrorPolicy(t.Choice("mirror_policy"), t);
  selection_time_last_ = t.Choice("mirror_last_offset") == "selection";
  // OpenZFS starts every child's last offset at 0 (vq_lastoffset = 0).
  assigned_end_.assign(children().size(), 0);
  state_.resize(children().size());
  stats_.chosen.assign(children().size(), 0);
}

void MirrorVdev::ResetStats() {
  stats_ = MirrorStats{std::vector<uint64_t>(children().size(), 0), 0, 0};
  Vdev::ResetStats();
}

int64_t MirrorVdev::asize_bytes() const {
  int64_t smallest = INT64_MAX;
  for (const auto& c : children()) smallest = std::min(smallest, c->asize_bytes());
  return smallest;
}

bool MirrorVdev::rotational() const {
  return std::any_of(children().begin(), children().end(), [](const auto& c) { return c->rotational(); });
}

bool MirrorVdev::readable() const {
  return std::any_of(children().begin(), children().end(), [](const auto& c) { return c->readable(); });
}

void MirrorVdev::IoStart(Zio* zio) {
  if (zio->type == ZioType::kWrite) {
    zio->children_pending = static_cast<int>(children().size());
    for (size_t i = 0; i < children().size(); ++i) {
      child(i)->IoStart(NewChildZio(zio, child(i), zio->offset, zio->size));
    }
    return;
  }
  if (!readable()) {
    zio->error = ENXIO;
    Finish(zio);
    return;
  }
  if (zio->scan == ZioScan::kScrub) {
    ScrubAllChildren(zio);
    return;
  }
  const int c = ChooseChild(zio);
  zio->children_pending = 1;
  Zio* child_zio = NewChildZio(zio, child(c), zio->offset, zio->size);
  child_zio->mirror_child = static_cast<int8_t>(c);
  child_zio->mirror_reason = zio->mirror_reason;
  child(c)->IoStart(child_zio);
}

// vdev_default_need_resilver: the mirror's DTL holds every txg while a child is replaced.
bool MirrorVdev::NeedsResilver(int64_t /*offset*/, int64_t /*psize*/) const {
  return std::any_of(children().begin(), children().end(), [](const auto& c) { return IsReplacing(*c); });
}

// vdev_mirror_io_done: the whole block to every child being replaced.
void MirrorVdev::RepairWrites(int64_t offset, int64_t psize, std::vector<RepairWrite>* out) const {
  for (const auto& c : children()) {
    if (IsReplacing(*c)) out->push_back(RepairWrite{c.get(), offset, psize});
  }
}

// vdev_mirror_io_start with ZIO_FLAG_SCRUB: every readable child is read, to
// verify every copy (a resilver reads one, as a normal read).
void MirrorVdev::ScrubAllChildren(Zio* zio) {
  int n = 0;
  for (size_t i = 0; i < children().size(); ++i) n += child(i)->readable();
  zio->children_pending = n;
  for (size_t i = 0; i < children().size(); ++i) {
    if (!child(i)->readable()) continue;
    Zio* child_zio = NewChildZio(zio, child(i), zio->offset, zio->size);
    child_zio->mirror_child = static_cast<int8_t>(i);
    child(i)->IoStart(child_zio);
  }
}

// Gathers each child's state in the era's offset space and asks the policy.
int MirrorVdev::ChooseChild(Zio* zio) {
  int readable_count = 0, only = 0;
  for (size_t i = 0; i < state_.size(); ++i) {
    const LeafVdev* l = leaf(i);
    MirrorChildState& s = state_[i];
    s.rotational = l->rotational();
    s.readable = l->readable();
    s.in_device = l->queue().active();
    s.queued = l->queue().queued();
    // Issue time: the queue's physical offsets; a queue that issued nothing yet reads 0.
    s.last_offset = selection_time_last_ ? assigned_end_[i] : std::max<int64_t>(l->queue().last_issued_end(), 0);
    if (s.readable) {
      ++readable_count;
      only = static_cast<int>(i);
    }
  }
  MirrorRead io;
  io.offset = selection_time_last_ ? zio->offset : zio->offset + kVdevLabelStartBytes;
  io.size = zio->size;
  io.mirror_offset = zio->offset;
  io.priority = zio->priority;
  io.now_ns = ctx_->sim->now();
  int c;
  if (readable_count == 1) {
    c = only;
    ++stats_.only_readable;
    zio->mirror_reason = MirrorReason::kOnlyReadable;
  } else {
    c = policy_->Choose(state_, io);
    ++stats_.policy_choices;
    zio->mirror_reason = MirrorReason::kPolicy;
  }
  ++stats_.chosen[c];
  assigned_end_[c] = zio->end();
  return c;
}

}  // namespace ziosim
