#include "sim/zfs/pool_spec.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "models/catalog/catalog.h"
#include "sim/zfs/pool.h"
#include "sim/core/status.h"
#include "tests/test_util.h"

namespace ziosim {
namespace pool_spec_test {


using test::ErrorOf;

std::vector<std::string> Drives(const PoolSpecVdev& v) {
  std::vector<std::string> out;
  for (const PoolSpecLeaf& l : v.leaves) out.push_back(l.drive);
  return out;
}

TEST(PoolSpecTest, TwoWayMirror) {
  const PoolSpec s = ParsePoolSpec("mirror wd-re4-1tb wd-re4-1tb");
  ASSERT_EQ(s.vdevs.size(), 1u);
  EXPECT_EQ(s.vdevs[0].type, "mirror");
  EXPECT_EQ(s.vdevs[0].parity, 0);
  EXPECT_EQ(Drives(s.vdevs[0]), (std::vector<std::string>{"wd-re4-1tb", "wd-re4-1tb"}));
  EXPECT_EQ(s.ashift, 12);
  EXPECT_EQ(s.text, "mirror wd-re4-1tb wd-re4-1tb");
  EXPECT_EQ(FormatPoolSpec(s), "mirror 2xwd-re4-1tb");
}

TEST(PoolSpecTest, RaidzWithCount) {
  const PoolSpec s = ParsePoolSpec("raidz2 5xhgst-nas-4tb", 9);
  ASSERT_EQ(s.vdevs.size(), 1u);
  EXPECT_EQ(s.vdevs[0].type, "raidz");
  EXPECT_EQ(s.vdevs[0].parity, 2);
  EXPECT_EQ(Drives(s.vdevs[0]), std::vector<std::string>(5, "hgst-nas-4tb"));
  EXPECT_EQ(s.ashift, 9);
}

TEST(PoolSpecTest, RaidzKeywordsGiveTheirParity) {
  EXPECT_EQ(ParsePoolSpec("raidz 2xgeneric-ssd").vdevs[0].parity, 1);
  EXPECT_EQ(ParsePoolSpec("raidz1 2xgeneric-ssd").vdevs[0].parity, 1);
  EXPECT_EQ(ParsePoolSpec("raidz2 3xgeneric-ssd").vdevs[0].parity, 2);
  EXPECT_EQ(ParsePoolSpec("raidz3 4xgeneric-ssd").vdevs[0].parity, 3);
  EXPECT_EQ(FormatPoolSpec(ParsePoolSpec("raidz 2xgeneric-ssd")), "raidz1 2xgeneric-ssd");
}

TEST(PoolSpecTest, MixedMirrorWithCount) {
  const PoolSpec s = ParsePoolSpec("mirror 4xgeneric-ssd wd-re4-1tb");
  ASSERT_EQ(s.vdevs.size(), 1u);
  EXPECT_EQ(Drives(s.vdevs[0]),
            (std::vector<std::string>{"generic-ssd", "generic-ssd", "generic-ssd", "generic-ssd", "wd-re4-1tb"}));
  EXPECT_EQ(FormatPoolSpec(s), "mirror 4xgeneric-ssd wd-re4-1tb");
}

TEST(PoolSpecTest, StripedMirrors) {
  const PoolSpec s = ParsePoolSpec("  mirror wd-re4-1tb wd-re4-1tb\tmirror hgst-nas-4tb hgst-nas-4tb\n");
  ASSERT_EQ(s.vdevs.size(), 2u);
  EXPECT_EQ(Drives(s.vdevs[0]), (std::vector<std::string>{"wd-re4-1tb", "wd-re4-1tb"}));
  EXPECT_EQ(Drives(s.vdevs[1]), (std::vector<std::string>{"hgst-nas-4tb", "hgst-nas-4tb"}));
  EXPECT_EQ(FormatPoolSpec(s), "mirror 2xwd-re4-1tb mirror 2xhgst-nas-4tb");
}

TEST(PoolSpecTest, BareDrivesAreAStripe) {
  const PoolSpec s = ParsePoolSpec("wd-re4-1tb 2xhgst-nas-4tb");
  ASSERT_EQ(s.vdevs.size(), 3u);
  for (const PoolSpecVdev& v : s.vdevs) {
    EXPECT_EQ(v.type, "disk");
    EXPECT_EQ(v.leaves.size(), 1u);
  }
  EXPECT_EQ(s.vdevs[0].leaves[0].drive, "wd-re4-1tb");
  EXPECT_EQ(s.vdevs[2].leaves[0].drive, "hgst-nas-4tb");
  EXPECT_EQ(FormatPoolSpec(s), "wd-re4-1tb 2xhgst-nas-4tb");
}

TEST(PoolSpecTest, StripeThenMirror) {
  const PoolSpec s = ParsePoolSpec("generic-ssd mirror 2xwd-re4-1tb");
  ASSERT_EQ(s.vdevs.size(), 2u);
  EXPECT_EQ(s.vdevs[0].type, "disk");
  EXPECT_EQ(s.vdevs[1].type, "mirror");
  EXPECT_EQ(FormatPoolSpec(s), "generic-ssd mirror 2xwd-re4-1tb");
}

TEST(PoolSpecTest, DriveFilesByPath) {
  const std::string path = CatalogDir() + "/wd-re4-1tb.toml";
  const PoolSpec s = ParsePoolSpec("mirror " + path + " wd-re4-1tb");
  EXPECT_EQ(Drives(s.vdevs[0]), (std::vector<std::string>{path, "wd-re4-1tb"}));
}

TEST(PoolSpecTest, WidestVdev) {
  EXPECT_EQ(ParsePoolSpec("raidz3 64xgeneric-ssd").vdevs[0].leaves.size(), 64u);
}

const std::string kKeywords = "keywords: mirror, raidz, raidz1, raidz2, raidz3, draid, draid1, draid2, draid3";

TEST(PoolSpecErrorTest, Empty) {
  const std::string want =
      "pool spec is empty: give drives and vdev keywords, e.g. \"mirror wd-re4-1tb wd-re4-1tb\"";
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec(""); }), want);
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec(" \t "); }), want);
}

TEST(PoolSpecErrorTest, TooFewDisks) {
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirror wd-re4-1tb"); }),
            "pool spec \"mirror wd-re4-1tb\": token 1 \"mirror\": a mirror needs at least 2 disks (got 1)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirror mirror 2xwd-re4-1tb"); }),
            "pool spec \"mirror mirror 2xwd-re4-1tb\": token 1 \"mirror\": a mirror needs at least 2 disks (got 0)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirror 2xwd-re4-1tb mirror wd-re4-1tb"); }),
            "pool spec \"mirror 2xwd-re4-1tb mirror wd-re4-1tb\": token 3 \"mirror\": a mirror needs at least 2 "
            "disks (got 1)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("raidz2 2xhgst-nas-4tb"); }),
            "pool spec \"raidz2 2xhgst-nas-4tb\": token 1 \"raidz2\": a raidz2 needs at least 3 disks (got 2)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("raidz hgst-nas-4tb"); }),
            "pool spec \"raidz hgst-nas-4tb\": token 1 \"raidz\": a raidz needs at least 2 disks (got 1)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("raidz3 3xhgst-nas-4tb"); }),
            "pool spec \"raidz3 3xhgst-nas-4tb\": token 1 \"raidz3\": a raidz3 needs at least 4 disks (got 3)");
}

TEST(PoolSpecErrorTest, TooWide) {
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirror 60xgeneric-ssd 5xgeneric-ssd"); }),
            "pool spec \"mirror 60xgeneric-ssd 5xgeneric-ssd\": token 1 \"mirror\": a mirror of 65 disks is too "
            "wide (at most 64)");
}

TEST(PoolSpecErrorTest, UnknownTokenSuggestsKeywordsAndDrives) {
  const std::string drives = "drives: " + [] {
    std::string s;
    for (const std::string& n : CatalogNames()) s += (s.empty() ? "" : ", ") + n;
    return s;
  }() + " (or a .toml drive file, or disksim:FILE.parv)";
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirrror wd-re4-1tb wd-re4-1tb"); }),
            "pool spec \"mirrror wd-re4-1tb wd-re4-1tb\": token 1 \"mirrror\": unknown drive or keyword "
            "\"mirrror\"; did you mean mirror?; " + kKeywords + "; " + drives);
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("raidz4 5xhgst-nas-4tb"); }),
            "pool spec \"raidz4 5xhgst-nas-4tb\": token 1 \"raidz4\": unknown drive or keyword \"raidz4\"; did you "
            "mean raidz, raidz1, raidz2 or raidz3?; " + kKeywords + "; " + drives);
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirror wd-re4-1tb wd-re4-1t"); }),
            "pool spec \"mirror wd-re4-1tb wd-re4-1t\": token 3 \"wd-re4-1t\": unknown drive or keyword "
            "\"wd-re4-1t\"; did you mean wd-re4-1tb?; " + kKeywords + "; " + drives);
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("raidz2 5xhgst-nas-4tx"); }),
            "pool spec \"raidz2 5xhgst-nas-4tx\": token 2 \"5xhgst-nas-4tx\": unknown drive \"hgst-nas-4tx\"; did "
            "you mean hgst-nas-4tb?; " + drives);
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("zzzzzzzz"); }),
            "pool spec \"zzzzzzzz\": token 1 \"zzzzzzzz\": unknown drive or keyword \"zzzzzzzz\"; " + kKeywords +
                "; " + drives);
}

TEST(PoolSpecErrorTest, BadDriveFileGivesTheCatalogError) {
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirror 2x/nonexistent/d.toml"); }),
            "pool spec \"mirror 2x/nonexistent/d.toml\": token 2 \"2x/nonexistent/d.toml\": /nonexistent/d.toml: "
            "cannot open drive file");
  const std::string err = ErrorOf([] { ParsePoolSpec("disksim:/nonexistent/x.parv"); });
  EXPECT_EQ(err.rfind("pool spec \"disksim:/nonexistent/x.parv\": token 1 \"disksim:/nonexistent/x.parv\": ", 0), 0u)
      << err;
}

TEST(PoolSpecErrorTest, BadCounts) {
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirror 0xwd-re4-1tb 2xwd-re4-1tb"); }),
            "pool spec \"mirror 0xwd-re4-1tb 2xwd-re4-1tb\": token 2 \"0xwd-re4-1tb\": the count must be at least 1");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("-1xwd-re4-1tb"); }),
            "pool spec \"-1xwd-re4-1tb\": token 1 \"-1xwd-re4-1tb\": the count must be at least 1");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("99999999xwd-re4-1tb"); }),
            "pool spec \"99999999xwd-re4-1tb\": token 1 \"99999999xwd-re4-1tb\": the count must be at most 1024");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("2x"); }),
            "pool spec \"2x\": token 1 \"2x\": a count needs a drive after the 'x' (e.g. 5xhgst-nas-4tb)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("2xmirror wd-re4-1tb"); }),
            "pool spec \"2xmirror wd-re4-1tb\": token 1 \"2xmirror\": a count applies to drives, not to \"mirror\"");
}

TEST(PoolSpecErrorTest, UnsupportedSections) {
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb spare wd-re4-1tb"); }),
            "pool spec \"wd-re4-1tb spare wd-re4-1tb\": token 2 \"spare\": \"spare\" vdevs are not supported yet "
            "(only mirror, raidz1-3, draid1-3 and single disks)");
}

TEST(PoolSpecTest, DraidTakesZpoolsDefaultsAndFormatsInFull) {
  const PoolSpec s = ParsePoolSpec("draid2:1s 12xhgst-nas-4tb");
  ASSERT_EQ(s.vdevs.size(), 1u);
  EXPECT_EQ(s.vdevs[0].type, "draid");
  EXPECT_EQ(s.vdevs[0].parity, 2);
  EXPECT_EQ(s.vdevs[0].data, 8);  // min(12 - 1 - 2, 8)
  EXPECT_EQ(s.vdevs[0].spares, 1);
  EXPECT_EQ(s.vdevs[0].leaves.size(), 12u);
  EXPECT_EQ(FormatPoolSpec(s), "draid2:8d:12c:1s 12xhgst-nas-4tb");
  EXPECT_EQ(FormatPoolSpec(ParsePoolSpec(FormatPoolSpec(s))), FormatPoolSpec(s));
  EXPECT_EQ(FormatPoolSpec(ParsePoolSpec("draid 5xwd-re4-1tb")), "draid1:4d:5c:0s 5xwd-re4-1tb");
  EXPECT_EQ(FormatPoolSpec(ParsePoolSpec("draid3:4d:10c:2S 10xwd-re4-1tb draid 3xwd-re4-1tb")),
            "draid3:4d:10c:2s 10xwd-re4-1tb draid1:2d:3c:0s 3xwd-re4-1tb");
  EXPECT_EQ(ParsePoolSpec("draid1 255xgeneric-ssd").vdevs[0].leaves.size(), 255u);  // dRAID's limit, not RAID-Z's
}

TEST(PoolSpecErrorTest, DraidAsZpoolRefusesIt) {
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("draid2:8d:11c 12xwd-re4-1tb"); }),
            "pool spec \"draid2:8d:11c 12xwd-re4-1tb\": token 1 \"draid2:8d:11c\": invalid number of dRAID children; "
            "11 required but 12 provided");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("draid2:11d 12xwd-re4-1tb"); }),
            "pool spec \"draid2:11d 12xwd-re4-1tb\": token 1 \"draid2:11d\": requested number of dRAID data disks "
            "per group 11 is too high, at most 10 disks are available for data");
  // zpool checks the group against the disks left after the spares first.
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("draid2:8d:3s 12xwd-re4-1tb"); }),
            "pool spec \"draid2:8d:3s 12xwd-re4-1tb\": token 1 \"draid2:8d:3s\": requested number of dRAID data "
            "disks per group 8 is too high, at most 7 disks are available for data");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("draid1:1d:101s 103xgeneric-ssd"); }),
            "pool spec \"draid1:1d:101s 103xgeneric-ssd\": token 1 \"draid1:1d:101s\": invalid number of dRAID "
            "spares 101; additional disks would be required");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("draid4 12xwd-re4-1tb"); }),
            "pool spec \"draid4 12xwd-re4-1tb\": token 1 \"draid4\": invalid dRAID parity; give draid, draid1, "
            "draid2 or draid3, then optional :Nd, :Nc, :Ns fields");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("draid2:8x 12xwd-re4-1tb"); }),
            "pool spec \"draid2:8x 12xwd-re4-1tb\": token 1 \"draid2:8x\": invalid dRAID syntax; expected "
            "[:<number><c|d|s>] not ':8x'");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("draid2 2xwd-re4-1tb"); }),
            "pool spec \"draid2 2xwd-re4-1tb\": token 1 \"draid2\": a draid2 needs at least 3 disks (got 2)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("draid1 256xgeneric-ssd"); }),
            "pool spec \"draid1 256xgeneric-ssd\": token 1 \"draid1\": a draid1 of 256 disks is too wide (at most 255)");
}

TEST(PoolSpecTest, LogAndCacheSections) {
  const PoolSpec s = ParsePoolSpec("mirror 2xwd-re4-1tb log mirror 2xgeneric-ssd cache generic-ssd");
  ASSERT_EQ(s.vdevs.size(), 1u);
  EXPECT_EQ(Drives(s.vdevs[0]), (std::vector<std::string>{"wd-re4-1tb", "wd-re4-1tb"}));
  ASSERT_EQ(s.logs.size(), 1u);
  EXPECT_EQ(s.logs[0].type, "mirror");
  EXPECT_EQ(Drives(s.logs[0]), (std::vector<std::string>{"generic-ssd", "generic-ssd"}));
  ASSERT_EQ(s.caches.size(), 1u);
  EXPECT_EQ(s.caches[0].drive, "generic-ssd");
  EXPECT_EQ(FormatPoolSpec(s), "mirror 2xwd-re4-1tb log mirror 2xgeneric-ssd cache generic-ssd");

  // Sections in either order; bare log disks are single-disk log vdevs, striped.
  const PoolSpec t = ParsePoolSpec("raidz1 5xwd-re4-1tb cache generic-ssd log 2xgeneric-ssd");
  ASSERT_EQ(t.logs.size(), 2u);
  EXPECT_EQ(t.logs[1].type, "disk");
  EXPECT_EQ(t.caches.size(), 1u);
  EXPECT_EQ(FormatPoolSpec(t), "raidz1 5xwd-re4-1tb log 2xgeneric-ssd cache generic-ssd");
  EXPECT_EQ(FormatPoolSpec(ParsePoolSpec(FormatPoolSpec(t))), FormatPoolSpec(t));
}

// Log vdevs follow the data vdevs under the root, out of the allocator's sight;
// the cache device feeds the L2ARC unless --l2arc names another.
TEST(PoolSpecTest, PoolBuildsLogAndCacheDevices) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("mirror 2xwd-re4-1tb log mirror 2xgeneric-ssd cache generic-ssd"), Tunables(),
            /*seed=*/1);
  EXPECT_EQ(pool.top_count(), 1);
  EXPECT_EQ(pool.log_count(), 1);
  EXPECT_EQ(pool.top(pool.log_top(0))->type(), "mirror");
  ASSERT_EQ(pool.leaves().size(), 4u);
  EXPECT_EQ(pool.leaf_top(3), 1);
  EXPECT_FALSE(pool.leaves()[3]->rotational());
  EXPECT_FALSE(MakeL2arcDevice(pool, "")->is_rotational());
  EXPECT_TRUE(MakeL2arcDevice(pool, "wd-re4-1tb")->is_rotational());
  Pool plain(&sim, ParsePoolSpec("mirror 2xwd-re4-1tb"), Tunables(), /*seed=*/1);
  EXPECT_EQ(plain.log_count(), 0);
  EXPECT_EQ(MakeL2arcDevice(plain, ""), nullptr);
}

TEST(PoolSpecErrorTest, LogAndCacheMisuse) {
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("mirror 2xwd-re4-1tb log"); }),
            "pool spec \"mirror 2xwd-re4-1tb log\": token 3 \"log\": needs at least one device after it");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb log cache generic-ssd"); }),
            "pool spec \"wd-re4-1tb log cache generic-ssd\": token 2 \"log\": needs at least one device after it");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb cache mirror 2xgeneric-ssd"); }),
            "pool spec \"wd-re4-1tb cache mirror 2xgeneric-ssd\": token 3 \"mirror\": cache devices must be "
            "single disks (zpool rejects groups here)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb log raidz 3xgeneric-ssd"); }),
            "pool spec \"wd-re4-1tb log raidz 3xgeneric-ssd\": token 3 \"raidz\": log devices must be single "
            "disks or mirrors");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb log generic-ssd log generic-ssd"); }),
            "pool spec \"wd-re4-1tb log generic-ssd log generic-ssd\": token 4 \"log\": \"log\" can be given "
            "only once");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("log mirror 2xgeneric-ssd"); }),
            "pool spec \"log mirror 2xgeneric-ssd\": no data vdevs: give the pool's disks before its log and "
            "cache sections");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb cache 2xgeneric-ssd"); }),
            "pool spec \"wd-re4-1tb cache 2xgeneric-ssd\": token 3 \"2xgeneric-ssd\": ziosim models one cache "
            "device (give a single drive after cache)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb 2xlog"); }),
            "pool spec \"wd-re4-1tb 2xlog\": token 2 \"2xlog\": a count applies to drives, not to \"log\"");
}

TEST(PoolSpecErrorTest, AshiftOutOfRange) {
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb", 8); }),
            "pool spec \"wd-re4-1tb\": ashift 8 is out of range (9 to 16)");
  EXPECT_EQ(ErrorOf([] { ParsePoolSpec("wd-re4-1tb", 17); }),
            "pool spec \"wd-re4-1tb\": ashift 17 is out of range (9 to 16)");
  EXPECT_NO_THROW(ParsePoolSpec("wd-re4-1tb", 16));
}

}  // namespace pool_spec_test
}  // namespace ziosim

TEST(PoolSpecTest, TargetTextNamesAPoolOrOneDrive) {
  for (const char* pool : {"mirror 2xwd-re4-1tb", "1xwd-re4-1tb", "2x", "mirror", "raidz2", "draid2", "a b"}) {
    EXPECT_TRUE(ziosim::IsPoolSpecText(pool)) << pool;
  }
  for (const char* drive : {"wd-re4-1tb", "disksim:hp.parv", "my-drive.toml", "x", "10k-drive", ""}) {
    EXPECT_FALSE(ziosim::IsPoolSpecText(drive)) << drive;
  }
}
