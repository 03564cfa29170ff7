// Sizes typed by users: "4096", "4K", "1M", "1.5G", "2T". Suffixes are binary
// multiples (K = 2^10 ... T = 2^40), as fio and dd read them; an optional "iB"
// or "B" after the letter is accepted ("4KiB"). Case does not matter.
// Rates and capacities the simulator reports use decimal MB (10^6 bytes);
// only these user-typed sizes are binary.
#ifndef ZIOSIM_SIM_CORE_UNITS_H_
#define ZIOSIM_SIM_CORE_UNITS_H_

#include <cstdint>
#include <string_view>

#include "sim/core/time.h"

namespace ziosim {

// Parses a size >= 0 in bytes. `field` names the option or key for the message
// (e.g. "--bs"). Throws InputError on an empty string, a negative value, junk,
// a fraction of a byte, or a value above INT64_MAX bytes.
int64_t ParseSize(std::string_view text, std::string_view field);

// As ParseSize, but zero is an error too.
int64_t ParsePositiveSize(std::string_view text, std::string_view field);

// A duration as fio writes it: a whole number with an optional unit (ns, us, ms, s,
// m, h, d; seconds when omitted). Throws InputError naming `field`.
SimTime ParseDuration(std::string_view text, std::string_view field);

// A data rate in bytes per second: a number (fractions allowed) and a unit, B/s,
// KB/s, MB/s, GB/s (decimal, as rates are reported everywhere here) or KiB/s,
// MiB/s, GiB/s (binary). Must be positive and finite. Throws InputError naming `field`.
double ParseRate(std::string_view text, std::string_view field);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_UNITS_H_
