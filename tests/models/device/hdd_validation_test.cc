// The HDD model against the real drives of DiskSim's validation suite: each
// drive replayed from its DiskSim spec, compared with the service times
// measured on the real drive (the demerit) and, request by request, with
// DiskSim 4.0's own simulation of the same trace (the oracle files).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "models/device/hdd.h"
#include "models/disksim/disksim_import.h"
#include "sim/trace/line_reader.h"
#include "sim/workload/overhead_calibration.h"
#include "sim/workload/validate_replay.h"

namespace ziosim {
namespace {

const std::string kDir = std::string(ZIOSIM_SHARED_DATA_DIR) + "/disksim-valid/";

struct DriveCase {
  const char* name;
  double disksim_demerit_ms;  // DiskSim 4.0 on exact samples (disksim-validation.md)
  double max_abs_mean_error_pct;
  double min_oracle_match;    // share of requests within 1 us of DiskSim's cmu_sim_ms
};

// Mean-error bounds: within 2 % where DiskSim's spec reaches it; on barracuda and
// cheetah4LP the spec itself is biased (DiskSim: -3.0 % and -4.8 %) and the model,
// which reproduces DiskSim, carries that bias.
const DriveCase kDrives[] = {
    {"atlas_III", 0.378220, 2.0, 0.998},  {"barracuda", 0.348448, 3.1, 0.998},
    {"cheetah4LP", 0.318157, 4.85, 0.998}, {"cheetah9LP", 0.107787, 1.0, 0.998},
    {"hp_c2247a", 0.093840, 0.2, 0.996},   {"hp_c2490a", 0.255112, 0.2, 0.998},
};

// DiskSim 4.0's per-request simulated time (cmu_sim_ms, column 10) from the oracle.
std::vector<double> OracleSimMs(const std::string& drive) {
  LineReader reader(kDir + "oracle/" + drive + ".csv.gz");
  std::vector<double> out;
  std::string_view line;
  reader.Next(line);  // header
  while (reader.Next(line)) {
    size_t pos = 0;
    for (int field = 0; field < 9; ++field) pos = line.find(',', pos) + 1;
    out.push_back(std::strtod(std::string(line.substr(pos, line.find(',', pos) - pos)).c_str(), nullptr));
  }
  return out;
}

class HddValidationTest : public ::testing::TestWithParam<DriveCase> {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kDir)) GTEST_SKIP() << "../shared/data absent: no DiskSim validation drives";
  }
  ValidateReplayResult Replay(const char* name) {
    Simulation sim;
    HddDevice disk(&sim, name, ImportDisksimDrive(kDir + name + ".parv").params);
    DisksimValidateTrace trace(kDir + name + ".trace");
    return ReplayValidate(disk, sim, trace);
  }
};

TEST_P(HddValidationTest, DemeritNoWorseThanDiskSim) {
  const DriveCase c = GetParam();
  const ValidateReplayResult r = Replay(c.name);
  EXPECT_LE(r.demerit_ms, c.disksim_demerit_ms) << c.name;
  EXPECT_LE(std::fabs(r.mean_error_pct), c.max_abs_mean_error_pct) << c.name;
}

TEST_P(HddValidationTest, MatchesDiskSimRequestByRequest) {
  const DriveCase c = GetParam();
  const ValidateReplayResult r = Replay(c.name);
  const std::vector<double> oracle = OracleSimMs(c.name);
  ASSERT_EQ(oracle.size(), r.simulated_ms.size());
  int within = 0;
  for (size_t i = 0; i < oracle.size(); ++i) within += std::fabs(oracle[i] - r.simulated_ms[i]) < 0.001;
  EXPECT_GE(static_cast<double>(within) / oracle.size(), c.min_oracle_match) << c.name;
}

TEST_P(HddValidationTest, SameInputsSameTimesBitForBit) {
  const DriveCase c = GetParam();
  EXPECT_EQ(Replay(c.name).simulated_ms, Replay(c.name).simulated_ms);
}

INSTANTIATE_TEST_SUITE_P(SixDrives, HddValidationTest, ::testing::ValuesIn(kDrives),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ziosim

namespace ziosim {
namespace {

// The Barracuda and Cheetah 4LP specs under-predict (their DIXtrac overheads
// are short): overheads fitted on the first half of the trace bring the
// held-out second half within 2 % and lower its demerit.
TEST(HddCalibrationTest, OverheadsFittedOnHalfTheTracePredictTheOtherHalf) {
  if (!std::filesystem::exists(kDir)) GTEST_SKIP() << "../shared/data absent: no DiskSim validation drives";
  for (const char* name : {"barracuda", "cheetah4LP"}) {
    DisksimValidateTrace trace(kDir + name + ".trace");
    const std::vector<ValidateRecord> records = ReadValidateRecords(trace);
    const OverheadCalibration c = CalibrateOverheads(ImportDisksimDrive(kDir + name + ".parv").params, records);
    EXPECT_GT(c.fit.read_miss_ms, 0.1) << name;  // the real drive is slower than its spec
    EXPECT_LT(std::fabs(c.spec_held_out.mean_error_pct), 5.0) << name;
    EXPECT_GT(std::fabs(c.spec_held_out.mean_error_pct), 2.0) << name;
    EXPECT_LT(std::fabs(c.calibrated_held_out.mean_error_pct), 2.0) << name;
    EXPECT_LT(c.calibrated_held_out.demerit_ms, c.spec_held_out.demerit_ms) << name;
  }
}

}  // namespace
}  // namespace ziosim
