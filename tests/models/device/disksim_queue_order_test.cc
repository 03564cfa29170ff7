// DiskSim's address-ordered disk schedulers, on cases worked by hand from
// disksim_ioqueue.c (ioqueue_get_request_from_lbn_vscan_queue, _lbn_scan_queue,
// _cyl_vscan_queue, _cyl_scan_queue, ioqueue_identify_request_on_cylinder).
#include "models/device/disksim_queue_order.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <vector>

namespace ziosim {
namespace {

constexpr int64_t kBlocks = 1'000'000;

using Key = DisksimQueueOrder::Key;

// A made-up layout for the cylinder cases: 100 blocks a cylinder, 10 a surface.
Key KeyOf(int64_t lbn) { return Key{static_cast<int>(lbn / 100), static_cast<int>(lbn / 10 % 10), lbn}; }

// Picks among commands starting at `lbns` (arrival order) and returns the chosen LBN.
int64_t PickLbn(DisksimQueueOrder& order, const std::vector<int64_t>& lbns,
                std::optional<int64_t> in_service = std::nullopt) {
  const std::optional<Key> busy = in_service ? std::optional<Key>(KeyOf(*in_service)) : std::nullopt;
  return lbns[order.Pick(lbns.size(), [&](size_t i) { return KeyOf(lbns[i]); }, busy)];
}

// Cylinder and surface 0 for every block, as a drive gives them.
Key FlatKeyOf(int64_t lbn) { return Key{0, 0, lbn}; }

DisksimQueueOrder Order(QueuePolicy policy) { return DisksimQueueOrder(policy, kBlocks, 10'000, 8); }

// SSTF_LBN measures from the block after the last command started: from 208 (a
// command of 8 at 200), 300 is 92 up and 100 is 108 down.
TEST(DisksimQueueOrderTest, SstfTakesTheNearestLbnFromTheLastCommandsEnd) {
  DisksimQueueOrder order = Order(QueuePolicy::kSstfLbn);
  order.Started(200, 8, KeyOf);
  EXPECT_EQ(PickLbn(order, {500, 100, 300}), 300);
  order.Started(195, 0, KeyOf);  // from 195, 100 is 95 down and 300 105 up
  EXPECT_EQ(PickLbn(order, {500, 100, 300}), 100);
}

// A tie goes up, then down, then up (DiskSim's sstfupdown flips on each tie).
TEST(DisksimQueueOrderTest, SstfTiesGoUpThenDownAlternately) {
  DisksimQueueOrder order = Order(QueuePolicy::kSstfLbn);
  order.Started(192, 8, KeyOf);  // from 200: 150 and 250 are 50 away
  EXPECT_EQ(PickLbn(order, {150, 250}), 250);
  EXPECT_EQ(PickLbn(order, {150, 250}), 150);
  EXPECT_EQ(PickLbn(order, {150, 250}), 250);
}

// Of commands at one LBN, the first to arrive, above or below.
TEST(DisksimQueueOrderTest, CommandsAtOneLbnGoInArrivalOrder) {
  DisksimQueueOrder order = Order(QueuePolicy::kSstfLbn);
  order.Started(300, 0, KeyOf);
  const std::vector<int64_t> above = {900, 310, 310};
  EXPECT_EQ(order.Pick(3, [&](size_t i) { return Key{0, 0, above[i]}; }, std::nullopt), 1u);
  const std::vector<int64_t> below = {100, 290, 290};
  EXPECT_EQ(order.Pick(3, [&](size_t i) { return Key{0, 0, below[i]}; }, std::nullopt), 1u);
}

// ELEVATOR_LBN as DiskSim's disk runs it: its sweep stays ascending, so the first
// command at or above the last one's first LBN, else the nearest below (not the lowest).
TEST(DisksimQueueOrderTest, ElevatorGoesUpWhileItCanThenToTheNearestBelow) {
  DisksimQueueOrder order = Order(QueuePolicy::kElevatorLbn);
  order.Started(1000, 8, KeyOf);
  EXPECT_EQ(PickLbn(order, {990, 5000}), 5000);   // 4,000 up beats 10 down
  EXPECT_EQ(PickLbn(order, {990, 1000}), 1000);   // the last command's own first LBN counts as up
  EXPECT_EQ(PickLbn(order, {10, 990}), 990);
}

// CYCLE_LBN: the first at or above the last command's first LBN, else the lowest.
TEST(DisksimQueueOrderTest, CycleGoesUpThenWrapsToTheLowest) {
  DisksimQueueOrder order = Order(QueuePolicy::kCycleLbn);
  order.Started(1000, 8, KeyOf);
  EXPECT_EQ(PickLbn(order, {5000, 10, 1000, 990}), 1000);
  EXPECT_EQ(PickLbn(order, {990, 10}), 10);
  order.Started(0, 8, KeyOf);
  EXPECT_EQ(PickLbn(order, {990, 10}), 10);
}

// DiskSim's walks over a queue sorted by (cylinder, surface, LBN) compare LBNs.
// From 70: sorted by LBN, [50 80 900] gives 80 (10 up); sorted by cylinder,
// [(3,0,80) (3,1,50) (5,0,900)] puts 50 last below 70 and 900 first above, and 50
// (20 down) beats 900.
TEST(DisksimQueueOrderTest, ACylinderSortedQueueIsWalkedAsDiskSimWalksIt) {
  const std::vector<Key> flat = {{0, 0, 900}, {0, 0, 50}, {0, 0, 80}};
  const std::vector<Key> by_cylinder = {{5, 0, 900}, {3, 1, 50}, {3, 0, 80}};
  DisksimQueueOrder order = Order(QueuePolicy::kSstfLbn);
  order.Started(70, 0, FlatKeyOf);
  EXPECT_EQ(order.Pick(3, [&](size_t i) { return flat[i]; }, std::nullopt), 2u);
  order.Started(70, 0, KeyOf);
  EXPECT_EQ(order.Pick(3, [&](size_t i) { return by_cylinder[i]; }, std::nullopt), 1u);
}

// The cylinder policies, from a command of 8 blocks at 1000 (cylinder 10, surface 0
// in KeyOf's layout). A command on that cylinder at or past the reference goes
// first; otherwise SSTF_CYL takes the nearer cylinder (950 on 9 against 1200 on 12),
// ELEVATOR_CYL the one above while there is one, else the nearest below; CYCLE_CYL the
// next cylinder up, else the lowest; VSCAN_CYL measures from block 0, so the lowest.
TEST(DisksimQueueOrderTest, CylinderPoliciesGoByCylinderDistance) {
  for (const QueuePolicy policy : {QueuePolicy::kSstfCyl, QueuePolicy::kElevatorCyl, QueuePolicy::kCycleCyl}) {
    DisksimQueueOrder order = Order(policy);
    order.Started(1000, 8, KeyOf);
    EXPECT_EQ(PickLbn(order, {1200, 1050, 700}), 1050) << QueuePolicyName(policy);
  }
  const auto after_1000 = [](QueuePolicy policy, const std::vector<int64_t>& lbns) {
    DisksimQueueOrder order = Order(policy);
    order.Started(1000, 8, KeyOf);
    return PickLbn(order, lbns);
  };
  EXPECT_EQ(after_1000(QueuePolicy::kSstfCyl, {1200, 700, 950}), 950);
  EXPECT_EQ(after_1000(QueuePolicy::kElevatorCyl, {1200, 700, 950}), 1200);
  EXPECT_EQ(after_1000(QueuePolicy::kElevatorCyl, {700, 950}), 950);
  EXPECT_EQ(after_1000(QueuePolicy::kCycleCyl, {1200, 700, 950}), 1200);
  EXPECT_EQ(after_1000(QueuePolicy::kCycleCyl, {700, 950}), 700);
  EXPECT_EQ(after_1000(QueuePolicy::kVscanCyl, {1200, 950, 700}), 700);
}

// As DiskSim 4.0 runs, every command is on "cylinder 0": the cylinder policies then
// take the first in LBN order at or past the reference block, else the first (700,
// though 950 is nearer 1007).
TEST(DisksimQueueOrderTest, OnOneCylinderTheCylinderPoliciesGoUpThenWrap) {
  DisksimQueueOrder order = Order(QueuePolicy::kSstfCyl);
  order.Started(1000, 8, FlatKeyOf);
  const auto pick = [&](const std::vector<int64_t>& lbns) {
    return lbns[order.Pick(lbns.size(), [&](size_t i) { return FlatKeyOf(lbns[i]); }, FlatKeyOf(1000))];
  };
  EXPECT_EQ(pick({1200, 700, 1010}), 1010);
  EXPECT_EQ(pick({700, 950}), 700);
}

// The command in service is still in DiskSim's queue when the next is picked, never
// picked itself: from 1007 on cylinder 10, with the one in service at 1000 first on
// the cylinder and 1003 after it, SSTF_CYL's walk steps past both (DiskSim's drop-out
// recovery) and its neighbours by LBN then give 1003 (distance 0) over 1200.
TEST(DisksimQueueOrderTest, TheCommandInServiceIsWalkedOverButNeverPicked) {
  DisksimQueueOrder order = Order(QueuePolicy::kSstfCyl);
  order.Started(1000, 8, KeyOf);
  EXPECT_EQ(PickLbn(order, {1200, 1003}, 1000), 1003);
  EXPECT_EQ(PickLbn(order, {1200}, 1000), 1200);
}

TEST(DisksimQueueOrderTest, OnlyTheDisksimPoliciesHaveOne) {
  EXPECT_THROW(DisksimQueueOrder(QueuePolicy::kSptf, kBlocks, 10, 8), std::logic_error);
  EXPECT_FALSE(DisksimQueueOrder::IsDisksimOrdered(QueuePolicy::kFifo));
  EXPECT_TRUE(DisksimQueueOrder::IsDisksimOrdered(QueuePolicy::kVscanCyl));
}

}  // namespace
}  // namespace ziosim
