// `ziosim calibrate`'s front (sim/workload/workload_front.h): the fits of a
// drive's catalog figures to measurements, as one workload of the registry
// (sim/front/fronts.h).
#ifndef ZIOSIM_SIM_CALIBRATION_CALIBRATE_FRONT_H_
#define ZIOSIM_SIM_CALIBRATION_CALIBRATE_FRONT_H_

#include "sim/workload/workload_front.h"

namespace ziosim {

const WorkloadFront& CalibrateFront();

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CALIBRATION_CALIBRATE_FRONT_H_
