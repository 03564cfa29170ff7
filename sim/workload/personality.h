// A workload personality: a named mix of file I/O (models/personalities/NAME.toml
// or a user's own file) that `ziosim workload` runs through the pool: how many
// files of what size, the I/O sizes and their weights, the share of reads and
// of random accesses, the writers' sync behaviour and the number of threads.
// Each thread runs a closed loop: one operation, then the next.
#ifndef ZIOSIM_SIM_WORKLOAD_PERSONALITY_H_
#define ZIOSIM_SIM_WORKLOAD_PERSONALITY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ziosim {

struct Personality {
  enum class Sync : uint8_t {
    kNone,    // buffered writes; nothing is made stable before the txg syncs
    kODsync,  // every write is O_DSYNC (returns once logged)
    kFsync,   // every write is followed by fsync()
  };
  std::string name;
  std::string description;
  int files = 1;
  int64_t file_size = int64_t{1} << 30;
  int64_t recordsize = 128 << 10;
  int threads = 1;
  double read_pct = 100;    // share of operations that are reads
  double random_pct = 100;  // share of operations at a random offset (else sequential per thread)
  Sync sync = Sync::kNone;
  std::vector<std::pair<int64_t, double>> io_sizes;  // (bytes, weight), weights > 0
};

// Folder of the built-in personalities (compiled in as ZIOSIM_PERSONALITIES_DIR).
std::string PersonalitiesDir();
// Built-in personality names, sorted.
std::vector<std::string> PersonalityNames();
// A built-in personality by name, or a personality file when `name` is a path
// (contains '/' or ends in .toml). InputError listing the known names if unknown.
Personality LoadPersonality(const std::string& name);
// Parses a personality file; errors are InputError "FILE:LINE: key: what".
Personality LoadPersonalityFile(const std::string& path);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_WORKLOAD_PERSONALITY_H_
