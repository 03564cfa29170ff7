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
// Whether `a` and `b` are equal ignoring ASCII case (no allocation, unlike comparing Lower()s).
bool EqualsIgnoringCase(std::string_view a, std::string_view b);
// Whether all of `s` is one integer in `base` (no sign for base 16, no spaces); sets *out.
bool ParseInt64(std::string_view s, int64_t* out, int base = 10);
std::string_view Trim(std::string_view s);
// Levenshtein distance, for "did you mean" suggestions.
size_t EditDistance(std::string_view a, std::string_view b);
// The candidates close to `word` for a "did you mean": within an edit distance
// of a quarter of its length (at least 2), or containing it when it has 6 or
// more letters; best first, at most `max`; just the one on an exact match.
std::vector<std::string> ClosestWords(std::string_view word, const std::vector<std::string_view>& candidates,
                                      size_t max);
// `s` with control bytes (a binary file's garbage quoted in an error message)
// written as \xNN, so the message stays one printable line.
std::string Printable(std::string_view s);
// "a", "a<last>b", "a, b<last>c": Join(items, " or ") gives "a, b or c".
std::string Join(const std::vector<std::string>& items, std::string_view last_separator = ", ");

}  // namespace ziosim

#endif  // ZIOSIM_SIM_CORE_TEXT_H_
