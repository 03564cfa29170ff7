#include "sim/cli/settings.h"

#include "sim/core/status.h"

namespace ziosim::cli {

std::vector<std::pair<std::string, std::string>> ParseSettings(const std::vector<std::string>& raw) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& s : raw) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError("--set: \"" + s + "\" is not NAME=VALUE");
    }
    out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return out;
}

}  // namespace ziosim::cli
