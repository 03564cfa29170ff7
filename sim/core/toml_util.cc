#include "sim/core/toml_util.h"

#include <filesystem>

#include "sim/core/status.h"

namespace ziosim {

int TomlLine(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::string TomlTypeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date or time";
  }
}

toml::table ParseTomlFile(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path + ": cannot open " + what);
  try {
    return toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw InputError(path, static_cast<int>(e.source().begin.line), std::string(e.description()));
  }
}

std::string TomlScalarText(const std::string& path, const std::string& key, const toml::node& node) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  throw InputError(path, TomlLine(node), key + ": expected a string, an integer or a boolean, got " + TomlTypeName(node));
}

}  // namespace ziosim
