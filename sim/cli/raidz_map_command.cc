// `ziosim raidz-map`: where one RAID-Z block lands on the children (columns,
// child offsets, sizes, parity), its allocated size and skip sectors; with
// --blocks N, how parity drifts across N blocks written back to back.
// The arithmetic is sim/zfs/vdev/raidz_map.h (zfs-read-path.md 3.2, 3.3, 3.6).
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/zfs/vdev/raidz_map.h"
#include "sim/cli/commands.h"
#include "sim/core/status.h"
#include "sim/core/units.h"

namespace ziosim::cli {
namespace {

constexpr int kMaxBlocks = 100000;
constexpr int64_t kMaxBlockSize = int64_t{16} << 20;  // SPA_MAXBLOCKSIZE

struct RaidzMapOptions {
  int width = 0;
  int parity = 0;
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
  int ashift = 0;
  int64_t psize = 0;
  int64_t offset = 0;
  int blocks = 1;
};

RaidzMapRequest Check(const RaidzMapOptions& opt) {
  RaidzMapRequest req;
  if (opt.width < 2 || opt.width > kMaxRaidzWidth) {
    throw InputError("--width: " + std::to_string(opt.width) + " is out of range: a RAID-Z vdev has 2 to " +
                     std::to_string(kMaxRaidzWidth) + " children");
  }
  if (opt.parity < 1 || opt.parity > 3) {
    throw InputError("--parity: " + std::to_string(opt.parity) + " is not 1, 2 or 3 (RAID-Z1/Z2/Z3)");
  }
  if (opt.parity >= opt.width) {
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
  req.width = opt.width;
  req.parity = opt.parity;
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
  // The last block's end must stay representable.
  const int64_t asize = RaidzAsize(req.width, req.parity, req.ashift, req.psize);
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

std::string ParityName(int parity) { return "RAID-Z" + std::to_string(parity); }

nlohmann::ordered_json MapJson(const RaidzMap& m) {
  nlohmann::ordered_json columns = nlohmann::ordered_json::array();
  for (int c = 0; c < m.columns; ++c) {
    const RaidzColumn& col = m.column[c];
    nlohmann::ordered_json j;
    j["child"] = col.child;
    j["offset"] = col.offset;
    j["size"] = col.size;
    j["role"] = std::string(1, col.role);
    columns.push_back(std::move(j));
  }
  nlohmann::ordered_json j;
  j["asize"] = m.asize;
  j["skip_sectors"] = m.skip_sectors;
  j["columns"] = std::move(columns);
  return j;
}

void PrintBlock(const RaidzMapRequest& req, const RaidzMap& m) {
  const int64_t sector = int64_t{1} << req.ashift;
  std::printf("%s, %d children, ashift %d (%lld-byte sectors)\n", ParityName(req.parity).c_str(), req.width,
              req.ashift, static_cast<long long>(sector));
  std::printf("block: psize %lld B (%s) at vdev offset %lld (vdev sector %lld)\n",
              static_cast<long long>(req.psize), KiBText(req.psize).c_str(), static_cast<long long>(req.offset),
              static_cast<long long>(req.offset / sector));
  std::printf("asize %lld B (%s, %lld sectors), skip sectors %d\n\n", static_cast<long long>(m.asize),
              KiBText(m.asize).c_str(), static_cast<long long>(m.asize / sector), m.skip_sectors);

  std::printf("%3s %5s %14s %10s %9s  %s\n", "COL", "CHILD", "CHILD_OFFSET", "SIZE_B", "SIZE_KIB", "ROLE");
  int64_t data_at = 0;  // logical byte of the block where the next data column starts
  std::vector<int> data_children;
  for (int c = 0; c < m.columns; ++c) {
    const RaidzColumn& col = m.column[c];
    std::string role;
    if (c < m.parity) {
      role = std::string(1, col.role) + " parity";
    } else if (col.size == 0) {
      role = "- unused (holds a skip sector; nothing to read)";
    } else {
      role = "D data bytes [" + std::to_string(data_at) + ", " + std::to_string(data_at + col.size) + ")";
      data_at += col.size;
      data_children.push_back(col.child);
    }
    std::printf("%3d %5d %14lld %10lld %9.1f  %s\n", c, col.child, static_cast<long long>(col.offset),
                static_cast<long long>(col.size), KiB(col.size), role.c_str());
  }
  for (int i = 0; i < m.skip_sectors; ++i) {
    const RaidzColumn s = RaidzSkipSector(m, i);
    std::printf("skip sector %d: child %d, child offset %lld (%lld B, allocated, never read)\n", i, s.child,
                static_cast<long long>(s.offset), static_cast<long long>(sector));
  }
  if (req.parity == 1 && (req.offset & (int64_t{1} << 20)) != 0) {
    std::printf("bit 20 of the offset is set: RAID-Z1 swaps the children of P and the first data column\n");
  }
  std::string list;
  for (size_t i = 0; i < data_children.size(); ++i) list += (i ? ", " : "") + std::to_string(data_children[i]);
  std::printf("\nA normal read issues %zu child read%s (children %s); parity is read only to reconstruct\n"
              "or scrub. Child offsets are in vdev space: a leaf adds its 4 MiB front label.\n",
              data_children.size(), data_children.size() == 1 ? "" : "s", list.c_str());
}

void PrintDrift(const RaidzMapRequest& req, const std::vector<RaidzMap>& maps,
                const std::vector<int64_t>& offsets) {
  const int64_t sector = int64_t{1} << req.ashift;
  const int64_t asize_sectors = maps.front().asize / sector;
  const int64_t k = asize_sectors % req.width;
  std::printf("%s, %d children, ashift %d: %d blocks of psize %s back to back from vdev offset %lld\n",
              ParityName(req.parity).c_str(), req.width, req.ashift, req.blocks, KiBText(req.psize).c_str(),
              static_cast<long long>(req.offset));
  std::printf("asize %s (%lld sectors), k = %lld mod %d = %lld: ", KiBText(maps.front().asize).c_str(),
              static_cast<long long>(asize_sectors), static_cast<long long>(asize_sectors), req.width,
              static_cast<long long>(k));
  if (k == 0) {
    std::printf("each block starts on the same child, parity stays put\n%s",
                req.parity == 1 ? "(but RAID-Z1's bit-20 swap moves P to the next child in every other MiB)\n" : "");
  } else {
    std::printf("each block starts %lld child%s further on, parity moves\n", static_cast<long long>(k),
                k == 1 ? "" : "ren");
  }
  std::printf("Per child: P/Q/R parity, D data, . not touched (skip sectors not shown)\n\n");

  std::printf("%6s %16s", "BLOCK", "VDEV_OFFSET");
  const char* const parity_names[3] = {"P", "Q", "R"};
  for (int p = 0; p < req.parity; ++p) std::printf(" %3s", parity_names[p]);
  std::printf("  CHILDREN 0..%d\n", req.width - 1);
  for (size_t i = 0; i < maps.size(); ++i) {
    const RaidzMap& m = maps[i];
    std::printf("%6zu %16lld", i, static_cast<long long>(offsets[i]));
    for (int p = 0; p < req.parity; ++p) std::printf(" %3d", m.column[p].child);
    std::string row(static_cast<size_t>(req.width), '.');
    for (int c = 0; c < m.columns; ++c) {
      if (m.column[c].size > 0) row[static_cast<size_t>(m.column[c].child)] = m.column[c].role;
    }
    std::printf("  ");
    for (int child = 0; child < req.width; ++child) std::printf("%s%c", child ? " " : "", row[child]);
    std::printf("\n");
  }
}

void RunRaidzMap(const RaidzMapOptions& opt) {
  const RaidzMapRequest req = Check(opt);
  std::vector<RaidzMap> maps;
  std::vector<int64_t> offsets;
  int64_t offset = req.offset;
  for (int i = 0; i < req.blocks; ++i) {
    maps.push_back(MapRaidzBlock(req.width, req.parity, req.ashift, offset, req.psize));
    offsets.push_back(offset);
    offset += maps.back().asize;
  }
  if (opt.json) {
    if (req.blocks == 1) {
      std::cout << MapJson(maps.front()).dump() << "\n";
    } else {
      nlohmann::ordered_json all = nlohmann::ordered_json::array();
      for (size_t i = 0; i < maps.size(); ++i) {
        nlohmann::ordered_json j = MapJson(maps[i]);
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
      "raidz-map", "Show how one RAID-Z block maps onto the children (columns, parity, skip sectors)");
  cmd->add_option("--width", opt->width, "Children in the RAID-Z vdev (2-64)")->required();
  cmd->add_option("--parity", opt->parity, "Parity level: 1, 2 or 3 (RAID-Z1/Z2/Z3)")->required();
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
                "(bytes); with --blocks N > 1, an array of these with \"block_offset\" added");
  cmd->callback([opt] { RunRaidzMap(*opt); });
}

}  // namespace ziosim::cli
