// ParseFioJobs (sim/workload/fio_job.h): fio job-file text gives at least one
// job, or an InputError.
#include "fuzz/fuzz_file.h"
#include "sim/core/status.h"
#include "sim/workload/fio_job.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ziosim;
  try {
    const FioJobFile file = ParseFioJobs(fuzz::AsText(data, size), "fuzz.fio");
    fuzz::Require(!file.jobs.empty());
  } catch (const InputError&) {
  }
  return 0;
}
