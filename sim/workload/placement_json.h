// Where a run's files landed (allocator.h: PlacementOf) and the pool's CAP and
// FRAG before them, as one JSON object: the `placement` of readers', writers'
// and replay's per-run results (the CLI prints it, Python flattens it into
// placement_* columns).
#ifndef ZIOSIM_SIM_WORKLOAD_PLACEMENT_JSON_H_
#define ZIOSIM_SIM_WORKLOAD_PLACEMENT_JSON_H_

#include "sim/core/option.h"
#include "sim/zfs/allocator.h"

namespace ziosim {

inline Json PlacementJson(const Placement& p, const PoolFigures& before) {
  return {{"pool_cap_pct", before.cap_pct},
          {"pool_frag_pct", before.frag_pct},
          {"data_blocks", p.blocks},
          {"extents", p.extents},
          {"first_pct", p.first_pct},
          {"median_pct", p.median_pct},
          {"last_pct", p.last_pct}};
}

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_PLACEMENT_JSON_H_
