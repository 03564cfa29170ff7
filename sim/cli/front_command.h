// A workload's subcommand, generated from its front (sim/workload/workload_front.h;
// the registry: sim/front/fronts.h):
// one flag per option of its table (the first of OptionInfo::flags, else
// --name-with-dashes; flags take no value; a spelling without dashes is a
// positional argument, as fio's JOBFILE), `-o NAME=VALUE` for its dataset
// properties as `zfs create -o` takes them, --json, and --plot FILE.png where
// the workload has a figure. The text report is the workload's TextPrinter,
// which prints from the same JSON value --json prints.
#ifndef ZIOSIM_SIM_CLI_FRONT_COMMAND_H_
#define ZIOSIM_SIM_CLI_FRONT_COMMAND_H_

#include <string>

#include <CLI/CLI.hpp>

#include "sim/core/option.h"
#include "sim/front/fronts.h"

namespace ziosim::cli {

using TextPrinter = void (*)(const Json& result);

struct FrontCommand {
  const WorkloadFront* front;
  TextPrinter print;
  bool plot;  // whether --plot draws it (bindings/ziosim/plot_cli.py knows the workload)
};

// Prints `result` as --json (one JSON value on stdout; its "notes" on stderr,
// where they do not break it) or as the command's text report.
void PrintResult(const FrontCommand& command, const Json& result, bool json);

// Every workload subcommand made from a front.
const std::vector<FrontCommand>& FrontCommands();
const FrontCommand& FindFrontCommand(const std::string& workload);

void AddFrontCommand(CLI::App& app, const FrontCommand& command);

// The text printers, one per workload's command file.
// Where each run's files landed (the runs' `placement`), when the result has it.
void PrintPlacement(const Json& result);
void PrintReadersText(const Json& result);
void PrintWritersText(const Json& result);
void PrintBlockReadText(const Json& result);
void PrintScrubText(const Json& result);
void PrintDiskBenchText(const Json& result);
void PrintReplayText(const Json& result);
void PrintFioText(const Json& result);
void PrintPersonalityText(const Json& result);
void PrintDemoText(const Json& result);
void PrintCalibrateText(const Json& result);

}  // namespace ziosim::cli

#endif  // ZIOSIM_SIM_CLI_FRONT_COMMAND_H_
