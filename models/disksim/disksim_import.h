// Turns a DiskSim 4.0 drive description into HddParams. Starting from a .parv
// file, it follows the topology to one disk, the disk's block (usually
// from a sourced .diskspecs file), the dm_disk model it sources (layout and
// mechanics) and the model's seek-curve file, and maps every key the HDD model
// uses as DiskSim 4.0 interprets it (see the DiskSim glossary).
//
// Nothing is dropped silently. Keys that only print statistics, or that DiskSim
// 4.0 reads without effect, are listed in `ignored`. Layouts dm_layout_g1 (every
// LBN-to-PBN mapping and sparing scheme), g2 (a DIXtrac map file) and g4 (DIXtrac's
// tables) are read. Features the model lacks (a read-ahead preempted only at the end
// of its seek, a separate sector buffer, ...) are accepted at the value the model
// implicitly has, and listed in `ignored`; any other value is refused. So are the
// features that act only on a drive's queue (intermediate hits, write prebuffering)
// on drives whose queue is longer than one. A missing, non-numeric or out-of-range
// key needed by the model is an InputError that names the file, line and key.
#ifndef ZIOSIM_MODELS_DISKSIM_DISKSIM_IMPORT_H_
#define ZIOSIM_MODELS_DISKSIM_DISKSIM_IMPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "models/device/hdd_params.h"
#include "models/device/queue_policy.h"

namespace ziosim {

// A disk of the spec's topology: its instance name and the disk block it instantiates.
struct DisksimDisk {
  std::string name;
  std::string block;
};

struct DisksimImport {
  HddParams params;
  // One "file:line: key" per key present in the drive's blocks (disk, model, layout,
  // zones, mechanics, the disk's bus) that the model does not use, each key once,
  // and with DisksimHost::kReplaced the host settings that would add time.
  std::vector<std::string> ignored;
  // The topology's disks, in topology order, and the name of the one read.
  std::vector<DisksimDisk> disks;
  std::string disk;
  // How the disk's own scheduler orders its queue, when the model has it (FCFS and
  // the LBN-ordered schedulers that merge, delay and rank nothing); otherwise empty.
  std::optional<QueuePolicy> queue_order;
};

// What an import makes of the spec's host side: the device driver and the
// controllers between it and the disk.
enum class DisksimHost {
  // The drive replays a DiskSim trace whose times include the host side
  // (validate-disksim, a drive fitted to such a trace): a host setting that
  // would add time to each request, which the model lacks, is refused.
  kInTimes,
  // The drive serves ziosim's own host (a pool, a bench, the drive list): DiskSim's
  // host side is not part of it, and such settings are listed as ignored.
  kReplaced,
};

// Reads the drive described by the .parv file at `spec_path`: "FILE.parv#NAME" reads
// the disk instance NAME of its topology (a spec may hold disks of several kinds),
// plain "FILE.parv" DiskSim's device 0, the topology's first disk. The result has
// been checked with HddParams::Validate(); its name is the disk block's. Throws
// InputError; a NAME that is not one of the topology's disks gives a one-line error
// that lists them.
DisksimImport ImportDisksimDrive(const std::string& spec_path, DisksimHost host = DisksimHost::kInTimes);

// "disk0 (BLOCK), disk1 (BLOCK), ...".
std::string DescribeDisks(const std::vector<DisksimDisk>& disks);

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DISKSIM_DISKSIM_IMPORT_H_
