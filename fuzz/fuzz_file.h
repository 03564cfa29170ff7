// What the fuzz targets share: parsers that read a file get the fuzz input
// through one in-memory file per process (memfd), rewritten for every input
// and named by its /proc/self/fd path, so a run does no disk I/O and leaves
// nothing behind. The contract every target checks is in fuzz/README.md.
#ifndef ZIOSIM_FUZZ_FUZZ_FILE_H_
#define ZIOSIM_FUZZ_FUZZ_FILE_H_

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ziosim::fuzz {

class FuzzFile {
 public:
  FuzzFile() : fd_(memfd_create("ziosim-fuzz", 0)) {
    if (fd_ < 0) std::abort();  // the fuzzer itself cannot run: not a finding in a parser
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }

  // Replaces the file's contents with `data` and returns its path.
  const std::string& Write(const uint8_t* data, size_t size) {
    if (ftruncate(fd_, 0) != 0) std::abort();
    size_t done = 0;
    while (done < size) {
      const ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
    return path_;
  }

 private:
  int fd_;
  std::string path_;
};

// The process's one FuzzFile.
inline const std::string& WriteFuzzFile(const uint8_t* data, size_t size) {
  static FuzzFile file;
  return file.Write(data, size);
}

inline std::string_view AsText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// A broken property the parser promises (beyond "a result or an InputError"):
// crash loudly so that libFuzzer saves the input.
inline void Require(bool holds) {
  if (!holds) __builtin_trap();
}

}  // namespace ziosim::fuzz

#endif  // ZIOSIM_FUZZ_FUZZ_FILE_H_
