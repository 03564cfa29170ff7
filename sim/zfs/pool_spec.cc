#include "sim/zfs/pool_spec.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <tuple>

#include "models/catalog/catalog.h"
#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/zfs/vdev/vdev_kind.h"

namespace ziosim {
namespace {

// zpool sections and vdev kinds ziosim does not model.
constexpr std::string_view kUnsupported[] = {"spare", "special", "dedup"};
constexpr int kMaxCount = 1024;
constexpr int kMinAshift = 9;
constexpr int kMaxAshift = 16;

bool IsKeyword(std::string_view t) {
  PoolSpecVdev v;
  std::string error;
  return FindVdevKindByKeyword(t, &v, &error) != nullptr;
}

bool IsSection(std::string_view t) { return t == "log" || t == "cache"; }

bool IsUnsupported(std::string_view t) {
  return std::find(std::begin(kUnsupported), std::end(kUnsupported), t) != std::end(kUnsupported);
}

bool LooksLikeFile(std::string_view s) {
  return s.starts_with("disksim:") || s.starts_with("fixed:") || s.find('/') != std::string_view::npos ||
         (s.size() > 5 && s.substr(s.size() - 5) == ".toml");
}

std::string ToLowerNoun(std::string_view keyword) { return "a " + std::string(keyword); }

class Parser {
 public:
  Parser(std::string_view text, int ashift) : text_(text) { spec_.text = std::string(text); spec_.ashift = ashift; }

  PoolSpec Parse() {
    if (spec_.ashift < kMinAshift || spec_.ashift > kMaxAshift) {
      throw InputError(Quoted() + "ashift " + std::to_string(spec_.ashift) + " is out of range (" +
                       std::to_string(kMinAshift) + " to " + std::to_string(kMaxAshift) + ")");
    }
    Tokenize();
    if (tokens_.empty()) {
      throw InputError("pool spec is empty: give drives and vdev keywords, e.g. \"mirror wd-re4-1tb wd-re4-1tb\"");
    }
    for (size_t i = 0; i < tokens_.size(); ++i) Token(i);
    CloseGroup();
    CloseSection();
    if (spec_.vdevs.empty()) {
      throw InputError(Quoted() + "no data vdevs: give the pool's disks before its log and cache sections");
    }
    return std::move(spec_);
  }

 private:
  struct Group {
    size_t token;  // index of the keyword
    PoolSpecVdev vdev;
  };
  enum class Section { kData, kLog, kCache };

  std::string Quoted() const { return "pool spec \"" + std::string(text_) + "\": "; }

  [[noreturn]] void Fail(size_t token, const std::string& what) const {
    throw InputError(Quoted() + "token " + std::to_string(token + 1) + " \"" + tokens_[token] + "\": " + what);
  }

  void Tokenize() {
    size_t pos = 0;
    while (pos < text_.size()) {
      while (pos < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos]))) ++pos;
      const size_t start = pos;
      while (pos < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos]))) ++pos;
      if (pos > start) tokens_.emplace_back(text_.substr(start, pos - start));
    }
  }

  void Token(size_t i) {
    const std::string& t = tokens_[i];
    if (IsSection(t)) {
      OpenSection(i);
      return;
    }
    if (IsKeyword(t)) {
      // zpool_vdev.c construct_spec: "unsupported 'log' device" / "'cache' device".
      if (section_ == Section::kCache) Fail(i, "cache devices must be single disks (zpool rejects groups here)");
      if (section_ == Section::kLog && t != "mirror") Fail(i, "log devices must be single disks or mirrors");
      CloseGroup();
      Group g{i, {}};
      std::string error;
      FindVdevKindByKeyword(t, &g.vdev, &error);
      if (!error.empty()) Fail(i, error);
      group_ = std::move(g);
      return;
    }
    if (IsUnsupported(t)) Fail(i, "\"" + t + "\" vdevs are not supported yet (only mirror, raidz1-3, draid1-3 and single disks)");
    const auto [count, drive] = SplitCount(i);
    ValidateDrive(i, drive, count > 0 && drive.size() != t.size());
    for (int k = 0; k < count; ++k) {
      if (group_) {
        group_->vdev.leaves.push_back({drive});
      } else if (section_ == Section::kCache) {
        // Dmu feeds one L2ARC device; several would need a device rotor there.
        if (!spec_.caches.empty()) Fail(i, "ziosim models one cache device (give a single drive after cache)");
        spec_.caches.push_back({drive});
      } else {
        PoolSpecVdev disk;  // type "disk"
        disk.leaves.push_back({drive});
        Target().push_back(std::move(disk));
      }
    }
  }

  std::vector<PoolSpecVdev>& Target() { return section_ == Section::kLog ? spec_.logs : spec_.vdevs; }

  // `log` or `cache` at token i: the devices that follow belong to it.
  void OpenSection(size_t i) {
    CloseGroup();
    CloseSection();
    const Section next = tokens_[i] == "log" ? Section::kLog : Section::kCache;
    const bool seen = next == Section::kLog ? seen_log_ : seen_cache_;
    if (seen) Fail(i, "\"" + tokens_[i] + "\" can be given only once");
    (next == Section::kLog ? seen_log_ : seen_cache_) = true;
    section_ = next;
    section_token_ = i;
  }

  // Each section appears once, so an empty list means nothing followed its keyword.
  void CloseSection() {
    if (section_ == Section::kData) return;
    const bool empty = section_ == Section::kLog ? spec_.logs.empty() : spec_.caches.empty();
    if (empty) Fail(section_token_, "needs at least one device after it");
  }

  // "5xhgst-nas-4tb" -> (5, "hgst-nas-4tb"); a token without a count -> (1, token).
  std::pair<int, std::string> SplitCount(size_t i) {
    const std::string& t = tokens_[i];
    size_t digits_start = t.starts_with('-') || t.starts_with('+') ? 1 : 0;
    size_t x = digits_start;
    while (x < t.size() && std::isdigit(static_cast<unsigned char>(t[x]))) ++x;
    if (x == digits_start || x >= t.size() || t[x] != 'x' || IsCatalogName(t)) return {1, t};
    const std::string digits = t.substr(digits_start, x - digits_start);
    const std::string drive = t.substr(x + 1);
    if (drive.empty()) Fail(i, "a count needs a drive after the 'x' (e.g. 5xhgst-nas-4tb)");
    if (t.front() == '-' || digits.find_first_not_of('0') == std::string::npos) {
      Fail(i, "the count must be at least 1");
    }
    if (digits.size() > 5 || std::stoi(digits) > kMaxCount) {
      Fail(i, "the count must be at most " + std::to_string(kMaxCount));
    }
    if (IsKeyword(drive) || IsSection(drive) || IsUnsupported(drive)) {
      Fail(i, "a count applies to drives, not to \"" + drive + "\"");
    }
    return {std::stoi(digits), drive};
  }

  bool IsCatalogName(const std::string& name) {
    const std::vector<std::string>& names = CatalogNamesCached();
    return std::binary_search(names.begin(), names.end(), name);
  }

  const std::vector<std::string>& CatalogNamesCached() {
    if (!catalog_names_) catalog_names_ = CatalogNames();
    return *catalog_names_;
  }

  void ValidateDrive(size_t i, const std::string& drive, bool counted) {
    if (validated_.count(drive) > 0) return;
    if (!LooksLikeFile(drive) && !IsCatalogName(drive)) UnknownDrive(i, drive, counted);
    try {
      ResolveDrive(drive);
    } catch (const InputError& e) {
      Fail(i, e.what());
    }
    validated_.insert(drive);
  }

  [[noreturn]] void UnknownDrive(size_t i, const std::string& drive, bool counted) {
    const std::vector<std::string> keywords = VdevKindKeywords();
    std::vector<std::string> candidates = CatalogNamesCached();
    if (!counted) candidates.insert(candidates.begin(), keywords.begin(), keywords.end());
    const std::vector<std::string> close = ClosestWords(Lower(drive), {candidates.begin(), candidates.end()}, 4);
    std::string what = std::string(counted ? "unknown drive \"" : "unknown drive or keyword \"") + drive + "\"";
    if (!close.empty()) what += "; did you mean " + Join(close, " or ") + "?";
    if (!counted) what += "; keywords: " + Join(keywords, ", ");
    what += "; drives: " + Join(CatalogNamesCached(), ", ") + " (or a .toml drive file, or disksim:FILE.parv)";
    Fail(i, what);
  }

  void CloseGroup() {
    if (!group_) return;
    const std::string& keyword = tokens_[group_->token];
    const VdevKind& kind = GetVdevKind(group_->vdev.type);
    const int n = static_cast<int>(group_->vdev.leaves.size());
    const int min = kind.min_children(group_->vdev.parity);
    if (n < min) {
      Fail(group_->token, ToLowerNoun(keyword) + " needs at least " + std::to_string(min) + " disks (got " +
                              std::to_string(n) + ")");
    }
    if (n > kind.max_children) {
      Fail(group_->token, ToLowerNoun(keyword) + " of " + std::to_string(n) + " disks is too wide (at most " +
                              std::to_string(kind.max_children) + ")");
    }
    if (kind.complete != nullptr) {
      try {
        kind.complete(&group_->vdev);
      } catch (const InputError& e) {
        Fail(group_->token, e.what());
      }
    }
    Target().push_back(std::move(group_->vdev));
    group_.reset();
  }

  std::string_view text_;
  PoolSpec spec_;
  std::vector<std::string> tokens_;
  std::optional<Group> group_;
  Section section_ = Section::kData;
  size_t section_token_ = 0;
  bool seen_log_ = false;
  bool seen_cache_ = false;
  std::optional<std::vector<std::string>> catalog_names_;
  std::set<std::string> validated_;
};

// Appends `drive` `n` times: "NxDRIVE", or the bare drive when n is 1.
void AppendRun(std::string* out, const std::string& drive, int n) {
  if (!out->empty()) *out += ' ';
  if (n > 1) *out += std::to_string(n) + "x";
  *out += drive;
}

void AppendLeaves(std::string* out, const std::vector<PoolSpecLeaf>& leaves) {
  for (size_t i = 0; i < leaves.size();) {
    size_t j = i;
    while (j < leaves.size() && leaves[j].drive == leaves[i].drive) ++j;
    AppendRun(out, leaves[i].drive, static_cast<int>(j - i));
    i = j;
  }
}

}  // namespace

bool IsPoolSpecText(std::string_view text) {
  if (text.find_first_of(" \t") != std::string_view::npos || IsKeyword(text) || IsUnsupported(text)) return true;
  size_t digits = 0;  // NxDRIVE: N copies of a drive
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])) != 0) ++digits;
  return digits > 0 && digits < text.size() && text[digits] == 'x';
}

PoolSpec ParsePoolSpec(std::string_view text, int ashift) { return Parser(text, ashift).Parse(); }

namespace {

void AppendVdevs(std::string* out, const std::vector<PoolSpecVdev>& vdevs) {
  std::vector<PoolSpecLeaf> stripe;  // consecutive single-disk vdevs
  auto flush_stripe = [&] {
    AppendLeaves(out, stripe);
    stripe.clear();
  };
  for (const PoolSpecVdev& v : vdevs) {
    const std::string keyword = GetVdevKind(v.type).keyword_for(v);
    if (keyword.empty()) {
      stripe.insert(stripe.end(), v.leaves.begin(), v.leaves.end());
      continue;
    }
    flush_stripe();
    *out += out->empty() ? "" : " ";
    *out += keyword;
    AppendLeaves(out, v.leaves);
  }
  flush_stripe();
}

}  // namespace

std::string FormatPoolSpec(const PoolSpec& spec) {
  std::string out;
  AppendVdevs(&out, spec.vdevs);
  if (!spec.logs.empty()) {
    out += " log";
    AppendVdevs(&out, spec.logs);
  }
  if (!spec.caches.empty()) {
    out += " cache";
    AppendLeaves(&out, spec.caches);
  }
  return out;
}

}  // namespace ziosim
