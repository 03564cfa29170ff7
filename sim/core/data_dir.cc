#include "sim/core/data_dir.h"

#include <cstdlib>
#include <filesystem>

namespace ziosim {

namespace fs = std::filesystem;

std::string DataDir(std::string_view kind, const std::string& built_in) {
  if (const char* env = std::getenv("ZIOSIM_DATA_DIR"); env != nullptr && *env != '\0') {
    return (fs::path(env) / kind).string();
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "ziosim" / kind;
    if (fs::is_directory(installed, ec)) return installed.string();
  }
  return built_in;
}

}  // namespace ziosim
