#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "sim/core/bytes.h"
#include "sim/core/status.h"

namespace ziosim {
namespace mirror_policy_test {

constexpr int64_t kLabel = 4 * kMiB;  // VDEV_LABEL_START_SIZE: the issue era's offsets include it

Tunables Era(std::string_view last_offset) {
  Tunables t;
  t.Set("mirror_last_offset", last_offset, "test");
  return t;
}

std::unique_ptr<MirrorPolicy> Make(std::string_view name, const Tunables& t = Tunables()) {
  return MakeMirrorPolicy(name, t);
}

MirrorChildState Hdd(int in_device = 0, int64_t last = -1) {
  return MirrorChildState{.rotational = true, .in_device = in_device, .last_offset = last};
}
MirrorChildState Ssd(int in_device = 0, int64_t last = -1) {
  return MirrorChildState{.rotational = false, .in_device = in_device, .last_offset = last};
}
MirrorChildState Faulted(MirrorChildState c = Hdd()) {
  c.readable = false;
  return c;
}

// A read whose offset is the same in both spaces (tests that do not care about the label).
MirrorRead Read(int64_t mirror_offset, SimTime now_ns = 0) {
  return MirrorRead{.offset = mirror_offset, .size = 128 * kKiB, .mirror_offset = mirror_offset,
                    .now_ns = now_ns};
}

int Choose(MirrorPolicy& p, std::vector<MirrorChildState> children, const MirrorRead& io) {
  return p.Choose(children, io);
}

// The load load_locality gives `probe` for a read at `off`, found by racing it
// against an SSD that continues exactly where it stopped (penalty
// non_rotating_inc = 0) with 0, 1, 2, ... I/Os in the device. The read's
// mirror offset (2 MiB) sends ties to the rival (set[1]), so the probe first
// wins when the rival's load is its own load + 1.
int64_t InferredLoad(MirrorPolicy& p, const MirrorChildState& probe, int64_t off) {
  MirrorRead io{.offset = off, .size = 128 * kKiB, .mirror_offset = 2 * kMiB};
  for (int rival_load = 0; rival_load <= 50; ++rival_load) {
    if (Choose(p, {probe, Ssd(rival_load, off)}, io) == 0) return rival_load - 1;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------
// rotor

TEST(RotorPolicy, TwoWayMirrorReadsTwoMiBStripesInTurn) {
  auto p = Make("rotor");
  const std::vector<MirrorChildState> two = {Hdd(), Hdd()};
  EXPECT_EQ(Choose(*p, two, Read(0)), 0);
  EXPECT_EQ(Choose(*p, two, Read(2 * kMiB - 1)), 0);
  EXPECT_EQ(Choose(*p, two, Read(2 * kMiB)), 1);
  EXPECT_EQ(Choose(*p, two, Read(4 * kMiB)), 0);
  EXPECT_EQ(Choose(*p, two, Read(6 * kMiB + 512 * kKiB)), 1);
}

TEST(RotorPolicy, ThreeWayMirrorCycles) {
  auto p = Make("rotor");
  const std::vector<MirrorChildState> three = {Hdd(), Hdd(), Hdd()};
  for (int stripe = 0; stripe < 9; ++stripe) {
    EXPECT_EQ(Choose(*p, three, Read(stripe * 2 * kMiB)), stripe % 3) << "stripe " << stripe;
  }
}

TEST(RotorPolicy, IgnoresLoadAndLocality) {
  auto p = Make("rotor");
  // Child 0 is swamped and child 1 continues exactly where the read starts: the rotor does not care.
  EXPECT_EQ(Choose(*p, {Hdd(10, 5 * kMiB), Hdd(0, 0)}, Read(0)), 0);
}

TEST(RotorPolicy, SkipsFaultedChildWalkingForward) {
  auto p = Make("rotor");
  EXPECT_EQ(Choose(*p, {Hdd(), Faulted()}, Read(2 * kMiB)), 0);
  EXPECT_EQ(Choose(*p, {Faulted(), Hdd()}, Read(0)), 1);
  // Preferred child 1 is faulted: the walk goes on to 2, not back to 0.
  EXPECT_EQ(Choose(*p, {Hdd(), Faulted(), Hdd()}, Read(2 * kMiB)), 2);
  // Preferred child 2 is faulted: the walk wraps to 0.
  EXPECT_EQ(Choose(*p, {Hdd(), Hdd(), Faulted()}, Read(4 * kMiB)), 0);
}

TEST(RotorPolicy, HonoursVdevMirrorShift) {
  Tunables t;
  t.Set("vdev_mirror_shift", "17", "test");  // 128 KiB stripes
  auto p = Make("rotor", t);
  EXPECT_EQ(Choose(*p, {Hdd(), Hdd()}, Read(0)), 0);
  EXPECT_EQ(Choose(*p, {Hdd(), Hdd()}, Read(128 * kKiB)), 1);
  EXPECT_EQ(Choose(*p, {Hdd(), Hdd()}, Read(256 * kKiB)), 0);
}

// ---------------------------------------------------------------------------------------------
// least_pending

TEST(LeastPendingPolicy, PicksFewestInDevice) {
  auto p = Make("least_pending");
  EXPECT_EQ(Choose(*p, {Hdd(3), Hdd(1)}, Read(0)), 1);
  EXPECT_EQ(Choose(*p, {Hdd(0), Hdd(1)}, Read(2 * kMiB)), 0);
  EXPECT_EQ(Choose(*p, {Hdd(4), Hdd(7), Hdd(2)}, Read(0)), 2);
}

TEST(LeastPendingPolicy, IgnoresQueuedIosAndLocality) {
  auto p = Make("least_pending");
  MirrorChildState busy_queue = Hdd(1, 0);
  busy_queue.queued = 100;
  EXPECT_EQ(Choose(*p, {Hdd(2, 0), busy_queue}, Read(0)), 1);
}

TEST(LeastPendingPolicy, TiesBrokenByTenMillisecondWindow) {
  auto p = Make("least_pending");
  const std::vector<MirrorChildState> tied = {Hdd(3), Hdd(3)};
  EXPECT_EQ(Choose(*p, tied, Read(0, /*now_ns=*/0)), 0);
  EXPECT_EQ(Choose(*p, tied, Read(0, 9'999'999)), 0);   // still window 0
  EXPECT_EQ(Choose(*p, tied, Read(0, 10'000'000)), 1);  // window 1
  EXPECT_EQ(Choose(*p, tied, Read(0, 25'000'000)), 0);  // window 2
  // The offset plays no part.
  EXPECT_EQ(Choose(*p, tied, Read(2 * kMiB, 0)), 0);
}

TEST(LeastPendingPolicy, WindowIndexesOnlyTheTiedChildren) {
  auto p = Make("least_pending");
  // Lowest = 2 on children 1 and 3; window w picks the (w mod 2)-th of them.
  const std::vector<MirrorChildState> kids = {Hdd(5), Hdd(2), Hdd(4), Hdd(2)};
  EXPECT_EQ(Choose(*p, kids, Read(0, 0)), 1);
  EXPECT_EQ(Choose(*p, kids, Read(0, 10'000'000)), 3);
  EXPECT_EQ(Choose(*p, kids, Read(0, 20'000'000)), 1);
}

TEST(LeastPendingPolicy, FaultedChildCountsAsInfinitelyBusy) {
  auto p = Make("least_pending");
  EXPECT_EQ(Choose(*p, {Faulted(Hdd(0)), Hdd(3)}, Read(0)), 1);
  const std::vector<MirrorChildState> kids = {Faulted(Hdd(0)), Hdd(3), Hdd(3)};
  EXPECT_EQ(Choose(*p, kids, Read(0, 0)), 1);
  EXPECT_EQ(Choose(*p, kids, Read(0, 10'000'000)), 2);
}

TEST(LeastPendingPolicy, HonoursSwitchUs) {
  Tunables t;
  t.Set("zfs_vdev_mirror_switch_us", "1000", "test");  // 1 ms windows
  auto p = Make("least_pending", t);
  EXPECT_EQ(Choose(*p, {Hdd(), Hdd()}, Read(0, 999'999)), 0);
  EXPECT_EQ(Choose(*p, {Hdd(), Hdd()}, Read(0, 1'000'000)), 1);
}

TEST(LeastPendingPolicy, RejectsZeroSwitchUs) {
  EXPECT_THROW(
      {
        Tunables t;
        t.Set("zfs_vdev_mirror_switch_us", "0", "test");
        Make("least_pending", t);
      },
      InputError);
}

// ---------------------------------------------------------------------------------------------
// load_locality: penalties

TEST(LoadLocalityPolicy, HddPenaltiesSelectionEra) {
  auto p = Make("load_locality", Era("selection"));
  const int64_t last = 100 * kMiB;
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last), 0);                     // exactly sequential
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last - 64 * kKiB), 2);         // 64 KiB behind: near
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last - (kMiB - 1)), 2);        // just within 1 MiB
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last - kMiB), 5);              // 1 MiB behind: far
  // The unsigned-distance bug: a forward skip of any size is "far".
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + 64 * kKiB), 5);
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + 512), 5);
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + 10 * kMiB), 5);
  EXPECT_EQ(InferredLoad(*p, Hdd(3, last), last), 3);                     // + in-device I/Os
  EXPECT_EQ(InferredLoad(*p, Hdd(3, last), last + 64 * kKiB), 8);
}

TEST(LoadLocalityPolicy, HddPenaltiesIssueEra) {
  auto p = Make("load_locality", Era("issue"));
  const int64_t last = kLabel + 100 * kMiB;
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last), 0);
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + 64 * kKiB), 2);         // forward skip: near
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last - 64 * kKiB), 2);         // backward skip: near
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + (kMiB - 1)), 2);
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + kMiB), 5);
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last - kMiB), 5);
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + 10 * kMiB), 5);
  EXPECT_EQ(InferredLoad(*p, Hdd(2, last), last + 64 * kKiB), 4);
}

TEST(LoadLocalityPolicy, ForwardSkipDiffersBetweenErasBackwardSkipDoesNot) {
  auto selection = Make("load_locality", Era("selection"));
  auto issue = Make("load_locality", Era("issue"));
  const int64_t last = 50 * kMiB;
  EXPECT_EQ(InferredLoad(*selection, Hdd(0, last), last + 64 * kKiB), 5);
  EXPECT_EQ(InferredLoad(*issue, Hdd(0, last), last + 64 * kKiB), 2);
  EXPECT_EQ(InferredLoad(*selection, Hdd(0, last), last - 64 * kKiB), 2);
  EXPECT_EQ(InferredLoad(*issue, Hdd(0, last), last - 64 * kKiB), 2);

  // Seen as a choice: child 0 skipped 64 KiB forward with 3 I/Os in the device, child 1 sits idle far
  // away. Selection era: 3+5 = 8 vs 0+5 = 5 -> child 1. Issue era: 3+2 = 5 vs 5 -> tie, hash decides.
  const std::vector<MirrorChildState> kids = {Hdd(3, last), Hdd(0, 900 * kMiB)};
  MirrorRead io = Read(last + 64 * kKiB);
  EXPECT_EQ(Choose(*selection, kids, io), 1);
  // Child 0 with 2 in the device: issue era 2+2 = 4 < 5 -> child 0; selection era 7 > 5 -> child 1.
  const std::vector<MirrorChildState> kids2 = {Hdd(2, last), Hdd(0, 900 * kMiB)};
  EXPECT_EQ(Choose(*issue, kids2, io), 0);
  EXPECT_EQ(Choose(*selection, kids2, io), 1);
}

TEST(LoadLocalityPolicy, SsdPenalties) {
  for (std::string_view era : {"selection", "issue"}) {
    SCOPED_TRACE(era);
    auto p = Make("load_locality", Era(era));
    const int64_t last = 100 * kMiB;
    EXPECT_EQ(InferredLoad(*p, Ssd(0, last), last), 0);
    EXPECT_EQ(InferredLoad(*p, Ssd(0, last), last + 64 * kKiB), 1);  // no near tier on SSDs
    EXPECT_EQ(InferredLoad(*p, Ssd(0, last), last - 64 * kKiB), 1);
    EXPECT_EQ(InferredLoad(*p, Ssd(0, last), last + 10 * kMiB), 1);
    EXPECT_EQ(InferredLoad(*p, Ssd(0, -1), last), 1);
    EXPECT_EQ(InferredLoad(*p, Ssd(4, last), last + 10 * kMiB), 5);
  }
}

TEST(LoadLocalityPolicy, ChildWithNoLastOffsetPaysFullSeek) {
  for (std::string_view era : {"selection", "issue"}) {
    SCOPED_TRACE(era);
    auto p = Make("load_locality", Era(era));
    EXPECT_EQ(InferredLoad(*p, Hdd(0, -1), 0), 5);
    EXPECT_EQ(InferredLoad(*p, Hdd(0, -1), 512 * kKiB), 5);
    EXPECT_EQ(InferredLoad(*p, Hdd(0, -1), kLabel), 5);
    // 0 is an ordinary offset (OpenZFS's initial value): a read at 0 continues it exactly.
    EXPECT_EQ(InferredLoad(*p, Hdd(0, 0), 0), 0);
  }
  // Issue era, OpenZFS's initial last of 0 against a labelled offset: far, as with -1.
  auto issue = Make("load_locality", Era("issue"));
  EXPECT_EQ(InferredLoad(*issue, Hdd(0, 0), kLabel), 5);
  // Selection era, last of 0: nothing after it is near (unsigned distance).
  auto selection = Make("load_locality", Era("selection"));
  EXPECT_EQ(InferredLoad(*selection, Hdd(0, 0), 128 * kKiB), 5);
}

TEST(LoadLocalityPolicy, RandomReadsFavourSsdOverHdd) {
  auto p = Make("load_locality", Era("issue"));
  const MirrorRead io = Read(kLabel + 700 * kMiB);
  // HDD 0+5 vs SSD 0+1.
  EXPECT_EQ(Choose(*p, {Hdd(0, kLabel + 10 * kMiB), Ssd(0, kLabel + 300 * kMiB)}, io), 1);
  // The SSD keeps winning until it holds 4 more I/Os (4+1 = 0+5: tie) ...
  EXPECT_EQ(Choose(*p, {Hdd(0, kLabel), Ssd(3, kLabel)}, io), 1);
  // ... and loses at 5 more.
  EXPECT_EQ(Choose(*p, {Hdd(0, kLabel), Ssd(5, kLabel)}, io), 0);
}

TEST(LoadLocalityPolicy, HonoursItsTunables) {
  Tunables t = Era("issue");
  t.Set("zfs_vdev_mirror_rotating_inc", "1", "test");
  t.Set("zfs_vdev_mirror_rotating_seek_inc", "9", "test");
  t.Set("zfs_vdev_mirror_rotating_seek_offset", "131072", "test");
  auto p = Make("load_locality", t);
  const int64_t last = 100 * kMiB;
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last), 1);
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + 64 * kKiB), 4);  // 9 / 2
  EXPECT_EQ(InferredLoad(*p, Hdd(0, last), last + 128 * kKiB), 9);

  Tunables s = Era("issue");
  s.Set("zfs_vdev_mirror_non_rotating_seek_inc", "3", "test");
  auto q = Make("load_locality", s);
  EXPECT_EQ(InferredLoad(*q, Ssd(0, last), last + 64 * kKiB), 3);
}

// ---------------------------------------------------------------------------------------------
// load_locality: choices

TEST(LoadLocalityPolicy, SequentialStreamSticksUntilFiveMoreInDevice) {
  for (std::string_view era : {"selection", "issue"}) {
    SCOPED_TRACE(era);
    auto p = Make("load_locality", Era(era));
    const int64_t off = 300 * kMiB;
    // Child 1 continues the stream (+0); child 0 is far away (+5) and idle.
    for (int active = 0; active <= 4; ++active) {
      EXPECT_EQ(Choose(*p, {Hdd(0, 10 * kMiB), Hdd(active, off)}, Read(off)), 1) << active;
    }
    // 5 more: tie (5 vs 5), the 2 MiB hash decides: 300 MiB is region 150 -> set[0] = child 0.
    EXPECT_EQ(Choose(*p, {Hdd(0, 10 * kMiB), Hdd(5, off)}, Read(off)), 0);
    // The same tie in the next region (151) goes to set[1] = child 1.
    EXPECT_EQ(Choose(*p, {Hdd(0, 10 * kMiB), Hdd(5, off + 2 * kMiB)}, Read(off + 2 * kMiB)), 1);
    // 6 more: the other child wins outright.
    EXPECT_EQ(Choose(*p, {Hdd(0, 10 * kMiB), Hdd(6, off + 2 * kMiB)}, Read(off + 2 * kMiB)), 0);
  }
}

TEST(LoadLocalityPolicy, TiesBrokenByTwoMiBRegionHash) {
  auto p = Make("load_locality", Era("issue"));
  const std::vector<MirrorChildState> two = {Hdd(1), Hdd(1)};
  EXPECT_EQ(Choose(*p, two, Read(0)), 0);
  EXPECT_EQ(Choose(*p, two, Read(2 * kMiB - 1)), 0);
  EXPECT_EQ(Choose(*p, two, Read(2 * kMiB)), 1);
  EXPECT_EQ(Choose(*p, two, Read(4 * kMiB)), 0);
  // The tie set is the minimum-load children in index order: {0, 2} here.
  const std::vector<MirrorChildState> three = {Hdd(1), Hdd(2), Hdd(1)};
  EXPECT_EQ(Choose(*p, three, Read(0)), 0);
  EXPECT_EQ(Choose(*p, three, Read(2 * kMiB)), 2);
  EXPECT_EQ(Choose(*p, three, Read(4 * kMiB)), 0);
  // Three-way tie cycles through all three.
  const std::vector<MirrorChildState> all = {Ssd(), Ssd(), Ssd()};
  EXPECT_EQ(Choose(*p, all, Read(4 * kMiB)), 2);
  EXPECT_EQ(Choose(*p, all, Read(6 * kMiB)), 0);
  // The hash uses the mirror-space offset, not the (labelled) offset the penalty uses.
  MirrorRead io{.offset = kLabel + 2 * kMiB, .size = 4096, .mirror_offset = 2 * kMiB};
  EXPECT_EQ(Choose(*p, two, io), 1);
  io.offset = kLabel;  // region 2 of the label-shifted offset, region 0 of the mirror offset
  io.mirror_offset = 0;
  EXPECT_EQ(Choose(*p, two, io), 0);
}

TEST(LoadLocalityPolicy, NeverChoosesFaultedChild) {
  auto p = Make("load_locality", Era("issue"));
  const int64_t off = 64 * kMiB;
  // The faulted child would win on every count.
  EXPECT_EQ(Choose(*p, {Faulted(Hdd(0, off)), Hdd(9)}, Read(off)), 1);
  // A faulted child is not in the tie set either: the set is {1, 2}.
  const std::vector<MirrorChildState> kids = {Faulted(Hdd(0)), Hdd(0), Hdd(0)};
  EXPECT_EQ(Choose(*p, kids, Read(0)), 1);
  EXPECT_EQ(Choose(*p, kids, Read(2 * kMiB)), 2);
}

TEST(LoadLocalityPolicy, RejectsUnknownEra) {
  EXPECT_THROW(
      {
        Tunables t;
        t.Set("mirror_last_offset", "completion", "test");
        Make("load_locality", t);
      },
      InputError);
}

// A single sequential reader of 128 KiB blocks on a 2-way HDD mirror (the worked
// example of the reference, section 1.4). Each child's in-device count rises by
// one per block assigned to it, up to 4 (3 async prefetch slots + 1 demand
// read). Selection era: a child's last = end of the last block the mirror gave
// it. Issue era: a block only moves last when issued, and each child's three
// newest blocks are still waiting in its queue (last lags 3 blocks; -1 until a
// block of that child has been issued); offsets carry the 4 MiB label.
std::vector<int> SequentialStream(std::string_view era, int blocks) {
  auto p = Make("load_locality", Era(era));
  const bool issue = era == "issue";
  const int64_t block = 128 * kKiB;
  std::vector<std::vector<int64_t>> assigned_ends(2);  // in the policy's space
  std::vector<int> chosen;
  for (int k = 0; k < blocks; ++k) {
    const int64_t mirror_offset = k * block;
    const int64_t off = issue ? mirror_offset + kLabel : mirror_offset;
    std::vector<MirrorChildState> kids(2);
    for (int c = 0; c < 2; ++c) {
      const auto& ends = assigned_ends[c];
      const int n = static_cast<int>(ends.size());
      kids[c].in_device = std::min(n, 4);
      if (!issue) {
        kids[c].last_offset = n > 0 ? ends.back() : -1;
      } else {
        kids[c].last_offset = n > 3 ? ends[n - 4] : -1;
      }
    }
    MirrorRead io{.offset = off, .size = block, .mirror_offset = mirror_offset,
                  .priority = ZioPriority::kAsyncRead};
    const int c = p->Choose(kids, io);
    chosen.push_back(c);
    assigned_ends[c].push_back(off + block);
  }
  return chosen;
}

TEST(LoadLocalityPolicy, SequentialStreamSelectionEraStaysOnOneChild) {
  const std::vector<int> chosen = SequentialStream("selection", 128);  // 16 MiB, 8 hash regions
  EXPECT_EQ(std::count(chosen.begin(), chosen.end(), 0), 128);
}

TEST(LoadLocalityPolicy, SequentialStreamIssueEraSpillsToSecondChild) {
  const std::vector<int> chosen = SequentialStream("issue", 128);
  const auto on_child1 = std::count(chosen.begin(), chosen.end(), 1);
  EXPECT_GT(on_child1, 0);
  EXPECT_LT(on_child1, 128);
  EXPECT_EQ(chosen[0], 0);  // idle tie, region 0
  EXPECT_EQ(chosen[1], 1);  // child 0: 1 in device + 5 (nothing issued yet) > child 1: 0 + 5
}

// ---------------------------------------------------------------------------------------------
// All built-ins: never an unreadable child, and the same answer for the same question.

TEST(MirrorPolicies, BuiltinsNeverChooseUnreadableAndAreDeterministic) {
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  auto next = [&seed](uint64_t n) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % n;
  };
  for (const char* name : {"rotor", "least_pending", "load_locality"}) {
    for (std::string_view era : {"selection", "issue"}) {
      auto p = Make(name, Era(era));
      auto twin = Make(name, Era(era));
      for (int trial = 0; trial < 2000; ++trial) {
        const int n = 1 + static_cast<int>(next(4));
        std::vector<MirrorChildState> kids(n);
        for (auto& c : kids) {
          c.rotational = next(2) == 0;
          c.readable = next(3) != 0;
          c.in_device = static_cast<int>(next(6));
          c.last_offset = next(4) == 0 ? -1 : static_cast<int64_t>(next(64)) * 64 * kKiB;
        }
        kids[next(n)].readable = true;
        MirrorRead io = Read(static_cast<int64_t>(next(64)) * 64 * kKiB,
                             static_cast<SimTime>(next(100'000'000)));
        const int c = p->Choose(kids, io);
        ASSERT_GE(c, 0);
        ASSERT_LT(c, n);
        ASSERT_TRUE(kids[c].readable) << name << " trial " << trial;
        ASSERT_EQ(p->Choose(kids, io), c);
        ASSERT_EQ(twin->Choose(kids, io), c);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// registry

// Reads from the highest-numbered readable child.
class LastReadablePolicy final : public MirrorPolicy {
 public:
  int Choose(std::span<const MirrorChildState> children, const MirrorRead&) override {
    for (int c = static_cast<int>(children.size()) - 1; c >= 0; --c) {
      if (children[c].readable) return c;
    }
    return -1;
  }
};

TEST(MirrorPolicyRegistry, ListsBuiltinsSortedWithDocs) {
  const std::vector<MirrorPolicyInfo> all = MirrorPolicies();
  std::vector<std::string> names;
  for (const auto& info : all) {
    names.push_back(info.name);
    EXPECT_FALSE(info.doc.empty()) << info.name;
    EXPECT_TRUE(static_cast<bool>(info.factory)) << info.name;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const char* builtin : {"least_pending", "load_locality", "rotor"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), builtin), names.end()) << builtin;
  }
  for (const auto& info : all) {
    if (info.name == "rotor") {
      EXPECT_EQ(info.tunables, "vdev_mirror_shift");
    } else if (info.name == "least_pending") {
      EXPECT_EQ(info.tunables, "zfs_vdev_mirror_switch_us");
    } else if (info.name == "load_locality") {
      EXPECT_NE(info.tunables.find("zfs_vdev_mirror_rotating_seek_inc"), std::string::npos);
      EXPECT_NE(info.tunables.find("mirror_last_offset"), std::string::npos);
    }
  }
}

TEST(MirrorPolicyRegistry, UnknownNameNamesTheKnownOnes) {
  try {
    Make("nope");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("unknown mirror policy 'nope' (known: ", 0), 0u) << what;
    EXPECT_EQ(what.back(), ')') << what;
    // The built-ins, among any plugin policies another test of this process
    // registered, in sorted order.
    const size_t from_list = what.find(": ") + 2;
    const std::string list = what.substr(from_list, what.size() - from_list - 1);
    std::vector<std::string> names;
    for (size_t from = 0; from <= list.size();) {
      const size_t comma = std::min(list.find(", ", from), list.size());
      names.push_back(list.substr(from, comma - from));
      from = comma + 2;
    }
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << what;
    for (const char* builtin : {"least_pending", "load_locality", "rotor"}) {
      EXPECT_NE(std::find(names.begin(), names.end(), builtin), names.end()) << builtin << " in " << what;
    }
  }
}

TEST(MirrorPolicyRegistry, AMisspeltNameGetsADidYouMean) {
  try {
    Make("Rotr");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown mirror policy 'Rotr'; did you mean rotor? (known: ", 0), 0u)
        << e.what();
  }
}

TEST(MirrorPolicyRegistry, RegistersAndCreatesCustomPolicy) {
  RegisterMirrorPolicy(MirrorPolicyInfo{
      .name = "test_last_readable",
      .doc = "test: the highest-numbered readable child",
      .tunables = "",
      .factory = [](const Tunables&) -> std::unique_ptr<MirrorPolicy> {
        return std::make_unique<LastReadablePolicy>();
      },
  });
  auto p = Make("test_last_readable");
  EXPECT_EQ(Choose(*p, {Hdd(), Hdd(), Faulted()}, Read(0)), 1);

  const auto all = MirrorPolicies();
  auto it = std::find_if(all.begin(), all.end(), [](const auto& i) { return i.name == "test_last_readable"; });
  ASSERT_NE(it, all.end());
  EXPECT_EQ(it->doc, "test: the highest-numbered readable child");

  // Registering the same name again replaces it.
  RegisterMirrorPolicy(MirrorPolicyInfo{
      .name = "test_last_readable",
      .doc = "replaced",
      .tunables = "",
      .factory = [](const Tunables& t) { return MakeMirrorPolicy("rotor", t); },
  });
  const auto again = MirrorPolicies();
  EXPECT_EQ(std::count_if(again.begin(), again.end(),
                          [](const auto& i) { return i.name == "test_last_readable"; }),
            1);
  EXPECT_EQ(Choose(*Make("test_last_readable"), {Hdd(), Hdd(), Faulted()}, Read(0)), 0);
}

TEST(MirrorPolicyRegistry, RejectsNamelessOrFactorylessPolicies) {
  MirrorPolicyInfo nameless;
  nameless.factory = [](const Tunables& t) { return MakeMirrorPolicy("rotor", t); };
  EXPECT_THROW(RegisterMirrorPolicy(nameless), InputError);
  MirrorPolicyInfo factoryless;
  factoryless.name = "test_no_factory";
  EXPECT_THROW(RegisterMirrorPolicy(factoryless), InputError);
  const auto all = MirrorPolicies();
  EXPECT_EQ(std::count_if(all.begin(), all.end(), [](const auto& i) { return i.name == "test_no_factory"; }),
            0);
}

}  // namespace mirror_policy_test
}  // namespace ziosim
