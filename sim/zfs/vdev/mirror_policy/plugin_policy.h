// Mirror policies from shared libraries (sim/zfs/vdev/mirror_policy/plugin/ziosim_mirror_plugin.h):
// a C child-selection function loaded with dlopen and registered under the
// name it exports, so `mirror_policy=NAME` selects it like a built-in.
#ifndef ZIOSIM_SIM_ZFS_VDEV_MIRROR_POLICY_PLUGIN_POLICY_H_
#define ZIOSIM_SIM_ZFS_VDEV_MIRROR_POLICY_PLUGIN_POLICY_H_

#include <string>

namespace ziosim {

// Loads the plug-in at `path` and registers its policy; returns its name.
// Loading the same file again is a no-op. Throws InputError naming the file
// if it cannot be loaded, lacks a required symbol, has another ABI version,
// or takes a built-in policy's name.
std::string LoadMirrorPolicyPlugin(const std::string& path);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_MIRROR_POLICY_PLUGIN_POLICY_H_
