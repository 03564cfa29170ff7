// The option groups several workloads share, declared once (option.h): the
// pool and its era, the dataset's properties, the read path's caches and
// layout, and a target that is a drive or a pool. Each is a template over the
// workload's options struct, which names its fields alike (pool, ashift,
// profile, settings, seed, recordsize, ...) or inherits them (fio's options
// are ReadersOptions and its own: Field).
#ifndef ZIOSIM_SIM_WORKLOAD_OPTION_GROUPS_H_
#define ZIOSIM_SIM_WORKLOAD_OPTION_GROUPS_H_

#include <cctype>
#include <string>
#include <vector>

#include "sim/core/option.h"
#include "sim/core/status.h"
#include "sim/zfs/host_profile.h"
#include "sim/zfs/pool_state.h"

namespace ziosim {

template <typename O>
std::vector<Option<O>> Concat(std::vector<std::vector<Option<O>>> groups) {
  std::vector<Option<O>> out;
  for (auto& g : groups) out.insert(out.end(), g.begin(), g.end());
  return out;
}

// `tunables = {...}` (Python, a scenario file's [tunables]) or `--set NAME=VALUE`, applied after the profile
// and the host profile: appended to `field`, which HostOption's settings lead whichever is given first.
template <typename O>
Option<O> TunablesOption(Settings O::*field) {
  OptionInfo info{.name = "tunables", .kind = OptionKind::kTunables,
                  .doc = "Tunables by their OpenZFS names, NAME=VALUE, applied after the profile (see `ziosim tunables`)",
                  .fallback = Json::object(), .section = "tunables", .key = "tunables", .flags = {"--set"}};
  return {std::move(info), [field](O& o, const Json& v, const std::string& label) {
            const Settings given = TunablesValue(v, label);
            (o.*field).insert((o.*field).end(), given.begin(), given.end());
          }};
}

// `--host FILE`: a host profile (sim/zfs/host_profile.h), the same as its
// ziosim_cpu_* tunables given after the profile and before every --set.
template <typename O>
Option<O> HostOption(Settings O::*field) {
  OptionInfo info{.name = "host", .kind = OptionKind::kText,
                  .doc = "Host profile: a .toml file of measured ziosim_cpu_* tunables (`ziosim calibrate --kind host`, "
                         "models/hosts/), applied after the profile and before the tunables",
                  .section = "pool", .key = "host"};
  return {std::move(info), [field](O& o, const Json& v, const std::string& label) {
            const Settings host = LoadHostFile(TextValue(v, label));
            (o.*field).insert((o.*field).begin(), host.begin(), host.end());
          }};
}

// The pool: every pool workload's first option.
template <typename O>
Option<O> PoolOption(const std::string& example) {
  return Required(In("pool", TextOption("pool", &O::pool, "Pool in zpool syntax, e.g. \"" + example + "\""), "spec"));
}

// The pool's era, its tunables and its sector size.
template <typename O>
std::vector<Option<O>> PoolEraGroup() {
  return {
      In("pool", TextOption("profile", Field<O>(&O::profile),
                            "Era profile (see `ziosim profiles`), or a .toml profile file")),
      TunablesOption(Field<O>(&O::settings)),
      HostOption(Field<O>(&O::settings)),
      In("pool", IntOption("ashift", Field<O>(&O::ashift), "Sector shift of the pool: 9 or 12")),
  };
}

template <typename O>
Option<O> SeedOption() {
  return In("workload", IntOption("seed", Field<O>(&O::seed),
                                  "Random seed (random offsets, layouts drawn, each pool drive's spindle angle at "
                                  "time 0): same seed, same results"));
}

// The pool's era and the run's seed: every pool workload's last options.
template <typename O>
std::vector<Option<O>> EraGroup() {
  return Concat<O>({PoolEraGroup<O>(), {SeedOption<O>()}});
}

// `compression`: the property's values ziosim models (lz4 decompression,
// sim/zfs/host_cpu.h), or a number, the older spelling of compressratio.
template <typename O>
Option<O> CompressionOption() {
  OptionInfo info{.name = "compression", .kind = OptionKind::kText,
                  .doc = "Dataset compression: on, lz4 or off (ziosim models lz4); a number is compressratio",
                  .fallback = "lz4", .section = "dataset", .key = "compression", .dataset_property = true};
  return {std::move(info), [](O& o, const Json& v, const std::string& label) {
            if (v.is_number() || (v.is_string() && !v.get<std::string>().empty() &&
                                  (std::isdigit(static_cast<unsigned char>(v.get<std::string>()[0])) != 0))) {
              o.compression = RealValue(v, label);
              return;
            }
            const std::string algorithm = TextValue(v, label);
            if (algorithm != "on" && algorithm != "lz4" && algorithm != "off") {
              throw InputError(label + ": \"" + algorithm + "\" is not modelled: on, lz4 or off (ziosim models "
                               "lz4's decompression cost), or a ratio");
            }
            o.compressed = algorithm != "off";
          }};
}

// The dataset a file workload reads or writes (`-o NAME=VALUE` takes these too).
template <typename O>
std::vector<Option<O>> FileDatasetGroup() {
  return {
      DatasetProperty(In("dataset", SizeOption("recordsize", Field<O>(&O::recordsize),
                                                "Dataset recordsize: a power of two from 512 to 16M"))),
  };
}

// `--pool-state cap=PCT,frag=PCT` (sim/zfs/pool_state.h): old data laid out
// before the files, as zpool list's CAP and FRAG say. Checked as it is given;
// the label is kept (O::pool_state_label) for what only the pool can refuse.
template <typename O>
Option<O> PoolStateOption() {
  OptionInfo info{.name = "pool_state", .kind = OptionKind::kText,
                  .doc = "A pool that is not empty: cap=PCT,frag=PCT (zpool list's CAP and FRAG), old data laid "
                         "out before the files; default: an empty pool",
                  .section = "pool", .key = "pool_state"};
  return {std::move(info), [](O& o, const Json& v, const std::string& label) {
            const std::string text = TextValue(v, label);
            ParsePoolState(text, label);
            o.pool_state = text;
            o.pool_state_label = label;
          }};
}

// What the caches hold and where old data lies on the disks.
template <typename O>
std::vector<Option<O>> CacheGroup() {
  return {
      DatasetProperty(In("dataset", TextOption("primarycache", Field<O>(&O::primarycache),
                                               "What the ARC keeps of the files: all, metadata or none"))),
      In("pool", TextOption("layout", Field<O>(&O::layout),
                            "On-disk layout: sequential, writers:N, shuffle:K, fragmented:PCT, sendrecv")),
      PoolStateOption<O>(),
      In("dataset", SizeOption("arc_max", Field<O>(&O::arc_max), "ARC size; 0: the tunable zfs_arc_max", false)),
      In("dataset", TextOption("l2arc", Field<O>(&O::l2arc), "Cache device drive (catalog name); default none")),
  };
}

// What the read path holds: compression, caching, the layout of old data.
template <typename O>
std::vector<Option<O>> ReadPathGroup() {
  return Concat<O>({{CompressionOption<O>(),
                     DatasetProperty(In("dataset", RealOption("compressratio", Field<O>(&O::compression),
                                                              "The data's compression ratio, logical / physical, "
                                                              "1 to 100",
                                                              "ratio")))},
                    CacheGroup<O>()});
}

// ---------------------------------------------------------------- a drive or a pool

// `--target`: a drive, or a pool in zpool syntax (IsPoolSpecText); `on_pool` says what a pool target means.
template <typename O>
Option<O> TargetOption(const std::string& on_pool) {
  return Required(In("workload", TextOption("target", &O::target,
                                            "A drive (catalog name, a .toml drive file, or disksim:FILE.parv), or a "
                                            "pool in zpool syntax (\"mirror 2xwd-re4-1tb\", 1xDRIVE for one disk): " +
                                                on_pool)));
}

// `options` as options of a pool target only: each, when given, records its
// flag in O::pool_options_given, so that a drive target refuses it by name
// (RefusePoolOptions).
template <typename O>
std::vector<Option<O>> PoolOnly(std::vector<Option<O>> options) {
  for (Option<O>& option : options) {
    option.info.doc += " (a pool target only)";
    option.set = [set = std::move(option.set), flag = option.info.Label(OptionFront::kCli)](
                     O& o, const Json& v, const std::string& label) {
      set(o, v, label);
      o.pool_options_given.push_back(flag);
    };
  }
  return options;
}

// The first pool option given with the drive `target` (`drive`: "a drive", "a raw drive"), as an InputError.
inline void RefusePoolOptions(const std::vector<std::string>& given, const std::string& target,
                              const std::string& drive) {
  if (given.empty()) return;
  throw InputError(given.front() + ": applies to a pool target, and --target " + target + " is " + drive +
                   " (write 1x" + target + " for a one-disk pool)");
}

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_OPTION_GROUPS_H_
