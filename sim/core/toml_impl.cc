// toml++'s implementation, compiled once into the core: every other file
// includes toml++ (sim/core/toml.h) as declarations only (TOML_HEADER_ONLY=0,
// CMakeLists.txt), and nothing links the system's libtomlplusplus.so, so an
// installed wheel loads on a machine without it.
#define TOML_IMPLEMENTATION
#include "sim/core/toml.h"
