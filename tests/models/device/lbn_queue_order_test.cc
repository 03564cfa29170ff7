// DiskSim's LBN-ordered disk schedulers, on cases worked by hand from
// disksim_ioqueue.c (ioqueue_get_request_from_lbn_vscan_queue and _lbn_scan_queue).
#include "models/device/lbn_queue_order.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace ziosim {
namespace {

constexpr int64_t kBlocks = 1'000'000;

// Picks among commands starting at `lbns` (arrival order) and returns the chosen LBN.
int64_t PickLbn(LbnQueueOrder& order, const std::vector<int64_t>& lbns) {
  return lbns[order.Pick(lbns.size(), [&](size_t i) { return LbnQueueOrder::Key{0, 0, lbns[i]}; })];
}

// SSTF_LBN measures from the block after the last command started: from 208 (a
// command of 8 at 200), 300 is 92 up and 100 is 108 down.
TEST(LbnQueueOrderTest, SstfTakesTheNearestLbnFromTheLastCommandsEnd) {
  LbnQueueOrder order(QueuePolicy::kSstfLbn, kBlocks, false, 8);
  order.Started(200, 8);
  EXPECT_EQ(PickLbn(order, {500, 100, 300}), 300);
  order.Started(195, 0);  // from 195, 100 is 95 down and 300 105 up
  EXPECT_EQ(PickLbn(order, {500, 100, 300}), 100);
}

// A tie goes up, then down, then up (DiskSim's sstfupdown flips on each tie).
TEST(LbnQueueOrderTest, SstfTiesGoUpThenDownAlternately) {
  LbnQueueOrder order(QueuePolicy::kSstfLbn, kBlocks, false, 8);
  order.Started(192, 8);  // from 200: 150 and 250 are 50 away
  EXPECT_EQ(PickLbn(order, {150, 250}), 250);
  EXPECT_EQ(PickLbn(order, {150, 250}), 150);
  EXPECT_EQ(PickLbn(order, {150, 250}), 250);
}

// Of commands at one LBN, the first to arrive, above or below.
TEST(LbnQueueOrderTest, CommandsAtOneLbnGoInArrivalOrder) {
  LbnQueueOrder order(QueuePolicy::kSstfLbn, kBlocks, false, 8);
  order.Started(300, 0);
  const std::vector<int64_t> above = {900, 310, 310};
  EXPECT_EQ(order.Pick(3, [&](size_t i) { return LbnQueueOrder::Key{0, 0, above[i]}; }), 1u);
  const std::vector<int64_t> below = {100, 290, 290};
  EXPECT_EQ(order.Pick(3, [&](size_t i) { return LbnQueueOrder::Key{0, 0, below[i]}; }), 1u);
}

// ELEVATOR_LBN as DiskSim's disk runs it: its sweep stays ascending, so the first
// command at or above the last one's first LBN, else the nearest below (not the lowest).
TEST(LbnQueueOrderTest, ElevatorGoesUpWhileItCanThenToTheNearestBelow) {
  LbnQueueOrder order(QueuePolicy::kElevatorLbn, kBlocks, false, 8);
  order.Started(1000, 8);
  EXPECT_EQ(PickLbn(order, {990, 5000}), 5000);   // 4,000 up beats 10 down
  EXPECT_EQ(PickLbn(order, {990, 1000}), 1000);   // the last command's own first LBN counts as up
  EXPECT_EQ(PickLbn(order, {10, 990}), 990);
}

// CYCLE_LBN: the first at or above the last command's first LBN, else the lowest.
TEST(LbnQueueOrderTest, CycleGoesUpThenWrapsToTheLowest) {
  LbnQueueOrder order(QueuePolicy::kCycleLbn, kBlocks, false, 8);
  order.Started(1000, 8);
  EXPECT_EQ(PickLbn(order, {5000, 10, 1000, 990}), 1000);
  EXPECT_EQ(PickLbn(order, {990, 10}), 10);
  order.Started(0, 8);
  EXPECT_EQ(PickLbn(order, {990, 10}), 10);
}

// Under a cylinder mapping strategy DiskSim sorts by (cylinder, surface, LBN) and
// walks that order comparing LBNs. From 70: by LBN, [50 80 900] gives 80 (10 up);
// by cylinder, [(3,0,80) (3,1,50) (5,0,900)] puts 50 last below 70 and 900 first
// above, and 50 (20 down) beats 900.
TEST(LbnQueueOrderTest, ACylinderSortedQueueIsWalkedAsDiskSimWalksIt) {
  const std::vector<LbnQueueOrder::Key> keys = {{5, 0, 900}, {3, 1, 50}, {3, 0, 80}};
  const auto key_of = [&](size_t i) { return keys[i]; };
  LbnQueueOrder by_lbn(QueuePolicy::kSstfLbn, kBlocks, false, 8);
  by_lbn.Started(70, 0);
  EXPECT_EQ(by_lbn.Pick(3, key_of), 2u);
  LbnQueueOrder by_cylinder(QueuePolicy::kSstfLbn, kBlocks, true, 8);
  by_cylinder.Started(70, 0);
  EXPECT_EQ(by_cylinder.Pick(3, key_of), 1u);
}

TEST(LbnQueueOrderTest, OnlyTheLbnPoliciesHaveOne) {
  EXPECT_THROW(LbnQueueOrder(QueuePolicy::kSptf, kBlocks, false, 8), std::logic_error);
  EXPECT_FALSE(LbnQueueOrder::IsLbnOrdered(QueuePolicy::kFifo));
}

}  // namespace
}  // namespace ziosim
