// A host profile: the host CPU's costs measured on one machine
// (`ziosim calibrate --kind host`, models/hosts/*.toml), as a bundle of
// `ziosim_cpu_*` tunables in the era profiles' file format. Giving one
// (`--host FILE`, Python `host=`, a scenario's `pool.host`) is the same as
// giving its tunables after the profile and before any `--set`.
#ifndef ZIOSIM_SIM_ZFS_HOST_PROFILE_H_
#define ZIOSIM_SIM_ZFS_HOST_PROFILE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ziosim {

// The prefix of every tunable a host profile may set.
inline constexpr std::string_view kHostTunablePrefix = "ziosim_cpu_";

// The tunables of host profile `path`, in file order, each checked against the
// table; InputError "FILE:LINE: name: what is wrong" (a tunable other than a
// ziosim_cpu_* one included).
std::vector<std::pair<std::string, std::string>> LoadHostFile(const std::string& path);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_HOST_PROFILE_H_
