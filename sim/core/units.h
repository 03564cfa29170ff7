// Sizes typed by users: "4096", "4K", "1M", "1.5G", "2T". Suffixes are binary
// multiples (K = 2^10 ... T = 2^40), as fio and dd read them; an optional "iB"
// or "B" after the letter is accepted ("4KiB"). Case does not matter.
// Rates and capacities the simulator reports use decimal MB (10^6 bytes);
// only these user-typed sizes are binary.
#ifndef ZIOSIM_SIM_CORE_UNITS_H_
#define ZIOSIM_SIM_CORE_UNITS_H_

#include <cstdint>
#include <string_view>

namespace ziosim {

// Parses a size >= 0 in bytes. `field` names the option or key for the message
// (e.g. "--bs"). Throws InputError on an empty string, a negative value, junk,
// a fraction of a byte, or a value above INT64_MAX bytes.
int64_t ParseSize(std::string_view text, std::string_view field);

// As ParseSize, but zero is an error too.
int64_t ParsePositiveSize(std::string_view text, std::string_view field);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_UNITS_H_
