// toml++ as the whole project includes it (every file includes this header,
// never <toml++/toml.h> itself, so that every translation unit sees the same
// definitions). toml++ 3.3.0's parser states as assertions
// (TOML_ASSERT_ASSUME) conditions that malformed input breaks, and then reports
// the input's error itself: "[=" in a table header fails parse_key's, which a
// build without NDEBUG turns into an abort (found by the fuzzers). The parser's
// own error is the right answer, so its assertions are off in every build.
// (With NDEBUG, GCC, which builds the project, ignores them; clang would make
// them __builtin_assume, undefined behaviour on such input, so a clang Release
// build is not one to ship.)
#ifndef ZIOSIM_SIM_CORE_TOML_H_
#define ZIOSIM_SIM_CORE_TOML_H_

#define TOML_ASSERT(expr) static_assert(true)
#include <toml++/toml.h>

#endif  // ZIOSIM_SIM_CORE_TOML_H_
