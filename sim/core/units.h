// Sizes typed by users, one grammar everywhere (command line, TOML, Python):
// a number ("4096", "1.5", "1e9") and an optional unit, case-insensitive, with
// at most one space before it. A prefix letter alone or with "iB" is binary, as
// fio and dd read "4K" (K = KiB = 2^10 ... T = TiB = 2^40); with "B" it is
// decimal, the unit every rate and capacity here is reported in (KB = 10^3,
// MB = 10^6, GB = 10^9, TB = 10^12); "B" alone is bytes. The value must be a
// whole number of bytes: "1.5K" is 1536, "0.3K" an error.
#ifndef ZIOSIM_SIM_CORE_UNITS_H_
#define ZIOSIM_SIM_CORE_UNITS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "sim/core/time.h"

namespace ziosim {

// fio job files keep fio's own grammar (its default kb_base=1024): "4KB" is
// 4096 and "4KiB" 4000, the inversion fio documents "for compatibility with
// old scripts"; a prefix letter alone is binary in both.
enum class SizeGrammar { kZiosim, kFio };

// Parses a size >= 0 in bytes. `field` names the option or key for the message
// (e.g. "--bs"). Throws InputError on an empty string, a negative value, junk,
// a fraction of a byte, or a value above INT64_MAX bytes.
int64_t ParseSize(std::string_view text, std::string_view field, SizeGrammar grammar = SizeGrammar::kZiosim);

// As ParseSize, but zero is an error too.
int64_t ParsePositiveSize(std::string_view text, std::string_view field);

// A size as a user would type it: "128K" when it is a whole number of K, M, G
// or T (binary, the grammar above), else the number of bytes.
std::string SizeText(int64_t bytes);
// A size as zpool prints it (zfs_nicenum): three significant digits and the
// binary unit, "1.23G", "512K", "16.0T".
std::string NiceBytes(int64_t bytes);

// A duration as fio writes it: a whole number with an optional unit (ns, us, ms, s,
// m, h, d; seconds when omitted). Throws InputError naming `field`.
SimTime ParseDuration(std::string_view text, std::string_view field);

// A data rate in bytes per second: a number (fractions allowed) and a unit, B/s,
// KB/s, MB/s, GB/s (decimal, as rates are reported everywhere here) or KiB/s,
// MiB/s, GiB/s (binary). Must be positive and finite. Throws InputError naming `field`.
double ParseRate(std::string_view text, std::string_view field);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_UNITS_H_
