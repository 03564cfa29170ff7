#include "sim/core/tag_index.h"

#include <gtest/gtest.h>

#include <random>
#include <unordered_map>
#include <vector>

namespace ziosim {
namespace {

// Inserts and erases at random against std::unordered_map, with keys that
// share tags (collisions) and a table that grows, so that backward-shift
// deletion wraps around the end of the table.
TEST(TagIndex, AgreesWithAReferenceMapThroughInsertsAndErases) {
  std::mt19937_64 rng(1);
  TagIndex index;
  std::vector<uint64_t> key_of(1 << 16, 0);  // entry -> key: the caller's table
  std::unordered_map<uint64_t, uint32_t> reference;
  std::vector<uint32_t> free_entries;
  for (uint32_t e = 0; e < key_of.size(); ++e) free_entries.push_back(e);
  // Few distinct tags: many keys per tag.
  const auto tag = [](uint64_t key) { return MixTag(key % 97); };
  for (int step = 0; step < 300000; ++step) {
    const uint64_t key = rng() % 5000;
    const uint32_t found = index.Find(tag(key), [&](uint32_t e) { return key_of[e] == key; });
    const auto it = reference.find(key);
    ASSERT_EQ(found, it == reference.end() ? TagIndex::kNone : it->second) << "step " << step;
    if (it == reference.end()) {
      const uint32_t e = free_entries.back();
      free_entries.pop_back();
      key_of[e] = key;
      index.Insert(tag(key), e);
      reference.emplace(key, e);
    } else if (rng() % 2 == 0) {
      index.Erase(tag(key), found);
      free_entries.push_back(found);
      reference.erase(it);
    }
    ASSERT_EQ(index.size(), reference.size());
  }
}

TEST(TagIndex, MixTagSpreadsNeighbouringKeys) {
  // Consecutive keys (block ids, sectors) must not share home slots: their
  // top bits differ.
  std::vector<int> top(256, 0);
  for (uint64_t k = 0; k < 256 * 64; ++k) ++top[MixTag(k) >> 24];
  for (const int n : top) EXPECT_LT(n, 128);  // 64 expected per bucket
}

}  // namespace
}  // namespace ziosim
