// A short sorted list of zios, the container behind every tree of a leaf
// queue (OpenZFS uses AVL trees: the class trees, the per-type offset trees,
// the deadline tree). Queues are short (usually < 100 zios per leaf), so a
// sorted array beats any node-based tree: one binary search, one memmove, no
// allocation once the array has grown to the queue's high-water mark.
//
// The live entries occupy [head_, tail_) of the buffer, with free room on both
// sides: an insert or erase moves whichever side of the position is shorter, so
// taking the front (a FIFO pop, the lowest offset) costs nothing.
//
// Entries with equal keys keep their insertion order (an insert goes after all
// equal keys), which plays the part of OpenZFS's pointer tie-break but is
// deterministic. Not thread-safe.
#ifndef ZIOSIM_SIM_ZFS_VDEV_QUEUE_ZIO_LIST_H_
#define ZIOSIM_SIM_ZFS_VDEV_QUEUE_ZIO_LIST_H_

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "sim/zfs/zio.h"

namespace ziosim {

class SortedZioList {
 public:
  struct Entry {
    int64_t k1;
    int64_t k2;
    Zio* zio;
  };
  static_assert(std::is_trivially_copyable_v<Entry>);

  int size() const { return tail_ - head_; }
  bool empty() const { return tail_ == head_; }
  const Entry& entry(int i) const { return buf_[head_ + i]; }
  Zio* at(int i) const { return buf_[head_ + i].zio; }
  Zio* front() const { return buf_[head_].zio; }

  // Index of the first entry whose key is >= (k1, k2), or size().
  int LowerBound(int64_t k1, int64_t k2) const {
    int lo = head_, hi = tail_;
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      const Entry& e = buf_[mid];
      if (e.k1 < k1 || (e.k1 == k1 && e.k2 < k2)) lo = mid + 1; else hi = mid;
    }
    return lo - head_;
  }

  // Index of the first entry whose key is > (k1, k2), or size().
  int UpperBound(int64_t k1, int64_t k2) const {
    int lo = head_, hi = tail_;
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      const Entry& e = buf_[mid];
      if (e.k1 < k1 || (e.k1 == k1 && e.k2 <= k2)) lo = mid + 1; else hi = mid;
    }
    return lo - head_;
  }

  // Index of `zio`, inserted with key (k1, k2); -1 if it is not in the list.
  int Find(int64_t k1, int64_t k2, const Zio* zio) const {
    for (int i = LowerBound(k1, k2), n = size(); i < n; ++i) {
      const Entry& e = buf_[head_ + i];
      if (e.k1 != k1 || e.k2 != k2) break;
      if (e.zio == zio) return i;
    }
    return -1;
  }

  // Inserts `zio` with key (k1, k2) after every entry with an equal key; returns its index.
  int Insert(int64_t k1, int64_t k2, Zio* zio) {
    // Appending (FIFO arrivals, ascending offsets) is the common case: skip the search.
    int i = (empty() || Less(buf_[tail_ - 1], k1, k2)) ? size() : UpperBound(k1, k2);
    const int n = size();
    const bool front_side = i < n - i;
    if (front_side ? head_ == 0 : tail_ == static_cast<int>(buf_.size())) {
      if (head_ == 0 && tail_ == static_cast<int>(buf_.size())) {
        Regrow(buf_.empty() ? kInitialCapacity : 2 * static_cast<int>(buf_.size()));
      } else if (2 * (n + 1) > static_cast<int>(buf_.size())) {
        Regrow(2 * static_cast<int>(buf_.size()));
      } else {
        Regrow(static_cast<int>(buf_.size()));  // recentre
      }
    }
    if (front_side && head_ > 0) {
      Move(head_ - 1, head_, i);
      --head_;
    } else if (tail_ < static_cast<int>(buf_.size())) {
      Move(head_ + i + 1, head_ + i, n - i);
      ++tail_;
    } else {
      Move(head_ - 1, head_, i);
      --head_;
    }
    buf_[head_ + i] = Entry{k1, k2, zio};
    return i;
  }

  void EraseAt(int i) {
    const int n = size();
    if (i < n - 1 - i) {
      Move(head_ + 1, head_, i);
      ++head_;
    } else {
      Move(head_ + i, head_ + i + 1, n - 1 - i);
      --tail_;
    }
    if (head_ == tail_) head_ = tail_ = static_cast<int>(buf_.size()) / 2;
  }

  // Erases `zio` (inserted with key (k1, k2)); false if it is not in the list.
  bool Erase(int64_t k1, int64_t k2, const Zio* zio) {
    const int i = Find(k1, k2, zio);
    if (i < 0) return false;
    EraseAt(i);
    return true;
  }

 private:
  static constexpr int kInitialCapacity = 32;

  static bool Less(const Entry& e, int64_t k1, int64_t k2) { return e.k1 < k1 || (e.k1 == k1 && e.k2 < k2); }

  void Move(int to, int from, int count) {
    if (count > 0) std::memmove(&buf_[to], &buf_[from], sizeof(Entry) * static_cast<size_t>(count));
  }

  // Moves the live entries to the middle of a buffer of `capacity` entries.
  void Regrow(int capacity) {
    const int n = size();
    const int new_head = (capacity - n) / 2;
    if (capacity == static_cast<int>(buf_.size())) {
      Move(new_head, head_, n);
    } else {
      std::vector<Entry> bigger(static_cast<size_t>(capacity));
      if (n > 0) std::memcpy(&bigger[new_head], &buf_[head_], sizeof(Entry) * static_cast<size_t>(n));
      buf_.swap(bigger);
    }
    head_ = new_head;
    tail_ = new_head + n;
  }

  std::vector<Entry> buf_;
  int head_ = 0;
  int tail_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_QUEUE_ZIO_LIST_H_
