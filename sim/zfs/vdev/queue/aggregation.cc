#include "sim/zfs/vdev/queue/aggregation.h"

#include <algorithm>
#include <stdexcept>

namespace ziosim {

Aggregator::Aggregator(const AggregationConfig& config) : config_(config) {
  parts_.reserve(64);
  before_.reserve(64);
}

int Aggregator::Collect(const SortedZioList& by_offset, int pos) {
  parts_.clear();
  before_.clear();
  Zio* const chosen = by_offset.at(pos);
  const int64_t limit = config_.limit;
  if (limit <= 0 || chosen->optional || (!config_.sync_classes && IsSync(*chosen))) {
    parts_.push_back(chosen);
    return 1;
  }
  const int64_t maxgap = chosen->type == ZioType::kRead ? config_.read_gap : 0;
  const bool scrub = IsScrub(*chosen);

  // A neighbour outside the chosen class's tree is invisible (skipped) when
  // aggregation is per class; one that is visible but may not merge ends the walk.
  const Zio* first = chosen;
  const Zio* last = chosen;
  for (int i = pos - 1; i >= 0; --i) {
    Zio* dio = by_offset.at(i);
    if (!config_.cross_class && dio->priority != chosen->priority) continue;
    if (IsScrub(*dio) != scrub || dio->type != chosen->type) break;
    if (!config_.sync_classes && IsSync(*dio)) break;
    const int64_t gap = first->offset - dio->end();
    if (gap < 0 || gap > maxgap || last->end() - dio->offset > limit) break;
    first = dio;
    before_.push_back(dio);
  }
  // Leading optional zios add nothing.
  while (!before_.empty() && before_.back()->optional) before_.pop_back();
  for (auto it = before_.rbegin(); it != before_.rend(); ++it) parts_.push_back(*it);
  parts_.push_back(chosen);
  first = parts_.front();

  size_t mandatory = parts_.size();  // parts_[0, mandatory) ends with the last mandatory zio
  int next = pos + 1;
  for (const int n = by_offset.size(); next < n; ++next) {
    Zio* dio = by_offset.at(next);
    if (!config_.cross_class && dio->priority != chosen->priority) continue;
    if (IsScrub(*dio) != scrub || dio->type != chosen->type) break;
    if (!config_.sync_classes && IsSync(*dio)) break;
    const int64_t gap = dio->offset - last->end();
    const int64_t span = dio->end() - first->offset;
    if (gap < 0 || gap > maxgap || (span > limit && !dio->optional) || span > kMaxAggregateSpan) break;
    last = dio;
    parts_.push_back(dio);
    if (!dio->optional) mandatory = parts_.size();
  }
  if (mandatory < parts_.size()) {
    // Trailing optional zios: kept only if a mandatory write follows them back
    // to back within write_gap of the last mandatory one.
    const Zio* last_mandatory = parts_[mandatory - 1];
    bool stretch = false;
    const Zio* prev = last;
    for (int i = next, n = by_offset.size(); i < n; ++i) {
      Zio* dio = by_offset.at(i);
      if (dio->offset != prev->end() || dio->offset - last_mandatory->end() > config_.write_gap) break;
      if (!dio->optional) {
        stretch = true;
        break;
      }
      prev = dio;
    }
    if (stretch) {
      if (next < by_offset.size()) by_offset.at(next)->optional = false;
    } else {
      parts_.resize(mandatory);
    }
  }
  return static_cast<int>(parts_.size());
}

Zio* Aggregator::Build(const Zio& chosen, VdevQueueSink* sink, SimTime now, VdevQueueStats* stats) const {
  if (parts_.size() < 2) throw std::logic_error("internal error: aggregate of fewer than two zios");
  Zio* const first = parts_.front();
  Zio* const last = parts_.back();
  Zio* agg = sink->NewAggregate();
  agg->type = chosen.type;
  agg->priority = chosen.priority;
  agg->vdev = chosen.vdev;
  agg->offset = first->offset;
  agg->size = last->end() - first->offset;
  agg->created_ns = now;
  agg->queued_ns = first->queued_ns;  // as OpenZFS: the aggregate's timestamp is its first zio's
  agg->issued_ns = now;
  agg->agg_head = first;
  agg->agg_next = first;
  agg->agg_count = static_cast<int>(parts_.size());

  int64_t data = 0;
  for (size_t i = 0; i < parts_.size(); ++i) {
    Zio* z = parts_[i];
    z->agg_next = i + 1 < parts_.size() ? parts_[i + 1] : nullptr;
    z->issued_ns = now;
    data += z->size;
  }
  stats->aggregated += 1;
  stats->aggregated_zios += parts_.size();
  stats->gap_bytes += agg->size - data;
  return agg;
}

}  // namespace ziosim
