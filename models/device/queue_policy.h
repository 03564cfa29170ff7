// How a device picks the next command from the commands waiting in it: one table
// of named policies, which the CLI's --policy, the docs and the DiskSim importer read.
#ifndef ZIOSIM_MODELS_DEVICE_QUEUE_POLICY_H_
#define ZIOSIM_MODELS_DEVICE_QUEUE_POLICY_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ziosim {

enum class QueuePolicy : uint8_t {
  kFifo,         // arrival order
  kSptf,         // shortest positioning time first (NCQ-style reordering; HDD only)
  // DiskSim's disk schedulers that order by address (models/device/disksim_queue_order.h):
  kSstfLbn,      // DiskSim's SSTF_LBN (and VSCAN_LBN): nearest LBN to the last command's end (HDD only)
  kElevatorLbn,  // DiskSim's ELEVATOR_LBN as its disk queue runs it (HDD only)
  kCycleLbn,     // DiskSim's CYCLE_LBN: ascending LBN, wrapping to the lowest (HDD only)
  kSstfCyl,      // DiskSim's SSTF_CYL: nearest cylinder (HDD only)
  kElevatorCyl,  // DiskSim's ELEVATOR_CYL as its disk queue runs it (HDD only)
  kCycleCyl,     // DiskSim's CYCLE_CYL: ascending cylinder, wrapping to the lowest (HDD only)
  kVscanCyl,     // DiskSim's VSCAN_CYL as it runs: nearest cylinder to cylinder 0's block 0 (HDD only)
  // DiskSim's disk schedulers that order by estimated positioning time or seek
  // distance (models/device/disksim_positioning_order.h; HDD only):
  kSptfOpt,    // SPTF_OPT: least initiation delay + seek + rotational latency
  kSpctfOpt,   // SPCTF_OPT: as SPTF_OPT, reads the cache holds costing (almost) nothing
  kWptfOpt,    // WPTF_OPT: SPTF_OPT's cost scaled down with the command's age
  kWpctfOpt,   // WPCTF_OPT: SPCTF_OPT's cost scaled down with the command's age
  kAsptfOpt,   // ASPTF_OPT: SPTF_OPT's cost less a credit for the command's age
  kAspctfOpt,  // ASPCTF_OPT: SPCTF_OPT's cost less a credit for the command's age
  kSptfRotWeight,   // SPTF_ROT_WEIGHT: of SPTF_OPT's least cost, the most rotation
  kSptfSeekWeight,  // SPTF_SEEK_WEIGHT: the shortest seek among the running least costs
  kSdfApprox,  // SDF_APPROX: fewest cylinders from the last command's last block
  kSdfExact,   // SDF_EXACT: fewest cylinders from the arm
  kPriAsptfOpt,   // PRI_ASPTF_OPT: ASPTF_OPT, crediting only urgent commands' age
  kPriAspctfOpt,  // PRI_ASPCTF_OPT: ASPCTF_OPT, crediting only urgent commands' age
  // DiskSim's PRI_VSCAN_LBN (models/device/disksim_priority_order.h; HDD only):
  kPriVscanLbn,  // the highest of LBN nearness plus a weight for reads and time-critical commands
};

struct QueuePolicyInfo {
  QueuePolicy policy;
  std::string_view name;
  std::string_view doc;
};

// Every policy, in the enum's order.
std::span<const QueuePolicyInfo> QueuePolicies();
std::string_view QueuePolicyName(QueuePolicy policy);
// The policy called `name`, if there is one.
std::optional<QueuePolicy> FindQueuePolicy(std::string_view name);
// "fifo, sptf, ...": the names, for messages.
std::string QueuePolicyNames();
// "fifo: arrival order; sptf: ...; ...": each name with its meaning, for option docs.
std::string QueuePolicyDocs();

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_QUEUE_POLICY_H_
