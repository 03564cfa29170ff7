#include "sim/front/fronts.h"

#include "sim/calibration/calibrate_front.h"
#include "sim/core/text.h"

namespace ziosim {

const std::vector<const WorkloadFront*>& WorkloadFronts() {
  static const std::vector<const WorkloadFront*> fronts = {&DiskBenchFront(), &BlockReadFront(), &ReadersFront(),
                                                           &WritersFront(),   &ReplayFront(),    &FioFront(),
                                                           &PersonalityFront(), &DemoFront(), &CalibrateFront(),
                                                           &ScrubFront(), &ResilverFront()};
  return fronts;
}

const WorkloadFront& FindWorkloadFront(std::string_view name) {
  std::vector<std::string_view> names;
  for (const WorkloadFront* f : WorkloadFronts()) {
    if (f->name() == name) return *f;
    names.push_back(f->name());
  }
  const std::vector<std::string> close = ClosestWords(name, names, 3);
  throw InputError("\"" + std::string(name) + "\" is not a workload" +
                   (close.empty() ? "" : "; did you mean " + Join(close, " or ") + "?"));
}

}  // namespace ziosim
