// From the host benchmarks (host_bench.h) to a host profile's tunables: which
// measurement each `ziosim_cpu_*` tunable takes, at which buffer size, and the
// fit of the page allocator's cost per call and per page.
#ifndef ZIOSIM_SIM_CALIBRATION_HOST_FIGURES_H_
#define ZIOSIM_SIM_CALIBRATION_HOST_FIGURES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/calibration/host_bench.h"

namespace ziosim {

// The size the rates are taken at: OpenZFS's default recordsize, the buffer
// a hole read zeroes and a block read checksums and decompresses.
inline constexpr int64_t kHostRecordBytes = 128 << 10;
// Block buffers up to this size come from the allocator's caches in the
// benchmark (glibc serves them from its free lists; its mmap threshold starts at 128 KiB).
inline constexpr int64_t kHostCachedAllocMaxBytes = 64 << 10;

struct HostFigure {
  std::string tunable;
  int64_t value = 0;
  std::string source;      // what was measured and how it became the value
  bool measured = true;    // false: not measured here, the estimated default stays
};

// page_alloc_ns ~ per_call + per_page x pages over every size, fitted on relative errors.
struct PageAllocFit {
  double per_call_ns = 0;
  double per_page_ns = 0;
  double rms_pct = 0;       // of the measured times
  double zero_page_ns = 0;  // memset of one 4 KiB page, at the 4 KiB rate
};
PageAllocFit FitPageAlloc(const HostBench& bench);

// Every ziosim_cpu_* tunable a host profile sets, in the table's order.
std::vector<HostFigure> HostFigures(const HostBench& bench);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_HOST_FIGURES_H_
