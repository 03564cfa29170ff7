#include "sim/trace/open_files.h"

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
  const auto [it, added] = numbers_.try_emplace(std::string(path), static_cast<int32_t>(files_.size()));
  if (added) files_.emplace_back(path);
  return it->second;
}

void OpenFiles::Dup(int64_t from, int64_t to) {
  const auto it = fds_.find(from);
  if (it != fds_.end()) fds_[to] = it->second;
}

void OpenFiles::Open(int64_t fd, std::string_view path) { fds_[fd] = Descriptor{FileNumber(path), 0}; }

int32_t OpenFiles::File(int64_t fd, std::string_view path) {
  const auto it = fds_.find(fd);
  if (path.empty()) return it == fds_.end() ? kNeverOpened : it->second.file;
  if (it != fds_.end() && FileNumber(path) == it->second.file) return it->second.file;
  Open(fd, path);
  return fds_[fd].file;
}

}  // namespace ziosim
