// Printing a readers sweep, shared by `ziosim readers` and `ziosim run`.
#ifndef ZIOSIM_SIM_CLI_READERS_OUTPUT_H_
#define ZIOSIM_SIM_CLI_READERS_OUTPUT_H_

#include <vector>

#include <nlohmann/json.hpp>

#include "sim/workload/readers.h"

namespace ziosim::cli {

nlohmann::json ReadersJson(const ReadersOptions& o, const std::vector<ReadersRun>& runs);
void PrintReaders(const ReadersOptions& o, const std::vector<ReadersRun>& runs, bool json);

}  // namespace ziosim::cli

#endif  // ZIOSIM_SIM_CLI_READERS_OUTPUT_H_
