#include "sim/trace/open_files.h"

#include <stdexcept>

#include "sim/trace/line_trace_reader.h"
#include "sim/trace/trace_reader.h"

namespace ziosim {
namespace {

// A pipe, socket or anonymous inode ("pipe:[7]"), a device, or a kernel file system.
bool NotData(std::string_view path) {
  if (path.find(":[") != std::string_view::npos && !path.starts_with('/')) return true;
  for (const std::string_view system : {"/dev/", "/proc/", "/sys/"}) {
    if (path.starts_with(system)) return true;
  }
  return false;
}

}  // namespace

int32_t OpenFiles::FileNumber(std::string_view path) {
  if (NotData(path) || !IsUnder(path, under_)) return kNotData;
  return files_.Number(path);
}

int64_t CheckFd(const FieldParser& fields, std::string_view field, int64_t fd) {
  if (fd >= OpenFiles::kMaxFd) {
    fields.Fail(field, "descriptor " + std::to_string(fd) + " is not below " + std::to_string(OpenFiles::kMaxFd) +
                           ", the kernel's limit (fs.nr_open)");
  }
  return fd;
}

OpenFiles::Descriptor& OpenFiles::At(int64_t fd) {
  if (fd < 0 || fd >= kMaxFd) throw std::logic_error("internal error: OpenFiles: descriptor out of range");
  if (fd >= static_cast<int64_t>(fds_.size())) fds_.resize(static_cast<size_t>(fd) + 1);
  return fds_[static_cast<size_t>(fd)];
}

void OpenFiles::Dup(int64_t from, int64_t to) {
  if (from >= 0 && from < static_cast<int64_t>(fds_.size())) {
    const Descriptor copy = fds_[static_cast<size_t>(from)];
    At(to) = copy;
  }
}

void OpenFiles::Open(int64_t fd, std::string_view path) {
  Descriptor& d = At(fd);
  d.file = FileNumber(path);
  d.offset = 0;
  d.path.assign(path);
}

bool OpenFiles::Read(const FieldParser& fields, int64_t fd, std::string_view path, int64_t pread_offset,
                     int64_t bytes, const char* hint, TraceRecord& r) {
  const int32_t file = File(fd, path);
  if (file == kNeverOpened) {
    fields.Fail("fd", std::to_string(fd) + " was never opened in the trace, so its file is unknown (" + hint + ")");
  }
  if (bytes <= 0) return false;  // failed, or the end of the file
  int64_t offset = pread_offset;
  if (pread_offset < 0) offset = Offset(fd);
  if (offset > INT64_MAX - bytes) fields.Fail("offset", std::to_string(offset) + " + size is too large");
  if (pread_offset < 0) Offset(fd) = offset + bytes;
  if (file == kNotData) return false;
  r.op = IoOp::kRead;
  r.file = file;
  r.offset_bytes = offset;
  r.size_bytes = bytes;
  return true;
}

int32_t OpenFiles::File(int64_t fd, std::string_view path) {
  if (path.empty()) {
    return fd >= 0 && fd < static_cast<int64_t>(fds_.size()) ? fds_[static_cast<size_t>(fd)].file : kNeverOpened;
  }
  Descriptor& d = At(fd);
  if (d.file == kNeverOpened || d.path != path) Open(fd, path);
  return d.file;
}

}  // namespace ziosim
