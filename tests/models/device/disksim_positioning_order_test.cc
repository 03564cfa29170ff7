#include "models/device/disksim_positioning_order.h"

#include <gtest/gtest.h>

#include <vector>

namespace ziosim {
namespace disksim_positioning_order_test {

using Candidate = DisksimPositioningOrder::Candidate;

// Picks among `c` under `policy` with estimates `ms` and seeks `seek_ms` (by arrival);
// `bounds` gets the bound each estimate was asked with, `asked` which were asked.
size_t PickOf(QueuePolicy policy, const HddScheduler& s, const std::vector<Candidate>& c,
              const std::vector<double>& ms, std::vector<size_t>* asked = nullptr,
              std::vector<double>* bounds = nullptr, const std::vector<double>& seek_ms = {}) {
  DisksimPositioningOrder order(policy, s, 8);
  return order.Pick(
      c.size(), [&](size_t i) { return c[i]; },
      [&](size_t i, double bound) {
        if (asked != nullptr) asked->push_back(i);
        if (bounds != nullptr) bounds->push_back(bound);
        return ms[i];
      },
      [&](size_t i) { return seek_ms.at(i); });
}

// The queue is walked by LBN, arrival breaking ties, and only a cost strictly below
// the best replaces it: of equal costs the lowest LBN wins, then the first to come.
TEST(DisksimPositioningOrderTest, EqualCostsGoToTheLowestLbnThenTheFirstToCome) {
  const HddScheduler none;
  EXPECT_EQ(PickOf(QueuePolicy::kSptfOpt, none, {{50}, {20}, {20}}, {1.0, 1.0, 1.0}), 1u);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfOpt, none, {{50}, {20}, {20}}, {1.0, 2.0, 1.0}), 2u);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfOpt, none, {{50}, {20}, {20}}, {0.5, 2.0, 1.0}), 0u);
}

// Each estimate is asked with the room left below the best (100,000 ms at first),
// after the command's delay; a command whose delay alone reaches the best is not
// estimated at all: here the write (5 ms delay) once a read costs 2 ms.
TEST(DisksimPositioningOrderTest, BoundsTheEstimateAndSkipsACommandItsDelayRulesOut) {
  HddScheduler s;
  s.write_initiation_delay_ns = MsToNs(5.0);
  std::vector<size_t> asked;
  std::vector<double> bounds;
  const std::vector<Candidate> c = {{10, true}, {20, false}, {30, true}};
  EXPECT_EQ(PickOf(QueuePolicy::kSptfOpt, s, c, {2.0, 0.0, 1.5}, &asked, &bounds), 2u);
  EXPECT_EQ(asked, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(bounds, (std::vector<double>{100000.0, 2.0}));
}

// DiskSim picks nothing when no cost is below 100,000 ms; the drive takes the first.
TEST(DisksimPositioningOrderTest, TakesTheFirstWhenNothingCostsLessThanTheStart) {
  HddScheduler s;
  s.read_initiation_delay_ns = MsToNs(200000.0);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfOpt, s, {{50}, {20}}, {1.0, 1.0}), 0u);
}

// The age terms, by hand: ASPTF subtracts age x weight / 1000 ms before estimating;
// WPTF multiplies the sum by (weight - age) / weight.
TEST(DisksimPositioningOrderTest, AgesAsDiskSimWeighsThem) {
  HddScheduler s;
  s.age_weight = 100;
  // ASPTF: 3 - 10 x 0.1 = 2 against 2.5 - 0: the older wins.
  EXPECT_EQ(PickOf(QueuePolicy::kAsptfOpt, s, {{1, true, 10.0}, {2, true, 0.0}}, {3.0, 2.5}), 0u);
  // WPTF: 3 x (100 - 20) / 100 = 2.4 against 2.5 x 1: the older wins; aged 10, 2.7 loses.
  EXPECT_EQ(PickOf(QueuePolicy::kWptfOpt, s, {{1, true, 20.0}, {2, true, 0.0}}, {3.0, 2.5}), 0u);
  EXPECT_EQ(PickOf(QueuePolicy::kWptfOpt, s, {{1, true, 10.0}, {2, true, 0.0}}, {3.0, 2.5}), 1u);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfOpt, s, {{1, true, 20.0}, {2, true, 0.0}}, {3.0, 2.5}), 1u);
}

// PRI_ASPTF credits the age of urgent commands only: the older command, not urgent,
// costs its 3 ms against 2.5; urgent, 3 - 10 x 0.1 = 2.
TEST(DisksimPositioningOrderTest, PriorityVariantsCreditOnlyUrgentCommands) {
  HddScheduler s;
  s.age_weight = 100;
  EXPECT_EQ(PickOf(QueuePolicy::kPriAsptfOpt, s, {{1, true, 10.0, false}, {2, true, 0.0}}, {3.0, 2.5}), 1u);
  EXPECT_EQ(PickOf(QueuePolicy::kPriAsptfOpt, s, {{1, true, 10.0, true}, {2, true, 0.0}}, {3.0, 2.5}), 0u);
  EXPECT_EQ(PickOf(QueuePolicy::kPriAspctfOpt, s, {{1, true, 10.0, true}, {2, true, 0.0}}, {3.0, 2.5}), 0u);
}

// SPTF_ROT_WEIGHT: of the least costs, the one of the most rotation (estimate less
// seek), the last by LBN of equals. Costs 3, 2, 2 at LBNs 10, 20, 30 with seeks 1, 1.5,
// 0.5: of the two at 2, LBN 30 turns 1.5 ms, LBN 20 0.5 ms: 30. With seeks 1, 1, 1 they
// turn alike: the last, 30, again; with seeks 1, 0.5, 1.5, LBN 20.
TEST(DisksimPositioningOrderTest, RotationWeightTakesTheMostRotationOfTheLeastCost) {
  const HddScheduler none;
  const std::vector<Candidate> c = {{10}, {20}, {30}};
  EXPECT_EQ(PickOf(QueuePolicy::kSptfRotWeight, none, c, {3.0, 2.0, 2.0}, nullptr, nullptr, {1.0, 1.5, 0.5}), 2u);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfRotWeight, none, c, {3.0, 2.0, 2.0}, nullptr, nullptr, {1.0, 1.0, 1.0}), 2u);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfRotWeight, none, c, {3.0, 2.0, 2.0}, nullptr, nullptr, {1.0, 0.5, 1.5}), 1u);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfOpt, none, c, {3.0, 2.0, 2.0}, nullptr, nullptr, {1.0, 0.5, 1.5}), 1u);
}

// SPTF_SEEK_WEIGHT walks once: LBN 10 (cost 5, seek 1) is taken, being the least so far;
// LBN 20 (cost 3, the new least) has a longer seek (2): 10 stays, though it costs more.
// With LBN 20's seek 0.5, 20 is taken.
TEST(DisksimPositioningOrderTest, SeekWeightKeepsAnEarlierShorterSeek) {
  const HddScheduler none;
  const std::vector<Candidate> c = {{10}, {20}};
  EXPECT_EQ(PickOf(QueuePolicy::kSptfSeekWeight, none, c, {5.0, 3.0}, nullptr, nullptr, {1.0, 2.0}), 0u);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfSeekWeight, none, c, {5.0, 3.0}, nullptr, nullptr, {1.0, 0.5}), 1u);
  EXPECT_EQ(PickOf(QueuePolicy::kSptfOpt, none, c, {5.0, 3.0}, nullptr, nullptr, {1.0, 2.0}), 1u);
}

// SDF compares distances with no delay, from 1,000,000 cylinders: a distance of
// 200,000 still wins, and the initiation delays of the spec do not count.
TEST(DisksimPositioningOrderTest, SdfComparesDistancesAlone) {
  HddScheduler s;
  s.read_initiation_delay_ns = MsToNs(5.0);
  std::vector<double> bounds;
  EXPECT_EQ(PickOf(QueuePolicy::kSdfExact, s, {{50, true}, {20, false}}, {200000.0, 300000.0}, nullptr, &bounds), 0u);
  EXPECT_EQ(bounds.front(), 1000000.0);
  EXPECT_EQ(PickOf(QueuePolicy::kSdfApprox, s, {{50, true}, {20, false}}, {3.0, 3.0}), 1u);
}

// The *_opt, sptf_*_weight and sdf_* policies are this order's; all but SDF take the
// scheduler's times, and those with a C ("cache") ask the cache.
TEST(DisksimPositioningOrderTest, CoversTheOptWeightAndSdfPoliciesAndTheCVariantsAskTheCache) {
  for (const QueuePolicyInfo& info : QueuePolicies()) {
    const bool opt = info.name.ends_with("_opt") || (info.name.starts_with("sptf_") && info.name.ends_with("_weight"));
    const bool sdf = info.name.starts_with("sdf_");
    EXPECT_EQ(DisksimPositioningOrder::IsPositioningOrdered(info.policy), opt || sdf) << info.name;
    EXPECT_EQ(DisksimPositioningOrder::TakesSchedulerTimes(info.policy), opt) << info.name;
    if (opt) {
      const bool cache = info.name.ends_with("ctf_opt");
      EXPECT_EQ(DisksimPositioningOrder(info.policy, HddScheduler{}, 1).check_cache(), cache) << info.name;
    }
  }
}

}  // namespace disksim_positioning_order_test
}  // namespace ziosim
