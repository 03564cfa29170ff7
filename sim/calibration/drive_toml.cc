#include "sim/calibration/drive_toml.h"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace ziosim {
namespace {

// A TOML basic string; control characters (never meant in a provenance) become spaces.
std::string TomlString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
  }
  return out + "\"";
}

// The catalog's integer figures (catalog.cc kHddKeys / kSsdKeys, Number::kInteger).
bool IsIntegerKey(std::string_view key) {
  for (std::string_view k : {"capacity_bytes", "queue_depth", "surfaces", "zones", "cache_bytes", "cache_segments",
                             "read_ahead_bytes", "channels", "dies_per_channel", "page_bytes", "controller_cores"}) {
    if (key == k) return true;
  }
  return false;
}

}  // namespace

std::string FormatFigure(const char* format, double value) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

std::string CatalogNumber(const CatalogValue& value) {
  if (IsIntegerKey(value.key)) return std::to_string(std::llround(value.value));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", value.value);
  return buf;
}

std::string DriveToml(std::string_view kind, const std::string& name, const std::string& description,
                      std::span<const CatalogValue> values) {
  std::ostringstream out;
  out << "# Written by `ziosim calibrate`: figures fitted to measurements\n"
         "# (source = \"calibrated: ...\"), or kept or assumed where the measurements\n"
         "# cannot show them. See docs/calibration.md.\n";
  out << "name = " << TomlString(name) << "\nkind = " << TomlString(kind)
      << "\ndescription = " << TomlString(description) << "\n\n[" << kind << "]\n";
  for (const CatalogValue& v : values) {
    out << v.key << " = { value = " << CatalogNumber(v) << ", " << (v.estimated ? "estimated" : "source") << " = "
        << TomlString(v.provenance) << " }\n";
  }
  return out.str();
}

}  // namespace ziosim
