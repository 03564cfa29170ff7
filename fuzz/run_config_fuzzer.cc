// `ziosim run FILE.toml --check` (sim/cli/run_command.cc, docs/run-config.md):
// the scenario file is read and checked (pool, drives, profile, tunables) as
// the CLI does it, without simulating; a bad file must be an InputError (or a
// CLI11 parse error, which cannot come from the file). The target is linked
// with the command's own sources (CMakeLists.txt).
#include <cstdio>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "fuzz/fuzz_file.h"
#include "sim/cli/commands.h"
#include "sim/core/status.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // --check prints "FILE: ok"; libFuzzer reports on stderr.
  if (std::freopen("/dev/null", "w", stdout) == nullptr) return 1;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CLI::App app;
  app.require_subcommand(1);
  ziosim::cli::AddRunCommand(app);
  std::vector<std::string> args = {"--check", ziosim::fuzz::WriteFuzzFile(data, size), "run"};  // CLI11 wants them reversed
  try {
    app.parse(args);
  } catch (const ziosim::InputError&) {
  }
  return 0;
}
