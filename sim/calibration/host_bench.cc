#include "sim/calibration/host_bench.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <span>

#ifdef ZIOSIM_HAVE_LZ4
#include <lz4.h>
#endif

#include "sim/calibration/fletcher4.h"
#include "sim/core/status.h"
#include "sim/zfs/host_cpu.h"

namespace ziosim {
namespace {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<char, FreeDeleter>;

// A page-aligned buffer with every page written, so that no timed loop pays a first-touch fault.
Buffer WarmBuffer(int64_t bytes) {
  Buffer b(static_cast<char*>(std::aligned_alloc(kHostPageBytes, static_cast<size_t>(bytes))));
  if (!b) throw InternalError("calibrate: cannot allocate a " + std::to_string(bytes) + "-byte buffer");
  std::memset(b.get(), 1, static_cast<size_t>(bytes));
  return b;
}

OpTiming Time(auto&& op) { return TimeOp(op, kHostRepeats, kHostLoopNs); }

OpTiming TimeMemset(int64_t bytes) {
  const Buffer b = WarmBuffer(bytes);
  return Time([&](int64_t i) {
    std::memset(b.get(), static_cast<int>(i & 0x7f), static_cast<size_t>(bytes));
    KeepAlive(b.get());
  });
}

OpTiming TimeMemcpy(int64_t bytes) {
  const Buffer from = WarmBuffer(bytes), to = WarmBuffer(bytes);
  return Time([&](int64_t i) {
    from.get()[0] = static_cast<char>(i);
    KeepAlive(from.get());
    std::memcpy(to.get(), from.get(), static_cast<size_t>(bytes));
    KeepAlive(to.get());
  });
}

OpTiming TimeFletcher4(int64_t bytes) {
  const Buffer b = WarmBuffer(bytes);
  const std::span<const uint32_t> words(reinterpret_cast<const uint32_t*>(b.get()), static_cast<size_t>(bytes / 4));
  return Time([&](int64_t i) {
    b.get()[0] = static_cast<char>(i);
    KeepAlive(b.get());
    const std::array<uint64_t, 4> sums = Fletcher4(words);
    KeepAlive(sums.data());
  });
}

// malloc + free as the read path's zone caches serve a buffer: a free list hit, one byte written.
OpTiming TimeMallocFree(int64_t bytes) {
  return Time([&](int64_t i) {
    char* p = static_cast<char*>(std::malloc(static_cast<size_t>(bytes)));
    if (p == nullptr) throw InternalError("calibrate: malloc failed");
    p[0] = static_cast<char>(i);
    KeepAlive(p);
    std::free(p);
  });
}

// Pages as a page allocator hands them out: a fresh mapping (4 KiB pages: no
// transparent huge page), each page faulted in by a write, then unmapped.
OpTiming TimePageAlloc(int64_t bytes) {
  return Time([&](int64_t i) {
    void* m = mmap(nullptr, static_cast<size_t>(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw InternalError("calibrate: mmap failed");
    madvise(m, static_cast<size_t>(bytes), MADV_NOHUGEPAGE);
    char* p = static_cast<char*>(m);
    for (int64_t off = 0; off < bytes; off += kHostPageBytes) p[off] = static_cast<char>(i);
    KeepAlive(p);
    munmap(m, static_cast<size_t>(bytes));
  });
}

#ifdef ZIOSIM_HAVE_LZ4
// Text-like data: words of a small vocabulary in a fixed pseudo-random order,
// which lz4 compresses about as much as logs or source code.
std::vector<char> CompressibleData(int64_t bytes) {
  static constexpr const char* kWords[] = {"the ", "read ", "block ", "zio ", "of ", "arc ", "a ", "buffer ",
                                           "pool ", "and ", "disk ", "to ", "data ", "is ", "in ", "vdev "};
  std::vector<char> out;
  out.reserve(static_cast<size_t>(bytes));
  uint32_t x = 12345;
  while (static_cast<int64_t>(out.size()) < bytes) {
    x = x * 1664525u + 1013904223u;  // Numerical Recipes' LCG: any fixed sequence will do
    for (const char* c = kWords[x >> 28]; *c != '\0' && static_cast<int64_t>(out.size()) < bytes; ++c) out.push_back(*c);
  }
  return out;
}

OpTiming TimeLz4(int64_t bytes, double* ratio) {
  const std::vector<char> data = CompressibleData(bytes);
  std::vector<char> packed(static_cast<size_t>(LZ4_compressBound(static_cast<int>(bytes))));
  const int packed_bytes = LZ4_compress_default(data.data(), packed.data(), static_cast<int>(bytes),
                                                static_cast<int>(packed.size()));
  if (packed_bytes <= 0) throw InternalError("calibrate: lz4 compression failed");
  *ratio = static_cast<double>(bytes) / packed_bytes;
  const Buffer out = WarmBuffer(bytes);
  return Time([&](int64_t) {
    KeepAlive(packed.data());
    if (LZ4_decompress_safe(packed.data(), out.get(), packed_bytes, static_cast<int>(bytes)) != bytes) {
      throw InternalError("calibrate: lz4 decompression failed");
    }
    KeepAlive(out.get());
  });
}
#endif

std::optional<OpTiming> TimeLz4Row(int64_t bytes, double* ratio) {
#ifdef ZIOSIM_HAVE_LZ4
  return TimeLz4(bytes, ratio);
#else
  (void)bytes;
  (void)ratio;
  return std::nullopt;
#endif
}

OpTiming TimeReadDevZero() {
  const int fd = open("/dev/zero", O_RDONLY);
  if (fd < 0) throw InputError("calibrate: cannot open /dev/zero");
  char byte = 0;
  const OpTiming t = Time([&](int64_t) {
    if (read(fd, &byte, 1) != 1) throw InternalError("calibrate: read of /dev/zero failed");
    KeepAlive(&byte);
  });
  close(fd);
  return t;
}

// pread of one cached byte of a tmpfs file: the VFS entry and a page-cache
// lookup, no device and no filesystem of its own below.
std::optional<OpTiming> TimePreadTmpfs() {
  struct statfs fs {};
  if (statfs("/dev/shm", &fs) != 0 || fs.f_type != TMPFS_MAGIC) return std::nullopt;
  char path[] = "/dev/shm/ziosim-calibrate-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return std::nullopt;
  unlink(path);
  const std::vector<char> page(kHostPageBytes, 'z');
  std::optional<OpTiming> t;
  if (write(fd, page.data(), page.size()) == kHostPageBytes) {
    char byte = 0;
    t = Time([&](int64_t i) {
      if (pread(fd, &byte, 1, i % kHostPageBytes) != 1) throw InternalError("calibrate: pread of a tmpfs file failed");
      KeepAlive(&byte);
    });
  }
  close(fd);
  return t;
}

std::string CpuinfoField(std::string_view field) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with(field)) continue;
    const size_t value = line.find_first_not_of(" \t", line.find(':') + 1);
    return value == std::string::npos ? "" : line.substr(value);
  }
  return "";
}

int UsableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
  return CPU_COUNT(&set);
}

std::string TodayUtc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

// Busy work before the first timed loop, so that a CPU that clocks up under load has done so.
void WarmUpCpu() {
  const Buffer b = WarmBuffer(kHostPageBytes);
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  for (int64_t i = 0; std::chrono::steady_clock::now() < until; ++i) {
    std::memset(b.get(), static_cast<int>(i & 0x7f), kHostPageBytes);
    KeepAlive(b.get());
  }
}

}  // namespace

std::vector<int64_t> HostBenchSizes() {
  return {4 << 10, 16 << 10, 64 << 10, 128 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20};
}

double RateMbS(int64_t bytes, const OpTiming& t) {
  return t.median_ns > 0 ? static_cast<double>(bytes) / t.median_ns * 1e3 : 0;
}

HostBench RunHostBench() {
  WarmUpCpu();
  HostBench b;
  b.cpu_model = CpuinfoField("model name");
  b.virtual_machine = (" " + CpuinfoField("flags") + " ").find(" hypervisor ") != std::string::npos;
  b.cores = UsableCpus();
  b.date = TodayUtc();
  for (const int64_t bytes : HostBenchSizes()) {
    HostSizeRow row;
    row.bytes = bytes;
    row.memset = TimeMemset(bytes);
    row.memcpy = TimeMemcpy(bytes);
    row.fletcher4 = TimeFletcher4(bytes);
    row.lz4 = TimeLz4Row(bytes, &b.lz4_ratio);
    row.malloc_free = TimeMallocFree(bytes);
    row.page_alloc = TimePageAlloc(bytes);
    b.sizes.push_back(row);
  }
  b.read_dev_zero = TimeReadDevZero();
  b.pread_tmpfs = TimePreadTmpfs();
  return b;
}

}  // namespace ziosim
