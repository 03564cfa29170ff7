#include "models/device/queue_policy.h"

#include <array>
#include <string>

namespace ziosim {

namespace {

// The *_lbn, *_cyl, *_opt and sdf_* policies are DiskSim 4.0's disk schedulers
// (disksim_ioqueue.c), as its disk model runs them: models/device/disksim_queue_order.h
// and disksim_positioning_order.h say how.
constexpr std::array<QueuePolicyInfo, 22> kPolicies = {{
    {QueuePolicy::kFifo, "fifo", "arrival order"},
    {QueuePolicy::kSptf, "sptf",
     "shortest positioning time first, the command the arm and platter reach soonest (NCQ reordering)"},
    {QueuePolicy::kSstfLbn, "sstf_lbn",
     "shortest LBN distance from the end of the last command started (DiskSim's SSTF_LBN and VSCAN_LBN)"},
    {QueuePolicy::kElevatorLbn, "elevator_lbn",
     "the nearest command at or above the last command's first LBN, else the nearest below (DiskSim's "
     "ELEVATOR_LBN, whose sweep never turns down)"},
    {QueuePolicy::kCycleLbn, "cycle_lbn",
     "the nearest command at or above the last command's first LBN, else the lowest (DiskSim's CYCLE_LBN)"},
    {QueuePolicy::kSstfCyl, "sstf_cyl",
     "a command on the last command's cylinder, at or past its surface and block, else the nearest cylinder "
     "(DiskSim's SSTF_CYL)"},
    {QueuePolicy::kElevatorCyl, "elevator_cyl",
     "as sstf_cyl from the last command's first block, a cylinder above always before one below (DiskSim's "
     "ELEVATOR_CYL, whose sweep never turns down)"},
    {QueuePolicy::kCycleCyl, "cycle_cyl",
     "a command on the last command's cylinder at or past it, else the next cylinder up, wrapping to the lowest "
     "(DiskSim's CYCLE_CYL)"},
    {QueuePolicy::kVscanCyl, "vscan_cyl",
     "sstf_cyl measured from block 0 always, as DiskSim's VSCAN_CYL runs (it never moves its reference)"},
    {QueuePolicy::kSptfOpt, "sptf_opt",
     "the least of the drive's read or write initiation delay plus its estimate of the seek and rotational "
     "latency from where its arm last read (the platter's angle not brought forward), the cache not asked "
     "(DiskSim's SPTF_OPT)"},
    {QueuePolicy::kSpctfOpt, "spctf_opt",
     "sptf_opt where a read the cache holds whole costs nothing and one it holds in part 1e-9 ms (DiskSim's "
     "SPCTF_OPT)"},
    {QueuePolicy::kWptfOpt, "wptf_opt",
     "sptf_opt's cost times (weight - age) / weight, age in ms, weight the drive's 'Timeout time/weight' "
     "(DiskSim's WPTF_OPT)"},
    {QueuePolicy::kWpctfOpt, "wpctf_opt", "spctf_opt's cost aged as wptf_opt's (DiskSim's WPCTF_OPT)"},
    {QueuePolicy::kAsptfOpt, "asptf_opt",
     "sptf_opt's cost less age x weight / 1000 ms, age in ms, weight the drive's 'Timeout time/weight' "
     "(DiskSim's ASPTF_OPT)"},
    {QueuePolicy::kAspctfOpt, "aspctf_opt", "spctf_opt's cost aged as asptf_opt's (DiskSim's ASPCTF_OPT)"},
    {QueuePolicy::kSptfRotWeight, "sptf_rot_weight",
     "of the commands of sptf_opt's least cost, the one whose estimate exceeds its seek the most, the last by "
     "LBN of a tie (DiskSim's SPTF_ROT_WEIGHT)"},
    {QueuePolicy::kSptfSeekWeight, "sptf_seek_weight",
     "walking by LBN, a command of no more than the least sptf_opt cost so far whose seek is shorter than that of "
     "every command taken before it (DiskSim's SPTF_SEEK_WEIGHT: not always the least cost)"},
    {QueuePolicy::kSdfApprox, "sdf_approx",
     "the fewest cylinders from the last block of the last command started, the first by LBN of a tie (DiskSim's "
     "SDF_APPROX)"},
    {QueuePolicy::kSdfExact, "sdf_exact",
     "the fewest cylinders from where the arm last read, the first by LBN of a tie (DiskSim's SDF_EXACT)"},
    {QueuePolicy::kPriAsptfOpt, "pri_asptf_opt",
     "asptf_opt crediting the age of time-critical and time-limited commands only (DiskSim's PRI_ASPTF_OPT)"},
    {QueuePolicy::kPriAspctfOpt, "pri_aspctf_opt",
     "aspctf_opt crediting the age of time-critical and time-limited commands only (DiskSim's PRI_ASPCTF_OPT)"},
    {QueuePolicy::kPriVscanLbn, "pri_vscan_lbn",
     "the highest of the drive's blocks less the LBN distance from the last command's first block (down costing "
     "the blocks again under an elevator), plus the drive's 'Priority scheduling' % of its blocks for a read or "
     "time-critical command, the first to come of a tie (DiskSim's PRI_VSCAN_LBN)"},
}};

}  // namespace

std::span<const QueuePolicyInfo> QueuePolicies() { return kPolicies; }

std::string_view QueuePolicyName(QueuePolicy policy) { return kPolicies[static_cast<size_t>(policy)].name; }

std::optional<QueuePolicy> FindQueuePolicy(std::string_view name) {
  for (const QueuePolicyInfo& p : kPolicies) {
    if (p.name == name) return p.policy;
  }
  return std::nullopt;
}

std::string QueuePolicyNames() {
  std::string names;
  for (const QueuePolicyInfo& p : kPolicies) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

std::string QueuePolicyDocs() {
  std::string docs;
  for (const QueuePolicyInfo& p : kPolicies) {
    docs += (docs.empty() ? "" : "; ") + std::string(p.name) + ": " + std::string(p.doc);
  }
  return docs;
}

}  // namespace ziosim
