// ImportZdbLayout (sim/zfs/zdb_layout.h): a `zdb -ddddd` dump gives one file's
// layout on the pool, or an InputError. The pool is two 2-way mirrors of a
// catalog drive, built once.
#include <memory>

#include "fuzz/fuzz_file.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/zfs/allocator.h"
#include "sim/zfs/zdb_layout.h"
#include "sim/zfs/pool.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/tunables.h"

namespace {

const ziosim::Pool& TwoMirrors() {
  static ziosim::Simulation sim;
  static const ziosim::Pool pool(&sim, ziosim::ParsePoolSpec("mirror 2xwd-re4-1tb mirror 2xwd-re4-1tb"),
                                 ziosim::ProfileTunables(ziosim::kDefaultProfile), /*seed=*/1);
  return pool;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ziosim::Pool& pool = TwoMirrors();
  try {
    ziosim::ImportZdbLayout(ziosim::fuzz::WriteFuzzFile(data, size), pool);
  } catch (const ziosim::InputError&) {
  }
  return 0;
}
