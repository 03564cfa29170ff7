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
                           std::vector<PrefetchRange>* out, ZfetchStats* stats)
    : config_(config),
      chunk_first_(chunk_first),
      chunk_end_(chunk_first + std::max<int64_t>(chunk_nblks, 0)),
      cached_(cached),
      out_(out),
      stats_(stats) {}

PrefetchSink::~PrefetchSink() {
  if (out_ != nullptr) out_->insert(out_->end(), indirect_.begin(), indirect_.end());
}

bool PrefetchSink::Prefetched(int64_t b) const {
  return taken_.count(b) != 0 || (cached_ && cached_(b));
}

void PrefetchSink::Data(int64_t first, int64_t count) {
  const int64_t end = std::min(first + count, config_.blocks);
  for (int64_t b = std::max<int64_t>(first, 0); b < end; ++b) {
    if (!taken_.insert(b).second) continue;
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
