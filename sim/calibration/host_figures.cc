#include "sim/calibration/host_figures.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "sim/calibration/drive_toml.h"
#include "sim/calibration/least_squares.h"
#include "sim/core/status.h"
#include "sim/core/units.h"
#include "sim/zfs/host_cpu.h"

namespace ziosim {
namespace {

using Pick = std::function<const OpTiming*(const HostSizeRow&)>;

const HostSizeRow& RowOf(const HostBench& b, int64_t bytes) {
  for (const HostSizeRow& r : b.sizes) {
    if (r.bytes == bytes) return r;
  }
  throw InternalError("calibrate: no measurement at " + std::to_string(bytes) + " bytes");
}

std::string Spread(const OpTiming& t) { return FormatFigure("%.1f %%", t.spread_pct); }

// "4K 9123, 16K 10456, ..." of `pick`'s rate (MB/s) or time (ns) at every size.
std::string BySize(const HostBench& b, const Pick& pick, bool rate) {
  std::string out;
  for (const HostSizeRow& r : b.sizes) {
    const OpTiming* t = pick(r);
    if (t == nullptr) continue;
    out += (out.empty() ? "" : ", ") + SizeText(r.bytes) + " " +
           FormatFigure("%.0f", rate ? RateMbS(r.bytes, *t) : t->median_ns);
  }
  return out;
}

HostFigure RateFigure(const HostBench& b, const std::string& tunable, const std::string& what, const Pick& pick) {
  const OpTiming* t = pick(RowOf(b, kHostRecordBytes));
  const double mb_s = RateMbS(kHostRecordBytes, *t);
  return {.tunable = tunable,
          .value = std::max<int64_t>(1, std::llround(mb_s)),
          .source = what + " at " + SizeText(kHostRecordBytes) + " (the default recordsize), spread " + Spread(*t) +
                    "; MB/s by size: " + BySize(b, pick, true)};
}

HostFigure AllocPerCall(const HostBench& b) {
  std::vector<double> cached;
  for (const HostSizeRow& r : b.sizes) {
    if (r.bytes <= kHostCachedAllocMaxBytes) cached.push_back(r.malloc_free.median_ns);
  }
  std::sort(cached.begin(), cached.end());
  const double median = cached[cached.size() / 2];
  return {.tunable = "ziosim_cpu_buffer_alloc_ns",
          .value = std::llround(median),
          .source = "malloc + free of a buffer the free lists serve (as a kmem/UMA zone serves a block buffer), "
                    "median over " + SizeText(b.sizes.front().bytes) + ".." + SizeText(kHostCachedAllocMaxBytes) +
                    "; ns by size: " + BySize(b, [](const HostSizeRow& r) { return &r.malloc_free; }, false)};
}

HostFigure AllocPerPage(const HostBench& b) {
  const PageAllocFit fit = FitPageAlloc(b);
  return {.tunable = "ziosim_cpu_buffer_alloc_per_page_ns",
          .value = std::max<int64_t>(0, std::llround(fit.per_page_ns - fit.zero_page_ns)),
          .source = "mmap + write one byte per 4 KiB page + munmap, fitted " + FormatFigure("%.0f", fit.per_call_ns) +
                    " ns + " + FormatFigure("%.1f", fit.per_page_ns) + " ns/page (rms " +
                    FormatFigure("%.0f", fit.rms_pct) + " %), less the " + FormatFigure("%.1f", fit.zero_page_ns) +
                    " ns Linux spends zero-filling a faulted page (memset at 4K), which a page allocator without "
                    "M_ZERO does not; ns by size: " +
                    BySize(b, [](const HostSizeRow& r) { return &r.page_alloc; }, false)};
}

HostFigure Syscall(const HostBench& b) {
  if (b.pread_tmpfs) {
    return {.tunable = "ziosim_cpu_syscall_ns",
            .value = std::llround(b.pread_tmpfs->median_ns),
            .source = "pread() of 1 cached byte of a tmpfs file (/dev/shm): system call, VFS and a page-cache "
                      "lookup with no filesystem below, a lower bound for zfs_read + dmu; spread " +
                      Spread(*b.pread_tmpfs) + " (read() of 1 byte of /dev/zero: " +
                      FormatFigure("%.0f", b.read_dev_zero.median_ns) + " ns)"};
  }
  return {.tunable = "ziosim_cpu_syscall_ns",
          .value = std::llround(b.read_dev_zero.median_ns),
          .source = "read() of 1 byte of /dev/zero (no tmpfs at /dev/shm): system call and VFS entry only, a "
                    "lower bound for zfs_read + dmu; spread " + Spread(b.read_dev_zero)};
}

HostFigure Decompress(const HostBench& b) {
  if (!RowOf(b, kHostRecordBytes).lz4) {
    return {.tunable = "ziosim_cpu_decompress_mb_s", .source = "not measured: ziosim was built without liblz4 "
                                                               "(liblz4-dev); the estimated default stays",
            .measured = false};
  }
  return RateFigure(b, "ziosim_cpu_decompress_mb_s",
                    "LZ4_decompress_safe (liblz4) output of text-like data compressed " +
                        FormatFigure("%.2f", b.lz4_ratio) + "x",
                    [](const HostSizeRow& r) { return r.lz4 ? &*r.lz4 : nullptr; });
}

}  // namespace

// Least squares on relative errors (each row divided by its measured time):
// the sizes span 4 KiB to 16 MiB, and plain residuals would fit the largest
// alone. rms_pct is that relative error.
PageAllocFit FitPageAlloc(const HostBench& b) {
  Eigen::MatrixXd x(static_cast<Eigen::Index>(b.sizes.size()), 2);
  Eigen::VectorXd y(x.rows());
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const HostSizeRow& r = b.sizes[static_cast<size_t>(i)];
    const double ns = r.page_alloc.median_ns;
    x(i, 0) = 1 / ns;
    x(i, 1) = std::ceil(static_cast<double>(r.bytes) / static_cast<double>(kHostPageBytes)) / ns;
    y(i) = 1;
  }
  const LinearFit fit = FitLinear(x, y);
  const OpTiming& page_memset = RowOf(b, kHostPageBytes).memset;
  return {.per_call_ns = fit.coefficients(0), .per_page_ns = fit.coefficients(1), .rms_pct = 100 * fit.rms,
          .zero_page_ns = page_memset.median_ns};
}

std::vector<HostFigure> HostFigures(const HostBench& b) {
  return {
      {.tunable = "ziosim_cpu_cores",
       .value = b.cores,
       .source = "CPUs this process may run on (sched_getaffinity)" +
                 std::string(b.virtual_machine ? ", virtual ones: /proc/cpuinfo has the hypervisor flag" : "")},
      Syscall(b),
      AllocPerCall(b),
      AllocPerPage(b),
      RateFigure(b, "ziosim_cpu_memcpy_mb_s", "memcpy between two cache-warm buffers",
                 [](const HostSizeRow& r) { return &r.memcpy; }),
      RateFigure(b, "ziosim_cpu_zero_mb_s", "memset of a cache-warm buffer",
                 [](const HostSizeRow& r) { return &r.memset; }),
      RateFigure(b, "ziosim_cpu_checksum_mb_s", "scalar fletcher4 (four 64-bit sums over 32-bit words)",
                 [](const HostSizeRow& r) { return &r.fletcher4; }),
      Decompress(b),
  };
}

}  // namespace ziosim
