// `ziosim readers`: N concurrent dd-like readers through the whole read path.
#include <string>
#include <vector>

#include "sim/cli/commands.h"
#include "sim/cli/plot_file.h"
#include "sim/cli/readers_output.h"
#include "sim/cli/settings.h"
#include "sim/core/status.h"
#include "sim/core/units.h"

namespace ziosim::cli {
namespace {

struct Cli {
  std::string pool;
  std::vector<int> readers = {1, 2, 5, 10};
  std::string bs = "1M", file_size = "1G", recordsize = "128K", arc_max = "0";
  double compression = 1.0;
  bool sparse = false, same_file = false, random = false, warm = false, json = false;
  std::string profile = std::string(kDefaultProfile), layout = "sequential", primarycache = "all", l2arc;
  int ashift = 12;
  std::vector<std::string> set;
  uint64_t seed = 1;
  std::string plot, io_log, read_offset = "0", read_bytes = "0";
};

void Run(const Cli& c) {
  ReadersOptions o;
  SetFileSweepOptions(c, &o);
  o.readers = c.readers;
  SetReadPathOptions(c, &o);
  o.sparse = c.sparse;
  o.same_file = c.same_file;
  o.random = c.random;
  o.warm = c.warm;
  o.read_offset = ParseSize(c.read_offset, "--read-offset");
  o.read_bytes = ParseSize(c.read_bytes, "--read-bytes");
  o.io_log_path = c.io_log;
  const std::vector<ReadersRun> runs = RunReaders(o);
  PrintReaders(o, runs, c.json);
  if (!c.plot.empty()) PlotResult("readers", ReadersJson(o, runs), c.plot);
}

}  // namespace

void AddReadersCommand(CLI::App& app) {
  auto c = std::make_shared<Cli>();
  CLI::App* cmd = app.add_subcommand("readers", "N concurrent dd-like readers through the whole read path");
  cmd->add_option("--pool", c->pool, "Pool in zpool syntax, e.g. \"mirror 2xwd-re4-1tb\"")->required();
  cmd->add_option("--readers", c->readers, "Reader counts to sweep, e.g. 1,2,5,10")->delimiter(',')->capture_default_str();
  cmd->add_option("--bs", c->bs, "Bytes per read() call")->capture_default_str();
  cmd->add_option("--file-size", c->file_size, "Size of each reader's file")->capture_default_str();
  cmd->add_option("--recordsize", c->recordsize, "Dataset recordsize")->capture_default_str();
  cmd->add_option("--compression", c->compression, "Compression ratio (logical / physical)")->capture_default_str();
  cmd->add_flag("--sparse", c->sparse, "Files are truncated, never written: every block a hole");
  cmd->add_flag("--same-file", c->same_file, "All readers read one file");
  cmd->add_flag("--random", c->random, "Read at random bs-aligned offsets");
  cmd->add_option("--read-offset", c->read_offset, "Each reader starts at this byte of its file (dd skip=)")
      ->capture_default_str();
  cmd->add_option("--read-bytes", c->read_bytes, "Each reader reads this many bytes (dd count=); 0: to the end")
      ->capture_default_str();
  cmd->add_option("--io-log", c->io_log, "Write every leaf I/O of the last run to this CSV file");
  cmd->add_option("--profile", c->profile, "Era profile (see `ziosim profiles`)")->capture_default_str();
  cmd->add_option("--set", c->set, "Tunable NAME=VALUE (repeatable)");
  cmd->add_option("--layout", c->layout, "On-disk layout: sequential, writers:N, shuffle:K, fragmented:PCT, sendrecv")
      ->capture_default_str();
  cmd->add_option("--primarycache", c->primarycache, "all, metadata or none")->capture_default_str();
  cmd->add_option("--arc-max", c->arc_max, "ARC size (default: the tunable zfs_arc_max)");
  cmd->add_option("--l2arc", c->l2arc, "Cache device drive (catalog name)");
  cmd->add_flag("--warm", c->warm, "Read every file once before measuring");
  cmd->add_option("--ashift", c->ashift, "Sector shift of the pool")->capture_default_str();
  cmd->add_option("--seed", c->seed, "Random seed")->capture_default_str();
  cmd->add_flag("--json", c->json, "Print one JSON object");
  cmd->add_option("--plot", c->plot, "Also draw MB/s vs readers and per-disk busy time into this PNG");
  cmd->callback([c] { Run(*c); });
}

}  // namespace ziosim::cli
