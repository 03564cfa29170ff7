// `ziosim run FILE.toml`: the run a scenario file describes (sim/front/
// scenario_file.h, docs/run-config.md): the same run, the same report, as the
// equivalent command line.
#include <cstdio>
#include <string>

#include "sim/cli/commands.h"
#include "sim/cli/front_command.h"
#include "sim/front/scenario_file.h"

namespace ziosim::cli {
namespace {

void Run(const std::string& path, bool json, bool check_only) {
  std::string workload;
  const Json result = RunScenarioFile(path, check_only, &workload);
  if (check_only) {
    std::printf("%s: ok\n", path.c_str());
  } else {
    PrintResult(FindFrontCommand(workload), result, json);
  }
}

}  // namespace

void AddRunCommand(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto check = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("run", "Run the scenario a TOML file describes (docs/options.md)");
  cmd->add_option("config", *path, "Scenario file (.toml)")->required();
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->add_flag("--check", *check, "Only check the file (pool, drives, profile, tunables), do not simulate");
  cmd->callback([path, json, check] { Run(*path, *json, *check); });
}

}  // namespace ziosim::cli
