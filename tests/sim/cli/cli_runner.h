// Runs the built `ziosim` command as a user would, for the CLI tests.
#ifndef ZIOSIM_TESTS_SIM_CLI_CLI_RUNNER_H_
#define ZIOSIM_TESTS_SIM_CLI_CLI_RUNNER_H_

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace ziosim::testing {

// The build defines the CLI's path; a build without it skips these tests.
#ifdef ZIOSIM_CLI_PATH
inline constexpr const char* kCliPath = ZIOSIM_CLI_PATH;
#else
inline constexpr const char* kCliPath = "";
#endif

#define SKIP_WITHOUT_CLI() \
  if (*::ziosim::testing::kCliPath == '\0') GTEST_SKIP() << "ZIOSIM_CLI_PATH not defined"

// A path under the test temp dir, unique per process, written with `text` if
// given, deleted when the test ends.
class TempPath {
 public:
  explicit TempPath(const std::string& name, const std::string& text = "")
      : path_(::testing::TempDir() + "ziosim_cli_" + std::to_string(::getpid()) + "_" + name) {
    if (!text.empty()) std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempPath() { std::remove(path_.c_str()); }
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  const std::string& str() const { return path_; }

 private:
  std::string path_;
};

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct CliRun {
  int status = -1;
  std::string out;  // stdout (and stderr too when merged)
  std::string err;  // stderr when not merged
};

// Runs `ziosim ARGS` (ARGS as shell words).
inline CliRun RunCli(const std::string& args, bool merge_stderr = false) {
  const TempPath err("stderr");
  const std::string cmd = std::string("'") + kCliPath + "' " + args +
                          (merge_stderr ? std::string(" 2>&1") : " 2>'" + err.str() + "'");
  CliRun run;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return run;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) run.out.append(buf, n);
  const int raw = ::pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  if (!merge_stderr) run.err = ReadText(err.str());
  return run;
}

}  // namespace ziosim::testing

#endif  // ZIOSIM_TESTS_SIM_CLI_CLI_RUNNER_H_
