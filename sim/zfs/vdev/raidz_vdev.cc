#include "sim/zfs/vdev/raidz_vdev.h"

#include <algorithm>
#include <cerrno>

#include "sim/zfs/pool_spec.h"
#include "sim/zfs/vdev/leaf_vdev.h"
#include "sim/zfs/vdev/vdev_kind.h"

namespace ziosim {

VdevKind RaidzVdevKind() {
  return VdevKind{
      "raidz",
      "RAID-Z1/2/3: a block cut into data columns across the children, with 1-3 parity columns",
      {{"raidz", 1}, {"raidz1", 1}, {"raidz2", 2}, {"raidz3", 3}},
      [](int parity) { return parity + 1; },
      kMaxRaidzWidth,
      [](const PoolSpecVdev& v) { return "raidz" + std::to_string(v.parity); },
      [](PoolContext* ctx, int top_index, const PoolSpecVdev& v, int ashift,
         std::vector<std::unique_ptr<LeafVdev>> leaves) {
        auto r = std::make_unique<RaidzVdev>(
            ctx, "raidz" + std::to_string(v.parity) + "-" + std::to_string(top_index), v.parity, ashift);
        for (auto& l : leaves) r->AddChild(std::move(l));
        return std::unique_ptr<Vdev>(std::move(r));
      }};
}

RaidzVdev::RaidzVdev(PoolContext* ctx, std::string name, int parity, int ashift)
    : Vdev(ctx, "raidz" + std::to_string(parity), std::move(name)), parity_(parity), ashift_(ashift) {}

int64_t RaidzVdev::PsizeToAsize(int64_t psize, int /*ashift*/) const {
  return RaidzAsize(static_cast<int>(children().size()), parity_, ashift_, psize);
}

void RaidzVdev::ResetStats() {
  stats_ = RaidzStats{};
  Vdev::ResetStats();
}

// Sector-interleaved over the children: every child contributes its whole size.
int64_t RaidzVdev::asize_bytes() const {
  int64_t smallest = INT64_MAX;
  for (const auto& c : children()) smallest = std::min(smallest, c->asize_bytes());
  const int64_t sector = int64_t{1} << ashift_;
  return smallest / sector * sector * static_cast<int64_t>(children().size());
}

bool RaidzVdev::rotational() const {
  return std::any_of(children().begin(), children().end(), [](const auto& c) { return c->rotational(); });
}

int RaidzVdev::missing_children() const {
  return static_cast<int>(std::count_if(children().begin(), children().end(),
                                        [](const auto& c) { return !c->readable(); }));
}

bool RaidzVdev::readable() const { return missing_children() <= parity_; }

// vdev_raidz_need_resilver: the block has a column on a child being replaced.
bool RaidzVdev::NeedsResilver(int64_t offset, int64_t psize) const {
  std::vector<RepairWrite> w;
  RepairWrites(offset, psize, &w);
  return !w.empty();
}

// vdev_raidz_io_done: the reconstructed column of each child being replaced.
void RaidzVdev::RepairWrites(int64_t offset, int64_t psize, std::vector<RepairWrite>* out) const {
  const RaidzMap map = MapRaidzBlock(static_cast<int>(children().size()), parity_, ashift_, offset, psize);
  for (int c = 0; c < map.columns; ++c) {
    const RaidzColumn& col = map.column[c];
    if (col.size > 0 && IsReplacing(*child(col.child))) out->push_back(RepairWrite{child(col.child), col.offset, col.size});
  }
}

void RaidzVdev::IoStart(Zio* zio) {
  const int width = static_cast<int>(children().size());
  const RaidzMap map = MapRaidzBlock(width, parity_, ashift_, zio->offset, zio->size);
  const bool write = zio->type == ZioType::kWrite;
  // Parity is read only when a data column is unreadable (vdev_raidz_io_start).
  bool missing_data = false;
  for (int c = map.parity; c < map.columns; ++c) {
    if (map.column[c].size > 0 && !child(map.column[c].child)->readable()) missing_data = true;
  }
  if (!write) {
    ++stats_.blocks_read;
    if (missing_data && !readable()) {
      zio->error = EIO;
      Finish(zio);
      return;
    }
    if (missing_data) ++stats_.reconstructions;
  }
  // Count the children first: a child may finish before the last one is issued.
  // Scrub and resilver read the parity as well, to verify (and repair) it.
  const bool scan = zio->scan != ZioScan::kNone;
  auto wanted = [&](int c) {
    const RaidzColumn& col = map.column[c];
    if (col.size == 0 || !child(col.child)->readable()) return false;
    return write || missing_data || scan || c >= map.parity;
  };
  int n = 0;
  for (int c = 0; c < map.columns; ++c) n += wanted(c);
  zio->children_pending = n;
  // Reverse order, as OpenZFS issues them: parity columns last.
  for (int c = map.columns - 1; c >= 0; --c) {
    if (!wanted(c)) continue;
    if (c < map.parity && !write) ++stats_.parity_columns_read;
    const RaidzColumn& col = map.column[c];
    Vdev* target = child(col.child);
    target->IoStart(NewChildZio(zio, target, col.offset, col.size));
  }
  if (write) IssueSkipSectors(*zio, map);
}

// vdev_raidz_io_start: optional writes of the skip sectors, so that the leaf
// queue can aggregate a column with the next block's across the pad.
void RaidzVdev::IssueSkipSectors(const Zio& zio, const RaidzMap& map) {
  const int64_t sector = int64_t{1} << ashift_;
  for (int i = 0; i < map.skip_sectors; ++i) {
    const RaidzColumn s = RaidzSkipSector(map, i);
    Vdev* target = child(s.child);
    if (!target->readable()) continue;
    Zio* pad = ctx_->arena.New();
    pad->type = ZioType::kWrite;
    pad->priority = zio.priority;
    pad->offset = s.offset;
    pad->size = sector;
    pad->vdev = target;
    pad->optional = true;
    pad->created_ns = ctx_->sim->now();
    ++stats_.skip_writes;
    target->IoStart(pad);
  }
}

}  // namespace ziosim
