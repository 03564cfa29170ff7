#include "models/device/hdd_seek.h"

#include <gtest/gtest.h>

namespace ziosim {
namespace {

constexpr int64_t kPsPerMs = 1'000'000'000;

HddSeekModel Table() {
  HddSeekModel m;
  m.kind = HddSeekModel::Kind::kTable;
  m.table = {{1, MsToNs(1.0)}, {10, MsToNs(2.0)}, {100, MsToNs(5.0)}};
  return m;
}

TEST(HddSeekTest, TableIsExactAtMeasuredPoints) {
  HddSeek s(Table(), 1000);
  EXPECT_EQ(s.SeekPs(0), 0);
  EXPECT_EQ(s.SeekPs(1), 1 * kPsPerMs);
  EXPECT_EQ(s.SeekPs(10), 2 * kPsPerMs);
  EXPECT_EQ(s.SeekPs(100), 5 * kPsPerMs);
}

TEST(HddSeekTest, TableInterpolatesLinearlyAndExtrapolatesTheLastSegment) {
  HddSeek s(Table(), 1000);
  EXPECT_EQ(s.SeekPs(55), 3'500'000'000);                 // 2 + 3 * 45/90 ms
  EXPECT_EQ(s.SeekPs(4), 1'333'333'333);                  // 1 + 1 * 3/9 ms, truncated
  EXPECT_EQ(s.SeekPs(190), 8 * kPsPerMs);                 // 5 + 3/90 * 90 ms
}

// The glossary's worked example for the Cheetah 9LP curve: the bracketing
// points (600, 3.399) and (700, 3.638) give 3.51372 ms at 648 cylinders.
TEST(HddSeekTest, MatchesDisksimWorkedExample) {
  HddSeekModel m;
  m.kind = HddSeekModel::Kind::kTable;
  m.table = {{1, MsToNs(0.5)}, {600, MsToNs(3.399)}, {700, MsToNs(3.638)}};
  HddSeek s(m, 7000);
  EXPECT_EQ(s.SeekPs(648), 3'513'720'000);
}

TEST(HddSeekTest, HplUsesTableThenSqrtThenLinear) {
  HddSeekModel m;
  m.kind = HddSeekModel::Kind::kHpl;
  const double v[6] = {300, 3.81, 0.33, 7.75, 0.0059, -1};
  std::copy(v, v + 6, m.hpl);
  for (int d = 1; d <= 10; ++d) m.first_ten.push_back(MsToNs(2.0 + 0.1 * d));
  HddSeek s(m, 2051);
  EXPECT_EQ(s.SeekPs(3), MsToNs(2.3) * 1000);
  EXPECT_NEAR(s.SeekPs(100) / 1e9, 3.81 + 0.33 * 10, 1e-9);
  EXPECT_NEAR(s.SeekPs(454) / 1e9, 10.4286, 1e-6);  // the glossary's H47 example
}

TEST(HddSeekTest, ThreePointFitPassesThroughDatasheetFigures) {
  HddSeekModel m;
  m.kind = HddSeekModel::Kind::kThreePoint;
  m.single_cylinder_ns = MsToNs(0.8);
  m.average_ns = MsToNs(8.5);
  m.full_stroke_ns = MsToNs(17.0);
  const int cylinders = 90001;
  HddSeek s(m, cylinders);
  EXPECT_NEAR(s.SeekPs(1) / 1e9, 0.8, 1e-6);
  EXPECT_NEAR(s.SeekPs((cylinders - 1) / 3) / 1e9, 8.5, 1e-3);
  EXPECT_NEAR(s.SeekPs(cylinders - 1) / 1e9, 17.0, 1e-3);
  // Monotonic: a longer seek never takes less time.
  int64_t prev = 0;
  for (int d = 1; d < cylinders; d += 97) {
    EXPECT_GE(s.SeekPs(d), prev);
    prev = s.SeekPs(d);
  }
}

// DiskSim's "linear": straight from the single-cylinder time to the average at a
// third of the stroke (C = 3001: d = 1000.33), then on to the full stroke at d = C.
TEST(HddSeekTest, LinearJoinsTheThreeFiguresByStraightLines) {
  HddSeekModel m;
  m.kind = HddSeekModel::Kind::kLinear;
  m.single_cylinder_ns = MsToNs(1.0);
  m.average_ns = MsToNs(7.0);
  m.full_stroke_ns = MsToNs(13.0);
  HddSeek s(m, 3001);
  EXPECT_EQ(s.SeekPs(0), 0);
  EXPECT_EQ(s.SeekPs(1), 1'000'000'000);
  EXPECT_NEAR(s.SeekPs(501) / 1e9, 1.0 + 3.0 * 500 / 3001 * 6.0, 1e-6);    // 2.9990 ms
  EXPECT_NEAR(s.SeekPs(2001) / 1e9, 7.0 + (6003.0 - 3001) / 6002 * 6.0, 1e-6);  // 10.0010 ms
  EXPECT_EQ(s.SeekPs(3001), 13'000'000'000);
}

TEST(HddSeekTest, ConstantIsTheSameForEveryMove) {
  HddSeekModel m;
  m.kind = HddSeekModel::Kind::kConstant;
  m.constant_ns = MsToNs(2.5);
  HddSeek s(m, 1000);
  EXPECT_EQ(s.SeekPs(0), 0);
  EXPECT_EQ(s.SeekPs(1), 2'500'000'000);
  EXPECT_EQ(s.SeekPs(999), 2'500'000'000);
}

}  // namespace
}  // namespace ziosim
