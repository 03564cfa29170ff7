// `ziosim drives [--json]`: the drive catalog, one line per drive, with the
// headline figures and how many of each drive's figures are sourced or estimated.
// `ziosim drives disksim:FILE.parv`: the disks of a DiskSim spec instead.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "models/disksim/disksim_import.h"
#include "sim/core/status.h"
#include "sim/cli/commands.h"

namespace ziosim::cli {
namespace {

struct DrivesOptions {
  bool json = false;
  std::string spec;  // disksim:FILE.parv, or empty for the catalog
};

double Figure(const DriveSpec& d, std::string_view key) {
  const CatalogValue* v = d.Find(key);
  return v != nullptr ? v->value : 0;
}

std::string Format(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

// Whole numbers (bytes, counts, rpm) print as integers, the rest as reals.
nlohmann::json Number(double v) {
  if (std::trunc(v) == v && std::fabs(v) < 9e15) return static_cast<int64_t>(v);
  return v;
}

nlohmann::json DriveJson(const DriveSpec& d) {
  const bool hdd = d.kind == DriveSpec::Kind::kHdd;
  nlohmann::json j;
  j["name"] = d.name;
  j["kind"] = hdd ? "hdd" : "ssd";
  j["description"] = d.description;
  j["file"] = d.file;
  j["capacity_bytes"] = static_cast<int64_t>(Figure(d, "capacity_bytes"));
  if (hdd) {
    j["rpm"] = Number(Figure(d, "rpm"));
    j["outer_mb_s"] = Number(Figure(d, "outer_mb_s"));
    j["inner_mb_s"] = Number(Figure(d, "inner_mb_s"));
    j["avg_seek_ms"] = Number(Figure(d, "seek_average_ms"));
    j["cylinders"] = d.hdd.layout.cylinders;
    j["zones"] = d.hdd.layout.zones.size();
  } else {
    j["read_mb_s"] = SsdPeakReadMbS(d.ssd);
  }
  const FigureCounts counts = d.CountFigures();
  j["figures_sourced"] = counts.sourced;
  j["figures_estimated"] = counts.estimated;
  nlohmann::json values = nlohmann::json::object();
  for (const CatalogValue& v : d.values) {
    values[v.key] = {{"value", Number(v.value)}, {v.estimated ? "estimated" : "source", v.provenance}};
  }
  j["values"] = std::move(values);
  return j;
}

// "sourced/all", e.g. "4/19": how many of the drive's figures name a source.
std::string SourcedOfAll(const DriveSpec& d) {
  const FigureCounts counts = d.CountFigures();
  return std::to_string(counts.sourced) + "/" + std::to_string(counts.total());
}

void PrintTable(const std::vector<DriveSpec>& drives) {
  std::printf("%-22s %-4s %9s %5s %-15s %8s %8s\n", "NAME", "KIND", "CAP_GB", "RPM", "READ_MB/S", "SEEK_MS",
              "SOURCED");
  for (const DriveSpec& d : drives) {
    const bool hdd = d.kind == DriveSpec::Kind::kHdd;
    const std::string rate = hdd ? Format("%.0f", Figure(d, "outer_mb_s")) + "-" +
                                       Format("%.0f", Figure(d, "inner_mb_s")) + " (o-i)"
                                 : Format("%.0f", SsdPeakReadMbS(d.ssd)) + " (peak)";
    std::printf("%-22s %-4s %9.1f %5s %-15s %8s %8s\n", d.name.c_str(), hdd ? "hdd" : "ssd",
                Figure(d, "capacity_bytes") / 1e9, hdd ? Format("%.0f", Figure(d, "rpm")).c_str() : "-",
                rate.c_str(), hdd ? Format("%.1f", Figure(d, "seek_average_ms")).c_str() : "-",
                SourcedOfAll(d).c_str());
  }
  std::printf("\nMB/s = 10^6 B/s, GB = 10^9 B. SOURCED: figures with a source of all the drive's figures,\n"
              "the rest estimated. Every figure's source or reason: ziosim drives --json,\n"
              "or the drive's file in %s.\n", CatalogDir().c_str());
}

// The disks of a DiskSim spec, and which one `disksim:FILE` reads.
void PrintDisksimDisks(const std::string& spec, bool json) {
  constexpr std::string_view kPrefix = "disksim:";
  if (!spec.starts_with(kPrefix)) throw InputError("drives: \"" + spec + "\" is not disksim:FILE.parv");
  const DisksimImport imported = ImportDisksimDrive(spec.substr(kPrefix.size()), DisksimHost::kReplaced);
  const std::string& path = imported.params.source;  // the file, without #NAME
  if (json) {
    nlohmann::json disks = nlohmann::json::array();
    for (const DisksimDisk& d : imported.disks) disks.push_back({{"name", d.name}, {"block", d.block}});
    std::cout << nlohmann::json{{"file", path}, {"disks", disks}, {"read", imported.disk}}.dump(2) << "\n";
    return;
  }
  std::printf("%s: disks %s\n", path.c_str(), DescribeDisks(imported.disks).c_str());
  std::printf("%s reads %s (DiskSim's device 0 unless #NAME names another)\n", spec.c_str(), imported.disk.c_str());
}

void RunDrives(const DrivesOptions& opt) {
  if (!opt.spec.empty()) {
    PrintDisksimDisks(opt.spec, opt.json);
    return;
  }
  const std::vector<DriveSpec> drives = CatalogDrives();
  if (opt.json) {
    nlohmann::json all = nlohmann::json::array();
    for (const DriveSpec& d : drives) all.push_back(DriveJson(d));
    std::cout << all.dump(2) << "\n";
  } else {
    PrintTable(drives);
  }
}

}  // namespace

void AddDrivesCommand(CLI::App& app) {
  auto opt = std::make_shared<DrivesOptions>();
  CLI::App* cmd = app.add_subcommand("drives", "List the drive catalog");
  cmd->add_flag("--json", opt->json, "Print the catalog as a JSON array, with every figure's provenance");
  cmd->add_option("spec", opt->spec, "disksim:FILE.parv: list the disks of this DiskSim spec instead");
  cmd->callback([opt] { RunDrives(*opt); });
}

}  // namespace ziosim::cli
