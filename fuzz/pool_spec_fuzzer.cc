// ParsePoolSpec (sim/zfs/pool_spec.h): a pool tree or an InputError; the
// canonical form FormatPoolSpec writes parses back to the same tree.
#include "fuzz/fuzz_file.h"
#include "sim/core/status.h"
#include "sim/zfs/pool_spec.h"

namespace {

bool SameTree(const ziosim::PoolSpec& a, const ziosim::PoolSpec& b) {
  if (a.vdevs.size() != b.vdevs.size()) return false;
  for (size_t i = 0; i < a.vdevs.size(); ++i) {
    const ziosim::PoolSpecVdev& x = a.vdevs[i];
    const ziosim::PoolSpecVdev& y = b.vdevs[i];
    if (x.type != y.type || x.parity != y.parity || x.leaves.size() != y.leaves.size()) return false;
    for (size_t j = 0; j < x.leaves.size(); ++j) {
      if (x.leaves[j].drive != y.leaves[j].drive) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ziosim;
  PoolSpec spec;
  try {
    spec = ParsePoolSpec(fuzz::AsText(data, size));
  } catch (const InputError&) {
    return 0;
  }
  // Outside the try: an error here is a finding too.
  fuzz::Require(!spec.vdevs.empty());
  fuzz::Require(SameTree(spec, ParsePoolSpec(FormatPoolSpec(spec))));
  return 0;
}
