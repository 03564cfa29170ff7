// The intent log: commit ordering (a commit returns only after its records and
// every earlier record are on stable storage), WR_INDIRECT above
// zfs_immediate_write_sz without a log device, log devices taking the log
// writes, cache flushes, and sync=disabled / zil_disable writing nothing.
#include "sim/zfs/zil.h"

#include <vector>

#include <gtest/gtest.h>

#include "sim/core/status.h"

namespace ziosim {
namespace {

struct Done {
  uint64_t tag;
  SimTime at;
};

class Waiters : public ZilCaller {
 public:
  explicit Waiters(Simulation* sim) : sim_(sim) {}
  void OnCommitDone(uint64_t tag) override { done.push_back({tag, sim_->now()}); }
  std::vector<Done> done;

 private:
  Simulation* sim_;
};

// Every leaf write: when it went to the device and when it completed.
class WriteLog : public LeafIoObserver {
 public:
  void OnLeafIoDone(const LeafVdev&, const Zio& zio, const Zio& issued, SimTime now) override {
    if (zio.type == ZioType::kWrite) writes.push_back({issued.issued_ns, now});
  }
  struct Write {
    SimTime issued, done;
  };
  std::vector<Write> writes;
};

Tunables With(std::initializer_list<std::pair<const char*, const char*>> settings) {
  Tunables t = ProfileTunables("openzfs-2.2");
  for (const auto& [k, v] : settings) t.Set(k, v, "test");
  return t;
}

uint64_t Writes(const LeafVdev* l) { return l->device().stats().writes(); }

TEST(ZilTest, CommitsReturnInOrderAfterTheirRecordsAreStable) {
  Simulation sim;
  // Every record copied into the log, so that one commit spans several lwbs.
  Pool pool(&sim, ParsePoolSpec("mirror 2xgeneric-7200-hdd"), With({{"zfs_immediate_write_sz", "1M"}}), /*seed=*/1);
  WriteLog log;
  pool.set_observer(&log);
  Zil zil(&pool, SyncMode::kStandard, Logbias::kLatency);
  Waiters w(&sim);
  zil.LogWrite(0, 8192);
  zil.Commit(0, &w, 1);
  // Logged while the first batch is in flight: they go out together, after it.
  zil.LogWrite(1, 4096);
  zil.Commit(1, &w, 2);
  zil.LogWrite(0, 300 << 10);  // spans three lwbs
  zil.Commit(0, &w, 3);
  sim.Run();
  ASSERT_EQ(w.done.size(), 3u);
  EXPECT_EQ(w.done[0].tag, 1u);
  EXPECT_EQ(w.done[1].tag, 2u);
  EXPECT_EQ(w.done[2].tag, 3u);
  EXPECT_EQ(zil.stats().batches, 2u);
  EXPECT_EQ(w.done[1].at, w.done[2].at);  // one group commit
  EXPECT_GT(w.done[1].at, w.done[0].at);
  // Batch 1: one lwb on each side of the mirror; batch 2: 300K + 4K of records in 128K lwbs.
  EXPECT_EQ(zil.stats().lwbs, 1u + 3u);
  ASSERT_EQ(log.writes.size(), 2u * 4u);
  for (const WriteLog::Write& x : log.writes) {
    if (x.issued < w.done[0].at) {
      EXPECT_LE(x.done, w.done[0].at);  // batch 1 is on disk before commit 1 returns
    } else {
      EXPECT_LE(x.done, w.done[1].at);  // batch 2 started only after commit 1 returned
    }
  }
  EXPECT_EQ(pool.live_zios(), 0);
}

TEST(ZilTest, LargeWritesAreIndirectWithoutALogDevice) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("generic-7200-hdd"), With({}), /*seed=*/1);
  Zil zil(&pool, SyncMode::kStandard, Logbias::kLatency);
  Waiters w(&sim);
  zil.LogWrite(0, (32 << 10) - 512);  // below zfs_immediate_write_sz: copied into the log
  zil.LogWrite(0, 32 << 10);          // at it: written in place
  zil.Commit(0, &w, 1);
  sim.Run();
  EXPECT_EQ(zil.stats().records, 2u);
  EXPECT_EQ(zil.stats().indirect_records, 1u);
  EXPECT_EQ(zil.stats().indirect_bytes, 32 << 10);
  // 32K - 512 of data and two 192-byte records: the 32K + 4K bucket, 36K.
  EXPECT_EQ(zil.stats().lwb_bytes, 36 << 10);
  EXPECT_EQ(pool.leaves()[0]->stats().zios, 2u);  // the queue may aggregate them into one command

  Simulation sim2;
  Pool pool2(&sim2, ParsePoolSpec("generic-7200-hdd"), With({{"zfs_immediate_write_sz", "64K"}}), /*seed=*/1);
  Zil zil2(&pool2, SyncMode::kStandard, Logbias::kLatency);
  zil2.LogWrite(0, 32 << 10);
  EXPECT_EQ(zil2.stats().indirect_records, 0u);
}

TEST(ZilTest, LogDeviceTakesTheLogWritesAndIsFlushed) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("raidz1 5xgeneric-7200-hdd log mirror 2xgeneric-ssd"), With({}), /*seed=*/1);
  Zil zil(&pool, SyncMode::kStandard, Logbias::kLatency);
  Waiters w(&sim);
  zil.LogWrite(0, 1 << 20);  // large, but with a log device it is copied into the log
  zil.Commit(0, &w, 1);
  sim.Run();
  ASSERT_EQ(w.done.size(), 1u);
  EXPECT_EQ(zil.stats().indirect_records, 0u);
  EXPECT_EQ(zil.stats().lwbs, 9u);  // 1M + 192 in lwbs of 128K less the 184-byte chain
  for (size_t i = 0; i < pool.leaves().size(); ++i) {
    const bool log_leaf = pool.leaf_top(i) >= pool.top_count();
    EXPECT_EQ(Writes(pool.leaves()[i]) > 0, log_leaf) << pool.leaves()[i]->name();
  }
  EXPECT_EQ(zil.stats().flushes, 2u);  // both sides of the log mirror

  // logbias=throughput sends the data to the pool even with a log device.
  Simulation sim2;
  Pool pool2(&sim2, ParsePoolSpec("raidz1 5xgeneric-7200-hdd log generic-ssd"), With({}), /*seed=*/1);
  Zil zil2(&pool2, SyncMode::kStandard, Logbias::kThroughput);
  zil2.LogWrite(0, 4096);
  EXPECT_EQ(zil2.stats().indirect_records, 1u);
}

// The HDD's write-back cache acknowledges the lwb before it is on the platter;
// the flush waits for the destage. zfs_nocacheflush skips it.
TEST(ZilTest, CacheFlushWaitsForTheDiskCache) {
  auto latency = [](const char* nocacheflush, uint64_t* flushes) {
    Simulation sim;
    Pool pool(&sim, ParsePoolSpec("generic-7200-hdd"), With({{"zfs_nocacheflush", nocacheflush}}), /*seed=*/1);
    Zil zil(&pool, SyncMode::kStandard, Logbias::kLatency);
    Waiters w(&sim);
    zil.LogWrite(0, 16 << 10);
    zil.Commit(0, &w, 1);
    sim.Run();
    *flushes = zil.stats().flushes;
    return w.done.at(0).at;
  };
  uint64_t with_flush = 0, without_flush = 0;
  const SimTime flushed = latency("false", &with_flush);
  const SimTime unflushed = latency("true", &without_flush);
  EXPECT_EQ(with_flush, 1u);
  EXPECT_EQ(without_flush, 0u);
  EXPECT_GT(flushed, unflushed);
}

TEST(ZilTest, SyncDisabledAndZilDisableWriteNothing) {
  for (const bool zil_disable : {false, true}) {
    Simulation sim;
    Pool pool(&sim, ParsePoolSpec("generic-7200-hdd"), With({{"zil_disable", zil_disable ? "true" : "false"}}), /*seed=*/1);
    Zil zil(&pool, zil_disable ? SyncMode::kAlways : SyncMode::kDisabled, Logbias::kLatency);
    Waiters w(&sim);
    EXPECT_FALSE(zil.WriteMustCommit(true));
    zil.LogWrite(0, 8192);
    zil.Commit(0, &w, 5);
    sim.Run();
    ASSERT_EQ(w.done.size(), 1u);
    EXPECT_EQ(w.done[0].at, 0);
    EXPECT_EQ(zil.stats().lwbs, 0u);
    EXPECT_EQ(Writes(pool.leaves()[0]), 0u);
  }
}

TEST(ZilTest, WhoMustCommit) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec("generic-7200-hdd"), With({}), /*seed=*/1);
  EXPECT_TRUE(Zil(&pool, SyncMode::kStandard, Logbias::kLatency).WriteMustCommit(true));
  EXPECT_FALSE(Zil(&pool, SyncMode::kStandard, Logbias::kLatency).WriteMustCommit(false));
  EXPECT_TRUE(Zil(&pool, SyncMode::kAlways, Logbias::kLatency).WriteMustCommit(false));
  EXPECT_THROW(ParseSyncMode("sometimes", "sync"), InputError);
  EXPECT_THROW(ParseLogbias("fast", "logbias"), InputError);
}

TEST(ZilTest, SameInputsSameTimes) {
  auto run = [] {
    Simulation sim;
    Pool pool(&sim, ParsePoolSpec("raidz1 5xgeneric-7200-hdd"), With({}), /*seed=*/1);
    Zil zil(&pool, SyncMode::kStandard, Logbias::kLatency);
    Waiters w(&sim);
    for (int i = 0; i < 20; ++i) {
      zil.LogWrite(i % 3, (i + 1) * 3000);
      zil.Commit(i % 3, &w, static_cast<uint64_t>(i));
    }
    sim.Run();
    std::vector<SimTime> out;
    for (const Done& d : w.done) out.push_back(d.at);
    return out;
  };
  const std::vector<SimTime> a = run();
  EXPECT_EQ(a.size(), 20u);
  EXPECT_EQ(a, run());
}

}  // namespace
}  // namespace ziosim
