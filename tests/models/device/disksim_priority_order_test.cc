#include "models/device/disksim_priority_order.h"

#include <gtest/gtest.h>

#include <vector>

namespace ziosim {
namespace disksim_priority_order_test {

using Candidate = DisksimPriorityOrder::Candidate;

// PRI_VSCAN_LBN on a drive of 1,000 blocks, the command started last at LBN 500, with
// `timeout` as "Timeout scheduling" and `weight` as "Priority scheduling".
size_t PickOf(int timeout, int weight, const std::vector<Candidate>& c) {
  HddScheduler s;
  s.timeout_scheduling = timeout;
  s.priority_scheduling = weight;
  DisksimPriorityOrder order(s, 1000);
  order.Started(500);
  return order.Pick(c.size(), [&](size_t i) { return c[i]; });
}

// By hand, from LBN 500: a write at 520 (20 up: 980), a read at 470 (30 down: 970, plus
// weight x 10 for a read) and a write at 900 (400 up: 600).
TEST(DisksimPriorityOrderTest, NearnessPlusTheWeightOfReads) {
  const std::vector<Candidate> c = {{520, false}, {470, true}, {900, false}};
  EXPECT_EQ(PickOf(0, 0, c), 0u);   // 980 against 970
  EXPECT_EQ(PickOf(0, 10, c), 1u);  // 970 + 100
  EXPECT_EQ(PickOf(4, 10, c), 1u);  // SSTF_LBN: no penalty down either
  // ELEVATOR_LBN: down costs the drive's blocks again: 970 + 100 - 1000.
  EXPECT_EQ(PickOf(2, 10, c), 0u);
  // CYCLE_LBN: 470 lies 970 up, wrapping: 30 + 100 against 980.
  EXPECT_EQ(PickOf(3, 10, c), 0u);
  EXPECT_EQ(PickOf(3, 900, c), 1u);  // 30 + 9,000
}

// Of equal priorities the first to come wins: 510 and 490 are both 10 away.
TEST(DisksimPriorityOrderTest, TiesGoToTheFirstToCome) {
  EXPECT_EQ(PickOf(0, 0, {{510, true}, {490, true}}), 0u);
  EXPECT_EQ(PickOf(0, 0, {{490, true}, {510, true}}), 0u);
}

// Before any command started, distances count from LBN 0.
TEST(DisksimPriorityOrderTest, StartsFromBlockZero) {
  HddScheduler s;
  DisksimPriorityOrder order(s, 1000);
  const std::vector<Candidate> c = {{300, true}, {200, true}};
  EXPECT_EQ(order.Pick(c.size(), [&](size_t i) { return c[i]; }), 1u);
}

}  // namespace disksim_priority_order_test
}  // namespace ziosim
