// The host's CPUs as the read path uses them: a number of cores shared by the
// reader threads (system call, copy out, hole zero-fill) and the zio pipeline
// (checksum, decompression). Work is queued on the first free core (FIFO), so
// a CPU-bound run shows up as CPU-bound. Costs per operation come from the
// tunables (`ziosim_cpu_*`), each traceable to a measurement class.
#ifndef ZIOSIM_SIM_ZFS_HOST_CPU_H_
#define ZIOSIM_SIM_ZFS_HOST_CPU_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/core/time.h"
#include "sim/zfs/tunables.h"

namespace ziosim {

// The x86 base page: the unit the page allocator hands out, and the one the
// host benchmark touches and times.
inline constexpr int64_t kHostPageBytes = 4096;

struct HostCpuCosts {
  int cores = 4;
  SimTime syscall_ns = 0;          // entering and leaving read()
  SimTime buffer_alloc_ns = 0;     // allocate + free one ARC/dbuf buffer, per call
  SimTime alloc_per_page_ns = 0;   // more per 4 KiB page of a buffer from the page allocator
  int64_t alloc_page_threshold_bytes = 0;  // buffers larger than this come from the page allocator
  double memcpy_bytes_per_ns = 0;  // copy out to user space
  double zero_bytes_per_ns = 0;    // memset of a hole buffer
  double checksum_bytes_per_ns = 0;     // fletcher4
  double decompress_bytes_per_ns = 0;   // lz4 (output bytes)
};

class HostCpu {
 public:
  explicit HostCpu(const Tunables& tunables);
  const HostCpuCosts& costs() const { return costs_; }

  // Runs `work_ns` of CPU work that becomes ready at `now`; returns when it ends.
  SimTime Run(SimTime now, SimTime work_ns);

  // Costs of the elementary operations, in ns.
  SimTime BufferAllocNs(int64_t bytes) const;
  SimTime CopyNs(int64_t bytes) const;
  SimTime ZeroNs(int64_t bytes) const;
  SimTime ChecksumNs(int64_t bytes) const;
  SimTime DecompressNs(int64_t bytes) const;

  // Core-time spent, for cpu_busy_pct = busy / (cores x elapsed).
  SimTime busy_ns() const { return busy_ns_; }

 private:
  HostCpuCosts costs_;
  std::vector<SimTime> core_free_;  // when each core finishes its queued work
  SimTime busy_ns_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_HOST_CPU_H_
