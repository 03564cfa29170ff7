// toml++ glue shared by every TOML reader (drive catalog, era profiles,
// scenario files): parse errors and type errors as InputError with file:line.
#ifndef ZIOSIM_SIM_CORE_TOML_UTIL_H_
#define ZIOSIM_SIM_CORE_TOML_UTIL_H_

#include <string>

#include "sim/core/toml.h"

namespace ziosim {

int TomlLine(const toml::node& node);
// "a string", "an integer", ... for error messages.
std::string TomlTypeName(const toml::node& node);
// Parses `path`; InputError "PATH: cannot open <what>" or "PATH:LINE: <parse error>".
toml::table ParseTomlFile(const std::string& path, const std::string& what);
// A string, integer or boolean as the text a `--set NAME=VALUE` would give;
// InputError "PATH:LINE: KEY: ..." for anything else.
std::string TomlScalarText(const std::string& path, const std::string& key, const toml::node& node);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_TOML_UTIL_H_
