// `ziosim profiles [--json] [--diff]`: the era profiles, their descriptions and
// the tunables each one changes; `ziosim tunables [--json]`: every tunable with
// its kind, unit, fallback, accepted values and doc.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/cli/commands.h"
#include "sim/zfs/tunables.h"

namespace ziosim::cli {
namespace {

struct ProfilesOptions {
  bool json = false;
  bool diff = false;
};

struct TunablesOptions {
  bool json = false;
};

const char* KindName(TunableKind kind) {
  switch (kind) {
    case TunableKind::kInt: return "int";
    case TunableKind::kBytes: return "bytes";
    case TunableKind::kBool: return "bool";
    case TunableKind::kChoice: return "choice";
  }
  return "";
}

// Left-aligned columns two spaces apart; the last column is not padded.
void PrintColumns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      std::string cell = row[c];
      if (c + 1 < row.size()) cell.resize(widths[c] + 2, ' ');
      line += cell;
    }
    std::printf("%s\n", line.c_str());
  }
}

// A profile with its full set of values.
struct Resolved {
  EraProfile profile;
  Tunables tunables;
};

std::vector<Resolved> ResolveAll() {
  std::vector<Resolved> out;
  for (EraProfile& p : EraProfiles()) {
    Tunables t;
    for (const auto& [name, value] : p.settings) t.Set(name, value, "profile " + p.name);
    out.push_back({std::move(p), std::move(t)});
  }
  return out;
}

bool DiffersFromFallback(const Tunables& t, const Tunables& fallback, std::string_view name) {
  return t.Text(name) != fallback.Text(name);
}

void PrintProfilesJson(const std::vector<Resolved>& all, bool diff_only) {
  const Tunables fallback;
  nlohmann::ordered_json profiles = nlohmann::ordered_json::array();
  for (const Resolved& r : all) {
    nlohmann::ordered_json tunables = nlohmann::ordered_json::object();
    for (const TunableDef& def : TunableTable()) {
      if (diff_only && !DiffersFromFallback(r.tunables, fallback, def.name)) continue;
      tunables[std::string(def.name)] = r.tunables.Text(def.name);
    }
    profiles.push_back(
        {{"name", r.profile.name}, {"description", r.profile.description}, {"tunables", std::move(tunables)}});
  }
  nlohmann::ordered_json out;
  out["profiles"] = std::move(profiles);
  std::cout << out.dump(2) << "\n";
}

// One line per profile: its name, then `name=value` for each tunable it changes.
void PrintProfilesDiff(const std::vector<Resolved>& all) {
  const Tunables fallback;
  for (const Resolved& r : all) {
    std::string line = r.profile.name + ":";
    for (const TunableDef& def : TunableTable()) {
      if (DiffersFromFallback(r.tunables, fallback, def.name)) {
        line += " " + std::string(def.name) + "=" + r.tunables.Text(def.name);
      }
    }
    std::printf("%s\n", line.c_str());
  }
}

// The profile list, then a tunable x profile table of the tunables any profile
// changes; "." marks the fallback value.
void PrintProfilesTable(const std::vector<Resolved>& all) {
  size_t name_width = 7;
  for (const Resolved& r : all) name_width = std::max(name_width, r.profile.name.size());
  std::printf("%-*s  %s\n", static_cast<int>(name_width), "PROFILE", "DESCRIPTION");
  for (const Resolved& r : all) {
    std::printf("%-*s  %s\n", static_cast<int>(name_width), r.profile.name.c_str(), r.profile.description.c_str());
  }

  const Tunables fallback;
  std::vector<const TunableDef*> changed;
  for (const TunableDef& def : TunableTable()) {
    if (std::any_of(all.begin(), all.end(),
                    [&](const Resolved& r) { return DiffersFromFallback(r.tunables, fallback, def.name); })) {
      changed.push_back(&def);
    }
  }
  if (changed.empty()) return;

  // Columns: tunable, fallback, one per profile.
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"TUNABLE", "FALLBACK"};
  for (const Resolved& r : all) header.push_back(r.profile.name);
  rows.push_back(header);
  for (const TunableDef* def : changed) {
    std::vector<std::string> row = {std::string(def->name), fallback.Text(def->name)};
    for (const Resolved& r : all) {
      row.push_back(DiffersFromFallback(r.tunables, fallback, def->name) ? r.tunables.Text(def->name) : ".");
    }
    rows.push_back(std::move(row));
  }
  std::printf("\nTunables a profile changes (\".\" = the fallback, the OpenZFS 2.2 default):\n");
  PrintColumns(rows);
  std::printf("\nEvery value with its source: the files in %s. All tunables: ziosim tunables.\n",
              ProfilesDir().c_str());
}

void RunProfiles(const ProfilesOptions& opt) {
  const std::vector<Resolved> all = ResolveAll();
  if (opt.json) {
    PrintProfilesJson(all, opt.diff);
  } else if (opt.diff) {
    PrintProfilesDiff(all);
  } else {
    PrintProfilesTable(all);
  }
}

void RunTunables(const TunablesOptions& opt) {
  if (opt.json) {
    nlohmann::ordered_json all = nlohmann::ordered_json::array();
    for (const TunableDef& def : TunableTable()) {
      all.push_back({{"name", def.name},
                     {"kind", KindName(def.kind)},
                     {"unit", def.unit},
                     {"fallback", def.fallback},
                     {"values", TunableValues(def)},
                     {"doc", def.doc}});
    }
    std::cout << all.dump(2) << "\n";
    return;
  }
  std::vector<std::vector<std::string>> rows = {{"NAME", "KIND", "UNIT", "FALLBACK", "VALUES", "DOC"}};
  for (const TunableDef& def : TunableTable()) {
    rows.push_back({std::string(def.name), KindName(def.kind), def.unit.empty() ? "-" : std::string(def.unit),
                    std::string(def.fallback), TunableValues(def), std::string(def.doc)});
  }
  PrintColumns(rows);
}

}  // namespace

void AddProfilesCommand(CLI::App& app) {
  auto opt = std::make_shared<ProfilesOptions>();
  CLI::App* cmd = app.add_subcommand("profiles", "List the era profiles and the tunables each one changes");
  cmd->add_flag("--json", opt->json, "Print {\"profiles\": [{name, description, tunables}]} with every tunable");
  cmd->add_flag("--diff", opt->diff,
                "Only the tunables that differ from the fallbacks (text: one line per profile)");
  cmd->callback([opt] { RunProfiles(*opt); });
}

void AddTunablesCommand(CLI::App& app) {
  auto opt = std::make_shared<TunablesOptions>();
  CLI::App* cmd = app.add_subcommand("tunables", "List every tunable: kind, unit, fallback, values, doc");
  cmd->add_flag("--json", opt->json, "Print the table as a JSON array");
  cmd->callback([opt] { RunTunables(*opt); });
}

}  // namespace ziosim::cli
