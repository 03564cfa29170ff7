// The microbenchmarks of `ziosim calibrate --kind host`: what the host's CPU
// costs for the work the read path charges it (sim/zfs/host_cpu.h), measured
// on the machine that runs them, by buffer size. Each figure is the median of
// kHostRepeats short timed loops (sim/calibration/op_timer.h): a loop much
// shorter than a scheduler time slice is rarely preempted, so on a busy
// machine most loops are clean and the median is theirs. The whole run takes
// a few seconds.
#ifndef ZIOSIM_SIM_CALIBRATION_HOST_BENCH_H_
#define ZIOSIM_SIM_CALIBRATION_HOST_BENCH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/calibration/op_timer.h"

namespace ziosim {

inline constexpr int kHostRepeats = 31;
inline constexpr int64_t kHostLoopNs = 250'000;  // each timed loop: 0.25 ms

// The buffer sizes measured: a 4 KiB page to the 16 MiB largest ZFS block.
std::vector<int64_t> HostBenchSizes();

// One buffer size's figures; a rate is MB/s (10^6 bytes per second).
struct HostSizeRow {
  int64_t bytes = 0;
  OpTiming memset;      // memset of a cache-warm buffer
  OpTiming memcpy;      // memcpy between two cache-warm buffers
  OpTiming fletcher4;   // scalar fletcher4 (sim/calibration/fletcher4.h)
  std::optional<OpTiming> lz4;  // LZ4_decompress_safe of compressible data; none without liblz4
  OpTiming malloc_free;  // malloc, write one byte, free (glibc)
  OpTiming page_alloc;   // mmap, write one byte per 4 KiB page, munmap: pages straight from the kernel
};

struct HostBench {
  std::string cpu_model;       // /proc/cpuinfo "model name" of the first CPU
  bool virtual_machine = false;  // /proc/cpuinfo flags has "hypervisor"
  int cores = 0;               // CPUs this process may run on
  std::string date;            // YYYY-MM-DD (UTC)
  std::vector<HostSizeRow> sizes;
  OpTiming read_dev_zero;      // read() of 1 byte from /dev/zero
  std::optional<OpTiming> pread_tmpfs;  // pread() of 1 byte of a file on tmpfs (/dev/shm), when there is one
  double lz4_ratio = 0;        // the decompressed data's compression ratio (0 without liblz4)
};

// Runs every benchmark on this machine.
HostBench RunHostBench();

// MB/s of `bytes` per operation that takes `t`.
double RateMbS(int64_t bytes, const OpTiming& t);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_HOST_BENCH_H_
