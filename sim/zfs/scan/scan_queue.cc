#include "sim/zfs/scan/scan_queue.h"

#include <algorithm>
#include <bit>

namespace ziosim {
namespace {

// scan_io_queue_gather's loop runs while num_sios <= 32: 33 DVAs per batch.
constexpr int kGatherBatch = 33;

}  // namespace

ScanQueue::ScanQueue(int ashift, int64_t max_gap_bytes, int fill_weight)
    : ashift_(ashift), max_gap_(max_gap_bytes), fill_weight_(fill_weight) {}

// ext_size_value: in sectors, score = fill + ((((fill << 7) / size) * w * fill) >> 7);
// key = (64 - highbit64(score)) << 56 | start, smallest first.
uint64_t ScanQueue::ScoreKey(int64_t start, const Extent& e) const {
  const uint64_t size = static_cast<uint64_t>((e.end - start) >> ashift_);
  const uint64_t fill = static_cast<uint64_t>(e.fill >> ashift_);
  const uint64_t score =
      fill + ((((fill << 7) / std::max<uint64_t>(size, 1)) * static_cast<uint64_t>(fill_weight_) * fill) >> 7);
  const uint64_t bucket = 64 - static_cast<uint64_t>(std::bit_width(score));
  return (bucket << 56) | static_cast<uint64_t>(start >> ashift_);
}

void ScanQueue::AddExtent(int64_t start, const Extent& e) {
  exts_[start] = e;
  by_score_.insert({ScoreKey(start, e), start});
}

void ScanQueue::RemoveExtent(std::map<int64_t, Extent>::iterator it) {
  by_score_.erase({ScoreKey(it->first, it->second), it->first});
  exts_.erase(it);
}

// range_tree_add with a gap: the range joins the extent before it when that
// one ends within the gap, and every extent after it that starts within the gap.
void ScanQueue::Insert(const QueuedDva& dva, int ndvas) {
  if (!sios_.emplace(dva.offset, Sio{dva.asize, dva.psize, ndvas}).second) return;
  sio_bytes_ += 120 + 16 * ndvas;
  int64_t start = dva.offset;
  Extent merged{dva.offset + dva.asize, dva.asize};
  auto it = exts_.upper_bound(start);
  if (it != exts_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.end >= start - max_gap_) {
      start = prev->first;
      merged.end = std::max(merged.end, prev->second.end);
      merged.fill += prev->second.fill;
      RemoveExtent(prev);
    }
  }
  for (it = exts_.lower_bound(start); it != exts_.end() && it->first <= merged.end + max_gap_;) {
    merged.end = std::max(merged.end, it->second.end);
    merged.fill += it->second.fill;
    auto next = std::next(it);
    RemoveExtent(it);
    it = next;
  }
  AddExtent(start, merged);
  last_ext_addr_ = -1;  // scan_io_queue_insert: a new block may change the best extent
}

void ScanQueue::Gather(bool lba_order, std::vector<QueuedDva>* out) {
  if (exts_.empty()) return;
  auto ext = exts_.begin();
  if (!lba_order) {
    ext = last_ext_addr_ >= 0 ? exts_.find(last_ext_addr_) : exts_.end();
    if (ext == exts_.end()) ext = exts_.find(by_score_.begin()->second);
  }
  const int64_t start = ext->first;
  Extent e = ext->second;
  RemoveExtent(ext);
  int taken = 0;
  auto s = sios_.lower_bound(start);
  while (s != sios_.end() && s->first < e.end && taken < kGatherBatch) {
    out->push_back(QueuedDva{s->first, s->second.asize, s->second.psize});
    e.fill -= s->second.asize;
    sio_bytes_ -= 120 + 16 * s->second.ndvas;
    s = sios_.erase(s);
    ++taken;
  }
  if (s != sios_.end() && s->first < e.end) {  // the rest of the extent stays, from its next DVA
    AddExtent(s->first, e);
    last_ext_addr_ = s->first;
  } else {
    last_ext_addr_ = -1;
  }
}

}  // namespace ziosim
