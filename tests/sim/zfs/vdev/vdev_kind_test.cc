// Vdev kinds are registered by keyword (vdev_kind.h): the spec parser, the pool
// builder and every kind-specific question (parity, block size, statistics) go
// through the registry and the Vdev interface, never through the concrete type.
#include "sim/zfs/vdev/vdev_kind.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/core/status.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/vdev/raidz_map.h"

namespace ziosim {
namespace {

TEST(VdevKindTest, KeywordsGiveTheKindAndItsParity) {
  PoolSpecVdev v;
  std::string error;
  ASSERT_NE(FindVdevKindByKeyword("mirror", &v, &error), nullptr);
  EXPECT_EQ(FindVdevKindByKeyword("mirror", &v, &error)->name, "mirror");
  for (auto [word, p] : {std::pair{"raidz", 1}, {"raidz1", 1}, {"raidz2", 2}, {"raidz3", 3}}) {
    const VdevKind* k = FindVdevKindByKeyword(word, &v, &error);
    ASSERT_NE(k, nullptr) << word;
    EXPECT_EQ(k->name, "raidz");
    EXPECT_EQ(v.type, "raidz");
    EXPECT_EQ(v.parity, p);
    EXPECT_EQ(k->min_children(v.parity), p + 1);
    EXPECT_EQ(k->keyword_for(v), "raidz" + std::to_string(p));
  }
  EXPECT_EQ(FindVdevKindByKeyword("disk", &v, &error), nullptr);  // a bare drive, no keyword
  EXPECT_EQ(GetVdevKind("mirror").min_children(0), 2);
  EXPECT_THROW(GetVdevKind("zraid"), InternalError);
}

TEST(VdevKindTest, DraidKeywordsCarryTheirFields) {
  PoolSpecVdev v;
  std::string error;
  const VdevKind* k = FindVdevKindByKeyword("draid2:8d:12C:1s", &v, &error);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(error, "");
  EXPECT_EQ(k->name, "draid");
  EXPECT_EQ(v.parity, 2);
  EXPECT_EQ(v.data, 8);
  EXPECT_EQ(v.declared_children, 12);
  EXPECT_EQ(v.spares, 1);
  PoolSpecVdev d;
  ASSERT_NE(FindVdevKindByKeyword("draid:3s", &d, &error), nullptr);  // parity defaults to 1
  EXPECT_EQ(d.parity, 1);
  EXPECT_EQ(d.spares, 3);
  for (const char* bad : {"draid4", "draid0", "draid02", "draid2x", "draid:8", "draid:8x", "draid:d", "draid::8d",
                          "draid:8dd", "draid:0d", "draidz"}) {
    PoolSpecVdev b;
    EXPECT_NE(FindVdevKindByKeyword(bad, &b, &error), nullptr) << bad;
    EXPECT_NE(error, "") << bad;
  }
}

TEST(VdevKindTest, ThePoolAsksEachTopVdevThroughTheInterface) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("wd-re4-1tb mirror 2xwd-re4-1tb raidz2 6xwd-re4-1tb", 12), Tunables(), /*seed=*/1);
  ASSERT_EQ(pool.top_count(), 3);
  EXPECT_EQ(pool.top(0)->type(), "disk");
  EXPECT_EQ(pool.top(1)->type(), "mirror");
  EXPECT_EQ(pool.top(1)->name(), "mirror-1");
  EXPECT_EQ(pool.top(2)->type(), "raidz2");
  EXPECT_EQ(pool.top(2)->name(), "raidz2-2");
  EXPECT_EQ(pool.top(0)->nparity(), 0);
  EXPECT_EQ(pool.top(2)->nparity(), 2);
  // A 128K block: whole sectors on a disk or a mirror; parity and padding on RAID-Z2.
  EXPECT_EQ(pool.BlockAsize(0, 5000), 8192);
  EXPECT_EQ(pool.BlockAsize(1, 131072), 131072);
  EXPECT_EQ(pool.BlockAsize(2, 131072), RaidzAsize(6, 2, 12, 131072));
  EXPECT_GT(pool.BlockAsize(2, 131072), 131072);
  EXPECT_EQ(pool.top(0)->ChildSelections(0), 0u);  // only a mirror chooses among children
}

}  // namespace
}  // namespace ziosim
