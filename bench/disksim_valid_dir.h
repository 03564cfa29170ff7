// Where the benchmarks find DiskSim's validation drives and traces
// (../shared/data/disksim-valid: data the repository does not hold).
#ifndef ZIOSIM_BENCH_DISKSIM_VALID_DIR_H_
#define ZIOSIM_BENCH_DISKSIM_VALID_DIR_H_

#include <string>

namespace ziosim {

inline const std::string kDisksimValidDir = std::string(ZIOSIM_SHARED_DATA_DIR) + "/disksim-valid/";

}  // namespace ziosim

#endif  // ZIOSIM_BENCH_DISKSIM_VALID_DIR_H_
