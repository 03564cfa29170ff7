// Every workload a user can run, by name: the one registry behind the CLI's
// subcommands, `ziosim run`'s `[workload] kind`, `ziosim options` and Python's
// functions. It sits above every layer that defines a front (sim/workload,
// sim/calibration), so none of them names a layer above its own.
#ifndef ZIOSIM_SIM_FRONT_FRONTS_H_
#define ZIOSIM_SIM_FRONT_FRONTS_H_

#include <string_view>
#include <vector>

#include "sim/workload/workload_front.h"

namespace ziosim {

// Every workload with a front, in the order `ziosim --help` lists them.
const std::vector<const WorkloadFront*>& WorkloadFronts();
// The one named `name`; InputError (with a did-you-mean) if none is.
const WorkloadFront& FindWorkloadFront(std::string_view name);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_FRONT_FRONTS_H_
