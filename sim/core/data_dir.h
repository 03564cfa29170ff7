// Where ziosim's data files (the drive catalog, the era profiles) are. In
// order: $ZIOSIM_DATA_DIR/<kind>; next to an installed binary,
// <bin>/../share/ziosim/<kind> (a pip install puts the CLI and the data there);
// else the source tree the program was built from.
#ifndef ZIOSIM_SIM_CORE_DATA_DIR_H_
#define ZIOSIM_SIM_CORE_DATA_DIR_H_

#include <string>
#include <string_view>

namespace ziosim {

// `kind` is "catalog" or "profiles"; `built_in` the source-tree folder.
std::string DataDir(std::string_view kind, const std::string& built_in);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_DATA_DIR_H_
