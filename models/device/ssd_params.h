// Everything the SSD model needs to know about one flash drive. Filled from a
// catalog entry (models/catalog/). Plain data; Validate() reports an
// inconsistent set as InputError. Every field defaults to zero so that a value
// nobody supplied cannot pass for a real one.
#ifndef ZIOSIM_MODELS_DEVICE_SSD_PARAMS_H_
#define ZIOSIM_MODELS_DEVICE_SSD_PARAMS_H_

#include <cstdint>
#include <string>

#include "sim/core/time.h"

namespace ziosim {

struct SsdParams {
  std::string name;
  std::string source;  // where the values come from (file, datasheet), for reports
  int64_t capacity_bytes = 0;
  int queue_depth = 0;  // NCQ tags (32 on SATA) or the host's NVMe queue size

  // Flash array: channels x dies-per-channel dies; a die reads or programs one page at a time.
  int channels = 0;
  int dies_per_channel = 0;
  int64_t page_bytes = 0;
  SimTime read_page_ns = 0;     // tR: array to the die's page register
  SimTime program_page_ns = 0;  // tPROG: page register to the array
  double channel_mb_s = 0;      // flash bus of one channel (shared by its dies)

  // Controller: each command first occupies one of `controller_cores` for
  // `controller_overhead_ns` (command parsing, FTL lookup), which bounds IOPS.
  int controller_cores = 0;
  SimTime controller_overhead_ns = 0;

  // Host link, shared by all commands: data at `interface_mb_s` plus, once per
  // command, the protocol exchange (SATA FISes, NVMe doorbell/completion) of `interface_command_ns`.
  double interface_mb_s = 0;
  SimTime interface_command_ns = 0;

  int dies() const { return channels * dies_per_channel; }

  // Throws InputError naming `source` and the offending field.
  void Validate() const;
};

// Large-block read throughput ceiling in MB/s (10^6 B/s): the least of the host
// link, the channels, and the dies (a die holds its page until the channel has moved it).
double SsdPeakReadMbS(const SsdParams& p);

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DEVICE_SSD_PARAMS_H_
