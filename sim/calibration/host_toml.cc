#include "sim/calibration/host_toml.h"

#include <sstream>

namespace ziosim {
namespace {

// A TOML basic string: quotes and backslashes escaped, control characters dropped.
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"";
}

}  // namespace

std::string HostLabel(const HostBench& b) {
  return (b.cpu_model.empty() ? std::string("unknown CPU") : b.cpu_model) + ", " + std::to_string(b.cores) +
         " CPUs" + (b.virtual_machine ? " (a virtual machine)" : "");
}

std::string HostToml(const HostBench& b, std::span<const HostFigure> figures) {
  std::ostringstream out;
  out << "# Host profile: " << HostLabel(b) << ", measured " << b.date << " by `ziosim calibrate --kind host`.\n"
      << "# Every figure is the median of " << kHostRepeats << " timed loops of about " << kHostLoopNs / 1000
      << " us on one thread;\n# its spread is the interquartile range of the loops over their median.\n"
      << "# --host FILE (Python host=, a scenario's pool.host) is the same as giving these tunables\n"
      << "# after the profile.\n"
      << "description = " << Quoted("Measured on " + HostLabel(b) + ", " + b.date) << "\n\n[tunables]\n";
  for (const HostFigure& f : figures) {
    out << "# " << f.source << "\n";
    if (f.measured) {
      out << f.tunable << " = " << f.value << "\n";
    } else {
      out << "# " << f.tunable << ": not set\n";
    }
  }
  return out.str();
}

}  // namespace ziosim
