#include "models/device/hdd_map.h"

#include "models/device/hdd_extent_map.h"
#include "models/device/hdd_geometry.h"

namespace ziosim {

TrackRun HddMap::ComputeAndRemember(int64_t lbn) const {
  const TrackRun run = ComputeRun(lbn, total_blocks_ - lbn);
  if (run.blocks == run.physical_span) {
    run_memo_[run_memo_next_] = {lbn, static_cast<uint64_t>(run.blocks), run.start, run.sectors_per_track};
    run_memo_last_ = run_memo_next_;
    run_memo_next_ = (run_memo_next_ + 1) % kRunMemos;
  }
  return run;
}

std::unique_ptr<HddMap> MakeHddMap(const HddLayout& layout) {
  if (!layout.extents.empty()) return std::make_unique<HddExtentMap>(layout);
  return std::make_unique<HddGeometry>(layout);
}

}  // namespace ziosim
