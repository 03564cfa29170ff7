#include "sim/zfs/zfetch.h"

#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/bytes.h"

namespace ziosim {
namespace {

Tunables Era(const std::string& era, std::vector<std::pair<std::string, std::string>> more = {}) {
  Tunables t;
  t.Set("ziosim_zfetch_era", era, "test");
  for (const auto& [name, value] : more) t.Set(name, value, "test");
  return t;
}

// The tunables the era profiles give each prefetcher.
Tunables OldProfile() {
  return Era("old", {{"zfetch_min_sec_reap", "2"}, {"zfetch_max_idistance", "0"},
                     {"ziosim_zfetch_misaligned_hit", "false"}, {"ziosim_zfetch_after_miss", "false"}});
}
Tunables Zol07Profile(std::vector<std::pair<std::string, std::string>> more = {}) {
  std::vector<std::pair<std::string, std::string>> s = {
      {"zfetch_max_distance", "8M"}, {"zfetch_min_sec_reap", "2"},
      {"ziosim_zfetch_misaligned_hit", "false"}, {"ziosim_zfetch_after_miss", "false"}};
  s.insert(s.end(), more.begin(), more.end());
  return Era("2015", s);
}
Tunables Openzfs22Profile(std::vector<std::pair<std::string, std::string>> more = {}) {
  return Era("2022", std::move(more));
}

// A reader over one file with a tiny cache model: the set of data blocks that
// are cached or being read. Each Read() is one DMU chunk: Access() first (the
// prefetcher sees the cache as it was before the chunk's demand reads), then
// the chunk's blocks and whatever was prefetched join the set.
class Reader {
 public:
  Reader(const Tunables& t, int64_t blocks, int64_t block_bytes, int ptrs = 1024, bool fetch_data = true)
      : blocks_(blocks), block_bytes_(block_bytes), zf_(MakeZfetch(t, blocks, block_bytes, ptrs, fetch_data)) {}

  // Reads [b, b + n); returns the data blocks prefetched by this call.
  int64_t Read(int64_t b, int64_t n = 1, int64_t length_bytes = -1) {
    if (length_bytes < 0) length_bytes = n * block_bytes_;
    bool missed = false;
    for (int64_t x = b; x < b + n; ++x) missed |= !cache_.count(x);
    if (missed) ++chunks_missed_;
    last_.clear();
    zf_->Access(b, n, length_bytes, missed, [this](int64_t x) { return cache_.count(x) != 0; }, now_, &last_);
    for (int64_t x = b; x < b + n; ++x) cache_.insert(x);
    int64_t data = 0;
    for (size_t i = 0; i < last_.size(); ++i) {
      const PrefetchRange& r = last_[i];
      EXPECT_GT(r.count, 0);
      if (r.level == 1) {
        EXPECT_GE(r.first, 0);
        EXPECT_LE(r.first + r.count, (blocks_ + ptrs() - 1) / ptrs());
        for (int64_t k = r.first; k < r.first + r.count; ++k) l1_.push_back(k);
        continue;
      }
      EXPECT_EQ(l1_seen_in_call(i), false) << "data after level-1 ranges";
      if (i + 1 < last_.size() && last_[i + 1].level == 0) {
        EXPECT_NE(r.first + r.count, last_[i + 1].first) << "adjacent ranges not merged";
      }
      for (int64_t x = r.first; x < r.first + r.count; ++x) {
        EXPECT_GE(x, 0);
        EXPECT_LT(x, blocks_) << "prefetch past the end of the file";
        EXPECT_FALSE(x >= b && x < b + n) << "prefetch of the chunk's own block " << x;
        EXPECT_TRUE(cache_.insert(x).second) << "prefetch of cached block " << x;
        ++data;
      }
    }
    return data;
  }
  // First block after the highest cached one: the prefetch front.
  int64_t Front() const { return cache_.empty() ? 0 : *cache_.rbegin() + 1; }
  void Evict(int64_t first, int64_t end) { cache_.erase(cache_.lower_bound(first), cache_.lower_bound(end)); }
  void Fill(int64_t first, int64_t end) {
    for (int64_t x = first; x < end; ++x) cache_.insert(x);
  }
  bool Cached(int64_t x) const { return cache_.count(x) != 0; }
  void Advance(SimTime dt) { now_ += dt; }
  Zfetch& zf() { return *zf_; }
  const std::vector<PrefetchRange>& last() const { return last_; }
  const std::vector<int64_t>& l1() const { return l1_; }
  int64_t MaxL1() const {
    int64_t m = -1;
    for (int64_t k : l1_) m = std::max(m, k);
    return m;
  }

 private:
  int ptrs() const { return 1024; }
  bool l1_seen_in_call(size_t i) const {
    for (size_t j = 0; j < i; ++j) {
      if (last_[j].level == 1) return true;
    }
    return false;
  }

  int64_t blocks_, block_bytes_;
  std::unique_ptr<Zfetch> zf_;
  std::set<int64_t> cache_;
  std::vector<PrefetchRange> last_;
  std::vector<int64_t> l1_;
  SimTime now_ = 0;
  int64_t chunks_missed_ = 0;
};

// ---------------------------------------------------------------- old era

TEST(ZfetchOldTest, ForwardReaderHorizonDoublesThenBurstsOf256) {
  Reader r(OldProfile(), 100000, 128 * kKiB);
  r.Read(0);  // creates the stream
  std::vector<int64_t> horizon;
  for (int64_t b = 1; b <= 8; ++b) {
    r.Read(b);
    horizon.push_back(r.Front() - b);
  }
  EXPECT_EQ(horizon, (std::vector<int64_t>{3, 5, 12, 21, 38, 65, 136, 261}));
  // Every read after the first two was prefetched.
  int64_t bursts = 0;
  for (int64_t b = 9; b < 8192; ++b) {
    EXPECT_TRUE(r.Cached(b)) << b;
    const int64_t n = r.Read(b);
    if (b < 1024) continue;
    // Steady state: bursts of exactly 256 blocks, 257..512 blocks ahead.
    EXPECT_TRUE(n == 0 || n == 256) << "b=" << b << " n=" << n;
    bursts += n > 0;
    EXPECT_GE(r.Front() - b, 257) << b;
    EXPECT_LE(r.Front() - b, 512) << b;
  }
  EXPECT_EQ(bursts, (8192 - 1024) / 256);
  EXPECT_EQ(r.zf().stats().resets, 0u);
  EXPECT_EQ(r.zf().num_streams(), 1u);
}

TEST(ZfetchOldTest, OneMiBChunksPrefetchAndTwoMiBDoNot) {
  // 1 MiB chunks of 8 blocks: a block's prefetch covers the next blocks of the
  // same chunk, which count as prefetched (no reset), and runs ahead.
  Reader r(OldProfile(), 100000, 128 * kKiB);
  for (int64_t c = 0; c < 64; ++c) r.Read(8 * c, 8, kMiB);
  EXPECT_EQ(r.zf().stats().resets, 0u);
  EXPECT_GE(r.Front() - 512, 257);
  for (int64_t b = 8; b < 512; ++b) EXPECT_TRUE(r.Cached(b));

  Reader big(OldProfile(), 100000, 128 * kKiB);
  for (int64_t c = 0; c < 64; ++c) EXPECT_EQ(big.Read(16 * c, 16, 2 * kMiB), 0);
  EXPECT_EQ(big.zf().num_streams(), 0u);
}

TEST(ZfetchOldTest, MissOnEstablishedStreamResetsIt) {
  Reader r(OldProfile(), 100000, 128 * kKiB);
  for (int64_t b = 0; b < 100; ++b) r.Read(b);
  EXPECT_EQ(r.zf().stats().resets, 0u);
  // The prefetched blocks ahead are evicted: the next read misses.
  r.Evict(100, 1 << 20);
  EXPECT_EQ(r.Read(100), 0);
  EXPECT_EQ(r.zf().stats().resets, 1u);
  // A new stream starts at 100 and ramps from zero again.
  std::vector<int64_t> horizon;
  for (int64_t b = 101; b <= 104; ++b) {
    r.Read(b);
    horizon.push_back(r.Front() - b);
  }
  EXPECT_EQ(horizon, (std::vector<int64_t>{3, 5, 12, 21}));
  EXPECT_EQ(r.zf().stats().resets, 1u);
}

TEST(ZfetchOldTest, StridedReaderDetected) {
  Reader r(OldProfile(), 100000, 128 * kKiB);
  for (int64_t i = 0; i < 200; ++i) {
    const int64_t b = 4 * i;
    if (i >= 3) {
      EXPECT_TRUE(r.Cached(b)) << b;  // prefetched from the third access on
    }
    r.Read(b);
  }
  // Only the blocks of the stride were prefetched, and well ahead.
  for (int64_t x = 0; x < r.Front(); ++x) {
    if (x % 4 != 0) {
      EXPECT_FALSE(r.Cached(x)) << x;
    }
  }
  EXPECT_GT(r.Front(), 4 * 200 + 100);
  EXPECT_EQ(r.zf().stats().resets, 0u);
  EXPECT_EQ(r.zf().num_streams(), 1u);  // the two sequential streams merged
}

TEST(ZfetchOldTest, BackwardReaderPrefetched) {
  Reader r(OldProfile(), 100000, 128 * kKiB);
  int64_t prefetched_reads = 0;
  for (int64_t b = 5000; b > 4000; --b) {
    prefetched_reads += r.Cached(b);
    r.Read(b);
  }
  EXPECT_GE(prefetched_reads, 995);
  EXPECT_EQ(r.zf().stats().resets, 0u);
  for (int64_t x = 3744; x < 4000; ++x) EXPECT_TRUE(r.Cached(x)) << x;  // ahead, downwards
}

TEST(ZfetchOldTest, NeverPastTheEndOfTheFile) {
  Reader r(OldProfile(), 300, 128 * kKiB);
  for (int64_t b = 0; b < 300; ++b) r.Read(b);  // Read() checks every block
  EXPECT_EQ(r.Front(), 300);
}

TEST(ZfetchOldTest, StreamLimitAndReclaim) {
  // 1000 blocks: at most min(8, 999 / 256) = 3 streams.
  // (Unevenly spaced: equally spaced ones would merge into a strided stream.)
  Reader r(OldProfile(), 1000, 128 * kKiB);
  for (int64_t b : {100, 350, 520, 710, 930}) r.Read(b);
  EXPECT_EQ(r.zf().num_streams(), 3u);
  // Idle "> 2" whole seconds: at 2.9 s nothing is reclaimed; at 3 s one is.
  r.Advance(2900 * kNsPerMs);
  r.Read(50);
  EXPECT_EQ(r.zf().num_streams(), 3u);
  r.Read(711);  // no stream for 710 was created: nothing to continue
  EXPECT_EQ(r.last().size(), 0u);
  r.Advance(100 * kNsPerMs);
  r.Read(150);
  EXPECT_EQ(r.zf().num_streams(), 3u);
  r.Read(151);  // the reclaimed slot now follows 150
  EXPECT_GT(r.last().size(), 0u);
}

// ---------------------------------------------------------------- 2015 era

// Lead (prefetch front minus end of access) after each read of a reader doing
// `n` blocks per call from block `start`.
std::vector<int64_t> Leads(Reader* r, int64_t start, int64_t n, int reads) {
  std::vector<int64_t> lead;
  for (int i = 0; i < reads; ++i) {
    const int64_t b = start + i * n;
    r->Read(b, n);
    lead.push_back(r->Front() - (b + n));
  }
  return lead;
}

TEST(Zfetch2015Test, LeadDoublesTo8MiBThenOneBlockPerRead128K) {
  Reader r(Zol07Profile(), 100000, 128 * kKiB);
  r.Read(0);  // ignored (first block)
  r.Read(1);  // creates the stream
  EXPECT_EQ(r.Front(), 2);
  EXPECT_EQ(Leads(&r, 2, 1, 7), (std::vector<int64_t>{1, 2, 4, 8, 16, 32, 64}));
  for (int64_t b = 9; b < 2000; ++b) {
    EXPECT_TRUE(r.Cached(b));
    EXPECT_EQ(r.Read(b), 1) << b;
    EXPECT_EQ(r.Front() - (b + 1), 64);
  }
  EXPECT_EQ(r.zf().num_streams(), 1u);
}

TEST(Zfetch2015Test, LeadDoublesTo8MiBThenOneBlockPerRead1M) {
  Reader r(Zol07Profile(), 10000, kMiB);
  r.Read(0);
  r.Read(1);
  EXPECT_EQ(Leads(&r, 2, 1, 4), (std::vector<int64_t>{1, 2, 4, 8}));
  for (int64_t b = 6; b < 1000; ++b) {
    EXPECT_EQ(r.Read(b), 1) << b;
    EXPECT_EQ(r.Front() - (b + 1), 8);
  }
}

TEST(Zfetch2015Test, MisalignedOneMiBReaderNeedsMisalignedHit) {
  // 1 MiB reads at 64 KiB + i MiB over 128 KiB records: 9 blocks each, the
  // first overlapping the last of the previous read.
  for (bool hit : {false, true}) {
    Reader r(Zol07Profile({{"ziosim_zfetch_misaligned_hit", hit ? "true" : "false"}}), 100000, 128 * kKiB);
    int64_t data = 0;
    for (int64_t i = 0; i < 200; ++i) data += r.Read(8 * i, 9, kMiB);
    if (hit) {
      EXPECT_GT(data, 1500) << "misaligned_hit";
      EXPECT_EQ(r.Front() - 1601, 64);
    } else {
      EXPECT_EQ(data, 0);
      EXPECT_EQ(r.zf().num_streams(), 8u);  // the slots fill with dead streams
      EXPECT_EQ(r.zf().stats().stream_hits, 0u);
    }
  }
}

TEST(Zfetch2015Test, OneMiBChunksNeedInclusiveArrayRdSz) {
  Reader strict(Zol07Profile({{"ziosim_zfetch_rd_sz_inclusive", "false"}}), 100000, 128 * kKiB);
  for (int64_t i = 0; i < 100; ++i) EXPECT_EQ(strict.Read(8 * i, 8, kMiB), 0);
  EXPECT_EQ(strict.zf().num_streams(), 0u);
  // 512 KiB chunks are shorter than 1 MiB: prefetched either way.
  Reader half(Zol07Profile({{"ziosim_zfetch_rd_sz_inclusive", "false"}}), 100000, 128 * kKiB);
  for (int64_t i = 0; i < 100; ++i) half.Read(4 * i, 4, 512 * kKiB);
  EXPECT_EQ(half.Front() - 400, 64);

  Reader incl(Zol07Profile({{"ziosim_zfetch_rd_sz_inclusive", "true"}}), 100000, 128 * kKiB);
  // Chunk 0 is ignored, chunk 1 creates the stream; then lead 8, 16, 32, 64.
  incl.Read(0, 8, kMiB);
  incl.Read(8, 8, kMiB);
  EXPECT_EQ(Leads(&incl, 16, 8, 5), (std::vector<int64_t>{8, 16, 32, 64, 64}));
}

TEST(Zfetch2015Test, IndirectPrefetchReaches64MiBBeyondTheReader) {
  // 128 KiB records, 1024 pointers per L1 (128 MiB of data each); the L1 front
  // is at most zfetch_max_idistance = 64 MiB = 512 blocks past the end of the
  // access, so L1 k (data blocks from 1024 k) is requested when the reader
  // comes within 512 blocks of it.
  Reader r(Zol07Profile(), 8192, 128 * kKiB);
  std::vector<int64_t> first_read_for_l1(8, -1);
  for (int64_t b = 0; b < 8192; ++b) {
    const size_t before = r.l1().size();
    r.Read(b);
    for (size_t i = before; i < r.l1().size(); ++i) {
      ASSERT_EQ(first_read_for_l1[r.l1()[i]], -1) << "L1 requested twice";
      first_read_for_l1[r.l1()[i]] = b;
    }
  }
  EXPECT_EQ(first_read_for_l1[0], -1);  // read by the demand path
  for (int k = 1; k < 8; ++k) EXPECT_EQ(first_read_for_l1[k], 1024 * k - 512) << k;
  EXPECT_EQ(r.zf().stats().indirect_prefetched, 7u);

  Reader none(Zol07Profile({{"zfetch_max_idistance", "0"}}), 8192, 128 * kKiB);
  for (int64_t b = 0; b < 8192; ++b) none.Read(b);
  EXPECT_TRUE(none.l1().empty());
}

TEST(Zfetch2015Test, MetadataOnlyPrefetchesIndirects) {
  Reader r(Zol07Profile(), 8192, 128 * kKiB, 1024, /*fetch_data=*/false);
  int64_t data = 0;
  for (int64_t b = 0; b < 4096; ++b) data += r.Read(b);
  EXPECT_EQ(data, 0);
  EXPECT_EQ(r.MaxL1(), 4);  // (4096 + 512) / 1024 rounded up, minus 1
}

TEST(Zfetch2015Test, AfterMissCachedFileGetsNoDataPrefetch) {
  Reader r(Zol07Profile({{"ziosim_zfetch_after_miss", "true"}}), 100000, 128 * kKiB);
  r.Fill(0, 1000);
  int64_t data = 0;
  for (int64_t b = 0; b < 1000; ++b) data += r.Read(b);
  EXPECT_EQ(data, 0);
  // The first miss releases the planned 8 MiB lead at once.
  EXPECT_EQ(r.Read(1000), 64);
  EXPECT_EQ(r.Front(), 1001 + 64);
  // Without the switch (pre-2.1) a cached re-read still prefetches past it.
  Reader old(Zol07Profile(), 100000, 128 * kKiB);
  old.Fill(0, 1000);
  for (int64_t b = 0; b < 1000; ++b) old.Read(b);
  EXPECT_EQ(old.Front(), 1000 + 64);
}

TEST(Zfetch2015Test, StreamLimitAndReaping) {
  // 3 * 8 MiB of 128 KiB blocks: at most maxblkid * 128K / 8M = 2 streams.
  Reader r(Zol07Profile(), 3 * 64, 128 * kKiB);
  for (int64_t b : {10, 60, 110, 160}) r.Read(b);
  EXPECT_EQ(r.zf().num_streams(), 2u);
  EXPECT_EQ(r.zf().stats().stream_misses, 4u);
  // A hit keeps the stream at 11 alive.
  r.Read(11);
  EXPECT_EQ(r.zf().stats().stream_hits, 1u);
  r.Advance(2999 * kNsPerMs);
  r.Read(120);  // idle 2.999 s: not "> 2" whole seconds, no room
  EXPECT_EQ(r.zf().num_streams(), 2u);
  r.Read(121);
  EXPECT_EQ(r.zf().stats().stream_hits, 1u);
  r.Advance(1 * kNsPerMs);
  r.Read(130);  // 3 s: both reaped, one created
  EXPECT_EQ(r.zf().num_streams(), 1u);
  r.Read(131);
  EXPECT_EQ(r.zf().stats().stream_hits, 2u);
}

TEST(Zfetch2015Test, AfterMissDeletesStreamAtEndOfFile) {
  Reader r(Zol07Profile({{"ziosim_zfetch_after_miss", "true"}}), 100, 128 * kKiB);
  for (int64_t b = 0; b < 100; ++b) r.Read(b);
  EXPECT_EQ(r.zf().num_streams(), 0u);
  EXPECT_EQ(r.Front(), 100);
}

// ---------------------------------------------------------------- 2022 era

TEST(Zfetch2022Test, DistanceDoublesTo4MiBThenGrowsByAnEighthPerLatePrefetch) {
  Reader r(Openzfs22Profile(), 1000000, 128 * kKiB);
  r.Read(0);
  r.Read(1);
  // 128 KiB, 256 KiB ... 4 MiB = zfetch_min_distance.
  EXPECT_EQ(Leads(&r, 2, 1, 6), (std::vector<int64_t>{1, 2, 4, 8, 16, 32}));
  // No late prefetch: it stays at 4 MiB, one block per read.
  int64_t b = 8;
  for (; b < 100; ++b) {
    EXPECT_EQ(r.Read(b), 1);
    EXPECT_EQ(r.Front() - (b + 1), 32);
  }
  // A late prefetch before each read: +1/8 per hit up to 64 MiB.
  int64_t dist = 4 * kMiB;
  int steps = 0;
  while (dist < 64 * kMiB) {
    r.zf().LatePrefetch(b - 1);
    r.zf().LatePrefetch(b - 2);  // several late blocks count once per hit
    dist = std::min(dist + dist / 8, 64 * kMiB);
    r.Read(b);
    EXPECT_EQ(r.Front() - (b + 1), dist / (128 * kKiB)) << "step " << steps;
    ++b;
    ++steps;
  }
  EXPECT_EQ(steps, 24);
  r.zf().LatePrefetch(b - 1);
  r.Read(b);
  EXPECT_EQ(r.Front() - (b + 1), 512);  // capped at zfetch_max_distance
}

TEST(Zfetch2022Test, IndirectsReach64MiBBeyondTheDataFront) {
  Reader r(Openzfs22Profile(), 8192, 128 * kKiB);
  std::vector<int64_t> first_read_for_l1(8, -1);
  for (int64_t b = 0; b < 8192; ++b) {
    const size_t before = r.l1().size();
    r.Read(b);
    for (size_t i = before; i < r.l1().size(); ++i) {
      ASSERT_EQ(first_read_for_l1[r.l1()[i]], -1);
      first_read_for_l1[r.l1()[i]] = b;
    }
  }
  // Data front = end of access + 32 blocks (4 MiB), L1 front 512 blocks beyond.
  for (int k = 1; k < 8; ++k) EXPECT_EQ(first_read_for_l1[k], 1024 * k - 512 - 32) << k;
}

TEST(Zfetch2022Test, AfterMissCachedFileGetsNoDataPrefetch) {
  Reader r(Openzfs22Profile(), 100000, 128 * kKiB);
  r.Fill(0, 1000);
  int64_t data = 0;
  for (int64_t b = 0; b < 1000; ++b) data += r.Read(b);
  EXPECT_EQ(data, 0);
  EXPECT_EQ(r.zf().stats().blocks_prefetched, 0u);
  EXPECT_EQ(r.Read(1000), 32);  // the distance had grown meanwhile
}

TEST(Zfetch2022Test, StreamsWithoutHitsReusableAtOnceOthersAfterMinReap) {
  // 100000 blocks of 128 KiB: 12.5 GB / 64 MiB -> zfetch_max_streams = 8.
  Reader r(Openzfs22Profile(), 100000, 128 * kKiB);
  for (int64_t b = 1000; b < 1010; ++b) r.Read(b);  // a stream with hits
  EXPECT_EQ(r.zf().num_streams(), 1u);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 50; ++i) r.Read(20000 + static_cast<int64_t>(rng() % 70000));
  EXPECT_EQ(r.zf().num_streams(), 8u);
  // The random ones were recycled; the sequential one survived.
  EXPECT_EQ(r.Read(1010), 1);
  // Idle 1 s (zfetch_min_sec_reap) it may be taken.
  r.Advance(kNsPerSec + 1);
  for (int i = 0; i < 8; ++i) r.Read(20000 + static_cast<int64_t>(rng() % 70000));
  const uint64_t hits = r.zf().stats().stream_hits;
  r.Read(1011);
  EXPECT_EQ(r.zf().stats().stream_hits, hits);
  // Idle 2 s (zfetch_max_sec_reap): deleted when a stream is created.
  r.Advance(2 * kNsPerSec);
  r.Read(50000);
  EXPECT_EQ(r.zf().num_streams(), 1u);
}

TEST(Zfetch2022Test, SmallFileHasOneStreamAndDeletesItAtTheEnd) {
  // 100 MiB: 799 * 128K / 64M = 1 stream.
  Reader r(Openzfs22Profile(), 800, 128 * kKiB);
  r.Read(100);
  r.Read(500);
  EXPECT_EQ(r.zf().num_streams(), 1u);
  for (int64_t b = 501; b < 800; ++b) r.Read(b);
  EXPECT_EQ(r.zf().num_streams(), 0u);
}

TEST(Zfetch2022Test, OneMiBRestrictionStillApplies) {
  Reader r(Openzfs22Profile(), 100000, 128 * kKiB);
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(r.Read(16 * i, 16, 2 * kMiB), 0);
  EXPECT_EQ(r.zf().num_streams(), 0u);
  Reader m(Openzfs22Profile(), 100000, 128 * kKiB);
  int64_t data = 0;
  for (int64_t i = 0; i < 50; ++i) data += m.Read(8 * i, 8, kMiB);
  EXPECT_GT(data, 0);
  // 8 blocks: 1 MiB, 2 MiB, 4 MiB, then 4 MiB = 32 blocks ahead.
  EXPECT_EQ(m.Front() - 400, 32);
}

// ---------------------------------------------------------------- all eras

TEST(ZfetchTest, PrefetchDisable) {
  for (const char* era : {"old", "2015", "2022"}) {
    Reader r(Era(era, {{"zfs_prefetch_disable", "true"}}), 100000, 128 * kKiB);
    int64_t total = 0;
    for (int64_t b = 0; b < 1000; ++b) total += r.Read(b);
    EXPECT_EQ(total, 0) << era;
    EXPECT_TRUE(r.l1().empty()) << era;
    EXPECT_EQ(r.zf().stats().accesses, 1000u) << era;
  }
}

TEST(ZfetchTest, RandomReadsCreateStreamsButPrefetchLittle) {
  for (const char* era : {"old", "2015", "2022"}) {
    Tunables t = std::string(era) == "old" ? OldProfile() : std::string(era) == "2015" ? Zol07Profile() : Era(era);
    Reader r(t, 1000000, 128 * kKiB);
    std::mt19937_64 rng(42);
    int64_t data = 0;
    for (int i = 0; i < 10000; ++i) {
      data += r.Read(static_cast<int64_t>(rng() % 1000000));
      r.Advance(kNsPerMs);
    }
    EXPECT_LT(data, 50) << era;
    EXPECT_GT(r.zf().stats().stream_misses, 9000u) << era;
    EXPECT_LE(r.zf().num_streams(), 8u) << era;
    EXPECT_GE(r.zf().num_streams(), 1u) << era;
  }
}

TEST(ZfetchTest, ConfigFromTunables) {
  ZfetchConfig c = ZfetchConfig::FromTunables(Zol07Profile(), 10, 4096, 128, true);
  EXPECT_EQ(c.max_distance, 8 * kMiB);
  EXPECT_EQ(c.min_sec_reap, 2);
  EXPECT_FALSE(c.after_miss);
  EXPECT_FALSE(c.misaligned_hit);
  EXPECT_EQ(c.array_rd_sz, kMiB);
  EXPECT_TRUE(c.ChunkQualifies(kMiB, true));
  EXPECT_FALSE(c.ChunkQualifies(kMiB, false));
  ZfetchConfig d = ZfetchConfig::FromTunables(Tunables(), 10, 4096, 128, true);
  EXPECT_EQ(d.max_distance, 64 * kMiB);
  EXPECT_EQ(d.min_distance, 4 * kMiB);
  EXPECT_EQ(d.min_sec_reap, 1);
  EXPECT_EQ(d.max_sec_reap, 2);
}

}  // namespace
}  // namespace ziosim
