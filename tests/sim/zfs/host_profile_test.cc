// Host profiles (sim/zfs/host_profile.h): the shipped one loads, giving a host
// profile is giving its tunables, a file that sets anything else is refused at
// its line; and the allocation cost by buffer size that those tunables drive.
#include "sim/zfs/host_profile.h"

#include <gtest/gtest.h>

#include "sim/front/fronts.h"
#include "sim/zfs/host_cpu.h"
#include "sim/zfs/tunables.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

using test::ErrorOf;
using test::TempFile;

const std::string kShipped = std::string(ZIOSIM_PROFILES_DIR) + "/../hosts/amd-epyc-2cpu-vm.toml";

TEST(HostProfileTest, ShippedProfileSetsOnlyMeasuredCpuTunables) {
  const auto settings = LoadHostFile(kShipped);
  ASSERT_FALSE(settings.empty());
  Tunables t;
  for (const auto& [name, value] : settings) {
    EXPECT_TRUE(name.starts_with(kHostTunablePrefix)) << name;
    t.Set(name, value, kShipped);
  }
  EXPECT_EQ(t.Int("ziosim_cpu_cores"), 2);  // measured on a 2-CPU virtual machine
}

// `host=FILE` and `tunables=` of the same values give the same run, whichever
// the caller names first; a --set after the host profile wins over it.
TEST(HostProfileTest, HostFileIsTheSameAsItsTunables) {
  const TempFile host("host.toml",
                      "description = \"test host\"\n[tunables]\nziosim_cpu_zero_mb_s = 2000\n"
                      "ziosim_cpu_syscall_ns = 700\n");
  const WorkloadFront& readers = FindWorkloadFront("readers");
  const OptionArgs base = {{"pool", "wd-re4-1tb"}, {"readers", Json::array({1})}, {"sparse", true},
                           {"bs", "4K"}, {"file_size", "4M"}};
  auto run = [&](OptionArgs extra) {
    OptionArgs args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return readers.Run(args, OptionFront::kPython)["runs"][0];
  };
  const Json by_host = run({{"host", host.path()}});
  const Json by_tunables = run({{"tunables", {{"ziosim_cpu_zero_mb_s", 2000}, {"ziosim_cpu_syscall_ns", 700}}}});
  EXPECT_EQ(by_host, by_tunables);
  EXPECT_NE(by_host, run({}));
  const Json set_first = run({{"tunables", {{"ziosim_cpu_zero_mb_s", 9000}}}, {"host", host.path()}});
  const Json set_after = run({{"host", host.path()}, {"tunables", {{"ziosim_cpu_zero_mb_s", 9000}}}});
  EXPECT_EQ(set_first, set_after);
  EXPECT_EQ(set_first, run({{"tunables", {{"ziosim_cpu_zero_mb_s", 9000}, {"ziosim_cpu_syscall_ns", 700}}}}));
}

TEST(HostProfileTest, MalformedHostFilesNameFileAndLine) {
  const TempFile other("other.toml", "description = \"x\"\n[tunables]\nziosim_cpu_cores = 2\nzfs_arc_max = \"1G\"\n");
  EXPECT_EQ(ErrorOf([&] { LoadHostFile(other.path()); }),
            other.path() + ":4: zfs_arc_max: not a host profile tunable (a host profile sets ziosim_cpu_* only)");
  const TempFile bad("bad.toml", "description = \"x\"\n[tunables]\nziosim_cpu_zero_mb_s = \"fast\"\n");
  EXPECT_EQ(ErrorOf([&] { LoadHostFile(bad.path()); }),
            bad.path() + ":3: ziosim_cpu_zero_mb_s: \"fast\" is not an integer");
  const TempFile key("key.toml", "description = \"x\"\ncpu = 1\n");
  EXPECT_EQ(ErrorOf([&] { LoadHostFile(key.path()); }),
            key.path() + ":2: cpu: unknown key (a host profile has description and [tunables])");
  EXPECT_EQ(ErrorOf([] { LoadHostFile("/nonexistent/h.toml"); }), "/nonexistent/h.toml: cannot open host profile file");
}

// Per call up to the threshold; above it, also per 4 KiB page (a partial page counts whole).
TEST(HostCpuTest, BufferAllocCostsPerCallAndPerPageAboveTheThreshold) {
  Tunables t;
  t.Set("ziosim_cpu_buffer_alloc_ns", "300", "test");
  t.Set("ziosim_cpu_buffer_alloc_per_page_ns", "50", "test");
  t.Set("ziosim_cpu_alloc_page_threshold_bytes", "64K", "test");
  const HostCpu cpu(t);
  EXPECT_EQ(cpu.BufferAllocNs(4 << 10), 300);
  EXPECT_EQ(cpu.BufferAllocNs(64 << 10), 300);
  EXPECT_EQ(cpu.BufferAllocNs(128 << 10), 300 + 32 * 50);
  EXPECT_EQ(cpu.BufferAllocNs((64 << 10) + 1), 300 + 17 * 50);
  EXPECT_EQ(HostCpu(Tunables()).BufferAllocNs(16 << 20), Tunables().Int("ziosim_cpu_buffer_alloc_ns"));
}

}  // namespace
}  // namespace ziosim
