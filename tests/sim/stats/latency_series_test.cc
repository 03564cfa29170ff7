#include "sim/stats/latency_series.h"

#include <gtest/gtest.h>

#include <vector>

namespace ziosim {
namespace {

// 1000 latencies from 0.1 ms to 100 ms.
std::vector<SimTime> Samples() {
  std::vector<SimTime> ns;
  for (int i = 0; i < 1000; ++i) ns.push_back(100'000 + static_cast<SimTime>(i) * i * 100);
  return ns;
}

LatencySeries Fill(int64_t limit, const std::vector<SimTime>& ns) {
  LatencySeries s(limit);
  for (SimTime v : ns) s.Add(v);
  return s;
}

TEST(LatencySeriesTest, BelowTheLimitIsTheExactSummary) {
  const LatencySeries s = Fill(1 << 20, Samples());
  ASSERT_TRUE(s.exact());
  std::vector<double> ms;
  for (SimTime v : Samples()) ms.push_back(NsToMs(v));
  const LatencySummary want = SummarizeLatencies(ms);
  const LatencySummary got = SummarizeSeries(s);
  EXPECT_EQ(got.count, want.count);
  EXPECT_EQ(got.p50_ms, want.p50_ms);
  EXPECT_EQ(got.p99_ms, want.p99_ms);
}

TEST(LatencySeriesTest, PastTheLimitTheHistogramKeepsQuantilesAndDemerit) {
  LatencySeries exact = Fill(1 << 20, Samples());
  LatencySeries binned = Fill(10, Samples());
  ASSERT_FALSE(binned.exact());
  EXPECT_EQ(binned.count(), 1000);
  const LatencySummary e = SummarizeSeries(exact);
  const LatencySummary b = SummarizeSeries(binned);
  EXPECT_NEAR(b.mean_ms, e.mean_ms, 1e-9);
  EXPECT_NEAR(b.p50_ms, e.p50_ms, e.p50_ms * 5e-4);
  EXPECT_NEAR(b.p90_ms, e.p90_ms, e.p90_ms * 5e-4);
  EXPECT_NEAR(b.p99_ms, e.p99_ms, e.p99_ms * 5e-4);
  // Against itself, binned or not, the demerit is (nearly) zero.
  EXPECT_NEAR(DemeritMs(exact, binned), 0.0, e.mean_ms * 5e-4);
}

}  // namespace
}  // namespace ziosim
