#include "sim/zfs/layout_preset.h"

#include <algorithm>
#include <cstdint>

#include "sim/core/status.h"
#include "sim/core/text.h"

namespace ziosim {
namespace {

constexpr char kPresetForms[] =
    "sequential, writers:N (N >= 2), shuffle:K (K >= 2), fragmented:PCT (0-95), sendrecv";

[[noreturn]] void BadPreset(std::string_view text, const std::string& why) {
  throw InputError("layout preset '" + std::string(text) + "': " + why + "; valid forms are " + kPresetForms);
}

}  // namespace

LayoutPreset ParseLayoutPreset(std::string_view text) {
  LayoutPreset p;
  if (text == "sequential") {
    p.kind = LayoutPreset::Kind::kSequential;
    p.text = "sequential";
    return p;
  }
  if (text == "sendrecv") {
    p.kind = LayoutPreset::Kind::kSendRecv;
    p.text = "sendrecv";
    return p;
  }
  const size_t colon = text.find(':');
  if (colon == std::string_view::npos) BadPreset(text, "unknown preset");
  const std::string_view name = text.substr(0, colon);
  const std::string_view arg = text.substr(colon + 1);
  int64_t lo = 0;
  int64_t hi = 0;
  if (name == "writers") {
    p.kind = LayoutPreset::Kind::kWriters;
    lo = 2;
    hi = 4096;
  } else if (name == "shuffle") {
    p.kind = LayoutPreset::Kind::kShuffle;
    lo = 2;
    hi = 1 << 20;
  } else if (name == "fragmented") {
    p.kind = LayoutPreset::Kind::kFragmented;
    lo = 0;
    hi = 95;
  } else {
    BadPreset(text, "unknown preset '" + std::string(name) + "'");
  }
  int64_t v = 0;
  if (!ParseInt64(arg, &v)) BadPreset(text, "'" + std::string(arg) + "' is not a whole number");
  if (v < lo || v > hi) {
    BadPreset(text, std::string(name) + " must be " + std::to_string(lo) + ".." + std::to_string(hi));
  }
  p.param = static_cast<int>(v);
  p.text = std::string(name) + ":" + std::to_string(v);
  return p;
}

WriteOrder WriteOrderOf(const LayoutPreset& preset) {
  using Kind = LayoutPreset::Kind;
  if (preset.kind == Kind::kFragmented && (preset.param < 0 || preset.param > 95)) {
    BadPreset(preset.text, "fragmented must be 0..95");
  }
  WriteOrder w;
  w.old_data_fill = preset.kind == Kind::kFragmented ? preset.param / 100.0 : 0.0;
  w.l1_after_file = preset.kind == Kind::kSendRecv;
  w.shuffle_window = preset.kind == Kind::kShuffle ? std::max(2, preset.param) : 1;
  w.writers = preset.kind == Kind::kWriters ? std::max(1, preset.param) : 1;
  return w;
}

}  // namespace ziosim
