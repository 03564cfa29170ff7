// ziosim._ziosim: the pybind11 face of the simulator. This file is a thin
// layer: it converts arguments, releases the GIL around every simulation,
// and returns plain Python containers (dicts of columns) that the Python
// package (bindings/ziosim/) turns into DataFrames. Errors: InputError ->
// ValueError, any other C++ exception -> RuntimeError, same message.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bindings/src/python_policy.h"
#include "models/catalog/catalog.h"
#include "models/device/hdd.h"
#include "models/device/ssd_params.h"
#include "models/disksim/disksim_import.h"
#include "sim/zfs/vdev/mirror_policy/mirror_policy.h"
#include "sim/zfs/vdev/mirror_policy/plugin_policy.h"
#include "sim/zfs/vdev/block_map_view.h"
#include "sim/zfs/vdev/draid_vdev.h"
#include "sim/zfs/vdev/raidz_map.h"
#include "sim/core/invariants.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/core/units.h"
#include "sim/trace/disksim_validate_trace.h"
#include "sim/workload/validate_replay.h"
#include "sim/workload/workload.h"
#include "sim/front/fronts.h"
#include "sim/front/scenario_file.h"
#include "sim/zfs/pool_report.h"
#include "sim/zfs/pool_spec.h"
#include "sim/zfs/tunables.h"

namespace py = pybind11;

namespace ziosim::python {
namespace {

// ---------------------------------------------------------------- helpers

template <typename T>
py::object ToPy(const T& v) {
  if constexpr (std::is_base_of_v<py::handle, T>) {
    return py::reinterpret_borrow<py::object>(v);
  } else {
    return py::cast(v);
  }
}

// A dict of equal-length lists, one per column, in insertion order.
class Columns {
 public:
  explicit Columns(std::vector<const char*> names) : names_(std::move(names)), data_(names_.size()) {}
  template <typename... T>
  void Row(const T&... values) {
    static_assert(sizeof...(T) > 0);
    size_t i = 0;
    (data_.at(i++).append(ToPy(values)), ...);
  }
  py::dict ToDict() const {
    py::dict d;
    for (size_t i = 0; i < names_.size(); ++i) d[py::str(names_[i])] = data_[i];
    return d;
  }

 private:
  std::vector<const char*> names_;
  std::vector<py::list> data_;
};

const char* TunableKindName(TunableKind kind) {
  switch (kind) {
    case TunableKind::kInt: return "int";
    case TunableKind::kBytes: return "bytes";
    case TunableKind::kBool: return "bool";
    case TunableKind::kChoice: return "choice";
  }
  return "";
}

double Figure(const DriveSpec& d, std::string_view key) {
  const CatalogValue* v = d.Find(key);
  return v != nullptr ? v->value : std::nan("");
}

// ---------------------------------------------------------------- catalog, tunables, profiles

py::dict Drives() {
  std::vector<DriveSpec> drives;
  {
    py::gil_scoped_release release;
    drives = CatalogDrives();
  }
  Columns c({"name", "kind", "description", "capacity_bytes", "rpm", "outer_mb_s", "inner_mb_s", "avg_seek_ms",
             "cylinders", "zones", "read_mb_s", "figures_sourced", "figures_estimated", "file"});
  for (const DriveSpec& d : drives) {
    const bool hdd = d.kind == DriveSpec::Kind::kHdd;
    const FigureCounts counts = d.CountFigures();
    const double nan = std::nan("");
    c.Row(d.name, hdd ? "hdd" : "ssd", d.description, static_cast<int64_t>(Figure(d, "capacity_bytes")),
          hdd ? Figure(d, "rpm") : nan, hdd ? Figure(d, "outer_mb_s") : nan, hdd ? Figure(d, "inner_mb_s") : nan,
          hdd ? Figure(d, "seek_average_ms") : nan, hdd ? static_cast<double>(d.hdd.layout.cylinders) : nan,
          hdd ? static_cast<double>(d.hdd.layout.zones.size()) : nan, hdd ? nan : SsdPeakReadMbS(d.ssd),
          counts.sourced, counts.estimated, d.file);
  }
  return c.ToDict();
}

py::dict DriveValues(const std::string& name) {
  DriveSpec d;
  {
    py::gil_scoped_release release;
    d = ResolveDrive(name);
  }
  Columns c({"drive", "key", "value", "estimated", "provenance"});
  for (const CatalogValue& v : d.values) c.Row(d.name, v.key, v.value, v.estimated, v.provenance);
  return c.ToDict();
}

py::dict TunablesTable() {
  Columns c({"name", "kind", "unit", "fallback", "values", "doc"});
  for (const TunableDef& def : TunableTable()) {
    c.Row(std::string(def.name), TunableKindName(def.kind), std::string(def.unit), std::string(def.fallback),
          TunableValues(def), std::string(def.doc));
  }
  return c.ToDict();
}

// One entry per profile: name, description, the file's settings (in file
// order) and every tunable's resolved value as text.
py::list Profiles() {
  std::vector<EraProfile> profiles;
  {
    py::gil_scoped_release release;
    profiles = EraProfiles();
  }
  py::list out;
  for (const EraProfile& p : profiles) {
    Tunables t;
    for (const auto& [name, value] : p.settings) t.Set(name, value, "profile " + p.name);
    py::dict values;
    for (const TunableDef& def : TunableTable()) values[py::str(std::string(def.name))] = t.Text(def.name);
    py::dict entry;
    entry["name"] = p.name;
    entry["description"] = p.description;
    entry["settings"] = p.settings;
    entry["values"] = values;
    out.append(entry);
  }
  return out;
}

// The fallback value of every tunable as text, as Tunables::Text prints it.
py::dict TunableFallbacks() {
  const Tunables t;
  py::dict d;
  for (const TunableDef& def : TunableTable()) d[py::str(std::string(def.name))] = t.Text(def.name);
  return d;
}

// Resolved tunables of one profile (or profile file) plus settings, as text;
// checks every setting exactly as a run would.
py::dict ResolveTunables(const std::string& profile, const std::vector<std::pair<std::string, std::string>>& settings) {
  Tunables t = ProfileTunables(profile);
  for (const auto& [name, value] : settings) t.Set(name, value, "tunables");
  py::dict d;
  for (const TunableDef& def : TunableTable()) d[py::str(std::string(def.name))] = t.Text(def.name);
  return d;
}

// ---------------------------------------------------------------- workloads with a front

std::vector<std::string> WorkloadNames() {
  std::vector<std::string> out;
  for (const WorkloadFront* f : WorkloadFronts()) out.push_back(f->name());
  return out;
}

// A workload's option table, one dict per option, as JSON text: the Python
// package builds the function's signature, defaults and docstring from it.
std::string OptionsOf(const std::string& workload) {
  const WorkloadFront& front = FindWorkloadFront(workload);
  Json out = {{"workload", front.name()}, {"summary", front.summary()}, {"options", Json::array()}};
  for (const OptionInfo& o : front.options()) {
    out["options"].push_back({{"name", o.name}, {"kind", std::string(OptionKindName(o.kind))}, {"unit", o.unit},
                              {"doc", o.doc}, {"default", o.fallback}, {"required", o.required},
                              {"section", o.section}, {"key", o.key}, {"flags", o.flags.empty() ? std::vector<std::string>{o.Label(OptionFront::kCli)} : o.flags},
                              {"dataset_property", o.dataset_property}});
  }
  return out.dump();
}

// Runs `workload` with the keyword arguments `args_json` (a JSON list of
// [name, value], in call order) and returns its result as JSON text, the
// value `--json` prints.
std::string RunFront(const std::string& workload, const std::string& args_json) {
  OptionArgs args;
  for (const Json& pair : Json::parse(args_json)) args.emplace_back(pair.at(0).get<std::string>(), pair.at(1));
  const WorkloadFront& front = FindWorkloadFront(workload);
  py::gil_scoped_release release;
  return front.Run(args, OptionFront::kPython).dump();
}

// A scenario file's run: (the workload's name, its result as JSON text).
std::pair<std::string, std::string> RunScenario(const std::string& path) {
  std::string workload;
  py::gil_scoped_release release;
  const Json result = RunScenarioFile(path, false, &workload);
  return {workload, result.dump()};
}


// ---------------------------------------------------------------- raidz-map

constexpr int kMaxRaidzBlocks = 100000;
constexpr int64_t kMaxBlockSize = int64_t{16} << 20;  // SPA_MAXBLOCKSIZE

// The checks of `ziosim raidz-map`, naming the Python arguments; returns the
// dRAID layout when `draid` names one.
std::optional<DraidLayout> CheckRaidz(int width, int parity, const std::string& draid, int ashift, int64_t psize,
                                      int64_t offset, int blocks) {
  std::optional<DraidLayout> layout;
  if (!draid.empty()) {
    if (parity != 0) throw InputError("parity: with draid= the keyword gives the parity (draid1, draid2, draid3)");
    try {
      layout.emplace(DraidConfigFromKeyword(draid, width));
    } catch (const InputError& e) {
      throw InputError("draid: " + std::string(e.what()) + (width == 0 ? "" : " (children)"));
    }
  } else if (width < 2 || width > kMaxRaidzWidth) {
    throw InputError("width: " + std::to_string(width) + " is out of range: a RAID-Z vdev has 2 to " +
                     std::to_string(kMaxRaidzWidth) + " children");
  } else if (parity < 1 || parity > 3) {
    throw InputError("parity: " + std::to_string(parity) + " is not 1, 2 or 3 (RAID-Z1/Z2/Z3)");
  } else if (parity >= width) {
    throw InputError("parity: " + std::to_string(parity) + " must be less than width (" + std::to_string(width) +
                     "): a block needs at least one data column");
  }
  if (ashift < 9 || ashift > 16) {
    throw InputError("ashift: " + std::to_string(ashift) + " is not in 9..16 (512-byte to 64 KiB sectors)");
  }
  if (blocks < 1 || blocks > kMaxRaidzBlocks) {
    throw InputError("blocks: " + std::to_string(blocks) + " is not in 1.." + std::to_string(kMaxRaidzBlocks));
  }
  const int64_t sector = int64_t{1} << ashift;
  const std::string sector_text = std::to_string(sector) + "-byte sector (ashift " + std::to_string(ashift) + ")";
  if (psize <= 0) throw InputError("psize: must be positive (got " + std::to_string(psize) + ")");
  if (psize > kMaxBlockSize) {
    throw InputError("psize: " + std::to_string(psize) + " bytes is above 16 MiB, the largest ZFS block");
  }
  if (offset < 0) throw InputError("offset: must not be negative (got " + std::to_string(offset) + ")");
  if (offset % sector != 0) {
    throw InputError("offset: " + std::to_string(offset) + " is not aligned to the " + sector_text);
  }
  if (layout && offset % (sector * layout->config().group_width()) != 0) {
    throw InputError("offset: " + std::to_string(offset) + " does not start a stripe row: dRAID blocks start at "
                     "multiples of the group width (" + std::to_string(layout->config().group_width()) +
                     ") times the " + sector_text);
  }
  const int64_t asize = layout ? DraidAsize(layout->config(), ashift, psize) : RaidzAsize(width, parity, ashift, psize);
  const __int128 end = static_cast<__int128>(offset) + static_cast<__int128>(asize) * blocks;
  if (end > INT64_MAX) throw InputError("offset/psize/blocks: the blocks would end beyond 2^63 bytes of vdev space");
  return layout;
}

// One row per column of each block (role P/Q/R/D; a zero-size D column holds
// only padding and is never read), then one row per padding sector (role S):
// RAID-Z's skip sectors, dRAID's zero-filled sectors of the full stripe.
py::dict RaidzMapRows(int width, int parity, const std::string& draid, int ashift, int64_t psize, int64_t offset,
                      int blocks) {
  const std::optional<DraidLayout> layout = CheckRaidz(width, parity, draid, ashift, psize, offset, blocks);
  Columns c({"layout", "width", "parity", "block", "block_offset", "asize", "skip_sectors", "row", "column", "child",
             "offset", "size", "role", "data_start"});
  const std::string name = layout ? layout->config().Name() : "raidz" + std::to_string(parity);
  const int children = layout ? layout->config().children : width;
  const int nparity = layout ? layout->config().parity : parity;
  int64_t at = offset;
  for (int b = 0; b < blocks; ++b) {
    const BlockMapView m = layout ? ViewDraidBlock(*layout, ashift, at, psize)
                                  : ViewRaidzBlock(width, parity, ashift, at, psize);
    const int64_t pads = static_cast<int64_t>(m.pads.size());
    int64_t data_at = 0;
    for (size_t k = 0; k < m.columns.size(); ++k) {
      const RaidzColumn& col = m.columns[k];
      const bool data = m.column_index[k] >= m.parity;
      py::object data_start = py::none();
      if (data && col.size > 0) data_start = py::cast(data_at);
      c.Row(name, children, nparity, b, at, m.asize, pads, m.column_row[k], m.column_index[k], col.child, col.offset,
            col.size, std::string(1, col.role), data_start);
      if (data) data_at += col.size;
    }
    for (const RaidzColumn& s : m.pads) {
      c.Row(name, children, nparity, b, at, m.asize, pads, -1, -1, s.child, s.offset, s.size, std::string("S"),
            py::none());
    }
    at += m.asize;
  }
  return c.ToDict();
}

// ---------------------------------------------------------------- validate-disksim

const char* CacheName(HddBreakdown::CacheOutcome c) {
  switch (c) {
    case HddBreakdown::CacheOutcome::kMiss: return "miss";
    case HddBreakdown::CacheOutcome::kWholeHit: return "whole_hit";
    case HddBreakdown::CacheOutcome::kPartialHit: return "partial_hit";
    case HddBreakdown::CacheOutcome::kWriteBuffered: return "write_buffered";
  }
  return "?";
}

// Per-request row kept while the GIL is released.
struct RequestRow {
  int64_t index;
  char op;
  int64_t lbn, blocks;
  double measured_ms, sim_ms;
  bool has_breakdown;
  HddBreakdown b;
};

py::dict ValidateDisksim(const std::string& parv, const std::string& trace_path, bool per_request) {
  std::vector<RequestRow> rows;
  ValidateReplayResult r;
  std::string name;
  std::vector<std::string> ignored;
  {
    py::gil_scoped_release release;
    // As the CLI: the trace streams through the replay, read on a second
    // thread (memory flat in its length); a malformed line fails when the
    // replay reaches it.
    DisksimValidateTrace trace(trace_path);
    DisksimImport drive = ImportDisksimDrive(parv, DisksimHost::kInTimes);
    ignored = drive.ignored;
    name = drive.params.name;
    Simulation sim;
    HddDevice dev(&sim, name, std::move(drive.params), QueuePolicy::kFifo);
    ValidateRequestCallback on_request;
    if (per_request) {
      on_request = [&rows](const ValidateRequestResult& q) {
        RequestRow row{q.index + 1, q.record->op == IoOp::kWrite ? 'W' : 'R', q.record->lbn, q.record->blocks,
                       q.record->measured_ms, q.simulated_ms, q.breakdown != nullptr, {}};
        if (q.breakdown != nullptr) row.b = *q.breakdown;
        rows.push_back(row);
      };
    }
    r = ReplayValidate(dev, sim, trace, on_request);
  }
  // The same object the CLI's --json prints, as a Python dict.
  py::dict s = py::module_::import("json").attr("loads")(
      ValidateSummaryJson(r, name, parv, trace_path, ignored.size()).dump());
  py::dict d;
  d["summary"] = s;
  d["ignored"] = ignored;
  if (per_request) {
    Columns c({"i", "op", "lbn", "blocks", "measured_ms", "sim_ms", "cache", "seek_cyls", "seek_ms", "latency_ms",
               "xfer_ms", "cyl", "head", "sector"});
    for (const RequestRow& q : rows) {
      const std::string op(1, q.op);
      if (q.has_breakdown) {
        c.Row(q.index, op, q.lbn, q.blocks, q.measured_ms, q.sim_ms, std::string(CacheName(q.b.cache)),
              q.b.seek_cylinders, NsToMs(q.b.seek_ns), NsToMs(q.b.latency_ns), NsToMs(q.b.transfer_ns),
              q.b.cylinder, q.b.head, q.b.sector);
      } else {
        const py::object none = py::none();
        c.Row(q.index, op, q.lbn, q.blocks, q.measured_ms, q.sim_ms, none, none, none, none, none, none, none,
              none);
      }
    }
    d["requests"] = c.ToDict();
  }
  return d;
}

// ---------------------------------------------------------------- mirror policies

py::dict MirrorPolicyTable() {
  Columns c({"name", "doc", "tunables"});
  for (const MirrorPolicyInfo& info : MirrorPolicies()) c.Row(info.name, info.doc, info.tunables);
  return c.ToDict();
}

}  // namespace
}  // namespace ziosim::python

PYBIND11_MODULE(_ziosim, m) {
  using namespace ziosim;
  using namespace ziosim::python;
  m.doc() = "ziosim's C++ core (internal: use the `ziosim` package)";

  // C++ errors keep their message: a user's mistake is a ValueError, anything
  // else (a bug, an I/O failure) a RuntimeError. Python errors pass through.
  py::register_exception_translator([](std::exception_ptr p) {
    if (!p) return;
    try {
      std::rethrow_exception(p);
    } catch (const py::error_already_set&) {
      throw;
    } catch (const py::builtin_exception&) {
      throw;
    } catch (const PolicyCallbackError& e) {
      RaisePolicyError(e);
    } catch (const InputTypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const InternalError& e) {
      PyErr_SetString(PyExc_RuntimeError, (std::string("internal error: ") + e.what()).c_str());
    } catch (const std::exception& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  m.def("parse_size", [](const std::string& text, const std::string& field, bool positive) {
    return positive ? ParsePositiveSize(text, field) : ParseSize(text, field);
  }, py::arg("text"), py::arg("field"), py::arg("positive"));
  m.def("drives", &Drives);
  m.def("drive_values", &DriveValues, py::arg("name"));
  m.def("catalog_dir", &CatalogDir);
  m.def("profiles_dir", &ProfilesDir);
  m.def("tunables", &TunablesTable);
  m.def("tunable_fallbacks", &TunableFallbacks);
  m.def("profiles", &Profiles);
  m.def("resolve_tunables", &ResolveTunables, py::arg("profile"), py::arg("settings"));
  m.def("default_profile", [] { return std::string(kDefaultProfile); });
  m.attr("__version__") = ZIOSIM_VERSION;  // CMakeLists.txt's project version, the CLI's --version
  m.def("workloads", &WorkloadNames);
  m.def("options", &OptionsOf, py::arg("workload"));
  m.def("run", &RunFront, py::arg("workload"), py::arg("args_json"));
  m.def("run_scenario", &RunScenario, py::arg("path"));
  m.def("raidz_map", &RaidzMapRows, py::arg("width"), py::arg("parity"), py::arg("draid"), py::arg("ashift"),
        py::arg("psize"), py::arg("offset"), py::arg("blocks"));
  m.def("validate_disksim", &ValidateDisksim, py::arg("parv"), py::arg("trace"), py::arg("per_request"));
  m.def("mirror_policies", &MirrorPolicyTable);
  m.def("load_mirror_policy_plugin", &LoadMirrorPolicyPlugin, py::arg("path"));
  DefineMirrorPolicyBindings(m);
}
