// Reader for DiskSim's parameter grammar ("libparam"), the language of DiskSim's
// .parv, .diskspecs and .model files:
//
//   # comment to end of line
//   source other.diskspecs                       (include, relative to this file)
//   disksim_bus BUS1 { Read block transfer time = 0.17, Print stats = 1 }
//   instantiate [ bus0, bus1 ] as BUS1
//   topology disksim_iodriver driver0 [ disksim_bus bus0 [ disksim_disk disk0 [] ] ]
//
// Keys are free text (`Rotation speed (in rpms)`); values are numbers, bare
// words, lists `[ a, b ]` or blocks, named (`dm_disk NAME { ... }`) or not
// (`dm_layout_g1 { ... }`). `source FILE` may stand wherever a token may: the
// file's tokens replace it, as in DiskSim, so `Model = source x.model` makes
// the block defined in x.model the value of `Model`.
//
// The result is a plain tree in which every element remembers the file and
// line it came from, so that later stages can report errors precisely. All
// errors are InputError("FILE:LINE: message"); any input, however truncated or
// garbled, yields either a tree or such an error.
#ifndef ZIOSIM_MODELS_DISKSIM_LIBPARAM_H_
#define ZIOSIM_MODELS_DISKSIM_LIBPARAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ziosim::libparam {

struct Location {
  std::string file;
  int line = 0;  // 1-based
};

struct Block;

struct Value {
  enum class Kind { kNumber, kWord, kList, kBlock };
  Kind kind = Kind::kWord;
  Location where;
  std::string text;          // kNumber and kWord: the token as written
  double number = 0;         // kNumber
  bool is_integer = false;   // kNumber written as a decimal or hex integer
  int64_t integer = 0;       // kNumber with is_integer
  std::vector<Value> items;  // kList
  std::shared_ptr<const Block> block;  // kBlock
};

struct Param {
  std::string key;  // words joined by single spaces
  Location where;
  Value value;
};

struct Block {
  std::string type;  // e.g. "disksim_disk", "dm_layout_g1_zone"
  std::string name;  // empty for an unnamed block value
  Location where;    // the line of the type word
  std::vector<Param> params;

  // The parameter called `key`, or nullptr. Keys are unique within a block.
  const Param* Find(std::string_view key) const;
};

// `instantiate [ disk0, disk1 ] as NAME`
struct Instantiation {
  std::vector<std::string> instances;
  std::string block_name;
  Location where;
};

// `TYPE NAME [ children ]` inside a `topology` statement.
struct TopologyNode {
  std::string type;
  std::string name;
  Location where;
  std::vector<TopologyNode> children;
};

struct ParamFile {
  std::vector<Block> blocks;  // top-level named blocks, in order, sources included
  std::vector<Instantiation> instantiations;
  std::vector<TopologyNode> topologies;
};

// Parses the file at `path`, following `source` includes.
ParamFile ParseFile(const std::string& path);
// Parses `text` as if read from a file called `file_name`: errors name it, and
// `source` paths are resolved against its folder.
ParamFile ParseText(std::string_view text, const std::string& file_name);

}  // namespace ziosim::libparam

#endif  // ZIOSIM_MODELS_DISKSIM_LIBPARAM_H_
