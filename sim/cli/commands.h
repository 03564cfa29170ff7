// One function per subcommand registers it on the CLI11 app. Each lives in its
// own file under sim/cli/ and returns through the exit-code rules of main.cc:
// 0 success, 2 bad input (an InputError, with its one-line message on stderr),
// 70 internal error (a bug: an InternalError from a run invariant, or any other exception).
#ifndef ZIOSIM_SIM_CLI_COMMANDS_H_
#define ZIOSIM_SIM_CLI_COMMANDS_H_

#include <CLI/CLI.hpp>

namespace ziosim::cli {

void AddDrivesCommand(CLI::App& app);
void AddValidateDisksimCommand(CLI::App& app);
void AddRunCommand(CLI::App& app);
void AddOptionsCommand(CLI::App& app);
void AddProfilesCommand(CLI::App& app);
void AddTunablesCommand(CLI::App& app);
void AddRaidzMapCommand(CLI::App& app);

}  // namespace ziosim::cli

#endif  // ZIOSIM_SIM_CLI_COMMANDS_H_
