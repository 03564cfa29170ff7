// One declaration per option, fio's options.c being the model: a workload's
// options are a table of Option<O> (name, kind, unit, doc, where it sits in a
// scenario file, how it sets a field of the workload's options struct O), and
// every front is generated from it: the command-line flags and their --help,
// the keys of a `ziosim run` TOML file, the Python keyword arguments and their
// defaults, and docs/options.md.
//
// A value arrives as JSON, whatever the front: text from a command line, a
// number, bool, list or table from TOML or Python. Each kind accepts the
// forms that mean the same thing ("1M" or 1048576 for a size, "1,2,5" or
// [1, 2, 5] for a list) and nothing else. Errors name the option in the
// caller's language: `--file-size` on a command line, `file_size` in Python,
// `workload.file_size` in a scenario file (OptionInfo::Label).
#ifndef ZIOSIM_SIM_CORE_OPTION_H_
#define ZIOSIM_SIM_CORE_OPTION_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/time.h"

namespace ziosim {

// Ordered: a result lists its fields in the order the workload declares them.
using Json = nlohmann::ordered_json;
using Settings = std::vector<std::pair<std::string, std::string>>;

enum class OptionFront { kCli, kPython, kToml };

enum class OptionKind {
  kFlag,      // bool; a command-line flag takes no value
  kInt,       // integer
  kReal,      // finite number
  kSize,      // bytes: the size grammar of units.h, or a whole number
  kText,      // string
  kIntList,   // integers: [1, 2], 1, or "1,2"
  kTextList,  // strings, repeatable on a command line
  kTunables,  // NAME=VALUE pairs: {"name": value}, or ["NAME=VALUE", ...]
  kDuration,  // "60s", "500ms" (units.h ParseDuration)
};
std::string_view OptionKindName(OptionKind kind);

struct OptionInfo {
  std::string name;     // snake_case: the Python keyword and the scenario-file key
  OptionKind kind = OptionKind::kText;
  std::string unit;     // what a number means, for the docs ("bytes", "ratio"); may be empty
  std::string doc;      // one line
  Json fallback;        // the default, as Python and the docs show it; null: none (or "the tunable")
  bool required = false;
  std::string section;  // its table in a scenario file ("pool", "dataset", "workload"); empty: none
  std::string key;      // its key there (default: name); the whole table when `section` is "tunables"
  std::vector<std::string> flags;  // command-line spellings, the first one in messages ("--file-size")
  bool dataset_property = false;   // also `-o NAME=VALUE`, as `zfs create -o` takes it

  // The option as `front` spells it, for messages.
  std::string Label(OptionFront front) const;
};

template <typename O>
struct Option {
  OptionInfo info;
  // Sets the field(s) of `o` from `value`; `label` names the option in errors.
  std::function<void(O& o, const Json& value, const std::string& label)> set;
};

// The value converters every Option uses: InputError (InputTypeError for a
// value of the wrong JSON type) naming `label`.
bool FlagValue(const Json& v, const std::string& label);
int64_t IntValue(const Json& v, const std::string& label);
double RealValue(const Json& v, const std::string& label);
int64_t SizeValue(const Json& v, const std::string& label, bool positive);
std::string TextValue(const Json& v, const std::string& label);
std::vector<int> IntListValue(const Json& v, const std::string& label);
std::vector<std::string> TextListValue(const Json& v, const std::string& label);
Settings TunablesValue(const Json& v, const std::string& label);
SimTime DurationValue(const Json& v, const std::string& label);

// A size as a user would type it: "1M" when it is a whole number of K, M, G
// or T, else the number of bytes.
Json SizeJson(int64_t bytes);

// The whole set of options of one workload.
template <typename O>
class OptionTable {
 public:
  OptionTable(std::string workload, std::vector<Option<O>> options)
      : workload_(std::move(workload)), options_(std::move(options)) {}

  const std::string& workload() const { return workload_; }
  const std::vector<Option<O>>& options() const { return options_; }
  std::vector<OptionInfo> infos() const {
    std::vector<OptionInfo> out;
    for (const Option<O>& o : options_) out.push_back(o.info);
    return out;
  }
  const Option<O>* Find(std::string_view name) const {
    for (const Option<O>& o : options_) {
      if (o.info.name == name) return &o;
    }
    return nullptr;
  }

 private:
  std::string workload_;
  std::vector<Option<O>> options_;
};

// ---------------------------------------------------------------- builders
// Each binds an option to one field of O; `fallback` is read from a default O.

// `&O::field` of a field O inherits, as a member of O, so that a builder makes an
// Option<O> of it: IntOption("ashift", Field<O>(&O::ashift), ...).
template <typename O, typename T, typename Base>
constexpr T O::*Field(T Base::*field) {
  return field;
}

template <typename O, typename T, typename Convert>
Option<O> FieldOption(OptionInfo info, T O::*field, Convert convert) {
  return {std::move(info), [field, convert](O& o, const Json& v, const std::string& label) {
            o.*field = static_cast<T>(convert(v, label));
          }};
}

template <typename O>
Option<O> FlagOption(std::string name, bool O::*field, std::string doc) {
  return FieldOption(OptionInfo{.name = std::move(name), .kind = OptionKind::kFlag, .doc = std::move(doc),
                                .fallback = O{}.*field},
                     field, FlagValue);
}

template <typename O, typename T>
Option<O> IntOption(std::string name, T O::*field, std::string doc, std::string unit = "") {
  return FieldOption(OptionInfo{.name = std::move(name), .kind = OptionKind::kInt, .unit = std::move(unit),
                                .doc = std::move(doc), .fallback = O{}.*field},
                     field, IntValue);
}

template <typename O>
Option<O> RealOption(std::string name, double O::*field, std::string doc, std::string unit = "") {
  return FieldOption(OptionInfo{.name = std::move(name), .kind = OptionKind::kReal, .unit = std::move(unit),
                                .doc = std::move(doc), .fallback = O{}.*field},
                     field, RealValue);
}

// `positive`: zero is an error (else zero may mean "unset": say so in `doc`).
template <typename O>
Option<O> SizeOption(std::string name, int64_t O::*field, std::string doc, bool positive = true) {
  const int64_t fallback = O{}.*field;
  return FieldOption(OptionInfo{.name = std::move(name), .kind = OptionKind::kSize, .unit = "bytes",
                                .doc = std::move(doc), .fallback = SizeJson(fallback)},
                     field, [positive](const Json& v, const std::string& label) {
                       return SizeValue(v, label, positive);
                     });
}

template <typename O>
Option<O> TextOption(std::string name, std::string O::*field, std::string doc) {
  const std::string fallback = O{}.*field;
  return FieldOption(OptionInfo{.name = std::move(name), .kind = OptionKind::kText, .doc = std::move(doc),
                                .fallback = fallback.empty() ? Json() : Json(fallback)},
                     field, TextValue);
}

template <typename O>
Option<O> IntListOption(std::string name, std::vector<int> O::*field, std::string doc) {
  return FieldOption(OptionInfo{.name = std::move(name), .kind = OptionKind::kIntList, .doc = std::move(doc),
                                .fallback = O{}.*field},
                     field, IntListValue);
}

template <typename O>
Option<O> TextListOption(std::string name, std::vector<std::string> O::*field, std::string doc) {
  return FieldOption(OptionInfo{.name = std::move(name), .kind = OptionKind::kTextList, .doc = std::move(doc),
                                .fallback = Json::array()},
                     field, TextListValue);
}

// An option with a setter of its own (a parse, a check, several fields), in a
// scenario file's [workload]: WorkloadOption<O>({.name = "mode", ...}, [](O& o, ...) {...}).
template <typename O, typename F>
Option<O> WorkloadOption(OptionInfo info, F set) {
  info.section = "workload";
  info.key = info.name;
  return {std::move(info), std::move(set)};
}

// Modifiers, applied to a built option: Option<O> x = In("pool", Flags({"--bs"}, SizeOption(...))).
template <typename O>
Option<O> In(std::string section, Option<O> option, std::string key = "") {
  option.info.section = std::move(section);
  option.info.key = key.empty() ? option.info.name : std::move(key);
  return option;
}
template <typename O>
Option<O> Flags(std::vector<std::string> flags, Option<O> option) {
  option.info.flags = std::move(flags);
  return option;
}
template <typename O>
Option<O> Required(Option<O> option) {
  option.info.required = true;
  option.info.fallback = nullptr;
  return option;
}
template <typename O>
Option<O> DatasetProperty(Option<O> option) {
  option.info.dataset_property = true;
  return option;
}

// `message` (an InputError's) with every "--flag" of `options` respelt for
// `front`: the simulator's checks name options by their command-line flags,
// and Python and scenario files spell them otherwise.
std::string RespellOptionError(const std::vector<OptionInfo>& options, const std::string& message,
                               OptionFront front);

[[noreturn]] void ThrowUnknownOption(const std::string& workload, const std::string& name,
                                     const std::vector<OptionInfo>& options, OptionFront front);
[[noreturn]] void ThrowMissingOption(const OptionInfo& option, OptionFront front);

// ---------------------------------------------------------------- applying

// One (option name, value) as a front gave it.
using OptionArgs = std::vector<std::pair<std::string, Json>>;

// Applies `args` over a default O, in order; a null value leaves the default.
// Throws InputError for an unknown name (with a did-you-mean) or a bad value,
// naming the option as `front` spells it; and for a required option not given.
template <typename O>
O ApplyOptions(const OptionTable<O>& table, const OptionArgs& args, OptionFront front) {
  O o;
  std::vector<std::string> given;
  for (const auto& [name, value] : args) {
    const Option<O>* option = table.Find(name);
    if (option == nullptr) ThrowUnknownOption(table.workload(), name, table.infos(), front);
    given.push_back(name);
    if (!value.is_null()) option->set(o, value, option->info.Label(front));
  }
  for (const Option<O>& option : table.options()) {
    if (option.info.required && std::find(given.begin(), given.end(), option.info.name) == given.end()) {
      ThrowMissingOption(option.info, front);
    }
  }
  return o;
}

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_OPTION_H_
