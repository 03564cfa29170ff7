#include "sim/zfs/host_cpu.h"

#include <algorithm>
#include <cmath>

namespace ziosim {

namespace {
// MB/s (10^6 bytes per second) to bytes per ns.
double BytesPerNs(int64_t mb_s) { return static_cast<double>(mb_s) / 1e3; }
SimTime Ns(int64_t bytes, double bytes_per_ns) {
  return bytes <= 0 ? 0 : static_cast<SimTime>(std::ceil(static_cast<double>(bytes) / bytes_per_ns));
}
}  // namespace

HostCpu::HostCpu(const Tunables& t) {
  costs_.cores = static_cast<int>(t.Int("ziosim_cpu_cores"));
  costs_.syscall_ns = t.Int("ziosim_cpu_syscall_ns");
  costs_.buffer_alloc_ns = t.Int("ziosim_cpu_buffer_alloc_ns");
  costs_.alloc_per_page_ns = t.Int("ziosim_cpu_buffer_alloc_per_page_ns");
  costs_.alloc_page_threshold_bytes = t.Int("ziosim_cpu_alloc_page_threshold_bytes");
  costs_.memcpy_bytes_per_ns = BytesPerNs(t.Int("ziosim_cpu_memcpy_mb_s"));
  costs_.zero_bytes_per_ns = BytesPerNs(t.Int("ziosim_cpu_zero_mb_s"));
  costs_.checksum_bytes_per_ns = BytesPerNs(t.Int("ziosim_cpu_checksum_mb_s"));
  costs_.decompress_bytes_per_ns = BytesPerNs(t.Int("ziosim_cpu_decompress_mb_s"));
  core_free_.assign(static_cast<size_t>(costs_.cores), 0);
}

// Non-preemptive FIFO over the cores: the work starts on the core that frees
// up first. Readers and pipeline threads contend for the same cores.
SimTime HostCpu::Run(SimTime now, SimTime work_ns) {
  if (work_ns <= 0) return now;
  auto core = std::min_element(core_free_.begin(), core_free_.end());
  const SimTime start = std::max(now, *core);
  *core = start + work_ns;
  busy_ns_ += work_ns;
  return *core;
}

// A buffer the allocator's caches serve costs one call; a larger one is built
// from pages (FreeBSD malloc_large: kmem_malloc maps each page), so it also
// costs every 4 KiB page of it.
SimTime HostCpu::BufferAllocNs(int64_t bytes) const {
  if (bytes <= costs_.alloc_page_threshold_bytes) return costs_.buffer_alloc_ns;
  const int64_t pages = (bytes + kHostPageBytes - 1) / kHostPageBytes;
  return costs_.buffer_alloc_ns + pages * costs_.alloc_per_page_ns;
}

SimTime HostCpu::CopyNs(int64_t bytes) const { return Ns(bytes, costs_.memcpy_bytes_per_ns); }
SimTime HostCpu::ZeroNs(int64_t bytes) const { return Ns(bytes, costs_.zero_bytes_per_ns); }
SimTime HostCpu::ChecksumNs(int64_t bytes) const { return Ns(bytes, costs_.checksum_bytes_per_ns); }
SimTime HostCpu::DecompressNs(int64_t bytes) const { return Ns(bytes, costs_.decompress_bytes_per_ns); }

}  // namespace ziosim
