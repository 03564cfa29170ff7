#include "sim/core/option.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/core/units.h"

namespace ziosim {
namespace {

[[noreturn]] void WrongType(const std::string& label, const std::string& expected, const Json& v) {
  throw InputTypeError(label + ": expected " + expected + ", got " + Printable(v.dump()));
}

// A finite number that is a whole one, as an int64: Python's 1e9 for a byte count.
bool WholeNumber(const Json& v, int64_t* out) {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return false;
    }
    *out = v.get<int64_t>();
    return true;
  }
  if (!v.is_number_float()) return false;
  const double d = v.get<double>();
  if (!std::isfinite(d) || d != std::floor(d) || std::fabs(d) >= 9.2e18) return false;
  *out = static_cast<int64_t>(d);
  return true;
}

std::string Dashed(std::string name) {
  for (char& c : name) c = c == '_' ? '-' : c;
  return "--" + name;
}

}  // namespace

std::string_view OptionKindName(OptionKind kind) {
  switch (kind) {
    case OptionKind::kFlag: return "flag";
    case OptionKind::kInt: return "int";
    case OptionKind::kReal: return "number";
    case OptionKind::kSize: return "size";
    case OptionKind::kText: return "text";
    case OptionKind::kIntList: return "int list";
    case OptionKind::kTextList: return "text list";
    case OptionKind::kTunables: return "tunables";
    case OptionKind::kDuration: return "duration";
  }
  return "";
}

std::string OptionInfo::Label(OptionFront front) const {
  switch (front) {
    case OptionFront::kCli: return flags.empty() ? Dashed(name) : flags.front();
    case OptionFront::kPython: return name;
    case OptionFront::kToml: return section.empty() || section == key ? key : section + "." + key;
  }
  return name;
}

bool FlagValue(const Json& v, const std::string& label) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_string()) {
    const std::string t = Lower(v.get<std::string>());
    if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
    if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  }
  WrongType(label, "true or false", v);
}

int64_t IntValue(const Json& v, const std::string& label) {
  int64_t n = 0;
  if (v.is_number_integer() && WholeNumber(v, &n)) return n;
  if (v.is_string() && ParseInt64(Trim(v.get<std::string>()), &n)) return n;
  if (v.is_string()) throw InputError(label + ": \"" + Printable(v.get<std::string>()) + "\" is not an integer");
  WrongType(label, "an integer", v);
}

double RealValue(const Json& v, const std::string& label) {
  double d = 0;
  if (v.is_number()) {
    d = v.get<double>();
  } else if (v.is_string()) {
    const std::string t(Trim(v.get<std::string>()));
    size_t used = 0;
    try {
      d = std::stod(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (t.empty() || used != t.size()) throw InputError(label + ": \"" + Printable(t) + "\" is not a number");
  } else {
    WrongType(label, "a number", v);
  }
  if (!std::isfinite(d)) throw InputError(label + ": not a finite number");
  return d;
}

int64_t SizeValue(const Json& v, const std::string& label, bool positive) {
  if (v.is_string()) {
    const std::string t = v.get<std::string>();
    return positive ? ParsePositiveSize(t, label) : ParseSize(t, label);
  }
  int64_t n = 0;
  if (v.is_boolean() || !v.is_number()) WrongType(label, "a size (bytes, or text like \"128K\")", v);
  if (!WholeNumber(v, &n)) throw InputError(label + ": " + v.dump() + " is not a whole number of bytes");
  if (n < 0) throw InputError(label + ": " + v.dump() + " is negative");
  if (positive && n == 0) throw InputError(label + ": must be positive");
  return n;
}

std::string TextValue(const Json& v, const std::string& label) {
  if (!v.is_string()) WrongType(label, "text", v);
  return v.get<std::string>();
}

std::vector<int> IntListValue(const Json& v, const std::string& label) {
  std::vector<int> out;
  auto add = [&](const Json& item) {
    const int64_t n = IntValue(item, label);
    if (n < std::numeric_limits<int>::min() || n > std::numeric_limits<int>::max()) {
      throw InputError(label + ": " + std::to_string(n) + " is out of range");
    }
    out.push_back(static_cast<int>(n));
  };
  if (v.is_array()) {
    for (const Json& item : v) {
      if (!item.is_number_integer()) WrongType(label, "a list of integers", v);
      add(item);
    }
  } else if (v.is_string()) {
    const std::string t = v.get<std::string>();
    size_t start = 0;
    while (start <= t.size() && !t.empty()) {
      const size_t comma = t.find(',', start);
      add(Json(t.substr(start, comma - start)));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else if (v.is_number_integer()) {
    add(v);
  } else {
    WrongType(label, "an integer or a list of integers", v);
  }
  return out;
}

std::vector<std::string> TextListValue(const Json& v, const std::string& label) {
  if (v.is_string()) return {v.get<std::string>()};
  if (!v.is_array()) WrongType(label, "text or a list of text", v);
  std::vector<std::string> out;
  for (const Json& item : v) out.push_back(TextValue(item, label));
  return out;
}

Settings TunablesValue(const Json& v, const std::string& label) {
  Settings out;
  if (v.is_object()) {
    for (const auto& [name, value] : v.items()) {
      if (value.is_string()) {
        out.emplace_back(name, value.get<std::string>());
      } else if (value.is_boolean()) {
        out.emplace_back(name, value.get<bool>() ? "true" : "false");
      } else if (int64_t n = 0; WholeNumber(value, &n)) {
        out.emplace_back(name, std::to_string(n));
      } else {
        WrongType(label + ": " + name, "text, an integer or a bool", value);
      }
    }
    return out;
  }
  for (const std::string& item : TextListValue(v, label)) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos) throw InputError(label + ": \"" + Printable(item) + "\" is not NAME=VALUE");
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

SimTime DurationValue(const Json& v, const std::string& label) {
  if (v.is_string()) return ParseDuration(v.get<std::string>(), label);
  int64_t seconds = 0;
  if (!WholeNumber(v, &seconds) || v.is_boolean()) WrongType(label, "a duration (\"60s\", \"500ms\")", v);
  return ParseDuration(std::to_string(seconds), label);
}

Json SizeJson(int64_t bytes) {
  const std::string text = SizeText(bytes);
  return text == std::to_string(bytes) ? Json(bytes) : Json(text);
}

std::string RespellOptionError(const std::vector<OptionInfo>& options, const std::string& message,
                               OptionFront front) {
  if (front == OptionFront::kCli) return message;
  // Every flag of the table, longest first, so that --read-length is not taken for --read.
  std::vector<std::pair<std::string, std::string>> spellings;
  for (const OptionInfo& o : options) {
    for (const std::string& flag : o.flags.empty() ? std::vector<std::string>{Dashed(o.name)} : o.flags) {
      if (flag.starts_with("--")) spellings.emplace_back(flag, o.Label(front));
    }
  }
  std::stable_sort(spellings.begin(), spellings.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::string out;
  for (size_t i = 0; i < message.size();) {
    const auto found = std::find_if(spellings.begin(), spellings.end(), [&](const auto& sp) {
      const size_t end = i + sp.first.size();
      return message.compare(i, sp.first.size(), sp.first) == 0 &&
             (end == message.size() || !(std::isalnum(static_cast<unsigned char>(message[end])) ||
                                         message[end] == '-' || message[end] == '_'));
    });
    if (found != spellings.end()) {
      out += found->second;
      i += found->first.size();
    } else {
      out += message[i++];
    }
  }
  return out;
}

void ThrowUnknownOption(const std::string& workload, const std::string& name, const std::vector<OptionInfo>& options,
                        OptionFront front) {
  std::vector<std::string> names;
  for (const OptionInfo& o : options) names.push_back(o.Label(front));
  const std::vector<std::string> close = ClosestWords(name, {names.begin(), names.end()}, 3);
  throw InputTypeError(name + ": " + workload + " has no such option" +
                       (close.empty() ? "" : "; did you mean " + Join(close, " or ") + "?"));
}

void ThrowMissingOption(const OptionInfo& option, OptionFront front) {
  throw InputError(option.Label(front) + ": missing (" + option.doc + ")");
}

}  // namespace ziosim
