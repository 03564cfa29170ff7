// What the file-level trace readers share (internal to sim/trace/): which
// traced file each open descriptor names and where its offset stands, so
// that read() calls become (file, offset, size) records as the kernel would
// place them: open/openat bind a descriptor at offset 0, read() reads at the
// descriptor's offset and moves it, pread() leaves it, lseek() sets it (to
// the offset it returned), close() unbinds it, dup/dup2 copy a binding. Files are numbered in the
// order they are first met (TraceRecord::file, TraceReader::files()); a file
// opened twice is one file. What is not a file of a dataset (a pipe, a
// socket, a terminal, a device, /proc or /sys: "pipe:[7]", "/dev/zero") is
// followed as kNotData, so that its reads can be passed over; so are files
// outside the directory the user names as the workload's.
//
// One table for the whole trace: the threads of a process share it, as the
// kernel's; processes traced together (strace -f) are taken to share
// descriptor numbers too, which is wrong only when two of them read different
// files through the same number at the same time.
#ifndef ZIOSIM_SIM_TRACE_OPEN_FILES_H_
#define ZIOSIM_SIM_TRACE_OPEN_FILES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ziosim {

class FieldParser;
class FileNumbers;
struct TraceRecord;

// `fd`, or the field's error if it is not below OpenFiles::kMaxFd.
int64_t CheckFd(const FieldParser& fields, std::string_view field, int64_t fd);

class OpenFiles {
 public:
  static constexpr int32_t kNeverOpened = -1;
  static constexpr int32_t kNotData = -2;
  // Descriptors are below this (Linux's default fs.nr_open); the readers refuse larger ones.
  static constexpr int64_t kMaxFd = int64_t{1} << 20;

  // `files` is the reader's file table (TraceReader::files_), added to;
  // files outside `under` (TraceReaderOptions::files_under) are kNotData.
  OpenFiles(FileNumbers& files, std::string under) : files_(files), under_(std::move(under)) {}

  // `fd` now names `path`, at offset 0.
  void Open(int64_t fd, std::string_view path);
  void Close(int64_t fd) {
    if (fd >= 0 && fd < static_cast<int64_t>(fds_.size())) fds_[static_cast<size_t>(fd)] = Descriptor{};
  }
  // dup/dup2: `to` names what `from` names, at its offset (the kernel shares
  // one offset between them; programs read through one, e.g. dd's stdin after
  // dup2). Nothing if `from` is not open.
  void Dup(int64_t from, int64_t to);
  // The file `fd` names, kNotData, or kNeverOpened. With `path` (strace -y
  // prints it with every descriptor) an unknown descriptor, or one that now
  // names another file (reused after a close the trace does not show), is
  // bound to `path` at offset 0 first.
  int32_t File(int64_t fd, std::string_view path = {});
  // The descriptor's offset. REQUIRES: File(fd) != kNeverOpened.
  int64_t& Offset(int64_t fd) { return fds_[static_cast<size_t>(fd)].offset; }

  // A read of `fd` (named `path` by strace -y, else empty) that returned
  // `bytes`, at `pread_offset` (pread) or -1 (read: at the descriptor's
  // offset, which moves on): fills `r`'s op, file, offset and size and
  // returns true when it is a request to replay (it moved data of a dataset
  // file). A descriptor never opened fails field `fd`, saying `hint`.
  bool Read(const FieldParser& fields, int64_t fd, std::string_view path, int64_t pread_offset, int64_t bytes,
            const char* hint, TraceRecord& r);

 private:
  struct Descriptor {
    int32_t file = kNeverOpened;
    int64_t offset = 0;
    std::string path;  // as bound (so that a read naming it needs no look-up)
  };
  int32_t FileNumber(std::string_view path);
  // REQUIRES: 0 <= fd < kMaxFd.
  Descriptor& At(int64_t fd);

  FileNumbers& files_;
  std::string under_;
  std::vector<Descriptor> fds_;  // by descriptor number
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_TRACE_OPEN_FILES_H_
