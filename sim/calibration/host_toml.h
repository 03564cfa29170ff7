// Writing a host profile (sim/zfs/host_profile.h): the measured tunables, each
// under a comment saying what was measured, on which CPU, when, and with what
// spread, so that the file is its own record of the measurement.
#ifndef ZIOSIM_SIM_CALIBRATION_HOST_TOML_H_
#define ZIOSIM_SIM_CALIBRATION_HOST_TOML_H_

#include <span>
#include <string>

#include "sim/calibration/host_bench.h"
#include "sim/calibration/host_figures.h"

namespace ziosim {

// The file's text; a figure not measured is a comment, its tunable not set.
std::string HostToml(const HostBench& bench, std::span<const HostFigure> figures);

// "AMD EPYC, 2 CPUs (a virtual machine)": the host as the file and the report name it.
std::string HostLabel(const HostBench& bench);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_HOST_TOML_H_
