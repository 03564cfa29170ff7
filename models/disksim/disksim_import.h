// Turns a DiskSim 4.0 drive description into HddParams. Starting from a .parv
// file, it follows the topology to the single disk, the disk's block (usually
// from a sourced .diskspecs file), the dm_disk model it sources (layout and
// mechanics) and the model's seek-curve file, and maps every key the HDD model
// uses as DiskSim 4.0 interprets it (see the DiskSim glossary).
//
// Nothing is dropped silently. Keys that only print statistics, or that DiskSim
// 4.0 reads without effect, are listed in `ignored`. Every LBN-to-PBN mapping and
// sparing scheme is read. Features the model lacks (a read-ahead preempted only at
// the end of its seek, a separate sector buffer, ...) are accepted at the value the
// model implicitly has, and listed in `ignored`; any other value is refused. So are
// the features that act only on a drive's queue (intermediate hits, write
// prebuffering) on drives whose queue is longer than one. Several disks, or a missing, non-numeric
// or out-of-range key needed by the model are InputErrors that name the file, line
// and key.
#ifndef ZIOSIM_MODELS_DISKSIM_DISKSIM_IMPORT_H_
#define ZIOSIM_MODELS_DISKSIM_DISKSIM_IMPORT_H_

#include <string>
#include <vector>

#include "models/device/hdd_params.h"

namespace ziosim {

struct DisksimImport {
  HddParams params;
  // One "file:line: key" per key present in the drive's blocks (disk, model, layout,
  // zones, mechanics, the disk's bus) that the model does not use, each key once.
  std::vector<std::string> ignored;
};

// Reads the drive described by the .parv file at `parv_path`. The result has been
// checked with HddParams::Validate(). Throws InputError.
DisksimImport ImportDisksimDrive(const std::string& parv_path);

}  // namespace ziosim

#endif  // ZIOSIM_MODELS_DISKSIM_DISKSIM_IMPORT_H_
