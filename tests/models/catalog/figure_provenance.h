// A drive file's provenance read straight from its TOML, apart from the
// catalog loader: the tests hold the loader's counts and `ziosim drives`
// against what the file itself says.
#ifndef ZIOSIM_TESTS_MODELS_CATALOG_FIGURE_PROVENANCE_H_
#define ZIOSIM_TESTS_MODELS_CATALOG_FIGURE_PROVENANCE_H_

#include <string>
#include <vector>

#include "sim/core/toml.h"

namespace ziosim::testing {

// One figure of the file's [hdd] or [ssd] table: which provenance fields it
// gives as non-empty strings.
struct TomlFigure {
  std::string key;
  bool source = false;
  bool estimated = false;
};

struct TomlProvenance {
  std::vector<TomlFigure> figures;

  int Sourced() const { return Count(true, false); }
  int Estimated() const { return Count(false, true); }

 private:
  int Count(bool source, bool estimated) const {
    int n = 0;
    for (const TomlFigure& f : figures) n += f.source == source && f.estimated == estimated ? 1 : 0;
    return n;
  }
};

inline bool NonEmptyString(const toml::table& t, const char* field) {
  const toml::node* n = t.get(field);
  return n != nullptr && n->is_string() && !n->as_string()->get().empty();
}

// The figures of the table named by the file's `kind`; throws toml::parse_error on bad TOML.
inline TomlProvenance ReadTomlProvenance(const std::string& path) {
  const toml::table root = toml::parse_file(path);
  TomlProvenance out;
  const toml::table* figures = root[root["kind"].value_or(std::string())].as_table();
  if (figures == nullptr) return out;
  for (auto&& [key, node] : *figures) {
    TomlFigure f{.key = std::string(key.str())};
    if (const toml::table* t = node.as_table()) {
      f.source = NonEmptyString(*t, "source");
      f.estimated = NonEmptyString(*t, "estimated");
    }
    out.figures.push_back(f);
  }
  return out;
}

}  // namespace ziosim::testing

#endif  // ZIOSIM_TESTS_MODELS_CATALOG_FIGURE_PROVENANCE_H_
