#include "models/device/hdd_params.h"

#include <cmath>

#include "models/device/hdd_map.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

[[noreturn]] void Fail(const std::string& who, const std::string& what) { throw InputError(who + ": " + what); }

void CheckSeek(const HddSeekModel& seek, const std::string& who) {
  switch (seek.kind) {
    case HddSeekModel::Kind::kTable:
      if (seek.table.empty()) Fail(who, "seek table is empty");
      for (size_t i = 0; i < seek.table.size(); ++i) {
        const auto [distance, time] = seek.table[i];
        if (distance < 1 || (i > 0 && distance <= seek.table[i - 1].first)) {
          Fail(who, "seek table distances must start at 1 or more and increase (entry " + std::to_string(i) + ")");
        }
        if (time < 0) Fail(who, "seek table time is negative (entry " + std::to_string(i) + ")");
      }
      break;
    case HddSeekModel::Kind::kHpl:
      for (double v : seek.hpl) {
        if (!std::isfinite(v)) Fail(who, "HPL seek value is not a number");
      }
      if (seek.hpl[0] < 0) Fail(who, "HPL V1 (cylinders) is negative");
      if (!seek.first_ten.empty() && seek.first_ten.size() != 10) Fail(who, "first-ten seek table needs 10 times");
      break;
    case HddSeekModel::Kind::kThreePoint:
    case HddSeekModel::Kind::kLinear:
      if (seek.single_cylinder_ns < 0 || seek.average_ns < 0 || seek.full_stroke_ns < 0) {
        Fail(who, "three-point seek times must not be negative");
      }
      break;
    case HddSeekModel::Kind::kConstant:
      if (seek.constant_ns < 0) Fail(who, "constant seek time must not be negative");
      break;
  }
}

void CheckCache(const HddCache& cache, const std::string& who) {
  if (!cache.enabled) return;
  if (cache.segments < 1) Fail(who, "cache enabled with fewer than 1 segment");
  if (cache.segment_blocks < 1) Fail(who, "cache segment size must be at least 1 block");
  if (cache.separate_write_segment && cache.segments < 2) Fail(who, "a separate write segment needs 2 segments");
  if (cache.read_ahead_scheme < 0 || cache.read_ahead_scheme > 4) Fail(who, "read-ahead scheme must be 0..4");
  if (cache.fast_write_level < 0 || cache.fast_write_level > 2) Fail(who, "fast write level must be 0..2");
  if (cache.min_read_ahead_blocks < 0 || cache.max_read_ahead_blocks < 0) Fail(who, "negative read-ahead");
  if (cache.preseek_level < 0 || cache.preseek_level > 2) Fail(who, "preseeking level must be 0, 1 or 2");
  if (cache.read_ahead_over_requested < -1 || cache.read_ahead_over_requested > 1) {
    Fail(who, "read-ahead over requested must be -1, 0 or 1");
  }
}

}  // namespace

void HddParams::Validate() const {
  const std::string who = !source.empty() ? source : !name.empty() ? name : "HDD parameters";
  // The geometry checks the layout: zones present and in order within the cylinders,
  // positive sectors per track and surfaces, a supported sparing scheme, sane slips;
  // or extents that cover the LBNs.
  try {
    MakeHddMap(layout);
  } catch (const InputError& e) {
    Fail(who, e.what());
  }
  if (!(mechanics.rpm > 0) || !std::isfinite(mechanics.rpm)) Fail(who, "rpm must be a positive number");
  if (mechanics.head_switch_ns < 0) Fail(who, "head switch time is negative");
  CheckSeek(mechanics.seek, who);
  if (interface.bus_read_block_ns < 0 || interface.bus_write_block_ns < 0) Fail(who, "bus block time is negative");
  if (interface.read_watermark < 0) Fail(who, "watermark is negative");
  CheckCache(cache, who);
  if (queue_depth < 1) Fail(who, "queue depth must be at least 1");
  if (scheduler.read_initiation_delay_ns < 0 || scheduler.write_initiation_delay_ns < 0) {
    Fail(who, "initiation delay is negative");
  }
  if (scheduler.age_weight < 0) Fail(who, "age weight is negative");
  if (scheduler.priority_scheduling < 0) Fail(who, "priority weight is negative");
}

}  // namespace ziosim
