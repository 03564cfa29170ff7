#include "sim/core/toml_util.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

#include "sim/core/status.h"

namespace ziosim {

int TomlLine(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::string TomlTypeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date or time";
  }
}

namespace {

// The line of the first byte >= 0x80 outside a string and a comment, or 0.
// TOML 1.0 allows non-ASCII text only in strings and comments, so such a
// byte is always a syntax error, reported here in these words (toml++'s own
// report depends on where the parser stands: "expected bare key starting
// character", "expected value-terminator", ...). Strings are skipped as TOML
// delimits them: "..." with backslash escapes, '...' verbatim, and their
// triple-quoted multi-line forms, whose closing run may carry up to two quotes
// of content. A leading UTF-8 byte-order mark is not text.
int NonAsciiOutsideStrings(std::string_view text) {
  size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  int line = 1;
  auto quotes_at = [&](size_t at, char q) {
    size_t n = 0;
    while (at + n < text.size() && text[at + n] == q) ++n;
    return n;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '"' || c == '\'') {
      const bool escapes = c == '"';
      if (quotes_at(i, c) >= 3) {
        i += 3;
        while (i < text.size()) {
          if (escapes && text[i] == '\\') {
            if (i + 1 < text.size() && text[i + 1] == '\n') ++line;
            i += 2;
          } else if (text[i] == c && quotes_at(i, c) >= 3) {
            i += std::min<size_t>(quotes_at(i, c), 5);
            break;
          } else {
            line += text[i] == '\n';
            ++i;
          }
        }
      } else {
        ++i;
        while (i < text.size() && text[i] != c && text[i] != '\n') {
          const bool escaped = escapes && text[i] == '\\' && i + 1 < text.size() && text[i + 1] != '\n';
          i += escaped ? 2 : 1;
        }
        if (i < text.size() && text[i] == c) ++i;
      }
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      return line;
    } else {
      ++i;
    }
  }
  return 0;
}

}  // namespace

toml::table ParseTomlFile(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(path + ": cannot open " + what);
  std::ifstream in(path, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.good() && !in.eof()) throw InputError(path + ": cannot read " + what);
  if (int line = NonAsciiOutsideStrings(text)) {
    throw InputError(path, line, "a non-ASCII character outside a string or a comment (TOML allows it only there)");
  }
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw InputError(path, static_cast<int>(e.source().begin.line), std::string(e.description()));
  }
}

std::string TomlScalarText(const std::string& path, const std::string& key, const toml::node& node) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  throw InputError(path, TomlLine(node), key + ": expected a string, an integer or a boolean, got " + TomlTypeName(node));
}

}  // namespace ziosim
