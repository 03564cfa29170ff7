#include "sim/zfs/pool.h"

#include <algorithm>

#include "sim/core/status.h"

#include "models/catalog/catalog.h"
#include "sim/zfs/vdev/vdev_kind.h"

namespace ziosim {

Pool::Pool(Simulation* sim, const PoolSpec& spec, Tunables tunables, uint64_t seed) : spec_(spec), seed_(seed) {
  ctx_.sim = sim;
  ctx_.tunables = std::move(tunables);
  root_ = std::make_unique<RootVdev>(&ctx_);
  for (size_t i = 0; i < spec.vdevs.size(); ++i) root_->AddChild(BuildTop(spec.vdevs[i], static_cast<int>(i)));
  for (size_t k = 0; k < spec.logs.size(); ++k) {
    root_->AddChild(BuildTop(spec.logs[k], static_cast<int>(spec.vdevs.size() + k)));
  }
}

std::unique_ptr<LeafVdev> Pool::BuildLeaf(const std::string& drive, int top_index) {
  const DriveSpec d = ResolveDrive(drive);
  const std::string name = "d" + std::to_string(leaves_.size());
  auto leaf = std::make_unique<LeafVdev>(&ctx_, name,
                                         MakeDevice(ctx_.sim, name, d, NativeQueuePolicy(d), SpindlePhase(seed_, name)));
  leaves_.push_back(leaf.get());
  leaf_drives_.push_back(d.name);
  leaf_tops_.push_back(top_index);
  return leaf;
}

std::unique_ptr<Vdev> Pool::BuildTop(const PoolSpecVdev& v, int top_index) {
  std::vector<std::unique_ptr<LeafVdev>> leaves;
  for (const PoolSpecLeaf& l : v.leaves) leaves.push_back(BuildLeaf(l.drive, top_index));
  return GetVdevKind(v.type).build(&ctx_, top_index, v, spec_.ashift, std::move(leaves));
}

int64_t Pool::BlockAsize(int top, int64_t psize) const { return this->top(top)->PsizeToAsize(psize, spec_.ashift); }

Zio* Pool::StartRoot(ZioType type, ZioScan scan, int top, int64_t offset, int64_t size, ZioPriority priority,
                     ZioDoneListener* listener, uint64_t tag, bool metadata) {
  Zio* z = ctx_.arena.New();
  z->metadata = metadata;
  z->scan = scan;
  z->type = type;
  z->priority = priority;
  z->offset = offset;
  z->size = size;
  z->vdev = root_.get();
  z->listener = listener;
  z->tag = tag;
  z->top_vdev = top;
  z->created_ns = ctx_.sim->now();
  root_->IoStart(z);
  return z;
}

Zio* Pool::Read(int top, int64_t offset, int64_t size, ZioPriority priority, ZioDoneListener* listener,
                uint64_t tag, bool metadata) {
  last_read_ns_ = ctx_.sim->now();
  return StartRoot(ZioType::kRead, ZioScan::kNone, top, offset, size, priority, listener, tag, metadata);
}

Zio* Pool::ScanRead(int top, int64_t offset, int64_t size, ZioScan scan, ZioDoneListener* listener, uint64_t tag) {
  return StartRoot(ZioType::kRead, scan, top, offset, size, ZioPriority::kScrub, listener, tag, false);
}

Zio* Pool::Write(int top, int64_t offset, int64_t size, ZioPriority priority, ZioDoneListener* listener,
                 uint64_t tag) {
  return StartRoot(ZioType::kWrite, ZioScan::kNone, top, offset, size, priority, listener, tag, false);
}

LeafVdev* Pool::Leaf(std::string_view name, const std::string& option) const {
  for (LeafVdev* l : leaves_) {
    if (l->name() == name) return l;
  }
  throw InputError(option + ": no disk named '" + std::string(name) + "' in the pool");
}

size_t Pool::LeafIndex(const Vdev* leaf) const {
  return static_cast<size_t>(std::find(leaves_.begin(), leaves_.end(), leaf) - leaves_.begin());
}

Zio* Pool::WriteLeaf(const Vdev* leaf, int64_t offset, int64_t size, ZioPriority priority,
                     ZioDoneListener* listener, uint64_t tag) {
  return WriteLabel(LeafIndex(leaf), offset + kVdevLabelStartBytes, size, priority, listener, tag);
}

Zio* Pool::WriteLabel(size_t leaf, int64_t phys_offset, int64_t size, ZioPriority priority,
                      ZioDoneListener* listener, uint64_t tag) {
  Zio* z = ctx_.arena.New();
  z->type = ZioType::kWrite;
  z->priority = priority;
  z->offset = phys_offset - kVdevLabelStartBytes;  // the leaf adds the front labels back
  z->size = size;
  z->vdev = leaves_[leaf];
  z->listener = listener;
  z->tag = tag;
  z->top_vdev = leaf_tops_[leaf];
  z->created_ns = ctx_.sim->now();
  leaves_[leaf]->IoStart(z);
  return z;
}

void Pool::ResetStats() { root_->ResetStats(); }

void Pool::SettleStats() {
  for (LeafVdev* l : leaves_) l->SettleStats();
}

std::unique_ptr<Device> MakeL2arcDevice(const Pool& pool, const std::string& drive) {
  const std::string name = drive.empty() && !pool.spec().caches.empty() ? pool.spec().caches[0].drive : drive;
  if (name.empty()) return nullptr;
  return MakeDevice(pool.sim(), "l2arc", ResolveDrive(name), QueuePolicy::kFifo, SpindlePhase(pool.seed(), "l2arc"));
}

}  // namespace ziosim
