#include "sim/cli/plot_file.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/core/status.h"

namespace ziosim::cli {

namespace fs = std::filesystem;

namespace {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The interpreter and the PYTHONPATH prefix to run ziosim.plot_cli with.
std::string PythonCommand() {
  if (const char* env = std::getenv("ZIOSIM_PYTHON"); env != nullptr && *env != '\0') return Quote(env);
  std::error_code ec;
  const fs::path bin = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (!ec && fs::exists(bin / "python3", ec)) return Quote((bin / "python3").string());
  if (!ec && fs::is_directory(bin / "python" / "ziosim", ec)) {
    return "PYTHONPATH=" + Quote((bin / "python").string()) + " python3";
  }
  return "python3";
}

}  // namespace

void PlotResult(const std::string& kind, const nlohmann::json& result, const std::string& png_path) {
  const std::string json_path = (fs::temp_directory_path() / ("ziosim-plot-" + std::to_string(::getpid()) + ".json")).string();
  {
    std::ofstream out(json_path);
    out << result.dump();
  }
  const std::string cmd = PythonCommand() + " -m ziosim.plot_cli " + kind + " " + Quote(json_path) + " " +
                          Quote(png_path) + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::error_code ignored;
  fs::remove(json_path, ignored);
  if (status != 0) {
    throw InputError("--plot: drawing needs the ziosim Python package with matplotlib (pip install .); `" + cmd +
                     "` failed");
  }
}

}  // namespace ziosim::cli
