// Workload personalities: the built-in files load with their documented
// mixes, user files are checked, NFS front options parse.
#include "sim/workload/personality.h"

#include <gtest/gtest.h>

#include <string>

#include "sim/core/status.h"
#include "sim/workload/nfs_front.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

using test::ErrorOf;
using test::TempFile;

TEST(PersonalityTest, BuiltInsLoad) {
  EXPECT_EQ(PersonalityNames(),
            (std::vector<std::string>{"database", "fileserver", "oltp", "varmail", "webserver", "workstation"}));
  for (const std::string& name : PersonalityNames()) {
    const Personality p = LoadPersonality(name);
    EXPECT_EQ(p.name, name);
    EXPECT_FALSE(p.description.empty());
    EXPECT_FALSE(p.io_sizes.empty());
  }
  const Personality db = LoadPersonality("database");
  EXPECT_EQ(db.read_pct, 67);
  EXPECT_EQ(db.sync, Personality::Sync::kODsync);
  EXPECT_EQ(db.recordsize, 8192);
  const Personality web = LoadPersonality("webserver");
  EXPECT_EQ(web.read_pct, 100);
  EXPECT_EQ(web.io_sizes.size(), 10u);
  EXPECT_EQ(LoadPersonality("varmail").sync, Personality::Sync::kFsync);
}

TEST(PersonalityTest, UserFile) {
  const TempFile f("personality.toml",
      "description = \"mine\"\nfiles = 3\nfile_size = \"1M\"\nthreads = 2\nread_pct = 50\nsync = \"fsync\"\n"
      "io_sizes = [[\"4K\", 3], [8192, 1]]\n");
  const Personality p = LoadPersonality(f.path());
  EXPECT_EQ(p.files, 3);
  EXPECT_EQ(p.file_size, 1 << 20);
  EXPECT_EQ(p.threads, 2);
  EXPECT_EQ(p.read_pct, 50);
  EXPECT_EQ(p.random_pct, 100);
  ASSERT_EQ(p.io_sizes.size(), 2u);
  EXPECT_EQ(p.io_sizes[1].first, 8192);
  EXPECT_EQ(p.io_sizes[0].second, 3);
}

TEST(PersonalityTest, Errors) {
  EXPECT_NE(ErrorOf([] { LoadPersonality("dtabase"); }).find("unknown personality \"dtabase\"; known personalities: "
                                                            "database, fileserver"),
            std::string::npos);
  const TempFile bad_key("personality.toml", "description = \"x\"\nio_sizes = [[\"4K\", 1]]\nthreds = 2\n");
  EXPECT_EQ(ErrorOf([&] { LoadPersonality(bad_key.path()); }),
            bad_key.path() + ":3: threds: unknown key (known: description, files, file_size, recordsize, threads, "
                             "read_pct, random_pct, sync, io_sizes)");
  const TempFile bad_pct("personality.toml", "description = \"x\"\nread_pct = 120\nio_sizes = [[\"4K\", 1]]\n");
  EXPECT_EQ(ErrorOf([&] { LoadPersonality(bad_pct.path()); }),
            bad_pct.path() + ":2: read_pct: expected a number from 0 to 100");
  const TempFile bad_sync("personality.toml", "description = \"x\"\nsync = \"always\"\nio_sizes = [[\"4K\", 1]]\n");
  EXPECT_EQ(ErrorOf([&] { LoadPersonality(bad_sync.path()); }),
            bad_sync.path() + ":2: sync: \"always\" is not none, o_dsync or fsync");
  const TempFile no_sizes("personality.toml", "description = \"x\"\n");
  EXPECT_EQ(ErrorOf([&] { LoadPersonality(no_sizes.path()); }),
            no_sizes.path() + ":1: io_sizes: missing (e.g. io_sizes = [[\"8K\", 100]])");
  const TempFile odd_size("personality.toml", "description = \"x\"\nio_sizes = [[\"4K\", 1], [1000, 1]]\n");
  EXPECT_EQ(ErrorOf([&] { LoadPersonality(odd_size.path()); }),
            odd_size.path() + ":2: io_sizes: sizes must be positive multiples of 512 bytes");
  const TempFile big("personality.toml", "description = \"x\"\nfile_size = \"64K\"\nio_sizes = [[\"128K\", 1]]\n");
  EXPECT_EQ(ErrorOf([&] { LoadPersonality(big.path()); }),
            big.path() + ":3: io_sizes: an I/O size is larger than file_size");
}

TEST(NfsFrontTest, Options) {
  const NfsFront d = ParseNfsFront("on");
  EXPECT_TRUE(d.enabled);
  EXPECT_FALSE(d.async_export);
  const NfsFront n = ParseNfsFront("latency=1ms,bw=10M,rsize=64K,wsize=8K,async,unstable");
  EXPECT_EQ(n.latency_ns, 1'000'000);
  EXPECT_EQ(n.bandwidth_bytes_s, 10 << 20);
  EXPECT_EQ(n.rsize, 64 << 10);
  EXPECT_EQ(n.wsize, 8 << 10);
  EXPECT_TRUE(n.async_export);
  EXPECT_TRUE(n.unstable);
  // One RPC: the round trip plus the payload over the link.
  EXPECT_EQ(n.RpcNs(10 << 20), 1'000'000 + 1'000'000'000);
  EXPECT_EQ(ErrorOf([] { ParseNfsFront("latency=1ms,fast"); }),
            "--nfs: \"fast\" is not one of latency=TIME, bw=BYTES_PER_S, rsize=SIZE, wsize=SIZE, async, unstable");
  EXPECT_EQ(ErrorOf([] { ParseNfsFront("wsize=2M"); }), "--nfs wsize: must be a multiple of 512 from 512 to 1M (got 2M)");
}

}  // namespace
}  // namespace ziosim
