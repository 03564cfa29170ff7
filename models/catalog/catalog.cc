#include "models/catalog/catalog.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <span>
#include <sstream>

#include "sim/core/toml.h"

#include "models/catalog/hdd_from_datasheet.h"
#include "models/device/hdd.h"
#include "models/device/ssd.h"
#include "models/disksim/disksim_import.h"
#include "sim/core/data_dir.h"
#include "sim/core/random.h"
#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/core/toml_util.h"

namespace ziosim {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kDisksimPrefix = "disksim:";
constexpr int64_t kSectorBytes = 512;

// How a figure must look: an integer (counts, bytes) or any number, and whether 0 is allowed.
enum class Number { kInteger, kReal };
struct KeySpec {
  std::string_view key;
  Number type;
  bool zero_ok;
};

constexpr KeySpec kHddKeys[] = {
    {"capacity_bytes", Number::kInteger, false},
    {"rpm", Number::kReal, false},
    {"sata_gbit_s", Number::kReal, false},
    {"queue_depth", Number::kInteger, false},
    {"surfaces", Number::kInteger, false},
    {"zones", Number::kInteger, false},
    {"outer_mb_s", Number::kReal, false},
    {"inner_mb_s", Number::kReal, false},
    {"seek_single_ms", Number::kReal, false},
    {"seek_average_ms", Number::kReal, false},
    {"seek_full_stroke_ms", Number::kReal, false},
    {"head_switch_ms", Number::kReal, false},
    {"cache_bytes", Number::kInteger, false},
    {"cache_segments", Number::kInteger, false},
    {"read_ahead_bytes", Number::kInteger, true},
    {"read_miss_overhead_us", Number::kReal, true},
    {"read_hit_overhead_us", Number::kReal, true},
    {"write_overhead_us", Number::kReal, true},
    {"completion_overhead_us", Number::kReal, true},
};

constexpr KeySpec kSsdKeys[] = {
    {"capacity_bytes", Number::kInteger, false},
    {"queue_depth", Number::kInteger, false},
    {"channels", Number::kInteger, false},
    {"dies_per_channel", Number::kInteger, false},
    {"page_bytes", Number::kInteger, false},
    {"read_page_us", Number::kReal, false},
    {"program_page_us", Number::kReal, false},
    {"channel_mb_s", Number::kReal, false},
    {"controller_cores", Number::kInteger, false},
    {"controller_overhead_us", Number::kReal, true},
    {"interface_mb_s", Number::kReal, false},
    {"interface_command_us", Number::kReal, true},
};

std::string FormatNumber(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

// A figure read from the file, with the line it sits on for later cross-checks.
struct ReadValue {
  CatalogValue value;
  int64_t integer = 0;  // exact, for Number::kInteger
  int line = 0;
};

// Reads the file's figures; knows the file for error messages.
class DriveFileReader {
 public:
  explicit DriveFileReader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void Fail(int line, std::string_view key, const std::string& what) const {
    throw InputError(path_, line, std::string(key) + ": " + what);
  }

  toml::table Parse() const { return ParseTomlFile(path_, "drive file"); }

  std::string RequireString(const toml::table& root, std::string_view key) const {
    const toml::node* node = root.get(key);
    if (node == nullptr) Fail(1, key, "missing");
    if (!node->is_string()) Fail(TomlLine(*node), key, "expected a string, got " + TomlTypeName(*node));
    return node->as_string()->get();
  }

  // Reads every key of `specs` from `table` (called `section` in messages).
  std::map<std::string, ReadValue, std::less<>> ReadFigures(const toml::table& table, std::string_view section,
                                                            std::span<const KeySpec> specs) const {
    for (auto&& [key, node] : table) {
      const std::string_view name = key.str();  // clang < 16 cannot capture a structured binding
      const bool known = std::any_of(specs.begin(), specs.end(), [&](const KeySpec& s) { return s.key == name; });
      if (!known) Fail(TomlLine(node), Qualified(section, name), "unknown key");
    }
    std::map<std::string, ReadValue, std::less<>> figures;
    for (const KeySpec& spec : specs) {
      const toml::node* node = table.get(spec.key);
      const std::string name = Qualified(section, spec.key);
      if (node == nullptr) Fail(TomlLine(table), name, "missing (every " + std::string(section) + " entry needs it)");
      figures.emplace(std::string(spec.key), ReadFigure(*node, spec, name));
    }
    return figures;
  }

  static std::string Qualified(std::string_view section, std::string_view key) {
    return std::string(section) + "." + std::string(key);
  }

 private:
  ReadValue ReadFigure(const toml::node& node, const KeySpec& spec, const std::string& name) const {
    const int line = TomlLine(node);
    const toml::table* t = node.as_table();
    if (t == nullptr) {
      Fail(line, name, "expected { value = ..., source = \"...\" } or { value = ..., estimated = \"why\" }, got " +
                           TomlTypeName(node));
    }
    for (auto&& [key, unused] : *t) {
      if (key != "value" && key != "source" && key != "estimated") {
        Fail(line, name, "unknown field \"" + std::string(key.str()) + "\" (expected value, source or estimated)");
      }
    }
    ReadValue out;
    out.line = line;
    out.value.key = std::string(spec.key);
    ReadProvenance(*t, name, line, &out.value);
    const toml::node* v = t->get("value");
    if (v == nullptr) Fail(line, name, "no value");
    if (v->is_integer()) {
      out.integer = v->as_integer()->get();
      out.value.value = static_cast<double>(out.integer);
    } else if (v->is_floating_point() && spec.type == Number::kReal) {
      out.value.value = v->as_floating_point()->get();
    } else {
      Fail(line, name, std::string(spec.type == Number::kInteger ? "expected an integer" : "expected a number") +
                           ", got " + TomlTypeName(*v));
    }
    const double x = out.value.value;
    if (!std::isfinite(x)) Fail(line, name, "not a finite number");
    if (x < 0) Fail(line, name, "must not be negative (got " + FormatNumber(x) + ")");
    if (x == 0 && !spec.zero_ok) Fail(line, name, "must be positive (got 0)");
    return out;
  }

  void ReadProvenance(const toml::table& t, const std::string& name, int line, CatalogValue* value) const {
    const toml::node* source = t.get("source");
    const toml::node* estimated = t.get("estimated");
    if (source == nullptr && estimated == nullptr) {
      Fail(line, name, "no provenance: add source = \"where it comes from\" or estimated = \"why this value\"");
    }
    if (source != nullptr && estimated != nullptr) Fail(line, name, "give either source or estimated, not both");
    const toml::node* given = source != nullptr ? source : estimated;
    const char* field = source != nullptr ? "source" : "estimated";
    if (!given->is_string() || given->as_string()->get().empty()) {
      Fail(line, name, std::string(field) + " must be a non-empty string");
    }
    value->estimated = estimated != nullptr;
    value->provenance = given->as_string()->get();
  }

  std::string path_;
};

using Figures = std::map<std::string, ReadValue, std::less<>>;

const ReadValue& Get(const Figures& f, std::string_view key) { return f.find(key)->second; }

int IntFigure(const DriveFileReader& r, const Figures& f, std::string_view section, std::string_view key) {
  const ReadValue& v = Get(f, key);
  if (v.integer > std::numeric_limits<int>::max()) {
    r.Fail(v.line, DriveFileReader::Qualified(section, key), "too large (got " + std::to_string(v.integer) + ")");
  }
  return static_cast<int>(v.integer);
}

void RequireSectorMultiple(const DriveFileReader& r, const Figures& f, std::string_view section,
                           std::string_view key) {
  const ReadValue& v = Get(f, key);
  if (v.integer % kSectorBytes != 0) {
    r.Fail(v.line, DriveFileReader::Qualified(section, key), "must be a multiple of 512 bytes");
  }
}

// `lower` must not exceed `upper` (both already read).
void RequireOrder(const DriveFileReader& r, const Figures& f, std::string_view section, std::string_view lower,
                  std::string_view upper) {
  const ReadValue& lo = Get(f, lower);
  const ReadValue& hi = Get(f, upper);
  if (lo.value.value > hi.value.value) {
    r.Fail(lo.line, DriveFileReader::Qualified(section, lower),
           FormatNumber(lo.value.value) + " exceeds " + std::string(upper) + " " + FormatNumber(hi.value.value));
  }
}

// `key` must lie in [lo, hi] (already read).
void RequireWithin(const DriveFileReader& r, const Figures& f, std::string_view section, std::string_view key,
                   double lo, double hi) {
  const ReadValue& v = Get(f, key);
  if (v.value.value < lo || v.value.value > hi) {
    r.Fail(v.line, DriveFileReader::Qualified(section, key),
           "outside " + FormatNumber(lo) + ".." + FormatNumber(hi) + " (got " + FormatNumber(v.value.value) + ")");
  }
}

HddDatasheet HddFromFigures(const DriveFileReader& r, const Figures& f) {
  constexpr std::string_view kSection = "hdd";
  // Estimated bounds, well outside real drives (3600-15000 rpm, <= 20 heads, ~30 zones,
  // < 300 MB/s, seeks < 30 ms, head switches ~1 ms): they keep the derivation's integer
  // ps and skew-sector arithmetic and its per-zone tables in range (fuzz/drive_toml_fuzzer.cc).
  RequireWithin(r, f, kSection, "rpm", 1000, 20000);
  RequireWithin(r, f, kSection, "surfaces", 1, 100);
  RequireWithin(r, f, kSection, "zones", 1, 10000);
  RequireWithin(r, f, kSection, "outer_mb_s", 0, 2000);
  RequireWithin(r, f, kSection, "seek_full_stroke_ms", 0, 100);
  RequireWithin(r, f, kSection, "head_switch_ms", 0, 100);
  RequireSectorMultiple(r, f, kSection, "capacity_bytes");
  RequireOrder(r, f, kSection, "inner_mb_s", "outer_mb_s");
  RequireOrder(r, f, kSection, "seek_single_ms", "seek_average_ms");
  RequireOrder(r, f, kSection, "seek_average_ms", "seek_full_stroke_ms");
  const ReadValue& sata = Get(f, "sata_gbit_s");
  if (sata.value.value != 1.5 && sata.value.value != 3 && sata.value.value != 6) {
    r.Fail(sata.line, "hdd.sata_gbit_s", "must be 1.5, 3 or 6 (got " + FormatNumber(sata.value.value) + ")");
  }
  HddDatasheet s;
  s.capacity_bytes = Get(f, "capacity_bytes").integer;
  s.rpm = Get(f, "rpm").value.value;
  s.sata_gbit_s = sata.value.value;
  s.queue_depth = IntFigure(r, f, kSection, "queue_depth");
  s.surfaces = IntFigure(r, f, kSection, "surfaces");
  s.zones = IntFigure(r, f, kSection, "zones");
  if (s.zones < 2) r.Fail(Get(f, "zones").line, "hdd.zones", "must be at least 2 (outer and inner)");
  s.outer_mb_s = Get(f, "outer_mb_s").value.value;
  s.inner_mb_s = Get(f, "inner_mb_s").value.value;
  s.seek_single_ms = Get(f, "seek_single_ms").value.value;
  s.seek_average_ms = Get(f, "seek_average_ms").value.value;
  s.seek_full_stroke_ms = Get(f, "seek_full_stroke_ms").value.value;
  s.head_switch_ms = Get(f, "head_switch_ms").value.value;
  s.cache_bytes = Get(f, "cache_bytes").integer;
  s.cache_segments = IntFigure(r, f, kSection, "cache_segments");
  s.read_ahead_bytes = Get(f, "read_ahead_bytes").integer;
  const int64_t segment_bytes = s.cache_bytes / s.cache_segments;
  if (segment_bytes < kSectorBytes) {
    r.Fail(Get(f, "cache_segments").line, "hdd.cache_segments", "leaves segments smaller than one sector");
  }
  if (s.read_ahead_bytes > segment_bytes) {
    r.Fail(Get(f, "read_ahead_bytes").line, "hdd.read_ahead_bytes",
           "exceeds one cache segment (" + std::to_string(segment_bytes) + " bytes)");
  }
  s.read_miss_overhead_us = Get(f, "read_miss_overhead_us").value.value;
  s.read_hit_overhead_us = Get(f, "read_hit_overhead_us").value.value;
  s.write_overhead_us = Get(f, "write_overhead_us").value.value;
  s.completion_overhead_us = Get(f, "completion_overhead_us").value.value;
  return s;
}

SimTime UsToNs(double us) { return static_cast<SimTime>(std::llround(us * kNsPerUs)); }

SsdParams SsdFromFigures(const DriveFileReader& r, const Figures& f) {
  constexpr std::string_view kSection = "ssd";
  RequireSectorMultiple(r, f, kSection, "capacity_bytes");
  RequireSectorMultiple(r, f, kSection, "page_bytes");
  SsdParams p;
  p.capacity_bytes = Get(f, "capacity_bytes").integer;
  p.queue_depth = IntFigure(r, f, kSection, "queue_depth");
  p.channels = IntFigure(r, f, kSection, "channels");
  p.dies_per_channel = IntFigure(r, f, kSection, "dies_per_channel");
  p.page_bytes = Get(f, "page_bytes").integer;
  p.read_page_ns = UsToNs(Get(f, "read_page_us").value.value);
  p.program_page_ns = UsToNs(Get(f, "program_page_us").value.value);
  p.channel_mb_s = Get(f, "channel_mb_s").value.value;
  p.controller_cores = IntFigure(r, f, kSection, "controller_cores");
  p.controller_overhead_ns = UsToNs(Get(f, "controller_overhead_us").value.value);
  p.interface_mb_s = Get(f, "interface_mb_s").value.value;
  p.interface_command_ns = UsToNs(Get(f, "interface_command_us").value.value);
  return p;
}

std::vector<CatalogValue> InSpecOrder(const Figures& f, std::span<const KeySpec> specs) {
  std::vector<CatalogValue> values;
  for (const KeySpec& spec : specs) values.push_back(Get(f, spec.key).value);
  return values;
}

DriveSpec LoadCatalogEntry(const std::string& name) {
  const std::string path = (fs::path(CatalogDir()) / (name + ".toml")).string();
  DriveSpec spec = LoadDriveFile(path);
  if (spec.name != name) {
    throw InputError(path + ": name: \"" + spec.name + "\" differs from the file name \"" + name +
                     ".toml\"; catalog entries are found by file name");
  }
  return spec;
}

DriveSpec ImportDisksim(const std::string& path) {
  DisksimImport imported = ImportDisksimDrive(path, DisksimHost::kReplaced);
  DriveSpec spec;
  spec.kind = DriveSpec::Kind::kHdd;
  spec.name = fs::path(path).stem().string();
  spec.file = path;
  spec.description = "DiskSim drive " + path;
  // A spec of several disks: which one, and which there are.
  if (imported.disks.size() > 1) {
    spec.name += "#" + imported.disk;
    spec.description += " (its disks: " + DescribeDisks(imported.disks) + ")";
  }
  if (!imported.ignored.empty()) {
    spec.description += " (" + std::to_string(imported.ignored.size()) + " parameters not modelled)";
  }
  spec.hdd = std::move(imported.params);
  spec.queue_order = imported.queue_order;
  return spec;
}

bool LooksLikePath(std::string_view s) {
  return s.find('/') != std::string_view::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".toml");
}

DriveSpec FixedDrive(const std::string& text) {
  DriveSpec spec;
  spec.kind = DriveSpec::Kind::kFixed;
  spec.fixed = ParseFixedDevice(text);
  spec.name = text;
  spec.description = "reference device of the real-ZFS cross-check: latency + size / bandwidth per command";
  spec.file = "(spelled in place)";
  return spec;
}

}  // namespace

const CatalogValue* DriveSpec::Find(std::string_view key) const {
  for (const CatalogValue& v : values) {
    if (v.key == key) return &v;
  }
  return nullptr;
}

FigureCounts DriveSpec::CountFigures() const {
  FigureCounts counts;
  for (const CatalogValue& v : values) (v.estimated ? counts.estimated : counts.sourced) += 1;
  return counts;
}

std::string CatalogDir() { return DataDir("catalog", ZIOSIM_CATALOG_DIR); }

DriveSpec LoadDriveFile(const std::string& path) {
  const DriveFileReader reader(path);
  const toml::table root = reader.Parse();
  DriveSpec spec;
  spec.file = path;
  spec.name = reader.RequireString(root, "name");
  spec.description = reader.RequireString(root, "description");
  const std::string kind = reader.RequireString(root, "kind");
  if (kind != "hdd" && kind != "ssd") reader.Fail(TomlLine(*root.get("kind")), "kind", "must be \"hdd\" or \"ssd\"");
  for (auto&& [key, node] : root) {
    if (key != "name" && key != "description" && key != "kind" && key != kind) {
      reader.Fail(TomlLine(node), key.str(), "unknown key for a " + kind + " drive");
    }
  }
  const toml::node* section = root.get(kind);
  if (section == nullptr || !section->is_table()) {
    reader.Fail(section == nullptr ? 1 : TomlLine(*section), kind, "missing [" + kind + "] table of figures");
  }
  const toml::table& figures_table = *section->as_table();
  if (kind == "hdd") {
    const Figures figures = reader.ReadFigures(figures_table, kind, kHddKeys);
    spec.kind = DriveSpec::Kind::kHdd;
    spec.hdd = DeriveHddParams(HddFromFigures(reader, figures), spec.name, path);
    spec.values = InSpecOrder(figures, kHddKeys);
  } else {
    const Figures figures = reader.ReadFigures(figures_table, kind, kSsdKeys);
    spec.kind = DriveSpec::Kind::kSsd;
    spec.ssd = SsdFromFigures(reader, figures);
    spec.ssd.name = spec.name;
    spec.ssd.source = path;
    spec.values = InSpecOrder(figures, kSsdKeys);
  }
  return spec;
}

std::vector<std::string> CatalogNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(CatalogDir(), ec)) {
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  }
  if (ec) throw InputError(CatalogDir() + ": cannot read the drive catalog: " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<DriveSpec> CatalogDrives() {
  std::vector<DriveSpec> drives;
  for (const std::string& name : CatalogNames()) drives.push_back(LoadCatalogEntry(name));
  return drives;
}

DriveSpec ResolveDrive(const std::string& name_or_path) {
  if (name_or_path.starts_with(kDisksimPrefix)) return ImportDisksim(name_or_path.substr(kDisksimPrefix.size()));
  if (name_or_path.starts_with(kFixedDevicePrefix)) return FixedDrive(name_or_path);
  if (LooksLikePath(name_or_path)) return LoadDriveFile(name_or_path);
  const std::vector<std::string> names = CatalogNames();
  if (!std::binary_search(names.begin(), names.end(), name_or_path)) {
    throw InputError("unknown drive \"" + name_or_path + "\"; known drives: " + Join(names) +
                     " (or a .toml drive file, or disksim:FILE.parv)");
  }
  return LoadCatalogEntry(name_or_path);
}

QueuePolicy NativeQueuePolicy(const DriveSpec& spec) {
  if (spec.queue_order) return *spec.queue_order;
  const bool ncq = spec.kind == DriveSpec::Kind::kHdd && spec.hdd.queue_depth > 1;
  return ncq ? QueuePolicy::kSptf : QueuePolicy::kFifo;
}

std::unique_ptr<Device> MakeDevice(Simulation* sim, const std::string& device_name, const DriveSpec& spec,
                                   QueuePolicy policy, double spindle_phase) {
  if (spec.kind == DriveSpec::Kind::kSsd) return std::make_unique<SsdDevice>(sim, device_name, spec.ssd);
  if (spec.kind == DriveSpec::Kind::kFixed) return std::make_unique<FixedDevice>(sim, device_name, spec.fixed);
  return std::make_unique<HddDevice>(sim, device_name, spec.hdd, policy, spindle_phase);
}

double SpindlePhase(uint64_t run_seed, const std::string& device_name) {
  return RandomStream(run_seed, "spindle " + device_name).Uniform01();
}

}  // namespace ziosim
