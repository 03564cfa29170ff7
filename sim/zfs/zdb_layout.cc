// Block layouts read from real pools: the block pointers `zdb -ddddd` prints
// for one file, as a FileLayout the DMU reads through (zdb_layout.h).
//
// Accepted input (cmd/zdb/zdb.c, dump_object / dump_indirect / dump_znode):
//  * The object table header "Object  lvl  iblk  dblk  dsize  [dnsize]  lsize  %full  type"
//    and the row below it: object number, iblk and dblk (zdb_nicenum text: 512,
//    128K, 1.50M), lsize (rounded text; a last resort for the size), type.
//  * "dnode maxblkid: N" and the znode's "size <bytes>" line (-dddd and more).
//  * The "Indirect blocks:" section (-ddddd): one line per block pointer with a
//    birth txg: "<hex file offset> L<level> <vdev>:<hex offset>:<hex asize>...
//    <hex lsize>L/<hex psize>P F=.. B=../.. cksum=..". One DVA (-ddddd) or
//    several (-dddddd: the second is kept as the ditto copy). Holes print
//    "0:0:0 <lsize>L B=<txg>"; blocks never written are not printed at all;
//    both are holes here. "EMBEDDED et=.. <lsize>L/<psize>P B=.." (data inside
//    the block pointer, no disk I/O) is a hole too. The section ends at the
//    first blank or non-block line (zdb prints "segment [...)" lines after it).
//  * L2+ lines are checked and skipped: a FileLayout has levels 0 and 1.
// Exact sizes win over rounded ones: the block size is the L0 lsize (else
// dblk), pointers per L1 are iblk / 128 (else the L1 lsize / 128, else the
// pool's zfs_default_ibs); the file size is the znode's size line, else
// (maxblkid + 1) x block size, else the lsize column, else the end of the last
// L0 block. A dump with several objects: the first "ZFS plain file" with an
// Indirect blocks section is read (else the first object that has one).
#include "sim/zfs/zdb_layout.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <limits>
#include <string_view>
#include <vector>

#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/zfs/metaslab_allocator.h"

namespace ziosim {
namespace {

// Largest file a zdb dump may describe: estimated, 1 EiB is far beyond any pool
// simulated here and keeps size + block arithmetic inside int64_t.
constexpr int64_t kMaxZdbFileBytes = int64_t{1} << 60;

std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const size_t s = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > s) out.push_back(line.substr(s, i - s));
  }
  return out;
}

// zdb_nicenum text ("512", "128K", "1.50M", "1.00G") to bytes (1024-based).
bool ParseNiceNum(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  int shift = 0;
  static constexpr std::string_view kUnits = "KMGTPE";
  const size_t u = kUnits.find(s.back());
  if (u != std::string_view::npos) {
    shift = 10 * static_cast<int>(u + 1);
    s.remove_suffix(1);
  }
  if (s.empty()) return false;
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || !(v >= 0)) return false;
  *out = std::llround(std::ldexp(v, shift));
  return true;
}

std::string Hex(int64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

struct ZdbBlock {
  int line = 0;
  int64_t offset = 0;  // file offset of the first byte covered
  int level = 0;
  bool hole = false;
  int ndva = 0;
  Dva dva[2];
  int64_t lsize = 0;
  int64_t psize = 0;
};

struct ZdbObject {
  int line = 0;  // of the table row
  uint64_t object = 0;
  bool plain_file = false;
  int64_t iblk = 0;
  int64_t dblk = 0;
  int64_t lsize_col = -1;
  int64_t maxblkid = -1;
  int64_t size = -1;
  int blocks_line = 0;  // of "Indirect blocks:", 0 if none
  std::vector<ZdbBlock> blocks;
};

class ZdbReader {
 public:
  ZdbReader(const std::string& path, const Pool& pool) : path_(path), pool_(pool) {}

  std::vector<ZdbObject> Read() {
    std::ifstream in(path_);
    if (!in) throw InputError(path_ + ": cannot open the zdb dump");
    std::string raw;
    std::vector<std::string> header;
    bool want_row = false;
    bool in_blocks = false;
    int lineno = 0;
    while (std::getline(in, raw)) {
      ++lineno;
      const std::vector<std::string_view> f = Fields(raw);
      if (in_blocks) {
        if (!f.empty() && f.size() >= 3 && f[1].size() >= 2 && f[1][0] == 'L') {
          objects_.back().blocks.push_back(ParseBlock(raw, f, lineno));
          continue;
        }
        in_blocks = false;
      }
      if (f.empty()) continue;
      if (f.size() >= 4 && f[0] == "Object" && f[1] == "lvl" && f[2] == "iblk" && f[3] == "dblk") {
        header.assign(f.begin(), f.end());
        want_row = true;
        continue;
      }
      if (want_row) {
        want_row = false;
        ParseRow(raw, f, header, lineno);
        continue;
      }
      if (objects_.empty()) continue;
      ZdbObject& o = objects_.back();
      if (f.size() == 3 && f[0] == "dnode" && f[1] == "maxblkid:") {
        if (!ParseInt64(f[2], &o.maxblkid) || o.maxblkid < 0 || o.maxblkid >= kMaxZdbFileBytes / kMaxBlockBytes) {
          Fail(lineno, "dnode maxblkid: '" + std::string(f[2]) + "' is not a number");
        }
      } else if (f.size() == 2 && f[0] == "size") {
        if (!ParseInt64(f[1], &o.size) || o.size < 0 || o.size > kMaxZdbFileBytes) {
          Fail(lineno, "size: '" + std::string(f[1]) + "' is not a number of bytes up to 2^60");
        }
      } else if (f.size() == 2 && f[0] == "Indirect" && f[1] == "blocks:") {
        in_blocks = true;
        o.blocks_line = lineno;
      }
    }
    return std::move(objects_);
  }

  [[noreturn]] void Fail(int line, const std::string& msg) const { throw InputError(path_, line, msg); }

 private:
  void ParseRow(const std::string& raw, const std::vector<std::string_view>& row,
                const std::vector<std::string>& header, int lineno) {
    auto col = [&](std::string_view name) -> int {
      for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
      return -1;
    };
    ZdbObject o;
    o.line = lineno;
    int64_t id = 0;
    if (row.empty() || !ParseInt64(row[0], &id) || id < 0) {
      Fail(lineno, "Object: expected the object table row (the object number first) after the header, got '" + raw +
                       "'");
    }
    o.object = static_cast<uint64_t>(id);
    const int ci = col("iblk");
    const int cd = col("dblk");
    if (static_cast<int>(row.size()) <= std::max(ci, cd) || !ParseNiceNum(row[static_cast<size_t>(ci)], &o.iblk) ||
        o.iblk > kMaxBlockBytes) {
      Fail(lineno, "iblk: cannot read the indirect block size from '" + raw + "'");
    }
    if (!ParseNiceNum(row[static_cast<size_t>(cd)], &o.dblk) || o.dblk <= 0 || o.dblk > kMaxBlockBytes) {
      Fail(lineno, "dblk: cannot read the data block size from '" + raw + "'");
    }
    const int cl = col("lsize");
    if (cl >= 0 && static_cast<int>(row.size()) > cl) ParseNiceNum(row[static_cast<size_t>(cl)], &o.lsize_col);
    if (o.lsize_col > kMaxZdbFileBytes) Fail(lineno, "lsize: beyond " + std::to_string(kMaxZdbFileBytes) + " bytes");
    o.plain_file = raw.find("ZFS plain file") != std::string::npos;
    objects_.push_back(std::move(o));
  }

  ZdbBlock ParseBlock(const std::string& raw, const std::vector<std::string_view>& f, int lineno) const {
    ZdbBlock b;
    b.line = lineno;
    if (!ParseInt64(f[0], &b.offset, 16) || b.offset < 0) {
      Fail(lineno, "file offset: '" + std::string(f[0]) + "' is not a hexadecimal number");
    }
    int64_t level = 0;
    if (!ParseInt64(f[1].substr(1), &level, 16) || level < 0 || level > 7) {
      Fail(lineno, "level: '" + std::string(f[1]) + "' is not L0..L7");
    }
    b.level = static_cast<int>(level);
    size_t k = 2;
    bool embedded = false;
    if (f[k] == "EMBEDDED") {
      embedded = true;
      ++k;
      while (k < f.size() && f[k].starts_with("et=")) ++k;
    } else {
      for (; k < f.size() && std::count(f[k].begin(), f[k].end(), ':') == 2; ++k) {
        const std::string_view t = f[k];
        const size_t c1 = t.find(':');
        const size_t c2 = t.find(':', c1 + 1);
        int64_t vdev = 0, off = 0, asize = 0;
        if (!ParseInt64(t.substr(0, c1), &vdev) || !ParseInt64(t.substr(c1 + 1, c2 - c1 - 1), &off, 16) ||
            !ParseInt64(t.substr(c2 + 1), &asize, 16) || vdev < 0 || vdev > std::numeric_limits<int>::max() ||
            off < 0 || asize < 0) {
          Fail(lineno, "DVA: '" + std::string(t) + "' is not <vdev>:<hex offset>:<hex asize>");
        }
        if (b.ndva < 2) b.dva[b.ndva] = Dva{static_cast<int>(vdev), off, asize};
        ++b.ndva;
      }
      if (b.ndva == 0) Fail(lineno, "DVA: none (<vdev>:<hex offset>:<hex asize>) after the level in '" + raw + "'");
    }
    if (k >= f.size()) Fail(lineno, "size: no <lsize>L/<psize>P field in '" + raw + "'");
    const std::string_view sz = f[k];
    const size_t l = sz.find('L');
    if (l == std::string_view::npos || !ParseInt64(sz.substr(0, l), &b.lsize, 16) || b.lsize <= 0 ||
        b.lsize > kMaxBlockBytes) {
      Fail(lineno, "size: '" + std::string(sz) + "' is not <hex lsize>L/<hex psize>P");
    }
    if (l + 1 == sz.size()) {
      b.hole = true;  // a hole with a birth txg: "<lsize>L B=<txg>"
    } else if (sz[l + 1] != '/' || sz.back() != 'P' || sz.size() < l + 4 ||
               !ParseInt64(sz.substr(l + 2, sz.size() - l - 3), &b.psize, 16) || b.psize <= 0) {
      Fail(lineno, "size: '" + std::string(sz) + "' is not <hex lsize>L/<hex psize>P");
    }
    if (b.ndva > 0 && b.dva[0].offset == 0 && b.dva[0].asize == 0) b.hole = true;
    if (embedded) b.hole = true;  // the data is in the block pointer: no disk I/O
    if (b.hole) return b;
    for (int d = 0; d < std::min(b.ndva, 2); ++d) {
      const Dva& v = b.dva[d];
      const std::string which = "DVA " + std::to_string(d + 1) + ": ";
      if (v.top >= pool_.top_count()) {
        Fail(lineno, which + "vdev " + std::to_string(v.top) + " does not exist: the pool has " +
                         std::to_string(pool_.top_count()) + " top-level vdev(s)");
      }
      if (v.asize <= 0) Fail(lineno, which + "asize is 0");
      const int64_t align = pool_.top(v.top)->block_alignment_bytes();
      if (v.offset % align != 0) {
        Fail(lineno, which + "offset " + Hex(v.offset) + " does not start a stripe row of top-level vdev " +
                         std::to_string(v.top) + " (a multiple of " + std::to_string(align) +
                         " bytes): is the dump from a pool of another layout?");
      }
      const int64_t cap = pool_.top(v.top)->asize_bytes();
      if (v.offset > cap - v.asize) {  // not offset + asize > cap: that sum can overflow
        Fail(lineno, which + "offset " + Hex(v.offset) + " + asize " + Hex(v.asize) + " is beyond the " +
                         std::to_string(cap) + " bytes of top-level vdev " + std::to_string(v.top));
      }
    }
    return b;
  }

  std::string path_;
  const Pool& pool_;
  std::vector<ZdbObject> objects_;
};

}  // namespace

FileLayout ImportZdbLayout(const std::string& path, const Pool& pool) {
  ZdbReader reader(path, pool);
  std::vector<ZdbObject> objects = reader.Read();
  if (objects.empty()) throw InputError(path + ": no object table ('Object  lvl  iblk  dblk ...') found");
  const ZdbObject* o = nullptr;
  for (const ZdbObject& c : objects) {
    if (c.blocks_line > 0 && c.plain_file) {
      o = &c;
      break;
    }
  }
  if (o == nullptr) {
    for (const ZdbObject& c : objects) {
      if (c.blocks_line > 0) {
        o = &c;
        break;
      }
    }
  }
  if (o == nullptr) throw InputError(path + ": no 'Indirect blocks:' section (zdb prints it with -ddddd)");

  // Exact sizes (the L0/L1 lsize fields) win over the rounded table text.
  int64_t bs = 0;
  int64_t l1_lsize = 0;
  for (const ZdbBlock& b : o->blocks) {
    if (b.level == 0) {
      if (bs == 0) {
        bs = b.lsize;
      } else if (b.lsize != bs) {
        reader.Fail(b.line, "size: L0 lsize " + Hex(b.lsize) + " differs from the earlier L0 blocks' " + Hex(bs));
      }
    } else if (b.level == 1 && l1_lsize == 0) {
      l1_lsize = b.lsize;
    }
  }
  if (bs == 0) bs = o->dblk;
  int64_t ptrs = o->iblk >> 7;
  if (ptrs <= 0) ptrs = l1_lsize >> 7;
  if (ptrs <= 0) ptrs = int64_t{1} << (pool.tunables().Int("zfs_default_ibs") - 7);

  int64_t last_l0 = -1;
  int64_t last_l1 = -1;
  for (const ZdbBlock& b : o->blocks) {
    if (b.level == 0) {
      if (b.offset % bs != 0) {
        reader.Fail(b.line, "file offset: " + Hex(b.offset) + " is not a multiple of the block size " + Hex(bs));
      }
      if (b.offset / bs <= last_l0) reader.Fail(b.line, "file offset: " + Hex(b.offset) + ": L0 blocks out of order");
      last_l0 = b.offset / bs;
    } else if (b.level == 1) {
      if (b.offset % (bs * ptrs) != 0) {
        reader.Fail(b.line, "file offset: " + Hex(b.offset) + " is not a multiple of the " + Hex(bs * ptrs) +
                                " bytes one L1 block covers");
      }
      if (b.offset / (bs * ptrs) <= last_l1) {
        reader.Fail(b.line, "file offset: " + Hex(b.offset) + ": L1 blocks out of order");
      }
      last_l1 = b.offset / (bs * ptrs);
    }
  }
  int64_t size = (last_l0 + 1) * bs;
  int size_from = o->blocks_line;
  if (o->size >= 0) {
    size = o->size;
    size_from = o->line;
  } else if (o->maxblkid >= 0) {
    size = (o->maxblkid + 1) * bs;
    size_from = o->line;
  } else if (o->lsize_col >= 0) {
    size = std::max(size, (o->lsize_col + bs / 2) / bs * bs);
  }
  if (last_l0 >= 0 && size <= last_l0 * bs) {
    reader.Fail(size_from, "size: the object is " + std::to_string(size) + " bytes but has an L0 block at offset " +
                               Hex(last_l0 * bs));
  }

  FileLayout fl(o->object, size, bs, static_cast<int>(ptrs));
  ExtentBuilder l0(0);
  ExtentBuilder l1(1);
  for (const ZdbBlock& b : o->blocks) {
    if (b.level > 1) continue;  // L2+ are not part of a FileLayout
    const int64_t id = b.level == 0 ? b.offset / bs : b.offset / (bs * ptrs);
    if (id >= (b.level == 0 ? fl.blocks() : fl.indirect_blocks())) continue;
    BlockPointer bp;
    int64_t stride = 0;
    int64_t stride2 = 0;
    if (!b.hole) {
      bp = ToBlockPointer(b.dva[0], b.ndva > 1 ? &b.dva[1] : nullptr, b.psize);
      stride = b.dva[0].asize;
      stride2 = b.ndva > 1 ? b.dva[1].asize : 0;
    }
    (b.level == 0 ? l0 : l1).Add(fl, id, bp, stride, stride2);
  }
  l0.Finish(fl, fl.blocks());
  if (last_l1 >= 0) l1.Finish(fl, fl.indirect_blocks());  // no L1 line: extents(1) stays empty
  return fl;
}

}  // namespace ziosim
