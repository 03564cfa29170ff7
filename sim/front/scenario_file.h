// A scenario file (docs/run-config.md): the options of one run of a workload
// in TOML, `[workload] kind` naming the workload and each other key one of its
// options, where its table places it (OptionInfo::section, key). `ziosim run`
// and Python's ziosim.run_scenario read it here.
#ifndef ZIOSIM_SIM_FRONT_SCENARIO_FILE_H_
#define ZIOSIM_SIM_FRONT_SCENARIO_FILE_H_

#include <string>

#include "sim/core/option.h"
#include "sim/front/fronts.h"

namespace ziosim {

// Reads `path` and runs (or, with `check_only`, only checks) the workload it
// names. Throws InputError naming the file, and the line of the key a message
// is about. Sets *workload to the workload's name.
Json RunScenarioFile(const std::string& path, bool check_only, std::string* workload);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_FRONT_SCENARIO_FILE_H_
