// One interface over the block-I/O trace formats ziosim replays. A reader
// streams a trace one request at a time, in arrival order, so that memory
// stays flat however long the trace is (the two readers that pair or reorder
// events hold a bounded window, see below). Files may be gzip-compressed.
//
// Formats (traces/README.md has the details, units and sources):
//   validate      DiskSim validate: R|W Hit|Miss blkno nsectors service_us gap_us
//   ascii         DiskSim ascii: time_ms devno blkno nsectors flags_hex (bit 0 = read)
//   blkparse      blkparse default text output; D (issue) paired with C (complete)
//   fio-iolog     fio --write_iolog, "fio version 2 iolog" or "fio version 3 iolog"
//   fio-lat       fio --write_lat_log (*_lat.1.log, *_clat.1.log): time_ms, value_ns, ddir, bs, offset[, prio]
//   msr           MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (100 ns units)
//   spc           SPC / UMass: ASU,LBA,Size,Opcode,Timestamp (512-byte LBAs, seconds)
//   ftrace        tracefs block CSV: issue_s,complete_s,rwbs,sector,nsectors,latency_us
//   cloudphysics  CloudPhysics CSV: version,time,op,size,lbn (seconds, SCSI opcodes, 512-byte LBAs)
//   strace        strace -f -tt -T [-y] of read/pread64/openat/lseek/close: file-level
//   dtrace        the capture kit's DTrace output ("# ziosim-dtrace 1"): file-level
//
// File-level traces (IsFileLevel: fio-iolog, strace, dtrace) name a file
// with every request (TraceRecord::file, TraceReader::files()); the others
// address one block device.
//
// A malformed line is an InputError "FILE:LINE: field NAME: ...". With
// skip_bad, malformed lines are counted (stats().skipped) and skipped instead.
// A request that arrives before the one before it is such an error too
// ("field NAME: goes backwards ..."), except in fio-lat logs, whose entries are
// written at completion and are sorted back into arrival order within a window
// (kFioLatReorderWindowNs). Requests that move no data (flushes, trims,
// discards, syncs, zero-length) are counted in stats().ignored, not returned.
#ifndef ZIOSIM_SIM_TRACE_TRACE_READER_H_
#define ZIOSIM_SIM_TRACE_TRACE_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/device/device.h"
#include "sim/core/time.h"

namespace ziosim {

struct TraceRecord {
  // Arrival, in ns from the trace's own origin (not necessarily 0 for the
  // first request); nondecreasing along a trace.
  SimTime time_ns = 0;
  IoOp op = IoOp::kRead;
  int64_t offset_bytes = 0;
  int64_t size_bytes = 0;  // > 0
  // What the traced system took for this request, or -1 when the trace does not say.
  SimTime measured_latency_ns = -1;
  // DiskSim validate traces only: the idle time from this request's completion
  // to the next one's issue; -1 when the trace has none.
  SimTime think_ns = -1;
  int line = 0;  // 1-based line of the request in the trace (blkparse: its D event)
  // Which traced device the request went to: MSR DiskNumber, blkparse
  // MAJOR,MINOR as the kernel's dev_t (MakeTraceDevice), DiskSim ascii devno,
  // SPC ASU; 0 in the formats that trace one device.
  int64_t device = 0;
  // File-level traces (IsFileLevel): which traced file, an index into
  // TraceReader::files(); the offset is within that file. -1 in block traces.
  int32_t file = -1;
  // Which traced thread issued it (strace and DTrace: the PID; 0 in the other
  // formats): validate mode paces each one on its own.
  int64_t stream = 0;
  // DiskSim ascii traces: how urgent its flags mark it; kNone in the other formats.
  Urgency urgency = Urgency::kNone;
};

// blkparse's MAJOR,MINOR as the kernel packs a dev_t (MKDEV: 20 minor bits),
// which is also how blktrace's binary records store it.
constexpr int64_t MakeTraceDevice(int64_t major, int64_t minor) { return (major << 20) | minor; }


enum class TraceFormat {
  kAuto,
  kDisksimValidate,
  kDisksimAscii,
  kBlkparse,
  kFioIolog,
  kFioLatLog,
  kMsr,
  kSpc,
  kFtraceCsv,
  kCloudPhysics,
  kStrace,
  kDtrace,
};

// Whether the format's requests name files (TraceRecord::file) rather than a block device.
bool IsFileLevel(TraceFormat format);
// Whether the format's times are a simulation's clock, which starts at 0 (DiskSim ascii:
// DiskSim's own times, its platters at angle 0 then), rather than a traced system's:
// a replay then keeps them instead of starting at the first request.
bool TimesFromZero(TraceFormat format);

// "validate", "ascii", "blkparse", "fio-iolog", "fio-lat", "msr", "spc", "ftrace", "cloudphysics", "strace",
// "dtrace", "auto".
const char* TraceFormatName(TraceFormat format);
// Accepts the names above (and a few aliases: "disksim-validate", "disksim-ascii",
// "umass", "tracefs"). Throws InputError naming --format and listing the names.
TraceFormat ParseTraceFormat(std::string_view text);
// "validate, ascii, ..." for help texts and messages.
std::string TraceFormatList();

// "8,16" for a blkparse device, the number otherwise.
std::string FormatTraceDevice(TraceFormat format, int64_t device);
// Reads --device: a number, or MAJOR,MINOR (blkparse). Throws InputError naming --device.
int64_t ParseTraceDevice(std::string_view text);

// fio latency logs are sorted back into arrival order within this much trace time.
inline constexpr SimTime kFioLatReorderWindowNs = 10 * kNsPerSec;
// blkparse: a D event still without its C this long (trace time) after it is
// replayed without a measured latency and counted in stats().unmatched.
inline constexpr SimTime kBlkparseMatchWindowNs = 60 * kNsPerSec;

struct TraceReadStats {
  int64_t records = 0;    // requests returned so far
  int64_t skipped = 0;    // malformed lines skipped (skip_bad only)
  int64_t ignored = 0;    // requests that move no data, or ops that are neither read nor write
  int64_t unmatched = 0;  // blkparse: D without C (replayed unmeasured) plus C without D (dropped)
  std::string first_skipped;  // the error message of the first skipped line
};

struct TraceReaderOptions {
  bool skip_bad = false;
  // File-level traces: only files under this directory are the workload's
  // (e.g. the dataset's mount point); reads of others (libraries, /etc) are
  // counted as ignored. Empty: every file.
  std::string files_under;
};

// Whether `path` lies under `directory` ("" holds everything).
bool IsUnder(std::string_view path, std::string_view directory);

// The files of a file-level trace, numbered in the order they are first met
// (TraceRecord::file).
class FileNumbers {
 public:
  // The number of `path`, a new one if it was not met before.
  int32_t Number(std::string_view path);
  const std::vector<std::string>& names() const { return names_; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, int32_t> numbers_;
};

class TraceReader {
 public:
  virtual ~TraceReader() = default;

  // Fills `record` with the next request and returns true; false at the end.
  // Throws InputError on a malformed line (unless skipped) or a read error.
  virtual bool Next(TraceRecord& record) = 0;

  virtual TraceFormat format() const = 0;
  virtual const std::string& path() const = 0;
  const TraceReadStats& stats() const { return stats_; }
  // File-level traces: the files met so far, by TraceRecord::file (paths as traced).
  const std::vector<std::string>& files() const { return files_.names(); }

 protected:
  TraceReadStats stats_;
  FileNumbers files_;
};

// Looks at the first non-blank line of `path` and names its format. Throws
// InputError(path, line, ...) when it fits none, or if the file is empty.
TraceFormat DetectTraceFormat(const std::string& path);

// Opens `path` as `format` (kAuto: DetectTraceFormat). Throws InputError.
std::unique_ptr<TraceReader> OpenTrace(const std::string& path, TraceFormat format = TraceFormat::kAuto,
                                       const TraceReaderOptions& options = {});

}  // namespace ziosim

#endif  // ZIOSIM_SIM_TRACE_TRACE_READER_H_
