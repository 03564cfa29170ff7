#include "sim/workload/personality.h"

#include <algorithm>
#include <filesystem>

#include "sim/core/toml.h"

#include "sim/core/data_dir.h"
#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/core/toml_util.h"
#include "sim/core/units.h"

#ifndef ZIOSIM_PERSONALITIES_DIR
// The personalities live next to the drive catalog in the source tree.
#define ZIOSIM_PERSONALITIES_DIR ZIOSIM_CATALOG_DIR "/../personalities"
#endif

namespace ziosim {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxFiles = 1000000;
constexpr int kMaxThreads = 4096;

class Reader {
 public:
  Reader(const std::string& path, const toml::table& root) : path_(path), root_(root) {}

  [[noreturn]] void Fail(const toml::node* node, const std::string& key, const std::string& what) const {
    throw InputError(path_, node != nullptr ? TomlLine(*node) : 1, key + ": " + what);
  }

  std::string Text(const std::string& key, bool required) const {
    const toml::node* n = root_.get(key);
    if (n == nullptr) {
      if (required) Fail(nullptr, key, "missing");
      return "";
    }
    return TomlScalarText(path_, key, *n);
  }

  int64_t Size(const std::string& key, int64_t fallback) const {
    const std::string t = Text(key, false);
    if (t.empty()) return fallback;
    try {
      return ParsePositiveSize(t, key);
    } catch (const InputError& e) {
      Fail(root_.get(key), key, e.what());
    }
  }

  double Number(const std::string& key, double fallback, double lo, double hi) const {
    const toml::node* n = root_.get(key);
    if (n == nullptr) return fallback;
    const std::optional<double> v = n->value<double>();
    if (!v || *v < lo || *v > hi) {
      Fail(n, key, "expected a number from " + FormatNumber(lo) + " to " + FormatNumber(hi));
    }
    return *v;
  }

  const toml::node* Node(const std::string& key) const { return root_.get(key); }

 private:
  static std::string FormatNumber(double v) { return std::to_string(static_cast<int64_t>(v)); }
  const std::string& path_;
  const toml::table& root_;
};

Personality::Sync ParseSync(const Reader& r, const std::string& text) {
  if (text.empty() || text == "none") return Personality::Sync::kNone;
  if (text == "o_dsync") return Personality::Sync::kODsync;
  if (text == "fsync") return Personality::Sync::kFsync;
  r.Fail(r.Node("sync"), "sync", "\"" + text + "\" is not none, o_dsync or fsync");
}

// io_sizes = [["4K", 60], ["64K", 10]]: sizes and their weights.
std::vector<std::pair<int64_t, double>> ParseIoSizes(const Reader& r) {
  const toml::node* n = r.Node("io_sizes");
  if (n == nullptr) r.Fail(nullptr, "io_sizes", "missing (e.g. io_sizes = [[\"8K\", 100]])");
  const toml::array* arr = n->as_array();
  if (arr == nullptr || arr->empty()) r.Fail(n, "io_sizes", "expected a non-empty array of [size, weight] pairs");
  std::vector<std::pair<int64_t, double>> out;
  for (const toml::node& e : *arr) {
    const toml::array* pair = e.as_array();
    if (pair == nullptr || pair->size() != 2) r.Fail(&e, "io_sizes", "each entry is [size, weight]");
    const std::optional<std::string> size_text = (*pair)[0].value<std::string>();
    const std::optional<int64_t> size_int = (*pair)[0].value<int64_t>();
    const std::optional<double> weight = (*pair)[1].value<double>();
    if ((!size_text && !size_int) || !weight || *weight <= 0) {
      r.Fail(&e, "io_sizes", "each entry is [size, weight] with a size (\"8K\" or bytes) and a positive weight");
    }
    int64_t size = 0;
    try {
      size = size_text ? ParsePositiveSize(*size_text, "io_sizes") : *size_int;
    } catch (const InputError& err) {
      r.Fail(&e, "io_sizes", err.what());
    }
    if (size <= 0 || size % 512 != 0) r.Fail(&e, "io_sizes", "sizes must be positive multiples of 512 bytes");
    out.emplace_back(size, *weight);
  }
  return out;
}

bool LooksLikePath(const std::string& s) {
  return s.find('/') != std::string::npos || (s.size() > 5 && s.ends_with(".toml"));
}

}  // namespace

std::string PersonalitiesDir() { return DataDir("personalities", ZIOSIM_PERSONALITIES_DIR); }

std::vector<std::string> PersonalityNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(PersonalitiesDir(), ec)) {
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  }
  if (ec) throw InputError(PersonalitiesDir() + ": cannot read the personalities: " + ec.message());
  std::sort(names.begin(), names.end());
  return names;
}

Personality LoadPersonalityFile(const std::string& path) {
  const toml::table root = ParseTomlFile(path, "personality file");
  static const std::vector<std::string> kKeys = {"description", "files",      "file_size", "recordsize", "threads",
                                                 "read_pct",    "random_pct", "sync",      "io_sizes"};
  for (auto&& [key, node] : root) {
    if (std::find(kKeys.begin(), kKeys.end(), key.str()) == kKeys.end()) {
      throw InputError(path, TomlLine(node), std::string(key.str()) + ": unknown key (known: " + Join(kKeys) + ")");
    }
  }
  const Reader r(path, root);
  Personality p;
  p.name = fs::path(path).stem().string();
  p.description = r.Text("description", true);
  p.files = static_cast<int>(r.Number("files", 1, 1, kMaxFiles));
  p.file_size = r.Size("file_size", p.file_size);
  p.recordsize = r.Size("recordsize", p.recordsize);
  if (p.recordsize < 512 || p.recordsize > (1 << 20) || (p.recordsize & (p.recordsize - 1)) != 0) {
    r.Fail(r.Node("recordsize"), "recordsize", "must be a power of two from 512 to 1M");
  }
  p.threads = static_cast<int>(r.Number("threads", 1, 1, kMaxThreads));
  p.read_pct = r.Number("read_pct", 100, 0, 100);
  p.random_pct = r.Number("random_pct", 100, 0, 100);
  p.sync = ParseSync(r, r.Text("sync", false));
  p.io_sizes = ParseIoSizes(r);
  for (const auto& [size, weight] : p.io_sizes) {
    if (size > p.file_size) r.Fail(r.Node("io_sizes"), "io_sizes", "an I/O size is larger than file_size");
  }
  return p;
}

Personality LoadPersonality(const std::string& name) {
  if (LooksLikePath(name)) return LoadPersonalityFile(name);
  const std::vector<std::string> names = PersonalityNames();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    throw InputError("unknown personality \"" + name + "\"; known personalities: " + Join(names) +
                     " (or a path to a .toml personality file)");
  }
  return LoadPersonalityFile((fs::path(PersonalitiesDir()) / (name + ".toml")).string());
}

}  // namespace ziosim
