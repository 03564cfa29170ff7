// A pool layout written as `zpool create` takes it, parsed into a plain tree:
//
//   mirror wd-re4-1tb wd-re4-1tb              one 2-way mirror
//   mirror A A mirror A A                     two mirrors, striped
//   raidz2 5xhgst-nas-4tb                     one 5-wide RAID-Z2 (NxDRIVE = N copies)
//   hgst-nas-4tb hgst-nas-4tb                 a stripe of two single disks
//   mirror 2xA log mirror 2xgeneric-ssd cache generic-ssd
//                                             a mirror with a mirrored SLOG and an L2ARC
//
//   draid2:8d:1s 12xhgst-nas-4tb              a dRAID2 of 8+2 groups and one distributed spare
//
// Tokens are separated by whitespace. A vdev kind's keyword (vdev_kind.h:
// `mirror`, `raidz` (= raidz1), `raidz1`, `raidz2`, `raidz3`,
// `draid[1-3][:Nd][:Nc][:Ns]` as zpool create takes it) starts a
// top-level vdev whose disks follow until the next keyword; a drive outside a group is a single-disk top-level vdev. A drive is
// a catalog name, disksim:FILE.parv or a .toml drive file (see ResolveDrive);
// each is checked to resolve. `log` starts the log section (separate intent log
// devices: single disks or mirrors, as zpool allows) and `cache` the cache
// section (L2ARC: single disks); each may appear once, not empty, and what
// follows it belongs to it until the other section keyword. spare, special
// and dedup vdevs are not supported. Errors are InputError quoting the
// spec and naming the token.
#ifndef ZIOSIM_SIM_ZFS_POOL_SPEC_H_
#define ZIOSIM_SIM_ZFS_POOL_SPEC_H_

#include <string>
#include <string_view>
#include <vector>

namespace ziosim {

struct PoolSpecLeaf {
  std::string drive;  // catalog name or disksim:PATH or a .toml path, as written
};

struct PoolSpecVdev {
  std::string type = "disk";  // a registered vdev kind (sim/zfs/vdev/vdev_kind.h): disk, mirror, raidz, draid
  int parity = 0;             // raidz, draid: 1..3
  int data = 0;               // draid: data disks per redundancy group (":8d"; 0 until the group is complete)
  int spares = 0;             // draid: distributed spares (":2s")
  int declared_children = 0;  // draid: ":12c" as written (0: not given), checked against the leaves
  std::vector<PoolSpecLeaf> leaves;  // disk: exactly one
};

struct PoolSpec {
  std::vector<PoolSpecVdev> vdevs;   // data (normal class) top-level vdevs
  std::vector<PoolSpecVdev> logs;    // `log` section: top-level log vdevs (disks or mirrors)
  std::vector<PoolSpecLeaf> caches;  // `cache` section: L2ARC devices
  int ashift = 12;
  std::string text;  // as given
};

// Widest mirror vdev accepted (RAID-Z: kMaxRaidzWidth; dRAID: kDraidMaxChildren).
inline constexpr int kMaxVdevWidth = 64;

// Parses `text`; `ashift` (9..16) is the pool's sector shift.
PoolSpec ParsePoolSpec(std::string_view text, int ashift = 12);

// Whether `text` (a --target) names a pool rather than one drive: several
// words, a vdev kind's keyword, or an NxDRIVE run ("1xDRIVE" is a one-disk
// pool). A pool that is then malformed gets ParsePoolSpec's message.
bool IsPoolSpecText(std::string_view text);

// The spec in canonical form: "mirror 2xwd-re4-1tb raidz2 5xhgst-nas-4tb" (raidz
// written raidz1, draid with all four fields as draid2:8d:12c:1s, runs of the same drive as NxDRIVE, then " log ..." and
// " cache ..." when present). Parsing it gives the same tree.
std::string FormatPoolSpec(const PoolSpec& spec);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_POOL_SPEC_H_
