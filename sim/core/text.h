// Small text helpers shared by the parsers and their error messages.
#ifndef ZIOSIM_SIM_CORE_TEXT_H_
#define ZIOSIM_SIM_CORE_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ziosim {

std::string Lower(std::string_view s);
// Whether all of `s` is one integer in `base` (no sign for base 16, no spaces); sets *out.
bool ParseInt64(std::string_view s, int64_t* out, int base = 10);
std::string_view Trim(std::string_view s);
// Levenshtein distance, for "did you mean" suggestions.
size_t EditDistance(std::string_view a, std::string_view b);
// `s` with control bytes (a binary file's garbage quoted in an error message)
// written as \xNN, so the message stays one printable line.
std::string Printable(std::string_view s);
// "a", "a<last>b", "a, b<last>c": Join(items, " or ") gives "a, b or c".
std::string Join(const std::vector<std::string>& items, std::string_view last_separator = ", ");

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_TEXT_H_
