#include "models/disksim/libparam.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "sim/core/status.h"

namespace ziosim::libparam {
namespace {

// DiskSim allows this many open source files; deeper almost surely means a file includes itself.
constexpr int kMaxSourceDepth = 32;
// Blocks and lists nested deeper than this are not a drive description; the bound keeps
// recursion finite on hostile input.
constexpr int kMaxNesting = 64;

[[noreturn]] void Fail(const Location& where, const std::string& what) {
  throw InputError(where.file, where.line, what);
}

std::string Quote(std::string_view s) { return "'" + std::string(s) + "'"; }

struct Token {
  enum class Kind { kWord, kNumber, kLBrace, kRBrace, kLBracket, kRBracket, kComma, kEquals, kSourceEnd, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  Location where;
  int depth = 0;  // how many `source` includes deep the token was read (0: the file parsed)
};

std::string Describe(const Token& t) {
  switch (t.kind) {
    case Token::Kind::kWord:
    case Token::Kind::kNumber:
      return Quote(t.text);
    case Token::Kind::kSourceEnd:
      return "the end of " + t.where.file;
    case Token::Kind::kEnd:
      return "the end of the input";
    default:
      return Quote(t.text);
  }
}

// Characters that end a word. DiskSim's lexer also reserves ';', ':' and '?', which no
// rule of its grammar accepts; here they are simply errors.
bool IsDelimiter(char c) {
  switch (c) {
    case ' ': case '\t': case '\n': case '\r': case '\f': case '\v':
    case '{': case '}': case '[': case ']': case ',': case '=': case ';': case ':': case '?':
      return true;
    default:
      return false;
  }
}

bool IsPrintable(char c) { return c > 0x20 && c < 0x7f; }

bool IsDigits(std::string_view s, bool hex) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool digit = (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
    if (!digit) return false;
  }
  return true;
}

// DiskSim's number syntax: -?[0-9]+, -?0x[0-9a-fA-F]+, -?[0-9]+\.[0-9]+(e[+-][0-9]+)?.
// Anything else ("1e5", ".5", "5.") is a word, as in DiskSim.
bool IsInteger(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return IsDigits(s.substr(2), true);
  return IsDigits(s, false);
}

bool IsFloat(std::string_view s) {
  if (!s.empty() && s[0] == '-') s.remove_prefix(1);
  const size_t dot = s.find('.');
  if (dot == std::string_view::npos || !IsDigits(s.substr(0, dot), false)) return false;
  std::string_view rest = s.substr(dot + 1);
  const size_t e = rest.find('e');
  if (e == std::string_view::npos) return IsDigits(rest, false);
  std::string_view exponent = rest.substr(e + 1);
  if (exponent.empty() || (exponent[0] != '+' && exponent[0] != '-')) return false;
  return IsDigits(rest.substr(0, e), false) && IsDigits(exponent.substr(1), false);
}

bool ReadWholeFile(const std::string& path, std::string* text) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return !in.bad();
}

// Turns the characters of a file, and of the files it sources, into one token stream.
// An included file's tokens are followed by a kSourceEnd token, so that the parser can
// tell a construct left open at the end of an included file from one that continues.
class Lexer {
 public:
  Lexer(std::string text, std::string file_name) { stack_.push_back({std::move(file_name), std::move(text)}); }

  Token Next() {
    while (!stack_.empty()) {
      Source& s = stack_.back();
      SkipSpaceAndComments(s);
      if (s.pos < s.text.size()) {
        Token t = ReadToken(s);
        if (t.kind == Token::Kind::kWord && t.text == "source") {
          Include(t.where);
          continue;
        }
        return t;
      }
      const bool included = stack_.size() > 1;
      Token end{included ? Token::Kind::kSourceEnd : Token::Kind::kEnd, "", LastLine(s),
                static_cast<int>(stack_.size()) - 1};
      stack_.pop_back();
      if (included) return end;
      end_ = end;
    }
    return end_;  // and again on every later call
  }

 private:
  struct Source {
    std::string file;
    std::string text;
    size_t pos = 0;
    int line = 1;
  };

  static Location LastLine(const Source& s) {
    const bool trailing_newline = !s.text.empty() && s.text.back() == '\n';
    return {s.file, trailing_newline && s.line > 1 ? s.line - 1 : s.line};
  }

  static void SkipSpaceAndComments(Source& s) {
    while (s.pos < s.text.size()) {
      const char c = s.text[s.pos];
      if (c == '\n') {
        ++s.line;
        ++s.pos;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++s.pos;
      } else if (c == '#') {
        while (s.pos < s.text.size() && s.text[s.pos] != '\n') ++s.pos;
      } else {
        return;
      }
    }
  }

  Token ReadToken(Source& s) {
    const Location where{s.file, s.line};
    const int depth = static_cast<int>(stack_.size()) - 1;
    const char c = s.text[s.pos];
    Token::Kind kind;
    switch (c) {
      case '{': kind = Token::Kind::kLBrace; break;
      case '}': kind = Token::Kind::kRBrace; break;
      case '[': kind = Token::Kind::kLBracket; break;
      case ']': kind = Token::Kind::kRBracket; break;
      case ',': kind = Token::Kind::kComma; break;
      case '=': kind = Token::Kind::kEquals; break;
      default: return ReadWord(s, where, depth);
    }
    ++s.pos;
    return {kind, std::string(1, c), where, depth};
  }

  static Token ReadWord(Source& s, const Location& where, int depth) {
    const size_t start = s.pos;
    while (s.pos < s.text.size() && !IsDelimiter(s.text[s.pos])) {
      const char c = s.text[s.pos];
      if (!IsPrintable(c)) {
        char byte[8];
        std::snprintf(byte, sizeof(byte), "0x%02x", static_cast<unsigned char>(c));
        Fail(where, std::string("unexpected byte ") + byte + " (not a DiskSim parameter file?)");
      }
      ++s.pos;
    }
    if (s.pos == start) Fail(where, "unexpected character " + Quote(std::string(1, s.text[s.pos])));
    std::string word = s.text.substr(start, s.pos - start);
    const bool number = IsInteger(word) || IsFloat(word);
    return {number ? Token::Kind::kNumber : Token::Kind::kWord, std::move(word), where, depth};
  }

  // `source FILE`: the path is relative to the folder of the file that names it.
  void Include(const Location& where) {
    Source& s = stack_.back();
    SkipSpaceAndComments(s);
    const Token name = s.pos < s.text.size() ? ReadToken(s) : Token{};
    if (name.kind != Token::Kind::kWord && name.kind != Token::Kind::kNumber) {
      Fail(where, "'source' must be followed by a file name");
    }
    if (static_cast<int>(stack_.size()) >= kMaxSourceDepth) {
      Fail(where, "source files nested more than " + std::to_string(kMaxSourceDepth) +
                      " deep (does a file source itself?)");
    }
    std::filesystem::path path(name.text);
    if (path.is_relative()) path = std::filesystem::path(s.file).parent_path() / path;
    std::string text;
    if (!ReadWholeFile(path.string(), &text)) {
      Fail(where, "cannot open source file " + Quote(name.text) + " (looked for " + path.string() + ")");
    }
    stack_.push_back({path.string(), std::move(text)});
  }

  std::vector<Source> stack_;
  Token end_;
};

class Parser {
 public:
  explicit Parser(Lexer* lexer) : lexer_(lexer) {}

  ParamFile ParseAll() {
    ParamFile file;
    for (;;) {
      const Token& t = Peek();
      if (t.kind == Token::Kind::kEnd) return file;
      if (t.kind == Token::Kind::kSourceEnd) {
        Take();
      } else if (t.kind == Token::Kind::kWord && t.text == "topology") {
        Take();
        file.topologies.push_back(ParseTopologyNode(1));
      } else if (t.kind == Token::Kind::kWord && t.text == "instantiate") {
        file.instantiations.push_back(ParseInstantiation());
      } else {
        AddTopLevelBlock(ParseNamedBlock(), &file);
      }
    }
  }

 private:
  const Token& Peek(size_t ahead = 0) {
    while (ahead_.size() <= ahead) ahead_.push_back(lexer_->Next());
    return ahead_[ahead];
  }

  Token Take() {
    Peek();
    Token t = std::move(ahead_.front());
    ahead_.pop_front();
    return t;
  }

  Token Expect(Token::Kind kind, const std::string& what, const std::string& context) {
    if (Peek().kind != kind) Fail(Peek().where, "expected " + what + " " + context + ", found " + Describe(Peek()));
    return Take();
  }

  bool PeekIs(size_t ahead, Token::Kind kind) { return Peek(ahead).kind == kind; }

  // Inside a construct read at include depth `depth`: drops the end markers of files
  // sourced within it, and fails if the input, or the file holding the construct, ends
  // before the construct is closed.
  void CheckNotEnded(int depth, const std::string& construct, const Location& opened) {
    for (;;) {
      const Token& t = Peek();
      const bool own_file_ends = t.kind == Token::Kind::kSourceEnd && t.depth <= depth;
      if (t.kind == Token::Kind::kEnd || own_file_ends) {
        Fail(t.where, Describe(t) + " comes inside " + construct + " opened at " + opened.file + ":" +
                          std::to_string(opened.line));
      }
      if (t.kind != Token::Kind::kSourceEnd) return;
      Take();
    }
  }

  static void CheckNesting(int nesting, const Location& where) {
    if (nesting > kMaxNesting) {
      Fail(where, "blocks and lists nested more than " + std::to_string(kMaxNesting) + " deep");
    }
  }

  // TYPE NAME { ... }
  Block ParseNamedBlock() {
    const Token type =
        Expect(Token::Kind::kWord, "a block type", "at top level (TYPE NAME { ... }, instantiate, topology)");
    const Token name = Expect(Token::Kind::kWord, "a block name", "after " + Quote(type.text));
    return ParseBlockBody(type, name.text, 1);
  }

  void AddTopLevelBlock(Block block, ParamFile* file) {
    for (const Block& other : file->blocks) {
      if (other.name == block.name) {
        Fail(block.where, "block " + Quote(block.name) + " defined twice (first at " + other.where.file + ":" +
                              std::to_string(other.where.line) + ")");
      }
    }
    file->blocks.push_back(std::move(block));
  }

  // { KEY = VALUE, ... } after the type word (and name, if any) were read.
  Block ParseBlockBody(const Token& type, std::string name, int nesting) {
    Block block{type.text, std::move(name), type.where, {}};
    const std::string construct = "block " + Quote(block.name.empty() ? block.type : block.type + " " + block.name);
    CheckNesting(nesting, type.where);
    Expect(Token::Kind::kLBrace, "'{'", "to open " + construct);
    for (;;) {
      CheckNotEnded(type.depth, construct, type.where);
      if (PeekIs(0, Token::Kind::kRBrace)) break;
      ParseParams(&block, construct, nesting);
      CheckNotEnded(type.depth, construct, type.where);
      if (PeekIs(0, Token::Kind::kComma)) {
        Take();
        continue;
      }
      if (!PeekIs(0, Token::Kind::kRBrace)) {
        Fail(Peek().where, "expected ',' or '}' after the value of " + Quote(block.params.back().key) + " in " +
                               construct + ", found " + Describe(Peek()));
      }
    }
    Take();
    return block;
  }

  // KEY WORDS = VALUE, or [ KEY, KEY ] = VALUE (each key gets the value).
  void ParseParams(Block* block, const std::string& construct, int nesting) {
    std::vector<std::pair<std::string, Location>> keys;
    if (PeekIs(0, Token::Kind::kLBracket)) {
      Take();
      for (;;) {
        keys.emplace_back(ParseKey(construct));
        if (!PeekIs(0, Token::Kind::kComma)) break;
        Take();
      }
      Expect(Token::Kind::kRBracket, "']'", "to close a key list in " + construct);
    } else {
      keys.emplace_back(ParseKey(construct));
    }
    Expect(Token::Kind::kEquals, "'='", "after key " + Quote(keys.back().first));
    Value value = ParseValue(keys.back().first, nesting + 1);
    for (auto& [key, where] : keys) {
      if (const Param* other = block->Find(key)) {
        Fail(where, "key " + Quote(key) + " given twice in " + construct + " (first at line " +
                        std::to_string(other->where.line) + ")");
      }
      block->params.push_back({key, where, value});
    }
  }

  std::pair<std::string, Location> ParseKey(const std::string& construct) {
    if (!PeekIs(0, Token::Kind::kWord)) {
      Fail(Peek().where, "expected a key or '}' in " + construct + ", found " + Describe(Peek()));
    }
    Token first = Take();
    std::string key = first.text;
    while (PeekIs(0, Token::Kind::kWord)) key += " " + Take().text;
    return {key, first.where};
  }

  Value ParseValue(const std::string& key, int nesting) {
    const Token& t = Peek();
    CheckNesting(nesting, t.where);
    switch (t.kind) {
      case Token::Kind::kNumber:
        return ParseNumber(Take());
      case Token::Kind::kLBracket:
        return ParseList(key, nesting);
      case Token::Kind::kWord:
        return ParseWordOrBlock(nesting);
      default:
        Fail(t.where, "expected a value for " + Quote(key) + ", found " + Describe(t));
    }
  }

  // WORD, TYPE { ... } or TYPE NAME { ... }.
  Value ParseWordOrBlock(int nesting) {
    Value value;
    value.where = Peek().where;
    if (PeekIs(1, Token::Kind::kLBrace) || (PeekIs(1, Token::Kind::kWord) && PeekIs(2, Token::Kind::kLBrace))) {
      const Token type = Take();
      std::string name = PeekIs(0, Token::Kind::kWord) ? Take().text : "";
      value.kind = Value::Kind::kBlock;
      value.block = std::make_shared<const Block>(ParseBlockBody(type, std::move(name), nesting));
      return value;
    }
    value.kind = Value::Kind::kWord;
    value.text = Take().text;
    if (value.text == "..") Fail(value.where, "ranges (name0 .. name9) are not supported; list the names");
    return value;
  }

  static Value ParseNumber(const Token& t) {
    Value value;
    value.kind = Value::Kind::kNumber;
    value.where = t.where;
    value.text = t.text;
    errno = 0;
    if (IsInteger(t.text)) {
      const bool negative = t.text[0] == '-';
      std::string_view digits(t.text);
      if (negative) digits.remove_prefix(1);
      const bool hex = digits.size() > 2 && (digits[1] == 'x' || digits[1] == 'X');
      const std::string body(hex ? digits.substr(2) : digits);
      const long long magnitude = std::strtoll(body.c_str(), nullptr, hex ? 16 : 10);
      value.is_integer = true;
      value.integer = negative ? -magnitude : magnitude;
      value.number = static_cast<double>(value.integer);
    } else {
      value.number = std::strtod(t.text.c_str(), nullptr);
    }
    if (errno == ERANGE) Fail(t.where, "number " + Quote(t.text) + " is out of range");
    return value;
  }

  Value ParseList(const std::string& key, int nesting) {
    const Token open = Take();
    Value list;
    list.kind = Value::Kind::kList;
    list.where = open.where;
    const std::string construct = "the list of " + Quote(key);
    for (;;) {
      CheckNotEnded(open.depth, construct, open.where);
      if (PeekIs(0, Token::Kind::kRBracket)) break;
      list.items.push_back(ParseValue(key, nesting + 1));
      CheckNotEnded(open.depth, construct, open.where);
      if (list.items.back().kind == Value::Kind::kWord && PeekIs(0, Token::Kind::kWord) && Peek().text == "..") {
        ExpandRangeItem(&list.items);  // `disk0 .. disk17` in a list of names
        CheckNotEnded(open.depth, construct, open.where);
      }
      if (PeekIs(0, Token::Kind::kComma)) {
        Take();
      } else if (!PeekIs(0, Token::Kind::kRBracket)) {
        Fail(Peek().where, "expected ',' or ']' in " + construct + " opened at line " +
                               std::to_string(open.where.line) + ", found " + Describe(Peek()));
      }
    }
    Take();
    return list;
  }

  // instantiate [ NAME, ... ] as BLOCK; a NAME may be a range `disk0 .. disk8`.
  Instantiation ParseInstantiation() {
    Instantiation inst;
    inst.where = Take().where;
    Expect(Token::Kind::kLBracket, "'['", "after 'instantiate'");
    while (!PeekIs(0, Token::Kind::kRBracket)) {
      const Token first = Expect(Token::Kind::kWord, "an instance name", "in 'instantiate [ ... ]'");
      if (PeekIs(0, Token::Kind::kWord) && Peek().text == "..") {
        Take();
        const Token last = Expect(Token::Kind::kWord, "the range's last name", "after '..'");
        ExpandRange(first, last, &inst.instances);
      } else {
        inst.instances.push_back(first.text);
      }
      if (!PeekIs(0, Token::Kind::kComma)) break;
      Take();
    }
    Expect(Token::Kind::kRBracket, "']'", "to close 'instantiate [ ...'");
    const Token as = Expect(Token::Kind::kWord, "'as'", "after 'instantiate [ ... ]'");
    if (as.text != "as") Fail(as.where, "expected 'as' after 'instantiate [ ... ]', found " + Describe(as));
    inst.block_name = Expect(Token::Kind::kWord, "a block name", "after 'as'").text;
    return inst;
  }

  // Replaces the word ending `items` by the names of the range it starts.
  void ExpandRangeItem(std::vector<Value>* items) {
    const Value start = items->back();
    items->pop_back();
    Take();  // ..
    const Token last = Expect(Token::Kind::kWord, "the range's last name", "after '..'");
    std::vector<std::string> names;
    ExpandRange(Token{Token::Kind::kWord, start.text, start.where, 0}, last, &names);
    for (std::string& name : names) {
      Value v = start;
      v.text = std::move(name);
      items->push_back(std::move(v));
    }
  }

  // `disk0 .. disk8`: one prefix, the numbers from the first to the last (DiskSim's
  // libparam range of instance names).
  static void ExpandRange(const Token& first, const Token& last, std::vector<std::string>* names) {
    auto split = [](const std::string& name) {
      size_t digits = name.size();
      while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
      return std::pair{name.substr(0, digits), name.substr(digits)};
    };
    const auto [prefix, from] = split(first.text);
    const auto [last_prefix, to] = split(last.text);
    if (from.empty() || to.empty() || prefix != last_prefix || from.size() > 9 || to.size() > 9) {
      Fail(first.where, "range " + Quote(first.text + " .. " + last.text) +
                            ": both ends must be one name followed by a number");
    }
    const int begin = std::stoi(from), end = std::stoi(to);
    constexpr int kMostNames = 65536;
    if (end < begin || end - begin >= kMostNames) {
      Fail(first.where, "range " + Quote(first.text + " .. " + last.text) + " must count up, by at most " +
                            std::to_string(kMostNames) + " names");
    }
    for (int i = begin; i <= end; ++i) names->push_back(prefix + std::to_string(i));
  }

  // TYPE NAME [ child, ... ]
  TopologyNode ParseTopologyNode(int nesting) {
    TopologyNode node;
    const Token type = Expect(Token::Kind::kWord, "a component type", "in the topology");
    CheckNesting(nesting, type.where);
    node.type = type.text;
    node.where = type.where;
    node.name = Expect(Token::Kind::kWord, "a component name", "after " + Quote(type.text) + " in the topology").text;
    const Token open = Expect(Token::Kind::kLBracket, "'['", "after " + Quote(node.type + " " + node.name));
    const std::string construct = "the topology of " + Quote(node.name);
    for (;;) {
      CheckNotEnded(open.depth, construct, open.where);
      if (PeekIs(0, Token::Kind::kRBracket)) break;
      node.children.push_back(ParseTopologyNode(nesting + 1));
      CheckNotEnded(open.depth, construct, open.where);
      if (PeekIs(0, Token::Kind::kComma)) {
        Take();
      } else if (!PeekIs(0, Token::Kind::kRBracket)) {
        Fail(Peek().where, "expected ',' or ']' in " + construct + ", found " + Describe(Peek()));
      }
    }
    Take();
    return node;
  }

  Lexer* lexer_;
  std::deque<Token> ahead_;
};

}  // namespace

const Param* Block::Find(std::string_view key) const {
  for (const Param& p : params) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

ParamFile ParseText(std::string_view text, const std::string& file_name) {
  Lexer lexer{std::string(text), file_name};
  return Parser(&lexer).ParseAll();
}

ParamFile ParseFile(const std::string& path) {
  std::string text;
  if (!ReadWholeFile(path, &text)) throw InputError("cannot open DiskSim parameter file " + path);
  return ParseText(text, path);
}

}  // namespace ziosim::libparam
