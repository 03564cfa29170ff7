// `ziosim raidz-map`: where one RAID-Z (or, with --draid, dRAID) block lands
// on the children (columns, child offsets, sizes, parity), its allocated size
// and padding sectors; with --blocks N, how parity moves across N blocks
// written back to back. The arithmetic is sim/zfs/vdev/raidz_map.h
// (zfs-read-path.md 3.2, 3.3, 3.6) and draid_layout.h.
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/commands.h"
#include "sim/core/status.h"
#include "sim/core/units.h"
#include "sim/zfs/vdev/block_map_view.h"
#include "sim/zfs/vdev/draid_layout.h"
#include "sim/zfs/vdev/draid_vdev.h"
#include "sim/zfs/vdev/raidz_map.h"

namespace ziosim::cli {
namespace {

constexpr int kMaxBlocks = 100000;
constexpr int64_t kMaxBlockSize = int64_t{16} << 20;  // SPA_MAXBLOCKSIZE

struct RaidzMapOptions {
  int width = 0;
  int parity = 0;
  std::string draid;
  int ashift = 0;
  std::string psize;
  std::string offset = "0";
  int blocks = 1;
  bool json = false;
};

// The checked inputs, in bytes.
struct RaidzMapRequest {
  int width = 0;
  int parity = 0;
  std::optional<DraidLayout> draid;
  int ashift = 0;
  int64_t psize = 0;
  int64_t offset = 0;
  int blocks = 1;
};

// --draid KEYWORD [--width N]: the dRAID configuration zpool create would make.
DraidConfig CheckDraid(const RaidzMapOptions& opt) {
  if (opt.parity != 0) throw InputError("--parity: with --draid the keyword gives the parity (draid1, draid2, draid3)");
  try {
    return DraidConfigFromKeyword(opt.draid, opt.width);
  } catch (const InputError& e) {
    throw InputError("--draid " + opt.draid + ": " + e.what() + (opt.width == 0 ? "" : " (--width)"));
  }
}

RaidzMapRequest Check(const RaidzMapOptions& opt) {
  RaidzMapRequest req;
  if (!opt.draid.empty()) {
    const DraidConfig config = CheckDraid(opt);
    req.draid.emplace(config);
    req.width = config.children;
    req.parity = config.parity;
  } else if (opt.width == 0 || opt.parity == 0) {
    throw InputError(std::string(opt.width == 0 ? "--width" : "--parity") +
                     ": required for a RAID-Z map (or give --draid for a dRAID one)");
  } else if (opt.width < 2 || opt.width > kMaxRaidzWidth) {
    throw InputError("--width: " + std::to_string(opt.width) + " is out of range: a RAID-Z vdev has 2 to " +
                     std::to_string(kMaxRaidzWidth) + " children");
  }
  if (!req.draid && (opt.parity < 1 || opt.parity > 3)) {
    throw InputError("--parity: " + std::to_string(opt.parity) + " is not 1, 2 or 3 (RAID-Z1/Z2/Z3)");
  }
  if (!req.draid && opt.parity >= opt.width) {
    throw InputError("--parity: " + std::to_string(opt.parity) + " must be less than --width (" +
                     std::to_string(opt.width) + "): a block needs at least one data column");
  }
  if (opt.ashift < 9 || opt.ashift > 16) {
    throw InputError("--ashift: " + std::to_string(opt.ashift) +
                     " is not in 9..16 (512-byte to 64 KiB sectors)");
  }
  if (opt.blocks < 1 || opt.blocks > kMaxBlocks) {
    throw InputError("--blocks: " + std::to_string(opt.blocks) + " is not in 1.." + std::to_string(kMaxBlocks));
  }
  if (!req.draid) {
    req.width = opt.width;
    req.parity = opt.parity;
  }
  req.ashift = opt.ashift;
  req.blocks = opt.blocks;
  const int64_t sector = int64_t{1} << opt.ashift;
  const std::string sector_text = std::to_string(sector) + "-byte sector (ashift " + std::to_string(opt.ashift) + ")";
  req.psize = ParsePositiveSize(opt.psize, "--psize");
  if (req.psize > kMaxBlockSize) {
    throw InputError("--psize: " + std::to_string(req.psize) + " bytes is above 16 MiB, the largest ZFS block");
  }
  req.offset = ParseSize(opt.offset, "--offset");
  if (req.offset % sector != 0) {
    throw InputError("--offset: " + std::to_string(req.offset) + " is not aligned to the " + sector_text);
  }
  if (req.draid && req.offset % (sector * req.draid->config().group_width()) != 0) {
    throw InputError("--offset: " + std::to_string(req.offset) + " does not start a stripe row: dRAID blocks start at "
                     "multiples of the group width (" + std::to_string(req.draid->config().group_width()) +
                     ") times the " + sector_text);
  }
  // The last block's end must stay representable.
  const int64_t asize = req.draid ? DraidAsize(req.draid->config(), req.ashift, req.psize)
                                  : RaidzAsize(req.width, req.parity, req.ashift, req.psize);
  const __int128 end = static_cast<__int128>(req.offset) + static_cast<__int128>(asize) * req.blocks;
  if (end > std::numeric_limits<int64_t>::max()) {
    throw InputError("--offset/--psize/--blocks: the blocks would end beyond 2^63 bytes of vdev space");
  }
  return req;
}

double KiB(int64_t bytes) { return static_cast<double>(bytes) / 1024.0; }

// "128 KiB" or "214.5 KiB"; ashift >= 9 makes every size a multiple of 0.5 KiB.
std::string KiBText(int64_t bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, bytes % 1024 == 0 ? "%.0f KiB" : "%.1f KiB", KiB(bytes));
  return buf;
}

// "RAID-Z2" or "dRAID draid2:8d:12c:1s".
std::string LayoutName(const RaidzMapRequest& req) {
  return req.draid ? "dRAID " + req.draid->config().Name() : "RAID-Z" + std::to_string(req.parity);
}

BlockMapView View(const RaidzMapRequest& req, int64_t offset) {
  return req.draid ? ViewDraidBlock(*req.draid, req.ashift, offset, req.psize)
                   : ViewRaidzBlock(req.width, req.parity, req.ashift, offset, req.psize);
}

nlohmann::ordered_json MapJson(const RaidzMapRequest& req, const BlockMapView& m) {
  nlohmann::ordered_json columns = nlohmann::ordered_json::array();
  for (size_t c = 0; c < m.columns.size(); ++c) {
    const RaidzColumn& col = m.columns[c];
    nlohmann::ordered_json j;
    j["child"] = col.child;
    j["offset"] = col.offset;
    j["size"] = col.size;
    j["role"] = std::string(1, col.role);
    if (req.draid) j["row"] = m.column_row[c];
    columns.push_back(std::move(j));
  }
  nlohmann::ordered_json j;
  j["asize"] = m.asize;
  j["skip_sectors"] = m.pads.size();
  j["columns"] = std::move(columns);
  return j;
}

void PrintBlock(const RaidzMapRequest& req, const BlockMapView& m) {
  const int64_t sector = int64_t{1} << req.ashift;
  std::printf("%s, %d children, ashift %d (%lld-byte sectors)\n", LayoutName(req).c_str(), req.width,
              req.ashift, static_cast<long long>(sector));
  if (req.draid) {
    const DraidConfig& c = req.draid->config();
    std::printf("groups of %d data + %d parity columns over %d disks (%d per slice), %d distributed spare%s\n",
                c.data, c.parity, c.disks(), c.groups, c.spares, c.spares == 1 ? "" : "s");
  }
  std::printf("block: psize %lld B (%s) at vdev offset %lld (vdev sector %lld)\n",
              static_cast<long long>(req.psize), KiBText(req.psize).c_str(), static_cast<long long>(req.offset),
              static_cast<long long>(req.offset / sector));
  std::printf("asize %lld B (%s, %lld sectors), %s sectors %zu\n\n", static_cast<long long>(m.asize),
              KiBText(m.asize).c_str(), static_cast<long long>(m.asize / sector), req.draid ? "padding" : "skip",
              m.pads.size());

  std::printf("%3s %5s %14s %10s %9s  %s\n", "COL", "CHILD", "CHILD_OFFSET", "SIZE_B", "SIZE_KIB", "ROLE");
  int64_t data_at = 0;  // logical byte of the block where the next data column starts
  std::vector<int> data_children;
  for (size_t k = 0; k < m.columns.size(); ++k) {
    const RaidzColumn& col = m.columns[k];
    const int c = m.column_index[k];
    if (c == 0 && m.column_row[k] == 1) {
      std::printf("-- the rest of the block: the start of the next group --\n");
    }
    std::string role;
    if (c < m.parity) {
      role = std::string(1, col.role) + " parity";
    } else if (col.size == 0) {
      role = req.draid ? "- empty (a zero-filled padding sector; read only to reconstruct)"
                       : "- unused (holds a skip sector; nothing to read)";
    } else {
      role = "D data bytes [" + std::to_string(data_at) + ", " + std::to_string(data_at + col.size) + ")";
      data_at += col.size;
      data_children.push_back(col.child);
    }
    std::printf("%3d %5d %14lld %10lld %9.1f  %s\n", c, col.child, static_cast<long long>(col.offset),
                static_cast<long long>(col.size), KiB(col.size), role.c_str());
  }
  for (size_t i = 0; i < m.pads.size(); ++i) {
    const RaidzColumn& s = m.pads[i];
    std::printf(req.draid ? "padding sector %zu: child %d, child offset %lld (%lld B, zero-filled, written with the "
                            "full stripe; read by scrub, resilver and reconstruction)\n"
                          : "skip sector %zu: child %d, child offset %lld (%lld B, allocated, never read)\n",
                i, s.child, static_cast<long long>(s.offset), static_cast<long long>(sector));
  }
  if (!req.draid && req.parity == 1 && (req.offset & (int64_t{1} << 20)) != 0) {
    std::printf("bit 20 of the offset is set: RAID-Z1 swaps the children of P and the first data column\n");
  }
  std::string list;
  for (size_t i = 0; i < data_children.size(); ++i) list += (i ? ", " : "") + std::to_string(data_children[i]);
  std::printf("\nA normal read issues %zu child read%s (children %s); parity is read only to reconstruct\n"
              "or scrub. Child offsets are in vdev space: a leaf adds its 4 MiB front label.\n",
              data_children.size(), data_children.size() == 1 ? "" : "s", list.c_str());
}

void PrintDrift(const RaidzMapRequest& req, const std::vector<BlockMapView>& maps,
                const std::vector<int64_t>& offsets) {
  const int64_t sector = int64_t{1} << req.ashift;
  const int64_t asize_sectors = maps.front().asize / sector;
  const int64_t k = asize_sectors % req.width;
  std::printf("%s, %d children, ashift %d: %d blocks of psize %s back to back from vdev offset %lld\n",
              LayoutName(req).c_str(), req.width, req.ashift, req.blocks, KiBText(req.psize).c_str(),
              static_cast<long long>(req.offset));
  if (req.draid) {
    std::printf("asize %s (%lld sectors): whole stripe rows of the group, so a group's parity stays on the\n"
                "children of its first columns; the next group starts further along the permutation, and each\n"
                "slice of %d groups has a permutation of its own\n",
                KiBText(maps.front().asize).c_str(), static_cast<long long>(asize_sectors),
                req.draid->config().groups);
  } else {
    std::printf("asize %s (%lld sectors), k = %lld mod %d = %lld: ", KiBText(maps.front().asize).c_str(),
                static_cast<long long>(asize_sectors), static_cast<long long>(asize_sectors), req.width,
                static_cast<long long>(k));
  }
  if (req.draid) {
  } else if (k == 0) {
    std::printf("each block starts on the same child, parity stays put\n%s",
                req.parity == 1 ? "(but RAID-Z1's bit-20 swap moves P to the next child in every other MiB)\n" : "");
  } else {
    std::printf("each block starts %lld child%s further on, parity moves\n", static_cast<long long>(k),
                k == 1 ? "" : "ren");
  }
  std::printf("Per child: P/Q/R parity, D data, . not touched (%s sectors not shown)\n\n",
              req.draid ? "padding" : "skip");

  std::printf("%6s %16s", "BLOCK", "VDEV_OFFSET");
  const char* const parity_names[3] = {"P", "Q", "R"};
  for (int p = 0; p < req.parity; ++p) std::printf(" %3s", parity_names[p]);
  std::printf("  CHILDREN 0..%d\n", req.width - 1);
  for (size_t i = 0; i < maps.size(); ++i) {
    const BlockMapView& m = maps[i];
    std::printf("%6zu %16lld", i, static_cast<long long>(offsets[i]));
    for (int p = 0; p < req.parity; ++p) std::printf(" %3d", m.columns[static_cast<size_t>(p)].child);
    std::string row(static_cast<size_t>(req.width), '.');
    for (const RaidzColumn& col : m.columns) {
      if (col.size > 0) row[static_cast<size_t>(col.child)] = col.role;
    }
    std::printf("  ");
    for (int child = 0; child < req.width; ++child) std::printf("%s%c", child ? " " : "", row[child]);
    std::printf("\n");
  }
}

void RunRaidzMap(const RaidzMapOptions& opt) {
  const RaidzMapRequest req = Check(opt);
  std::vector<BlockMapView> maps;
  std::vector<int64_t> offsets;
  int64_t offset = req.offset;
  for (int i = 0; i < req.blocks; ++i) {
    maps.push_back(View(req, offset));
    offsets.push_back(offset);
    offset += maps.back().asize;
  }
  if (opt.json) {
    if (req.blocks == 1) {
      std::cout << MapJson(req, maps.front()).dump() << "\n";
    } else {
      nlohmann::ordered_json all = nlohmann::ordered_json::array();
      for (size_t i = 0; i < maps.size(); ++i) {
        nlohmann::ordered_json j = MapJson(req, maps[i]);
        j["block_offset"] = offsets[i];
        all.push_back(std::move(j));
      }
      std::cout << all.dump() << "\n";
    }
  } else if (req.blocks == 1) {
    PrintBlock(req, maps.front());
  } else {
    PrintDrift(req, maps, offsets);
  }
}

}  // namespace

void AddRaidzMapCommand(CLI::App& app) {
  auto opt = std::make_shared<RaidzMapOptions>();
  CLI::App* cmd = app.add_subcommand(
      "raidz-map", "Show how one RAID-Z or dRAID block maps onto the children (columns, parity, padding)");
  cmd->add_option("--width", opt->width, "Children in the RAID-Z vdev (2-64); with --draid, its children (2-255)");
  cmd->add_option("--parity", opt->parity, "Parity level: 1, 2 or 3 (RAID-Z1/Z2/Z3); not with --draid");
  cmd->add_option("--draid", opt->draid,
                  "A dRAID instead, as zpool create spells it: draid[1-3][:<N>d][:<N>c][:<N>s] (children from :<N>c "
                  "or --width)");
  cmd->add_option("--ashift", opt->ashift, "Sector shift of the vdev: 9 (512 B) to 16; 12 = 4 KiB")->required();
  cmd->add_option("--psize", opt->psize, "Physical (on-disk, after compression) block size, up to 16M: bytes or K/M suffix")
      ->required();
  cmd->add_option("--offset", opt->offset, "Vdev offset of the block in bytes (sector-aligned; K/M/G suffix ok)")
      ->capture_default_str();
  cmd->add_option("--blocks", opt->blocks,
                  "Lay N blocks back to back from --offset and show which children hold parity in each")
      ->capture_default_str();
  cmd->add_flag("--json", opt->json,
                "Print {\"asize\",\"skip_sectors\",\"columns\":[{\"child\",\"offset\",\"size\",\"role\"}]} "
                "(bytes; dRAID columns add \"row\", and skip_sectors counts its padding sectors); with --blocks N > 1, "
                "an array of these with \"block_offset\" added");
  cmd->callback([opt] { RunRaidzMap(*opt); });
}

}  // namespace ziosim::cli
