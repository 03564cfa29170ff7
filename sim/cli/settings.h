// `--set NAME=VALUE` (repeatable) parsed into name/value pairs, for the
// commands not yet made from an option table (sim/cli/front_command.h).
#ifndef ZIOSIM_SIM_CLI_SETTINGS_H_
#define ZIOSIM_SIM_CLI_SETTINGS_H_

#include <string>
#include <utility>
#include <vector>


namespace ziosim::cli {

// Splits each "NAME=VALUE"; throws InputError naming --set for one without '='.
std::vector<std::pair<std::string, std::string>> ParseSettings(const std::vector<std::string>& raw);

}  // namespace ziosim::cli

#endif  // ZIOSIM_SIM_CLI_SETTINGS_H_
