// The parts of `ziosim calibrate --kind host` that are not timing: fletcher4
// as ZFS defines it, the summary of timed repeats, and the page-allocator fit
// and the profile file on made-up measurements (no test times anything).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/calibration/fletcher4.h"
#include "sim/calibration/host_figures.h"
#include "sim/calibration/host_toml.h"
#include "sim/calibration/op_timer.h"
#include "sim/zfs/host_profile.h"
#include "sim/zfs/tunables.h"
#include "tests/test_util.h"

namespace ziosim {
namespace {

// a += w, b += a, c += b, d += c over 1, 2, 3: a 1 3 6, b 1 4 10, c 1 5 15, d 1 6 21.
TEST(Fletcher4Test, FourRunningSumsOverWords) {
  const std::vector<uint32_t> words = {1, 2, 3};
  EXPECT_EQ(Fletcher4(words), (std::array<uint64_t, 4>{6, 10, 15, 21}));
  // The words are summed in 64 bits: two of the largest word do not wrap at 2^32.
  const std::vector<uint32_t> big = {0xffffffffu, 0xffffffffu};
  EXPECT_EQ(Fletcher4(big)[0], 2 * uint64_t{0xffffffff});
  EXPECT_EQ(Fletcher4(big)[1], 3 * uint64_t{0xffffffff});
}

TEST(OpTimerTest, MedianAndInterquartileSpread) {
  const OpTiming t = SummarizeRepeats({40, 10, 20, 30, 1000, 20, 20, 30}, 64);
  EXPECT_EQ(t.median_ns, 25);
  // Sorted 10 20 20 20 30 30 40 1000: quartiles 20 and 40; the preempted 1000 ns loop does not widen it.
  EXPECT_EQ(t.spread_pct, 100.0 * (40 - 20) / 25);
  EXPECT_EQ(t.repeats, 8);
  EXPECT_EQ(t.iterations, 64);
}

OpTiming Ns(double ns) { return SummarizeRepeats({ns}, 1); }

// A made-up machine: page allocation exactly 1000 ns + 400 ns per page, memset 4096 MB/s.
HostBench MadeUpBench() {
  HostBench b;
  b.cpu_model = "Test \"CPU\"";
  b.cores = 3;
  b.date = "2000-01-01";
  for (const int64_t bytes : HostBenchSizes()) {
    HostSizeRow r;
    r.bytes = bytes;
    r.memset = Ns(static_cast<double>(bytes) / 4.096);
    r.memcpy = r.fletcher4 = Ns(static_cast<double>(bytes));
    r.malloc_free = Ns(50);
    r.page_alloc = Ns(1000 + 400.0 * static_cast<double>(bytes / 4096));
    b.sizes.push_back(r);
  }
  b.read_dev_zero = Ns(300);
  return b;
}

TEST(HostFiguresTest, PageFitAndFiguresFromTheMeasurements) {
  const HostBench b = MadeUpBench();
  const PageAllocFit fit = FitPageAlloc(b);
  EXPECT_NEAR(fit.per_call_ns, 1000, 1e-6);
  EXPECT_NEAR(fit.per_page_ns, 400, 1e-9);
  EXPECT_NEAR(fit.zero_page_ns, 1000, 1e-9);  // 4096 bytes at 4096 MB/s
  std::map<std::string, HostFigure> by_name;
  for (const HostFigure& f : HostFigures(b)) by_name[f.tunable] = f;
  EXPECT_EQ(by_name["ziosim_cpu_cores"].value, 3);
  EXPECT_EQ(by_name["ziosim_cpu_syscall_ns"].value, 300);  // no tmpfs measurement: read() of /dev/zero
  EXPECT_EQ(by_name["ziosim_cpu_buffer_alloc_ns"].value, 50);
  EXPECT_EQ(by_name["ziosim_cpu_buffer_alloc_per_page_ns"].value, 0);  // 400 - 1000 zero-fill, not below 0
  EXPECT_EQ(by_name["ziosim_cpu_zero_mb_s"].value, 4096);
  EXPECT_EQ(by_name["ziosim_cpu_memcpy_mb_s"].value, 1000);
  EXPECT_FALSE(by_name["ziosim_cpu_decompress_mb_s"].measured);  // no lz4 row
}

// The file written loads back as a host profile with exactly the measured figures.
TEST(HostTomlTest, WrittenProfileLoadsBack) {
  const HostBench b = MadeUpBench();
  const std::vector<HostFigure> figures = HostFigures(b);
  const test::TempFile file("host.toml", HostToml(b, figures));
  const auto settings = LoadHostFile(file.path());
  size_t measured = 0;
  for (const HostFigure& f : figures) {
    if (!f.measured) continue;
    ASSERT_LT(measured, settings.size());
    EXPECT_EQ(settings[measured].first, f.tunable);
    EXPECT_EQ(settings[measured].second, std::to_string(f.value));
    ++measured;
  }
  EXPECT_EQ(measured, settings.size());
  EXPECT_EQ(LoadTunableFile(file.path(), "host profile", kHostTunablePrefix).description,
            "Measured on Test \"CPU\", 3 CPUs, 2000-01-01");
}

}  // namespace
}  // namespace ziosim
