// MakeZfetch, the tunables-to-config copy and the per-call output collector
// shared by the three era prefetchers (reference section 5).
#include "sim/zfs/zfetch.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ziosim {
namespace {

// zfs_prefetch_disable: dmu_zfetch returns at once in every era.
class DisabledZfetch final : public Zfetch {
 public:
  void Access(int64_t, int64_t, int64_t, bool, const std::function<bool(int64_t)>&, SimTime,
              std::vector<PrefetchRange>*) override {
    ++stats_.accesses;
  }
};

}  // namespace

ZfetchConfig ZfetchConfig::FromTunables(const Tunables& t, int64_t blocks, int64_t block_bytes,
                                        int ptrs_per_indirect, bool fetch_data) {
  if (blocks < 0 || block_bytes <= 0 || ptrs_per_indirect <= 0) {
    throw std::invalid_argument("zfetch: bad file shape");
  }
  ZfetchConfig c;
  c.blocks = blocks;
  c.block_bytes = block_bytes;
  c.ptrs_per_indirect = ptrs_per_indirect;
  c.fetch_data = fetch_data;
  c.max_streams = t.Int("zfetch_max_streams");
  c.min_sec_reap = t.Int("zfetch_min_sec_reap");
  c.max_sec_reap = t.Int("zfetch_max_sec_reap");
  c.block_cap = t.Int("zfetch_block_cap");
  c.array_rd_sz = t.Int("zfetch_array_rd_sz");
  c.rd_sz_inclusive = t.Bool("ziosim_zfetch_rd_sz_inclusive");
  c.misaligned_hit = t.Bool("ziosim_zfetch_misaligned_hit");
  c.after_miss = t.Bool("ziosim_zfetch_after_miss");
  c.max_distance = t.Int("zfetch_max_distance");
  c.min_distance = t.Int("zfetch_min_distance");
  c.max_idistance = t.Int("zfetch_max_idistance");
  return c;
}

std::unique_ptr<Zfetch> MakeZfetch(const Tunables& tunables, int64_t blocks, int64_t block_bytes,
                                   int ptrs_per_indirect, bool fetch_data) {
  ZfetchConfig config =
      ZfetchConfig::FromTunables(tunables, blocks, block_bytes, ptrs_per_indirect, fetch_data);
  if (tunables.Bool("zfs_prefetch_disable")) return std::make_unique<DisabledZfetch>();
  const std::string& era = tunables.Choice("ziosim_zfetch_era");
  if (era == "old") return MakeZfetchOld(config);
  if (era == "2015") return MakeZfetch2015(config);
  if (era == "2022") return MakeZfetch2022(config);
  throw std::logic_error("zfetch: unknown ziosim_zfetch_era " + era);
}

namespace zfetch_detail {

PrefetchSink::PrefetchSink(const ZfetchConfig& config, int64_t chunk_first, int64_t chunk_nblks,
                           const std::function<bool(int64_t)>& cached,
                           std::vector<PrefetchRange>* out, ZfetchStats* stats, PrefetchScratch* scratch)
    : config_(config),
      chunk_first_(chunk_first),
      chunk_end_(chunk_first + std::max<int64_t>(chunk_nblks, 0)),
      cached_(cached),
      out_(out),
      stats_(stats),
      taken_(scratch->taken),
      indirect_(scratch->indirect) {
  taken_.clear();
  indirect_.clear();
}

PrefetchSink::~PrefetchSink() {
  if (out_ != nullptr) out_->insert(out_->end(), indirect_.begin(), indirect_.end());
}

bool PrefetchSink::Prefetched(int64_t b) const { return Taken(b) || (cached_ && cached_(b)); }

// The runs are few (a call's Data() ranges continue each other), so a scan is cheap.
bool PrefetchSink::Taken(int64_t b) const {
  for (const auto& [first, end] : taken_) {
    if (b < first) return false;
    if (b < end) return true;
  }
  return false;
}

void PrefetchSink::Take(int64_t first, int64_t end) {
  auto it = std::lower_bound(taken_.begin(), taken_.end(), first,
                             [](const std::pair<int64_t, int64_t>& r, int64_t b) { return r.second < b; });
  if (it == taken_.end() || it->first > end) {
    taken_.insert(it, {first, end});
    return;
  }
  it->first = std::min(it->first, first);
  it->second = std::max(it->second, end);
  auto next = std::next(it);
  while (next != taken_.end() && next->first <= it->second) {
    it->second = std::max(it->second, next->second);
    ++next;
  }
  taken_.erase(std::next(it), next);
}

void PrefetchSink::Data(int64_t first, int64_t count) {
  const int64_t begin = std::max<int64_t>(first, 0);
  const int64_t end = std::min(first + count, config_.blocks);
  if (end <= begin) return;
  for (int64_t b = begin; b < end; ++b) {
    if (Taken(b)) continue;
    // The chunk's own blocks count as prefetched for the rest of the call
    // but are read on demand.
    if (b >= chunk_first_ && b < chunk_end_) continue;
    if (cached_ && cached_(b)) continue;
    ++stats_->blocks_prefetched;
    if (out_ == nullptr) continue;
    // Merge with the last data range when adjacent (level-1 ranges are kept
    // apart until the end, so the last entry of out_ from this call is data).
    if (!out_->empty() && out_->back().level == 0 &&
        out_->back().first + out_->back().count == b && appended_) {
      ++out_->back().count;
    } else {
      out_->push_back(PrefetchRange{.level = 0, .first = b, .count = 1});
      appended_ = true;
    }
  }
  // Taken as a whole afterwards: the loop asks about earlier calls' blocks only (a range repeats none).
  Take(begin, end);
}

void PrefetchSink::Indirect(int64_t first, int64_t count) {
  const int64_t nind = (config_.blocks + config_.ptrs_per_indirect - 1) / config_.ptrs_per_indirect;
  first = std::max<int64_t>(first, 0);
  const int64_t end = std::min(first + count, nind);
  if (end <= first) return;
  stats_->indirect_prefetched += end - first;
  if (!indirect_.empty() && indirect_.back().first + indirect_.back().count == first) {
    indirect_.back().count += end - first;
  } else {
    indirect_.push_back(PrefetchRange{.level = 1, .first = first, .count = end - first});
  }
}

void PrefetchSink::IndirectsFor(int64_t data_first, int64_t data_end) {
  const int64_t p = config_.ptrs_per_indirect;
  auto ceil_div = [p](int64_t x) { return x <= 0 ? 0 : (x + p - 1) / p; };
  const int64_t first = ceil_div(data_first), end = ceil_div(data_end);
  if (end > first) Indirect(first, end - first);
}

}  // namespace zfetch_detail
}  // namespace ziosim
