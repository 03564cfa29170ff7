// A file's block layout taken from a real pool: `zdb -ddddd POOL/FS OBJECT`
// prints every block pointer of the file (the "Indirect blocks" section: L0/L1
// lines with DVAs "<vdev>:<offset>:<asize>"), and the DMU then reads exactly
// those blocks. What is accepted is listed in zdb_layout.cc; traces/zdb/ has a
// sample. Errors are InputError naming the file and line.
#ifndef ZIOSIM_SIM_ZFS_ZDB_LAYOUT_H_
#define ZIOSIM_SIM_ZFS_ZDB_LAYOUT_H_

#include <string>

#include "sim/zfs/file_layout.h"
#include "sim/zfs/pool.h"

namespace ziosim {

FileLayout ImportZdbLayout(const std::string& path, const Pool& pool);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ZDB_LAYOUT_H_
