// `ziosim run FILE.toml`: the settings of a readers sweep from a file (schema
// in docs/run-config.md); the same run as the equivalent `ziosim readers` line.
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <type_traits>

#include <toml++/toml.h>

#include "sim/cli/commands.h"
#include "sim/cli/readers_output.h"
#include "sim/core/status.h"
#include "sim/core/toml_util.h"
#include "sim/core/units.h"

namespace ziosim::cli {
namespace {

class ConfigReader {
 public:
  explicit ConfigReader(std::string path) : path_(std::move(path)), root_(ParseTomlFile(path_, "scenario file")) {}

  // Rejects tables and keys the schema does not know, so a typo is never silently ignored.
  void CheckKeys(const std::string& table, const std::set<std::string>& known) const {
    const toml::table* t = root_[table].as_table();
    if (t == nullptr) return;
    for (const auto& [key, node] : *t) {
      if (!known.count(std::string(key.str()))) {
        throw InputError(path_, Line(node), table + "." + std::string(key.str()) + ": unknown key");
      }
    }
  }
  void CheckTables(const std::set<std::string>& known) const {
    for (const auto& [key, node] : root_) {
      if (!known.count(std::string(key.str()))) throw InputError(path_, Line(node), std::string(key.str()) + ": unknown table");
    }
  }

  template <typename T>
  void Get(const std::string& table, const std::string& key, T* out) const {
    const toml::node* n = root_[table][key].node();
    if (n == nullptr) return;
    auto v = n->value<T>();
    if (!v) throw InputError(path_, Line(*n), table + "." + key + ": wrong type");
    if constexpr (std::is_floating_point_v<T>) {
      if (!std::isfinite(*v)) throw InputError(path_, Line(*n), table + "." + key + ": not a finite number");
    }
    *out = *v;
  }
  // A size given as a number of bytes or as text with a K/M/G/T suffix.
  void GetSize(const std::string& table, const std::string& key, int64_t* out) const {
    const toml::node* n = root_[table][key].node();
    if (n == nullptr) return;
    const std::string field = path_ + ":" + std::to_string(Line(*n)) + ": " + table + "." + key;
    if (auto i = n->value<int64_t>()) {
      if (*i <= 0) throw InputError(field + ": must be positive");
      *out = *i;
    } else if (auto s = n->value<std::string>()) {
      *out = ParsePositiveSize(*s, field);
    } else {
      throw InputError(field + ": not a size");
    }
  }
  void GetReaders(std::vector<int>* out) const {
    const toml::node* n = root_["workload"]["readers"].node();
    if (n == nullptr) return;
    const toml::array* a = n->as_array();
    if (a == nullptr) throw InputError(path_, Line(*n), "workload.readers: not a list of integers");
    out->clear();
    for (const toml::node& e : *a) {
      auto v = e.value<int>();  // not int64_t: 4294967297 readers must not become 1
      if (!v) throw InputError(path_, Line(e), "workload.readers: not an integer");
      out->push_back(*v);
    }
  }
  void GetTunables(std::vector<std::pair<std::string, std::string>>* out) const {
    const toml::table* t = root_["tunables"].as_table();
    if (t == nullptr) return;
    for (const auto& [key, node] : *t) {
      const std::string name(key.str());
      out->emplace_back(name, TomlScalarText(path_, "tunables." + name, node));
    }
  }

 private:
  static int Line(const toml::node& n) { return TomlLine(n); }
  std::string path_;
  toml::table root_;
};

void Run(const std::string& path, bool json, bool check_only) {
  ConfigReader cfg(path);
  cfg.CheckTables({"pool", "tunables", "dataset", "workload"});
  cfg.CheckKeys("pool", {"spec", "ashift", "profile", "layout"});
  cfg.CheckKeys("dataset", {"recordsize", "compression", "primarycache", "arc_max", "l2arc"});
  cfg.CheckKeys("workload", {"kind", "readers", "bs", "file_size", "sparse", "same_file", "random", "warm", "seed",
                              "read_offset", "read_bytes"});
  ReadersOptions o;
  cfg.Get("pool", "spec", &o.pool);
  if (o.pool.empty()) throw InputError(path + ": pool.spec: missing (the pool in zpool syntax)");
  cfg.Get("pool", "ashift", &o.ashift);  // toml++ refuses a value beyond int: no silent truncation
  cfg.Get("pool", "profile", &o.profile);
  cfg.Get("pool", "layout", &o.layout);
  cfg.GetTunables(&o.settings);
  cfg.GetSize("dataset", "recordsize", &o.recordsize);
  cfg.Get("dataset", "compression", &o.compression);
  cfg.Get("dataset", "primarycache", &o.primarycache);
  cfg.GetSize("dataset", "arc_max", &o.arc_max);
  cfg.Get("dataset", "l2arc", &o.l2arc);
  std::string kind = "readers";
  cfg.Get("workload", "kind", &kind);
  if (kind != "readers") throw InputError(path + ": workload.kind: \"" + kind + "\" is not readers");
  cfg.GetReaders(&o.readers);
  cfg.GetSize("workload", "bs", &o.bs);
  cfg.GetSize("workload", "file_size", &o.file_size);
  cfg.Get("workload", "sparse", &o.sparse);
  cfg.Get("workload", "same_file", &o.same_file);
  cfg.Get("workload", "random", &o.random);
  cfg.Get("workload", "warm", &o.warm);
  cfg.GetSize("workload", "read_offset", &o.read_offset);
  cfg.GetSize("workload", "read_bytes", &o.read_bytes);
  int64_t seed = 1;
  cfg.Get("workload", "seed", &seed);
  o.seed = static_cast<uint64_t>(seed);
  if (check_only) {
    CheckReadersOptions(o);
    std::printf("%s: ok\n", path.c_str());
    return;
  }
  PrintReaders(o, RunReaders(o), json);
}

}  // namespace

void AddRunCommand(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto check = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("run", "Run the scenario a TOML file describes (docs/run-config.md)");
  cmd->add_option("config", *path, "Scenario file (.toml)")->required();
  cmd->add_flag("--json", *json, "Print one JSON object");
  cmd->add_flag("--check", *check, "Only check the file (pool, drives, profile, tunables), do not simulate");
  cmd->callback([path, json, check] { Run(*path, *json, *check); });
}

}  // namespace ziosim::cli
