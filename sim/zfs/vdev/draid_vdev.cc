#include "sim/zfs/vdev/draid_vdev.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <string>

#include "sim/core/status.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/vdev/draid_map.h"
#include "sim/zfs/vdev/leaf_vdev.h"
#include "sim/zfs/vdev/vdev_kind.h"

namespace ziosim {
namespace {

// Reads a decimal number at word[*pos] (at most 4 digits: every dRAID field is
// below 1000); -1 when there is no digit there.
int ReadSmallNumber(std::string_view word, size_t* pos) {
  const size_t start = *pos;
  int value = 0;
  while (*pos < word.size() && std::isdigit(static_cast<unsigned char>(word[*pos])) != 0 && *pos - start < 4) {
    value = value * 10 + (word[*pos] - '0');
    ++*pos;
  }
  return *pos == start ? -1 : value;
}

// zpool's draid[<parity>][:<data>d][:<children>c][:<spares>s] (get_parity and
// draid_config_by_type of cmd/zpool/zpool_vdev.c; the fields in any order,
// suffixes in either case). Stricter than zpool in one way: nothing may follow
// a field's suffix.
bool ParseDraidKeyword(std::string_view word, PoolSpecVdev* v, std::string* error) {
  if (!word.starts_with("draid")) return false;
  size_t pos = 5;
  v->parity = 1;
  if (pos < word.size() && word[pos] != ':') {
    const int parity = word[pos] == '0' ? -1 : ReadSmallNumber(word, &pos);
    if (parity < 1 || parity > kDraidMaxParity || (pos < word.size() && word[pos] != ':')) {
      *error = "invalid dRAID parity; give draid, draid1, draid2 or draid3, then optional :Nd, :Nc, :Ns fields";
      return true;
    }
    v->parity = parity;
  }
  while (pos < word.size()) {  // at a ':'
    ++pos;
    const size_t field = pos;
    const int value = ReadSmallNumber(word, &pos);
    const char suffix = pos < word.size() ? static_cast<char>(std::tolower(static_cast<unsigned char>(word[pos]))) : 0;
    if (value < 0 || (suffix != 'c' && suffix != 'd' && suffix != 's') || (++pos < word.size() && word[pos] != ':')) {
      *error = "invalid dRAID syntax; expected [:<number><c|d|s>] not '" +
               std::string(word.substr(field - 1, word.find(':', field) - (field - 1))) + "'";
      return true;
    }
    if (suffix == 'd' && value == 0) {
      *error = "a dRAID group needs at least 1 data disk (:0d)";
      return true;
    }
    (suffix == 'c' ? v->declared_children : suffix == 'd' ? v->data : v->spares) = value;
  }
  return true;
}

void CompleteDraid(PoolSpecVdev* v) {
  const int n = static_cast<int>(v->leaves.size());
  if (v->declared_children != 0 && v->declared_children != n) {
    throw InputError("invalid number of dRAID children; " + std::to_string(v->declared_children) +
                     " required but " + std::to_string(n) + " provided");
  }
  v->data = MakeDraidConfig(n, v->parity, v->data, v->spares).data;
}

DraidConfig ConfigOf(const PoolSpecVdev& v) {
  return MakeDraidConfig(static_cast<int>(v.leaves.size()), v.parity, v.data, v.spares);
}

}  // namespace

VdevKind DraidVdevKind() {
  return VdevKind{
      "draid",
      "dRAID1/2/3: RAID-Z groups of a fixed width (:Nd data + parity) permuted over all children, "
      "with distributed spare space (:Ns)",
      {{"draid", 1}, {"draid1", 1}, {"draid2", 2}, {"draid3", 3}},
      [](int parity) { return parity + 1; },
      kDraidMaxChildren,
      [](const PoolSpecVdev& v) { return ConfigOf(v).Name(); },
      [](PoolContext* ctx, int top_index, const PoolSpecVdev& v, int ashift,
         std::vector<std::unique_ptr<LeafVdev>> leaves) {
        const DraidConfig config = ConfigOf(v);
        // As `zpool status` names it: draid2:8d:12c:1s-0.
        auto d = std::make_unique<DraidVdev>(ctx, config.Name() + "-" + std::to_string(top_index), config, ashift);
        for (auto& l : leaves) d->AddChild(std::move(l));
        return std::unique_ptr<Vdev>(std::move(d));
      },
      ParseDraidKeyword,
      CompleteDraid};
}

DraidConfig DraidConfigFromKeyword(std::string_view keyword, int children) {
  PoolSpecVdev v;
  std::string error;
  if (!ParseDraidKeyword(keyword, &v, &error)) {
    throw InputError("\"" + std::string(keyword) + "\" is not a dRAID keyword (draid[1-3][:<N>d][:<N>c][:<N>s])");
  }
  if (!error.empty()) throw InputError(error);
  if (v.declared_children != 0 && children != 0 && v.declared_children != children) {
    throw InputError("the keyword's " + std::to_string(v.declared_children) + " children differ from the " +
                     std::to_string(children) + " given");
  }
  if (v.declared_children == 0 && children == 0) throw InputError("give the number of children (:<N>c)");
  return MakeDraidConfig(v.declared_children != 0 ? v.declared_children : children, v.parity, v.data, v.spares);
}

DraidVdev::DraidVdev(PoolContext* ctx, std::string name, const DraidConfig& config, int ashift)
    : Vdev(ctx, "draid" + std::to_string(config.parity), std::move(name)),
      layout_(config),
      ashift_(ashift),
      spare_of_child_(static_cast<size_t>(config.children), -1) {}

int64_t DraidVdev::asize_bytes() const {
  int64_t smallest = INT64_MAX;
  for (const auto& c : children()) smallest = std::min(smallest, c->asize_bytes());
  return DraidVdevAsize(layout_.config(), smallest);
}

bool DraidVdev::rotational() const {
  return std::any_of(children().begin(), children().end(), [](const auto& c) { return c->rotational(); });
}

bool DraidVdev::readable() const {
  int lost = 0;
  for (size_t c = 0; c < children().size(); ++c) lost += !child(c)->readable() && spare_of_child_[c] < 0;
  return lost <= layout_.config().parity;
}

int64_t DraidVdev::PsizeToAsize(int64_t psize, int /*ashift*/) const {
  return DraidAsize(layout_.config(), ashift_, psize);
}

void DraidVdev::ResetStats() {
  stats_ = DraidStats{};
  Vdev::ResetStats();
}

void DraidVdev::UseSpare(int child, int spare) {
  const DraidConfig& c = layout_.config();
  if (child < 0 || child >= c.children || spare < 0 || spare >= c.spares || spared_child(spare) >= 0 ||
      spare_of_child_[static_cast<size_t>(child)] >= 0) {
    throw InternalError(name() + ": distributed spare " + std::to_string(spare) + " cannot take child " +
                        std::to_string(child));
  }
  spare_of_child_[static_cast<size_t>(child)] = spare;
}

int DraidVdev::spared_child(int spare) const {
  const auto it = std::find(spare_of_child_.begin(), spare_of_child_.end(), spare);
  return it == spare_of_child_.end() ? -1 : static_cast<int>(it - spare_of_child_.begin());
}

Vdev* DraidVdev::Holder(int c, int64_t offset) const {
  // A spare's space may itself lie on a child that failed later and was spared
  // in turn (vdev_draid_spare_get_child recurses); each hop uses another spare.
  while (spare_of_child_[static_cast<size_t>(c)] >= 0) {
    c = layout_.SpareChild(spare_of_child_[static_cast<size_t>(c)], offset);
  }
  return child(static_cast<size_t>(c));
}

template <typename Io>
bool DraidVdev::ForEachChildIo(bool write, bool scan, const DraidBlockMap& map, Io io) const {
  const int width = layout_.config().group_width();
  const int parity = layout_.config().parity;
  for (int r = 0; r < map.rows; ++r) {
    const DraidRow& row = map.row[static_cast<size_t>(r)];
    const int64_t stripe = DraidStripeColumnBytes(row, ashift_);
    auto holder = [&](const RaidzColumn& col) { return Holder(col.child, col.offset); };
    auto on_spare = [&](const RaidzColumn& col) { return spare_of_child_[static_cast<size_t>(col.child)] >= 0; };
    if (write) {
      for (int i = 0; i < width; ++i) {
        const RaidzColumn col = DraidColumnAt(layout_, ashift_, row, i);
        Vdev* leaf = holder(col);
        if (leaf->readable()) io(leaf, col.offset, stripe, i < parity, on_spare(col));
      }
      continue;
    }
    // vdev_draid_io_start_read: a column is missing when its holder cannot be
    // read, empty columns included (reconstruction would need them).
    int missing_data = 0;
    int missing_parity = 0;
    for (int i = 0; i < width; ++i) {
      if (holder(DraidColumnAt(layout_, ashift_, row, i))->readable()) continue;
      ++(i < parity ? missing_parity : missing_data);
    }
    if (missing_data > 0 && missing_data + missing_parity > parity) return false;
    // A scan reads the whole stripe, padding and parity (vdev_draid_map_alloc_scrub).
    const bool widened = (scan || missing_data + missing_parity > 0) && row.empty_sectors > 0;
    for (int i = width - 1; i >= 0; --i) {
      const RaidzColumn col = DraidColumnAt(layout_, ashift_, row, i);
      Vdev* leaf = holder(col);
      const int64_t size = widened && i >= parity ? stripe : col.size;
      if (size == 0 || !leaf->readable()) continue;
      if (i >= parity || missing_data > 0 || scan) io(leaf, col.offset, size, i < parity, on_spare(col));
    }
  }
  return true;
}

// vdev_draid_need_resilver / vdev_draid_group_missing: the block's group
// holds a child being replaced.
bool DraidVdev::NeedsResilver(int64_t offset, int64_t psize) const {
  const DraidBlockMap map = MapDraidBlock(layout_, ashift_, offset, psize);
  for (int r = 0; r < map.rows; ++r) {
    for (int i = 0; i < layout_.config().group_width(); ++i) {
      const RaidzColumn col = DraidColumnAt(layout_, ashift_, map.row[static_cast<size_t>(r)], i);
      if (IsReplacing(*Holder(col.child, col.offset))) return true;
    }
  }
  return false;
}

// The healing resilver reads with the scrub map (padding included), so each
// column of a child being replaced is written whole: the stripe's size.
void DraidVdev::RepairWrites(int64_t offset, int64_t psize, std::vector<RepairWrite>* out) const {
  const DraidBlockMap map = MapDraidBlock(layout_, ashift_, offset, psize);
  for (int r = 0; r < map.rows; ++r) {
    const DraidRow& row = map.row[static_cast<size_t>(r)];
    for (int i = 0; i < layout_.config().group_width(); ++i) {
      const RaidzColumn col = DraidColumnAt(layout_, ashift_, row, i);
      Vdev* leaf = Holder(col.child, col.offset);
      if (IsReplacing(*leaf)) out->push_back(RepairWrite{leaf, col.offset, DraidStripeColumnBytes(row, ashift_)});
    }
  }
}

bool DraidVdev::GroupHolds(int64_t offset, int64_t psize, int child) const {
  const DraidBlockMap map = MapDraidBlock(layout_, ashift_, offset, psize);
  for (int r = 0; r < map.rows; ++r) {
    for (int i = 0; i < layout_.config().group_width(); ++i) {
      if (DraidColumnAt(layout_, ashift_, map.row[static_cast<size_t>(r)], i).child == child) return true;
    }
  }
  return false;
}

void DraidVdev::RebuildWrites(int64_t offset, int64_t psize, int child, int spare,
                              std::vector<RepairWrite>* out) const {
  const DraidBlockMap map = MapDraidBlock(layout_, ashift_, offset, psize);
  for (int r = 0; r < map.rows; ++r) {
    const DraidRow& row = map.row[static_cast<size_t>(r)];
    for (int i = 0; i < layout_.config().group_width(); ++i) {
      const RaidzColumn col = DraidColumnAt(layout_, ashift_, row, i);
      if (col.child != child) continue;
      Vdev* holder = this->child(static_cast<size_t>(layout_.SpareChild(spare, col.offset)));
      out->push_back(RepairWrite{holder, col.offset, DraidStripeColumnBytes(row, ashift_)});
    }
  }
}

int64_t DraidVdev::RebuildChunkAsize(int64_t offset, int64_t max_segment) const {
  const DraidConfig& c = layout_.config();
  const int64_t sector = int64_t{1} << ashift_;
  const int64_t data_row = int64_t{c.data} * sector;
  int64_t psize = std::min<int64_t>((max_segment * c.data + sector - 1) / sector * sector, kDraidRowHeightBytes);
  psize = psize / data_row * data_row;
  const int64_t group_end = (offset / c.group_bytes() + 1) * c.group_bytes();
  return std::min(DraidAsize(c, ashift_, psize), group_end - offset);
}

void DraidVdev::IoStart(Zio* zio) {
  const DraidBlockMap map = MapDraidBlock(layout_, ashift_, zio->offset, zio->size);
  const bool write = zio->type == ZioType::kWrite;
  const bool scan = zio->scan != ZioScan::kNone;
  // Count the children first: a child may finish before the last one is issued.
  int n = 0;
  const bool ok = ForEachChildIo(write, scan, map, [&](Vdev*, int64_t, int64_t, bool, bool) { ++n; });
  if (!write) {
    ++stats_.blocks_read;
    if (!ok || n == 0) {
      zio->error = EIO;
      Finish(zio);
      return;
    }
  }
  for (int r = 0; r < map.rows; ++r) {
    const DraidRow& row = map.row[static_cast<size_t>(r)];
    if (write) stats_.empty_sectors_written += static_cast<uint64_t>(row.empty_sectors);
  }
  bool reconstructing = false;
  zio->children_pending = n;
  ForEachChildIo(write, scan, map, [&](Vdev* leaf, int64_t offset, int64_t size, bool parity, bool on_spare) {
    if (parity && !write) {
      ++stats_.parity_columns_read;
      reconstructing = !scan;
    }
    stats_.spare_columns += on_spare;
    leaf->IoStart(NewChildZio(zio, leaf, offset, size));
  });
  if (reconstructing) ++stats_.reconstructions;
}

}  // namespace ziosim
