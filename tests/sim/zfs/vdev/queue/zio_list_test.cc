// SortedZioList against a plain model: a stable-sorted std::vector.
#include "sim/zfs/vdev/queue/zio_list.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace ziosim {
namespace {

struct ModelEntry {
  int64_t k1;
  int64_t k2;
  Zio* zio;
};

void ExpectSame(const SortedZioList& list, const std::vector<ModelEntry>& model) {
  ASSERT_EQ(list.size(), static_cast<int>(model.size()));
  for (int i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list.entry(i).k1, model[static_cast<size_t>(i)].k1);
    EXPECT_EQ(list.entry(i).k2, model[static_cast<size_t>(i)].k2);
    EXPECT_EQ(list.at(i), model[static_cast<size_t>(i)].zio);
  }
}

TEST(SortedZioListTest, MatchesAStableSortedModelUnderRandomOperations) {
  std::vector<Zio> zios(4096);
  std::mt19937_64 rng(42);
  SortedZioList list;
  std::vector<ModelEntry> model;
  size_t next = 0;
  for (int step = 0; step < 20000; ++step) {
    const int op = static_cast<int>(rng() % 10);
    if ((op < 5 || model.empty()) && next < zios.size()) {
      // Few distinct keys, so equal keys are common; mostly ascending k1 (FIFO-like).
      const int64_t k1 = op < 2 ? static_cast<int64_t>(step) : static_cast<int64_t>(rng() % 8);
      const int64_t k2 = static_cast<int64_t>(rng() % 3);
      Zio* z = &zios[next++];
      const int at = list.Insert(k1, k2, z);
      auto pos = std::upper_bound(model.begin(), model.end(), ModelEntry{k1, k2, nullptr},
                                  [](const ModelEntry& a, const ModelEntry& b) {
                                    return a.k1 < b.k1 || (a.k1 == b.k1 && a.k2 < b.k2);
                                  });
      EXPECT_EQ(at, pos - model.begin());
      model.insert(pos, ModelEntry{k1, k2, z});
    } else if (!model.empty()) {
      size_t i = op < 8 ? 0 : static_cast<size_t>(rng() % model.size());
      if (op == 7) i = model.size() - 1;
      const ModelEntry e = model[i];
      EXPECT_EQ(list.Find(e.k1, e.k2, e.zio), static_cast<int>(i));
      if (op % 2 == 0) {
        list.EraseAt(static_cast<int>(i));
      } else {
        EXPECT_TRUE(list.Erase(e.k1, e.k2, e.zio));
      }
      model.erase(model.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (step % 97 == 0) ExpectSame(list, model);
    if (next == zios.size() && model.empty()) next = 0;
  }
  ExpectSame(list, model);
}

TEST(SortedZioListTest, BoundsAndMissingEntries) {
  Zio a, b, c;
  SortedZioList list;
  list.Insert(5, 0, &a);
  list.Insert(1, 0, &b);
  list.Insert(5, 0, &c);  // after a
  EXPECT_EQ(list.front(), &b);
  EXPECT_EQ(list.at(1), &a);
  EXPECT_EQ(list.at(2), &c);
  EXPECT_EQ(list.LowerBound(5, 0), 1);
  EXPECT_EQ(list.UpperBound(5, 0), 3);
  EXPECT_EQ(list.LowerBound(6, 0), 3);
  EXPECT_EQ(list.Find(5, 0, &b), -1);
  EXPECT_FALSE(list.Erase(1, 1, &b));
  EXPECT_TRUE(list.Erase(5, 0, &c));
  EXPECT_EQ(list.size(), 2);
}

}  // namespace
}  // namespace ziosim
