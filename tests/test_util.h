// Helpers the GoogleTest suites share: the message an InputError carries, a
// temporary file with given text, where the real data of ../shared/data live
// (tests skip when they are absent) and the repository's trace fixtures.
#ifndef ZIOSIM_TESTS_TEST_UTIL_H_
#define ZIOSIM_TESTS_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "sim/core/status.h"

namespace ziosim::test {

// The InputError message `fn` throws, or "" if it throws none.
template <typename Fn>
std::string ErrorOf(Fn fn) {
  try {
    fn();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A file under the test temp dir holding `text` (bytes as given), removed
// when it goes out of scope. The pid and a counter keep names of parallel
// test processes and of files made twice with one name apart.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text)
      : path_(::testing::TempDir() + "ziosim_" + std::to_string(::getpid()) + "_" + std::to_string(++counter_) + "_" +
              name) {
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::string path_;
};

// The shared data folder the build names (ZIOSIM_SHARED_DATA_DIR); when it
// names none, a folder that does not exist, so that tests skip on their
// checks that a file exists.
inline std::string SharedDataDir() {
#ifdef ZIOSIM_SHARED_DATA_DIR
  return ZIOSIM_SHARED_DATA_DIR;
#else
  return "/nonexistent";
#endif
}

// ../shared/data/disksim-valid/ (with the slash): DiskSim's validation drives and traces.
inline std::string DisksimValidDir() { return SharedDataDir() + "/disksim-valid/"; }

// A trace of the repository's format fixtures (traces/formats/).
inline std::string FormatFixture(const std::string& name) {
  return std::string(ZIOSIM_CATALOG_DIR) + "/../../traces/formats/" + name;
}

}  // namespace ziosim::test

#endif  // ZIOSIM_TESTS_TEST_UTIL_H_
