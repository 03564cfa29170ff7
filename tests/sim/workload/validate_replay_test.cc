#include "sim/workload/validate_replay.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/core/status.h"

namespace ziosim {
namespace {

// A device that takes the same time for every command, so that the replay's
// timing can be checked by hand.
class ConstantDevice final : public Device {
 public:
  ConstantDevice(Simulation* sim, SimTime service_ns, int64_t capacity_bytes, int64_t sector_bytes = 512)
      : Device(sim, "const0"),
        service_ns_(service_ns),
        capacity_bytes_(capacity_bytes),
        sector_bytes_(sector_bytes) {}

  bool is_rotational() const override { return false; }
  int64_t capacity_bytes() const override { return capacity_bytes_; }
  int64_t sector_bytes() const override { return sector_bytes_; }
  int queue_depth() const override { return 1; }
  int in_device() const override { return busy_ ? 1 : 0; }

  void Submit(const DeviceRequest& req) override {
    CheckRequest(req);
    busy_ = true;
    pending_ = req;
    submitted_ns_ = sim_->now();
    submits_.push_back(req);
    sim_->ScheduleIn(service_ns_, this, 0);
  }
  void OnEvent(uint32_t, uint64_t) override {
    busy_ = false;
    listener_->OnDeviceDone(pending_, submitted_ns_, sim_->now());
  }

  const std::vector<DeviceRequest>& submits() const { return submits_; }

 private:
  SimTime service_ns_;
  int64_t capacity_bytes_;
  int64_t sector_bytes_;
  bool busy_ = false;
  DeviceRequest pending_;
  SimTime submitted_ns_ = 0;
  std::vector<DeviceRequest> submits_;
};

ValidateRecord Record(IoOp op, int64_t lbn, int64_t blocks, double measured_ms, SimTime gap_ns, int line) {
  ValidateRecord r;
  r.op = op;
  r.lbn = lbn;
  r.blocks = blocks;
  r.measured_ms = measured_ms;
  r.gap_after_ns = gap_ns;
  r.line = line;
  return r;
}

constexpr SimTime kServiceNs = 2 * kNsPerMs;
constexpr int64_t kCapacityBytes = 1 << 20;  // 2048 blocks

const std::vector<ValidateRecord> kRecords = {
    Record(IoOp::kRead, 0, 8, 2.0, 5 * kNsPerMs, 1),
    Record(IoOp::kWrite, 100, 16, 3.0, 0, 2),
    Record(IoOp::kRead, 2040, 8, 1.0, 7 * kNsPerMs, 3),
    Record(IoOp::kRead, 8, 1, 2.0, 1 * kNsPerMs, 4),
};

TEST(ValidateReplayTest, ClosedLoopIssuesEachRequestAGapAfterThePreviousCompletion) {
  Simulation sim;
  ConstantDevice dev(&sim, kServiceNs, kCapacityBytes);
  std::vector<SimTime> issued;
  std::vector<const HddBreakdown*> breakdowns;
  const ValidateReplayResult r = ReplayValidateRecords(dev, sim, kRecords, [&](const ValidateRequestResult& q) {
    EXPECT_EQ(q.record, &kRecords[q.index]);
    EXPECT_EQ(q.simulated_ns, kServiceNs);
    issued.push_back(q.issued_ns);
    breakdowns.push_back(q.breakdown);
  });
  // issue[k+1] = issue[k] + service + gap[k]; the first at 0.
  const std::vector<SimTime> want = {0, 7 * kNsPerMs, 9 * kNsPerMs, 18 * kNsPerMs};
  EXPECT_EQ(issued, want);
  EXPECT_EQ(r.end_ns, 20 * kNsPerMs);
  EXPECT_EQ(breakdowns, std::vector<const HddBreakdown*>(4, nullptr));  // not an HddDevice

  ASSERT_EQ(dev.submits().size(), 4u);
  EXPECT_EQ(dev.submits()[1].offset_bytes, 100 * 512);
  EXPECT_EQ(dev.submits()[1].size_bytes, 16 * 512);
  EXPECT_EQ(dev.submits()[1].op, IoOp::kWrite);
  EXPECT_EQ(dev.submits()[2].tag, 2u);
}

TEST(ValidateReplayTest, ComparesMeasuredWithSimulated) {
  Simulation sim;
  ConstantDevice dev(&sim, kServiceNs, kCapacityBytes);
  const ValidateReplayResult r = ReplayValidateRecords(dev, sim, kRecords);
  EXPECT_EQ(r.requests, 4);
  EXPECT_EQ(r.reads, 3);
  EXPECT_EQ(r.writes, 1);
  EXPECT_EQ(r.measured_ms, (std::vector<double>{2, 3, 1, 2}));
  EXPECT_EQ(r.simulated_ms, (std::vector<double>{2, 2, 2, 2}));
  EXPECT_DOUBLE_EQ(r.measured.mean_ms, 2);
  EXPECT_DOUBLE_EQ(r.simulated.mean_ms, 2);
  EXPECT_DOUBLE_EQ(r.mean_error_pct, 0);
  EXPECT_DOUBLE_EQ(r.demerit_ms, DemeritMs({2, 3, 1, 2}, {2, 2, 2, 2}));
  EXPECT_DOUBLE_EQ(r.demerit_pct, 100 * r.demerit_ms / 2);
  EXPECT_GE(r.wall_seconds, 0);
}

TEST(ValidateReplayTest, MeanErrorIsRelativeToTheMeasuredMean) {
  Simulation sim;
  ConstantDevice dev(&sim, 2500 * kNsPerUs, kCapacityBytes);
  const ValidateReplayResult r = ReplayValidateRecords(dev, sim, kRecords);
  EXPECT_DOUBLE_EQ(r.mean_error_pct, 25.0);
}

TEST(ValidateReplayTest, SameInputGivesIdenticalResults) {
  Simulation sim_a, sim_b;
  ConstantDevice a(&sim_a, kServiceNs, kCapacityBytes), b(&sim_b, kServiceNs, kCapacityBytes);
  const ValidateReplayResult ra = ReplayValidateRecords(a, sim_a, kRecords);
  const ValidateReplayResult rb = ReplayValidateRecords(b, sim_b, kRecords);
  EXPECT_EQ(ra.simulated_ms, rb.simulated_ms);
  EXPECT_EQ(ra.demerit_ms, rb.demerit_ms);
  EXPECT_EQ(ra.end_ns, rb.end_ns);
}

// The figures sort the measured times by their digits when every record has
// them with as many decimals, and as doubles otherwise: the same figures, bit
// for bit, whichever way (here from parsed lines, many sharing a time).
TEST(ValidateReplayTest, FiguresAreTheSameWhetherTimesSortByDigitsOrAsDoubles) {
  std::mt19937_64 rng(3);
  std::vector<ValidateRecord> by_digits, as_doubles, mixed;
  for (int i = 1; i <= 5000; ++i) {
    const std::string us = std::to_string(rng() % 40000) + "." + std::to_string(rng() % 1000 + 1000).substr(1);
    ValidateRecord r = ParseValidateLine("R Hit " + std::to_string(i % 2000) + " 1 " + us + " 10", "t", i);
    ASSERT_EQ(r.measured_decimals, 3);
    by_digits.push_back(r);
    r.measured_decimals = -1;
    as_doubles.push_back(r);
    // One record in the middle written with another number of decimals.
    mixed.push_back(i == 2500 ? ParseValidateLine("R Hit 0 1 " + us + "0 10", "t", i) : by_digits.back());
  }
  const auto replay = [](const std::vector<ValidateRecord>& records) {
    Simulation sim;
    ConstantDevice dev(&sim, kServiceNs, kCapacityBytes);
    return ReplayValidateRecords(dev, sim, records);
  };
  const ValidateReplayResult want = replay(as_doubles);
  for (const auto* records : {&by_digits, &mixed}) {
    const ValidateReplayResult r = replay(*records);
    EXPECT_EQ(r.measured_ms, want.measured_ms);
    EXPECT_EQ(r.measured.mean_ms, want.measured.mean_ms);
    EXPECT_EQ(r.measured.p50_ms, want.measured.p50_ms);
    EXPECT_EQ(r.measured.p90_ms, want.measured.p90_ms);
    EXPECT_EQ(r.measured.p99_ms, want.measured.p99_ms);
    EXPECT_EQ(r.demerit_ms, want.demerit_ms);
  }
  // And as std::sort orders them.
  std::vector<double> sorted = want.measured_ms;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(want.measured.p50_ms, Quantile(sorted, 0.5));
  EXPECT_EQ(want.demerit_ms, DemeritMs(want.measured_ms, want.simulated_ms));
}

TEST(ValidateReplayTest, RequestBeyondCapacityNamesTheTraceLine) {
  Simulation sim;
  ConstantDevice dev(&sim, kServiceNs, kCapacityBytes);
  const std::vector<ValidateRecord> records = {Record(IoOp::kRead, 0, 8, 1, 0, 1),
                                               Record(IoOp::kRead, 2041, 8, 1, 0, 9)};
  try {
    CheckRecordsFit(records, dev, "x.trace");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(),
                 "x.trace:9: field blkno: 8 blocks from block 2041 run past the end of const0 "
                 "(2048 blocks of 512 bytes)");
  }
  // A block number so large that lbn + blocks would overflow is still caught.
  const std::vector<ValidateRecord> huge = {Record(IoOp::kRead, INT64_MAX - 2, 8, 1, 0, 3)};
  EXPECT_THROW(CheckRecordsFit(huge, dev, "x.trace"), InputError);
  EXPECT_NO_THROW(CheckRecordsFit(kRecords, dev, "x.trace"));
}

TEST(ValidateReplayTest, RequestNotAlignedToTheDeviceSectorsIsAnInputError) {
  Simulation sim;
  ConstantDevice dev(&sim, kServiceNs, kCapacityBytes, /*sector_bytes=*/4096);
  const std::vector<ValidateRecord> records = {Record(IoOp::kRead, 4, 8, 1, 0, 2)};
  try {
    CheckRecordsFit(records, dev, "x.trace");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "x.trace:2: field blkno: request is not aligned to const0's 4096-byte sectors");
  }
}

class TraceFile {
 public:
  explicit TraceFile(const std::string& text)
      : path_(::testing::TempDir() + "ziosim_" + std::to_string(::getpid()) + "_replay.trace") {
    std::ofstream(path_) << text;
  }
  ~TraceFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(ValidateReplayTest, ReplaysATraceFile) {
  const TraceFile file("R Hit 0 8 2000 5000\nW Hit 100 16 3000 0\n");
  DisksimValidateTrace trace(file.path());
  Simulation sim;
  ConstantDevice dev(&sim, kServiceNs, kCapacityBytes);
  const ValidateReplayResult r = ReplayValidate(dev, sim, trace);
  EXPECT_EQ(r.requests, 2);
  EXPECT_EQ(r.measured_ms, (std::vector<double>{2, 3}));
  EXPECT_EQ(r.end_ns, 9 * kNsPerMs);
}

// Streams `text` to a ConstantDevice, which must fail with an InputError that
// begins with the trace's path and `message_start`; returns how many requests
// the device was given before it failed.
size_t SubmitsBeforeStreamFails(const std::string& text, const std::string& message_start) {
  const TraceFile file(text);
  DisksimValidateTrace trace(file.path());
  Simulation sim;
  ConstantDevice dev(&sim, kServiceNs, kCapacityBytes);
  try {
    ReplayValidate(dev, sim, trace);
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(file.path() + message_start, 0), 0u) << e.what();
  }
  return dev.submits().size();
}

// The trace streams, so a record beyond the drive stops the replay when it comes.
TEST(ValidateReplayTest, TraceBeyondCapacityFailsAtItsLine) {
  EXPECT_EQ(SubmitsBeforeStreamFails("R Hit 0 8 2000 5000\nR Hit 4000 8 1 1\n", ":2: field blkno:"), 1u);
}

// A trace of `lines` requests with varied sizes, gaps and measured times: the
// measured times have five decimals, except from `mixed_from` on (if > 0),
// where they alternate with two, as a trace of mixed precision would.
std::string LongTrace(int lines, int mixed_from) {
  std::mt19937_64 rng(7);
  std::string text;
  for (int i = 1; i <= lines; ++i) {
    const uint64_t r = rng();
    const int decimals = mixed_from > 0 && i >= mixed_from && i % 2 == 0 ? 2 : 5;
    char measured[32];
    std::snprintf(measured, sizeof measured, "%.*f", decimals, static_cast<double>(r % 200000) / 1000.0);
    text += std::string(r % 3 == 0 ? "W" : "R") + " Hit " + std::to_string(8 * (r % 250)) + " " +
            std::to_string(8 * (1 + r % 4)) + " " + measured + " " + std::to_string(r % 5000) + ".5\n";
  }
  return text;
}

// Streamed, the trace is read on a second thread in batches of a few thousand
// records: across several batches, and whether or not the measured times keep
// one precision, the replay is the one of the same records read first.
TEST(ValidateReplayTest, AStreamedTraceReplaysAsItsRecordsInMemory) {
  for (const int mixed_from : {0, 9001}) {
    const TraceFile file(LongTrace(10'000, mixed_from));
    DisksimValidateTrace streamed(file.path());
    Simulation sim_a;
    ConstantDevice dev_a(&sim_a, kServiceNs, kCapacityBytes);
    const ValidateReplayResult got = ReplayValidate(dev_a, sim_a, streamed);

    DisksimValidateTrace read(file.path());
    const std::vector<ValidateRecord> records = ReadValidateRecords(read);
    Simulation sim_b;
    ConstantDevice dev_b(&sim_b, kServiceNs, kCapacityBytes);
    const ValidateReplayResult want = ReplayValidateRecords(dev_b, sim_b, records);

    ASSERT_EQ(got.requests, 10'000);
    EXPECT_EQ(got.requests, want.requests);
    EXPECT_EQ(got.reads, want.reads);
    EXPECT_EQ(got.writes, want.writes);
    EXPECT_EQ(got.measured_ms, want.measured_ms);
    EXPECT_EQ(got.simulated_ms, want.simulated_ms);
    EXPECT_EQ(got.end_ns, want.end_ns);
    EXPECT_EQ(got.measured.mean_ms, want.measured.mean_ms);
    EXPECT_EQ(got.measured.p50_ms, want.measured.p50_ms);
    EXPECT_EQ(got.measured.p99_ms, want.measured.p99_ms);
    EXPECT_EQ(got.demerit_ms, want.demerit_ms);
    EXPECT_GT(got.demerit_ms, 0);
    EXPECT_EQ(dev_a.submits().size(), 10'000u);
  }
}

// A malformed line in a later batch fails the replay when it reaches it, after
// every request before it, with the line's number.
TEST(ValidateReplayTest, AStreamedTraceFailsAtALateMalformedLine) {
  std::string text = LongTrace(10'000, 0);
  size_t at = 0;
  for (int line = 1; line < 9'000; ++line) at = text.find('\n', at) + 1;
  text.insert(at, "R Hit 8 eight 1.0 1.0\n");
  EXPECT_EQ(SubmitsBeforeStreamFails(text, ":9000: field nsectors"), 8'999u);
}

TEST(ValidateReplayTest, EmptyTraceIsAnInputError) {
  const TraceFile file("\n\n");
  DisksimValidateTrace trace(file.path());
  Simulation sim;
  ConstantDevice dev(&sim, kServiceNs, kCapacityBytes);
  try {
    ReplayValidate(dev, sim, trace);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), file.path() + ": the trace holds no requests");
  }
}

}  // namespace
}  // namespace ziosim
