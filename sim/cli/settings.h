// Command-line pieces every pool-level command shares: `--set NAME=VALUE`
// (repeatable) parsed into name/value pairs, the flags of the file sweeps
// (`readers`, `writers`) and of the read path (`readers`, `fio` on a pool).
#ifndef ZIOSIM_SIM_CLI_SETTINGS_H_
#define ZIOSIM_SIM_CLI_SETTINGS_H_

#include <string>
#include <utility>
#include <vector>

#include "sim/core/units.h"
#include "sim/workload/readers.h"

namespace ziosim::cli {

// Splits each "NAME=VALUE"; throws InputError naming --set for one without '='.
std::vector<std::pair<std::string, std::string>> ParseSettings(const std::vector<std::string>& raw);

// The options a file sweep's flags give alike (--pool, --ashift, --profile,
// --set, --bs, --file-size, --recordsize, --seed): `Cli` holds the flags as
// typed, `Options` is ReadersOptions or WritersOptions. Throws InputError.
template <typename Cli, typename Options>
void SetFileSweepOptions(const Cli& c, Options* o) {
  o->pool = c.pool;
  o->ashift = c.ashift;
  o->profile = c.profile;
  o->settings = ParseSettings(c.set);
  o->bs = ParsePositiveSize(c.bs, "--bs");
  o->file_size = ParsePositiveSize(c.file_size, "--file-size");
  o->recordsize = ParsePositiveSize(c.recordsize, "--recordsize");
  o->seed = c.seed;
}

// The read-path options of a ReadersOptions from their flags (--compression,
// --layout, --primarycache, --arc-max, --l2arc), as typed in `Cli`.
template <typename Cli>
void SetReadPathOptions(const Cli& c, ReadersOptions* o) {
  o->compression = c.compression;
  o->layout = c.layout;
  o->primarycache = c.primarycache;
  o->arc_max = c.arc_max == "0" ? 0 : ParsePositiveSize(c.arc_max, "--arc-max");  // 0: the tunable zfs_arc_max
  o->l2arc = c.l2arc;
}

}  // namespace ziosim::cli

#endif  // ZIOSIM_SIM_CLI_SETTINGS_H_
