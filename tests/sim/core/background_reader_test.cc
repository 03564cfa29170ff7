// The background reader hands over exactly the reader's sequence, in order,
// across batch boundaries of every alignment; a reader's exception arrives in
// place of the record it failed to read, after every record before it; and
// the reader thread stops when the consumer gives up early.
#include "sim/core/background_reader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace ziosim {
namespace {

// A reader of 0, 1, ..., count - 1 that throws instead of giving `fail_at`
// (never, if negative), and counts its calls.
struct Counter {
  int count = 0;
  int fail_at = -1;
  std::atomic<int> calls{0};
  bool Read(int& r) {
    const int i = calls++;
    if (i == fail_at) throw std::runtime_error("bad record " + std::to_string(i));
    if (i >= count) return false;
    r = i;
    return true;
  }
};

std::vector<int> ReadAll(BackgroundReader<int>& reader) {
  std::vector<int> got;
  while (const int* r = reader.Next()) got.push_back(*r);
  return got;
}

TEST(BackgroundReaderTest, GivesEveryRecordInOrderAtEveryBatchAlignment) {
  for (const int count : {0, 1, 2, 3, 4, 5, 7, 8, 9, 100}) {
    for (const size_t batch : {1, 2, 3, 4, 64}) {
      Counter c{count};
      BackgroundReader<int> reader([&c](int& r) { return c.Read(r); }, batch);
      const std::vector<int> got = ReadAll(reader);
      ASSERT_EQ(static_cast<int>(got.size()), count) << "batch " << batch;
      for (int i = 0; i < count; ++i) ASSERT_EQ(got[static_cast<size_t>(i)], i);
      EXPECT_EQ(reader.Next(), nullptr) << "the end stays the end";
    }
  }
}

TEST(BackgroundReaderTest, AnExceptionArrivesAfterTheRecordsBeforeIt) {
  for (const int fail_at : {0, 1, 3, 4, 11}) {
    for (const size_t batch : {1, 4, 5}) {
      Counter c{100, fail_at};
      BackgroundReader<int> reader([&c](int& r) { return c.Read(r); }, batch);
      for (int i = 0; i < fail_at; ++i) {
        const int* r = reader.Next();
        ASSERT_NE(r, nullptr);
        ASSERT_EQ(*r, i);
      }
      EXPECT_THROW(
          {
            try {
              reader.Next();
            } catch (const std::runtime_error& e) {
              EXPECT_EQ(std::string(e.what()), "bad record " + std::to_string(fail_at));
              throw;
            }
          },
          std::runtime_error)
          << "fail_at " << fail_at << ", batch " << batch;
    }
  }
}

TEST(BackgroundReaderTest, StopsReadingWhenTheConsumerGivesUp) {
  Counter c{1'000'000};
  {
    BackgroundReader<int> reader([&c](int& r) { return c.Read(r); }, 16);
    ASSERT_NE(reader.Next(), nullptr);
  }  // destroyed with most of the records unread: must not hang
  // It reads ahead at most the batches it holds, not the whole input.
  EXPECT_LE(c.calls.load(), 4 * 16);
}

TEST(BackgroundReaderTest, DestroyedUnreadItStillStops) {
  Counter c{1'000'000};
  { BackgroundReader<int> reader([&c](int& r) { return c.Read(r); }, 8); }
  EXPECT_LE(c.calls.load(), 4 * 8);
}

}  // namespace
}  // namespace ziosim
