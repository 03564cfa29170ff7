#include "sim/zfs/host_profile.h"

#include "sim/zfs/tunables.h"

namespace ziosim {

std::vector<std::pair<std::string, std::string>> LoadHostFile(const std::string& path) {
  return LoadTunableFile(path, "host profile", kHostTunablePrefix).settings;
}

}  // namespace ziosim
