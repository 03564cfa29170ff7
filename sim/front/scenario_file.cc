#include "sim/front/scenario_file.h"

#include <vector>

#include "sim/core/toml.h"

#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/core/toml_util.h"

namespace ziosim {
namespace {

Json ToJson(const toml::node& n) {
  if (const toml::array* a = n.as_array()) {
    Json out = Json::array();
    for (const toml::node& e : *a) out.push_back(ToJson(e));
    return out;
  }
  if (const toml::table* t = n.as_table()) {
    Json out = Json::object();
    for (const auto& [k, v] : *t) out[std::string(k.str())] = ToJson(v);
    return out;
  }
  if (auto v = n.value_exact<int64_t>()) return *v;
  if (auto v = n.value_exact<double>()) return *v;
  if (auto v = n.value_exact<bool>()) return *v;
  if (auto v = n.value_exact<std::string>()) return *v;
  return Json();  // dates and times: no option takes one, the option's check says so
}

// One option as the file gave it, and where.
struct FileArg {
  std::string label;  // "workload.bs"
  int line;
};

class ScenarioFile {
 public:
  explicit ScenarioFile(std::string path) : path_(std::move(path)), root_(ParseTomlFile(path_, "scenario file")) {}

  const WorkloadFront& Front() const {
    const toml::node* kind = root_["workload"]["kind"].node();
    if (kind == nullptr) return FindWorkloadFront("readers");
    if (!kind->is_string()) throw InputError(path_, TomlLine(*kind), "workload.kind: not a string");
    try {
      return FindWorkloadFront(*kind->value<std::string>());
    } catch (const InputError& e) {
      throw InputError(path_, TomlLine(*kind), std::string("workload.kind: ") + e.what());
    }
  }

  // Every key of the file as an option of `options`; an unknown table or key is an error.
  OptionArgs Args(const std::vector<OptionInfo>& options, std::vector<FileArg>* where) const {
    OptionArgs args;
    for (const auto& [table_key, node] : root_) {
      const std::string table(table_key.str());
      const toml::table* t = node.as_table();
      if (t == nullptr) throw InputError(path_, TomlLine(node), table + ": expected a table ([" + table + "])");
      if (const OptionInfo* whole = FindOption(options, table, table); whole != nullptr) {
        args.emplace_back(whole->name, ToJson(node));
        where->push_back({table, TomlLine(node)});
        continue;
      }
      if (!HasSection(options, table)) throw InputError(path_, TomlLine(node), table + ": unknown table");
      for (const auto& [key_name, value] : *t) {
        const std::string key(key_name.str());
        if (table == "workload" && key == "kind") continue;
        const OptionInfo* o = FindOption(options, table, key);
        if (o == nullptr) throw InputError(path_, TomlLine(value), table + "." + key + ": unknown key" + Suggest(options, table, key));
        args.emplace_back(o->name, ToJson(value));
        where->push_back({table + "." + key, TomlLine(value)});
      }
    }
    return args;
  }

  const std::string& path() const { return path_; }

 private:
  static const OptionInfo* FindOption(const std::vector<OptionInfo>& options, const std::string& section,
                                      const std::string& key) {
    for (const OptionInfo& o : options) {
      if (o.section == section && o.key == key) return &o;
    }
    return nullptr;
  }
  static bool HasSection(const std::vector<OptionInfo>& options, const std::string& section) {
    for (const OptionInfo& o : options) {
      if (o.section == section) return true;
    }
    return section == "workload";
  }
  static std::string Suggest(const std::vector<OptionInfo>& options, const std::string& section,
                             const std::string& key) {
    std::vector<std::string_view> keys;
    for (const OptionInfo& o : options) {
      if (o.section == section) keys.push_back(o.key);
    }
    const std::vector<std::string> close = ClosestWords(key, keys, 3);
    return close.empty() ? "" : " (did you mean " + Join(close, " or ") + "?)";
  }

  std::string path_;
  toml::table root_;
};

// An error of the run, with the file and, when it names a key the file gave, that key's line.
[[noreturn]] void Rethrow(const InputError& e, const std::string& path, const std::vector<FileArg>& where) {
  const std::string message = e.what();
  for (const FileArg& w : where) {
    if (message.starts_with(w.label + ":")) throw InputError(path, w.line, message);
  }
  throw InputError(path + ": " + message);
}

}  // namespace

Json RunScenarioFile(const std::string& path, bool check_only, std::string* workload) {
  const ScenarioFile file(path);
  const WorkloadFront& front = file.Front();
  *workload = front.name();
  std::vector<FileArg> where;
  const OptionArgs args = file.Args(front.options(), &where);
  try {
    if (!check_only) return front.Run(args, OptionFront::kToml);
    front.Check(args, OptionFront::kToml);
    return Json();
  } catch (const InputError& e) {
    Rethrow(e, path, where);
  }
}

}  // namespace ziosim
