#include "models/disksim/disksim_import.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "models/device/disksim_positioning_order.h"
#include "models/device/hdd_extent_map.h"
#include "models/device/hdd_geometry.h"
#include "models/disksim/disksim_angle.h"
#include "models/disksim/disksim_layout_g2.h"
#include "models/disksim/disksim_layout_g4.h"
#include "models/disksim/libparam.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

using libparam::Block;
using libparam::Location;
using libparam::Param;
using libparam::TopologyNode;
using libparam::Value;

[[noreturn]] void Fail(const Location& where, const std::string& what) {
  throw InputError(where.file, where.line, what);
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string Format(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

std::string Describe(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNumber:
    case Value::Kind::kWord:
      return Quote(v.text);
    case Value::Kind::kList:
      return "a list";
    case Value::Kind::kBlock:
      return "a " + v.block->type + " block";
  }
  return "?";
}

double NumberOf(const Value& v, const std::string& what) {
  if (v.kind != Value::Kind::kNumber) Fail(v.where, what + " must be a number, found " + Describe(v));
  return v.number;
}

// An integer, also when written as 6.0.
int64_t IntegerOf(const Value& v, const std::string& what) {
  const double number = NumberOf(v, what);
  if (v.is_integer) return v.integer;
  if (number != std::trunc(number) || std::fabs(number) > 9e15) {
    Fail(v.where, what + " must be an integer, found " + Describe(v));
  }
  return static_cast<int64_t>(number);
}

// An integer within min..max.
int64_t IntegerIn(const Value& v, const std::string& what, int64_t min, int64_t max) {
  const int64_t i = IntegerOf(v, what);
  if (i < min || i > max) {
    Fail(v.where, what + " = " + std::to_string(i) + " is outside " + std::to_string(min) + ".." + std::to_string(max));
  }
  return i;
}

// Collects keys that no reader used, as "file:line: key", each key once.
class IgnoredKeys {
 public:
  void Add(const Param& p) {
    if (seen_.insert(p.key).second) list_.push_back(p.where.file + ":" + std::to_string(p.where.line) + ": " + p.key);
  }
  std::vector<std::string> Take() { return std::move(list_); }

 private:
  std::set<std::string> seen_;
  std::vector<std::string> list_;
};

// Reads the keys of one block, remembering which were used so that Finish() can
// list the others as ignored. Type and range errors point at the value; a missing
// key points at the block.
class BlockReader {
 public:
  BlockReader(const Block& block, IgnoredKeys* ignored) : block_(block), ignored_(ignored) {}

  const Block& block() const { return block_; }

  const Param* Optional(const std::string& key) {
    const Param* p = block_.Find(key);
    if (p != nullptr) used_.insert(key);
    return p;
  }

  const Param& Required(const std::string& key) {
    const Param* p = Optional(key);
    if (p == nullptr) Fail(block_.where, Label() + " lacks " + Quote(key));
    return *p;
  }

  double Number(const std::string& key) { return NumberOf(Required(key).value, Quote(key)); }

  double Number(const std::string& key, double min) {
    const Param& p = Required(key);
    const double v = NumberOf(p.value, Quote(key));
    if (!(v >= min)) Fail(p.value.where, Quote(key) + " must be at least " + Format(min));
    return v;
  }

  int64_t Integer(const std::string& key, int64_t min, int64_t max = INT_MAX) {
    return IntegerIn(Required(key).value, Quote(key), min, max);
  }

  int Int(const std::string& key, int min, int max = INT_MAX) { return static_cast<int>(Integer(key, min, max)); }

  bool Flag(const std::string& key) { return Integer(key, 0, 1) == 1; }

  // A key DiskSim requires but specs written for the model may leave out: absent,
  // it behaves as `absent` (the value of every DiskSim validation drive).
  int OptionalInt(const std::string& key, int min, int max, int absent) {
    return block_.Find(key) == nullptr ? absent : Int(key, min, max);
  }

  // A duration in ms, times `scale`, as ns.
  SimTime Ms(const std::string& key, double scale = 1.0) { return MsToNs(Number(key) * scale); }

  const std::vector<Value>& List(const std::string& key) {
    const Param& p = Required(key);
    if (p.value.kind != Value::Kind::kList) Fail(p.value.where, Quote(key) + " must be a list [ ... ]");
    return p.value.items;
  }

  const Block& SubBlock(const std::string& key, const std::string& type) {
    const Param& p = Required(key);
    if (p.value.kind != Value::Kind::kBlock) {
      Fail(p.value.where, Quote(key) + " must be a block, found " + Describe(p.value));
    }
    if (p.value.block->type != type) {
      Fail(p.value.where, Quote(key) + " is a " + p.value.block->type + " block; only " + type + " is supported");
    }
    return *p.value.block;
  }

  // A key the model does not use, checked against DiskSim's range all the same and
  // listed as ignored.
  void Inert(const std::string& key, int min, int max) {
    if (block_.Find(key) == nullptr) return;
    Int(key, min, max);
    used_.erase(key);
  }
  void Inert(const std::string& key, double min) {
    if (block_.Find(key) == nullptr) return;
    Number(key, min);
    used_.erase(key);
  }

  // A feature the model does not have. Its absence, or the value the model behaves as,
  // is accepted (and the key listed as ignored); any other value is refused.
  void Unmodelled(const std::string& key, double modelled, const std::string& meaning) {
    const Param* p = block_.Find(key);
    if (p == nullptr || NumberOf(p->value, Quote(key)) == modelled) return;
    Fail(p->value.where, Quote(key) + " = " + p->value.text + " is not supported: the model " + meaning + " (" +
                             Format(modelled) + ")");
  }

  void Finish() {
    for (const Param& p : block_.params) {
      if (used_.count(p.key) == 0) ignored_->Add(p);
    }
  }

 private:
  std::string Label() const { return block_.type + (block_.name.empty() ? "" : " " + block_.name) + " block"; }

  const Block& block_;
  IgnoredKeys* ignored_;
  std::set<std::string> used_;
};

// ---------------------------------------------------------------------------------------
// Finding the disk: topology -> instance names -> blocks.

struct DriveBlocks {
  std::string instance;  // the disk's name in the topology
  const Block* disk = nullptr;
  const Block* bus = nullptr;       // the bus the disk is attached to, if any
  std::vector<const Block*> host;   // driver and controllers on the way to the disk
};

void CollectDisks(const TopologyNode& node, std::vector<const TopologyNode*>* path,
                  std::vector<std::vector<const TopologyNode*>>* disks) {
  path->push_back(&node);
  if (node.type == "disksim_disk") disks->push_back(*path);
  for (const TopologyNode& child : node.children) CollectDisks(child, path, disks);
  path->pop_back();
}

const Block& ResolveInstance(const libparam::ParamFile& spec, const TopologyNode& node) {
  for (const libparam::Instantiation& inst : spec.instantiations) {
    if (std::find(inst.instances.begin(), inst.instances.end(), node.name) == inst.instances.end()) continue;
    for (const Block& block : spec.blocks) {
      if (block.name != inst.block_name) continue;
      if (block.type != node.type) {
        Fail(node.where, Quote(node.name) + " is a " + node.type + " in the topology but is instantiated as " +
                             block.type + " block " + Quote(block.name));
      }
      return block;
    }
    Fail(inst.where, "instantiate ... as " + Quote(inst.block_name) + ": no block has that name");
  }
  Fail(node.where, "topology component " + Quote(node.name) + " is never instantiated");
}

// The topology's disks and the blocks they instantiate.
std::vector<DisksimDisk> ListDisks(const libparam::ParamFile& spec,
                                   const std::vector<std::vector<const TopologyNode*>>& disks) {
  std::vector<DisksimDisk> list;
  for (const auto& path : disks) list.push_back({path.back()->name, ResolveInstance(spec, *path.back()).name});
  return list;
}

// The disk called `disk_name`, or DiskSim's device 0 (the topology's first disk) when
// the name is empty; a spec may hold disks of several kinds.
DriveBlocks FindDrive(const libparam::ParamFile& spec, const std::string& parv_path, const std::string& disk_name,
                      std::vector<DisksimDisk>* disk_list) {
  if (spec.topologies.empty()) throw InputError(parv_path + ": no topology, so no disk to import");
  if (spec.topologies.size() > 1) Fail(spec.topologies[1].where, "a second topology; only one disk is supported");
  std::vector<const TopologyNode*> path;
  std::vector<std::vector<const TopologyNode*>> disks;
  CollectDisks(spec.topologies[0], &path, &disks);
  if (disks.empty()) {
    Fail(spec.topologies[0].where,
         "the topology has no disksim_disk; MEMS devices and simple disks are not HDDs, the only disks ziosim models");
  }
  *disk_list = ListDisks(spec, disks);
  auto chosen = disks.begin();
  if (!disk_name.empty()) {
    chosen = std::find_if(disks.begin(), disks.end(), [&](const auto& p) { return p.back()->name == disk_name; });
    if (chosen == disks.end()) {
      throw InputError(parv_path + ": no disk " + Quote(disk_name) + " in its topology; its disks: " +
                       DescribeDisks(*disk_list));
    }
  }
  DriveBlocks drive;
  drive.instance = chosen->back()->name;
  for (const TopologyNode* node : *chosen) {
    const Block& block = ResolveInstance(spec, *node);
    if (node->type == "disksim_disk") {
      drive.disk = &block;
    } else if (node->type == "disksim_bus") {
      drive.bus = &block;  // the last bus before the disk is the one it sits on
    } else {
      drive.host.push_back(&block);
    }
  }
  return drive;
}

// The host side of the spec: the device driver and the controllers on the way to
// the disk. The model assumes it costs nothing (glossary, section 1, step 1). Its
// settings that would add time to every request are checked against DiskSim's ranges,
// then refused when the times replayed include them, or listed as ignored when
// ziosim's own host replaces DiskSim's. Its other keys are not the drive's: not listed.
void CheckHost(const Block& block, DisksimHost host, IgnoredKeys* ignored) {
  IgnoredKeys unused;
  BlockReader r(block, &unused);
  auto adds_time = [&](const std::string& key, double modelled, const std::string& meaning) {
    if (host == DisksimHost::kInTimes) {
      r.Unmodelled(key, modelled, meaning);
    } else if (const Param* p = block.Find(key); p != nullptr && NumberOf(p->value, Quote(key)) != modelled) {
      ignored->Add(*p);
    }
  };
  if (block.type == "disksim_iodriver") {
    // > 0: a fixed access time, the request never reaching the disk; -1 to -3: times
    // taken from the trace (iodriver.modspec).
    if (const Param* p = block.Find("Constant access time")) {
      const double t = NumberOf(p->value, "'Constant access time'");
      if (!(t >= 0 || t == -1 || t == -2 || t == -3)) {
        Fail(p->value.where, "'Constant access time' = " + p->value.text + " is neither >= 0 nor -1, -2 or -3");
      }
    }
    adds_time("Constant access time", 0, "simulates the device instead of a constant access time");
  } else if (block.type == "disksim_ctlr") {
    // DiskSim's type 2 (a 53C700-like controller, 0.5 ms x scale per message; it aborts
    // DiskSim's own validation runs) and type 3 (a caching controller, as in synthcachemem)
    // are controllers of their own; type 1 passes messages on after 1 ms x scale each
    // (disksim_ctlrdumb.c, PASSTHRU_DELAY).
    if (block.Find("type") != nullptr) r.Int("type", 1, 3);
    if (block.Find("Scale for delays") != nullptr) r.Number("Scale for delays", 0);
    adds_time("type", 1, "passes requests through the controller unchanged (types 2 and 3 are controller "
                         "models): controller type");
    adds_time("Scale for delays", 0, "charges nothing for messages through the controller: scale");
  }
}

struct BusTimesMs {
  double read = 0;
  double write = 0;
  double arbitration = 0;
};

BusTimesMs ReadBus(const Block* bus, IgnoredKeys* ignored) {
  if (bus == nullptr) return {};
  BlockReader r(*bus, ignored);
  BusTimesMs times{r.Number("Read block transfer time", 0), r.Number("Write block transfer time", 0)};
  if (r.Optional("Arbitration time") != nullptr) times.arbitration = r.Number("Arbitration time", 0);
  r.Finish();
  return times;
}

// ---------------------------------------------------------------------------------------
// The disk block (.diskspecs).

void ReadInterface(BlockReader& r, const BusTimesMs& bus, HddInterface* out) {
  // Every overhead scales, except the minimum seek delay and the Extradisc
  // inter-disconnect delay (as in DiskSim 4.0).
  const double scale = r.Number("Time scale for overheads", 0);
  auto overhead = [&](const std::string& key) { return r.Ms(key, scale); };
  // A transfer runs at the slower of the disk's interface and its bus.
  const double bulk_ms = r.Number("Bulk sector transfer time", 0);
  out->bus_read_block_ns = MsToNs(std::max(bulk_ms, bus.read));
  out->bus_write_block_ns = MsToNs(std::max(bulk_ms, bus.write));
  out->per_request_ns = overhead("Per-request overhead time");
  out->read_hit_ns[0] = overhead("Read hit over. after read");
  out->read_hit_ns[1] = overhead("Read hit over. after write");
  out->read_miss_ns[0] = overhead("Read miss over. after read");
  out->read_miss_ns[1] = overhead("Read miss over. after write");
  out->write_hit_ns[0] = overhead("Write hit over. after read");
  out->write_hit_ns[1] = overhead("Write hit over. after write");
  out->write_miss_ns[0] = overhead("Write miss over. after read");
  out->write_miss_ns[1] = overhead("Write miss over. after write");
  out->read_completion_ns = overhead("Read completion overhead");
  out->write_completion_ns = overhead("Write completion overhead");
  out->data_prep_ns = overhead("Data preparation overhead");
  out->first_reselect_ns = overhead("First reselect overhead");
  out->other_reselect_ns = overhead("Other reselect overhead");
  out->read_disconnect_ns[0] = overhead("Read disconnect afterread");
  out->read_disconnect_ns[1] = overhead("Read disconnect afterwrite");
  out->write_disconnect_ns = overhead("Write disconnect overhead");
  out->min_seek_delay_ns = r.Ms("Minimum seek delay");
  out->hold_bus_read = r.Flag("Hold bus entire read xfer");
  out->read_watermark = r.Number("High (read) water mark", 0);
  out->watermark_by_request_size = r.Flag("Set watermark by reqsize");
  out->immediate_partial_hit = r.Flag("Immed transfer partial hit");
  out->extra_write_disconnect = r.Flag("Extra write disconnect");
  if (out->extra_write_disconnect) {  // otherwise unused, and listed as ignored
    out->extradisc_command_ns = overhead("Extradisc command overhead");
    out->extradisc_seek_delta_ns = overhead("Extradisc seek delta");
    out->extradisc_disconnect_ns = overhead("Extradisc disconnect overhead");
    out->extradisc_inter_disconnect_ns = r.Ms("Extradisc inter-disconnect delay");
    out->extradisc_second_disconnect_ns = overhead("Extradisc 2nd disconnect overhead");
  }
  out->never_disconnect = r.Flag("Never disconnect");
  out->commands_wait_for_bus = true;  // DiskSim's bus model
  out->bus_arbitration_ns = MsToNs(bus.arbitration);
}

void ReadCache(BlockReader& r, HddCache* out) {
  const Param& enable = r.Required("Enable caching in buffer");
  out->enabled = r.Int("Enable caching in buffer", 0, 2) != 0;  // 2 behaves as 1 in DiskSim 4.0
  // DiskSim's disk_postpass_perdisk requires a segment, caching or not, no more write
  // segments than segments, and one more segment than a dedicated write segment.
  out->segments = r.Int("Number of buffer segments", 1);
  out->segment_blocks = r.Int("Segment size (in blks)", 1);
  out->max_write_segments = r.Int("Maximum number of write segments", 1, out->segments);
  out->separate_write_segment = r.Flag("Use separate write segment");
  if (out->separate_write_segment && out->segments < 2) {
    Fail(r.Required("Use separate write segment").value.where,
         "'Use separate write segment' = 1 needs 2 or more buffer segments, which DiskSim requires");
  }
  out->read_ahead_scheme = r.Int("Buffer continuous read", 0, 4);
  out->min_read_ahead_blocks = r.Int("Minimum read-ahead (blks)", 0);
  out->max_read_ahead_blocks = r.Int("Maximum read-ahead (blks)", 0);
  out->read_ahead_on_idle_hit = r.Flag("Read-ahead on idle hit");
  out->fast_write_level = r.Int("Fast write level", 0, 2);
  out->combine_seq_writes = r.Flag("Combine seq writes");
  out->read_hits_on_write_data = r.Flag("Allow read hits on write data");
  out->stop_prefetch_in_sector = r.Flag("Stop prefetch in sector");
  out->prefetch_stops_at_its_sector = true;  // DiskSim's event model
  out->write_hit_stop_prefetch = r.Flag("Write hit stop prefetch");
  // DiskSim treats 1 and 2 alike: any non-zero value turns zero-latency access on.
  out->zero_latency_reads = r.Int("Immediate buffer read", 0, 2) != 0;
  out->zero_latency_writes = r.Int("Immediate buffer write", 0, 2) != 0;
  out->read_any_free_blocks = r.Flag("Read any free blocks");
  if (out->read_any_free_blocks && !out->enabled) {
    Fail(r.Required("Read any free blocks").value.where, "caching is off, which DiskSim refuses with 'Read any free blocks'");
  }
  if (!out->enabled && (out->read_ahead_scheme != 0 || out->fast_write_level != 0)) {
    Fail(enable.value.where, "caching is off, which DiskSim refuses with read-ahead or write-back");
  }
  // DiskSim's own adjustments: no prefetching forces both limits to 0; otherwise the
  // maximum is raised to the minimum.
  if (out->read_ahead_scheme == 0) {
    out->min_read_ahead_blocks = 0;
    out->max_read_ahead_blocks = 0;
  } else {
    out->max_read_ahead_blocks = std::max(out->max_read_ahead_blocks, out->min_read_ahead_blocks);
  }
  out->read_ahead_over_requested = r.Int("Read-ahead over requested", -1, 1);
  out->allow_almost_read_hits = r.OptionalInt("Allow almost read hits", 0, 1, 0) == 1;
}

// DiskSim aborts on any sneaky hits with a bus held for whole reads (disk_postpass_perdisk).
void RefuseWithBusHeld(BlockReader& r, const char* key, bool on, const HddInterface& io) {
  if (on && io.hold_bus_read) {
    Fail(r.Required(key).value.where, Quote(key) + " = 1 with 'Hold bus entire read xfer' = 1, which DiskSim refuses");
  }
}

// The read hits that may be sent while the arm is busy ("sneaky"), the writes whose
// data may come meanwhile ("prebuffering"), and how early the arm leaves a read
// ("Preseeking level").
void ReadArmRelease(BlockReader& r, HddParams* out) {
  HddCache& c = out->cache;
  for (auto [key, field] : {std::pair{"Allow sneaky full read hits", &c.sneaky_full_read_hits},
                            std::pair{"Allow sneaky partial read hits", &c.sneaky_partial_read_hits},
                            std::pair{"Allow sneaky intermediate read hits", &c.sneaky_intermediate_read_hits}}) {
    *field = r.OptionalInt(key, 0, 1, 0) == 1;
    RefuseWithBusHeld(r, key, *field, out->interface);
  }
  // Intermediate hits act only on reads waiting in the drive's queue, which holds one
  // at most with 'Max queue length' = 1: then they change nothing. Prebuffering also
  // lets a write take its data while a destage holds the arm.
  if (out->queue_depth <= 1) r.Inert("Allow sneaky intermediate read hits", 0, 1);
  c.write_prebuffering = r.OptionalInt("Allow write prebuffering", 0, 1, 0) == 1;
  c.preseek_level = r.OptionalInt("Preseeking level", 0, 2, 0);
}

// Disk features that HddParams has no field for: the model behaves as DiskSim does
// with these values, which are those of the six validated drives.
void CheckUnmodelledDiskFeatures(BlockReader& r) {
  // 1 lets a read-ahead finish the seek or sector in progress before a new request
  // takes the arm (disk_buffer_stopable_access). DiskSim 4.0 itself cannot run it:
  // with it set, its validation runs stop after 8 to 2,648 requests on seven of the
  // ten drives (no error, exit 0), and on the other three change no request's time.
  r.Unmodelled("Disconnect write if seek", 0, "lets a seeking read-ahead be preempted");
  // Whether a sector needs room in the segment before it is read (1) or passes through
  // a sector buffer (0): the model looks for room as the sector starts either way
  // (HddDevice's Intake). With 0, DiskSim 4.0 moves none of the ten validation drives'
  // requests by more than 0.1 us, and on the Atlas III's queued sequential trace
  // (queue_check.py --sequential-share 0.3) looking as the sector ends matches it less
  // well than as it starts (95.9 against 97.1 % of the requests at queue 1).
  r.Inert("Read directly to buffer", 0, 1);
  // How a write's data flow when they outrun the room in its segment (hold the bus, or
  // disconnect and come back at the low water mark): the model never holds a write's
  // data back for room. DiskSim 4.0 moves none of the HP C2247A's, HP C2490A's or
  // Cheetah 9LP's requests with either changed (option_check.py).
  r.Inert("Hold bus entire write xfer", 0, 1);
  r.Inert("Low (write) water mark", 0.0);
}

// Holds every key of a "Scheduler" block to DiskSim's range (ioqueue.modspec), whether
// the model uses it or not: a spec DiskSim refuses is refused here too.
void CheckSchedulerRanges(const Block& block) {
  struct Range {
    const char* key;
    double min;
    double max;
    bool integer;
  };
  static constexpr double kNoMax = std::numeric_limits<double>::infinity();
  static constexpr std::array<Range, 12> kRanges = {{{"Scheduling policy", 1, 28, true},
                                                     {"Cylinder mapping strategy", 0, 6, true},
                                                     {"Write initiation delay", 0, kNoMax, false},
                                                     {"Read initiation delay", 0, kNoMax, false},
                                                     {"Maximum concat size", 0, kNoMax, true},
                                                     {"Overlapping request scheme", 0, 2, true},
                                                     {"Sequential stream diff maximum", 0, 2, true},
                                                     {"Timeout time/weight", 0, kNoMax, true},
                                                     {"Timeout scheduling", 0, 21, true},
                                                     {"Scheduling priority scheme", 0, 1, true},
                                                     {"Priority scheduling", 0, 21, true},
                                                     {"Sequential stream scheme", -kNoMax, kNoMax, true}}};
  for (const Range& range : kRanges) {
    const Param* q = block.Find(range.key);
    if (q == nullptr) continue;
    const double v = range.integer ? static_cast<double>(IntegerOf(q->value, Quote(range.key)))
                                   : NumberOf(q->value, Quote(range.key));
    if (!(v >= range.min && v <= range.max)) {
      Fail(q->value.where, Quote(range.key) + " = " + q->value.text + " is outside " + Format(range.min) + ".." +
                               (range.max == kNoMax ? std::string("") : Format(range.max)));
    }
  }
}

// The disk's own scheduler (DiskSim's ioqueue) orders the requests waiting in its
// queue. Modelled when it merges and ranks nothing (no sequential-stream scheme,
// overlap scheme or priority scheme): FCFS (policy 1) as the drive's fifo;
// ELEVATOR_LBN, CYCLE_LBN, SSTF_LBN, ELEVATOR_CYL, CYCLE_CYL, SSTF_CYL, VSCAN_LBN and
// VSCAN_CYL (2-7, 17, 18) as the address-ordered policies
// (models/device/disksim_queue_order.h); SPTF_OPT, SPCTF_OPT, WPTF_OPT, WPCTF_OPT,
// ASPTF_OPT, ASPCTF_OPT, PRI_ASPTF_OPT and PRI_ASPCTF_OPT (8, 9, 11, 12, 14, 15, 20,
// 21), SPTF_ROT_OPT, SPTF_ROT_WEIGHT and SPTF_SEEK_WEIGHT (24-26) as the
// positioning-time policies, which take the initiation delays and "Timeout
// time/weight" into `scheduler`, and SDF_APPROX and SDF_EXACT (22, 23) as the
// seek-distance ones (models/device/disksim_positioning_order.h); PRI_VSCAN_LBN (19),
// which takes "Timeout scheduling" and "Priority scheduling" into `scheduler`
// (models/device/disksim_priority_order.h). The keys that act only under other
// schedulers change nothing and are listed as ignored, as are the timeout scheme,
// which DiskSim 4.0 itself ignores, and the cylinder mapping strategy, under which
// DiskSim 4.0 puts every request on cylinder 0 wherever it runs. SATF_OPT, WATF_OPT,
// ASATF_OPT and TSPS (10, 13, 16, 27) stop DiskSim 4.0 once two requests wait
// (disk_buffer_estimate_acctime asserts false), and BATCH_FCFS (28) at its first
// request of a trace that marks no batches: they are not modelled, their keys listed
// as ignored and the caller's order (fifo, or sptf by default) applied. With "Max
// queue length" = 1 no order matters. Every key is checked against DiskSim's range
// (ioqueue.modspec) all the same.
std::optional<QueuePolicy> DiskQueueOrder(BlockReader& r, HddScheduler* scheduler, IgnoredKeys* ignored) {
  const Param* p = r.Optional("Scheduler");
  if (p == nullptr) return std::nullopt;
  if (p->value.kind != Value::Kind::kBlock) Fail(p->value.where, "'Scheduler' must be a block");
  const Block& block = *p->value.block;
  CheckSchedulerRanges(block);
  const auto value = [&](const char* key) {
    const Param* q = block.Find(key);
    return q == nullptr ? 0.0 : NumberOf(q->value, Quote(key));
  };
  static constexpr std::array<std::pair<int, QueuePolicy>, 23> kModelled = {
      {{1, QueuePolicy::kFifo},
       {2, QueuePolicy::kElevatorLbn},
       {3, QueuePolicy::kCycleLbn},
       {4, QueuePolicy::kSstfLbn},
       {5, QueuePolicy::kElevatorCyl},
       {6, QueuePolicy::kCycleCyl},
       {7, QueuePolicy::kSstfCyl},
       {8, QueuePolicy::kSptfOpt},
       {9, QueuePolicy::kSpctfOpt},
       {11, QueuePolicy::kWptfOpt},
       {12, QueuePolicy::kWpctfOpt},
       {14, QueuePolicy::kAsptfOpt},
       {15, QueuePolicy::kAspctfOpt},
       {17, QueuePolicy::kSstfLbn},
       {18, QueuePolicy::kVscanCyl},
       {19, QueuePolicy::kPriVscanLbn},
       {20, QueuePolicy::kPriAsptfOpt},
       {21, QueuePolicy::kPriAspctfOpt},
       {22, QueuePolicy::kSdfApprox},
       {23, QueuePolicy::kSdfExact},
       {24, QueuePolicy::kSptfOpt},  // SPTF_ROT_OPT: SPTF_OPT when latency_weight is 0, as no spec can set it
       {25, QueuePolicy::kSptfRotWeight},
       {26, QueuePolicy::kSptfSeekWeight}}};
  static constexpr std::array<const char*, 3> kMustBeZero = {"Sequential stream scheme", "Overlapping request scheme",
                                                             "Scheduling priority scheme"};
  static constexpr std::array<const char*, 3> kPositioningKeys = {"Read initiation delay", "Write initiation delay",
                                                                  "Timeout time/weight"};
  static constexpr std::array<const char*, 2> kPriorityKeys = {"Timeout scheduling", "Priority scheduling"};
  std::optional<QueuePolicy> order;
  for (auto [number, policy] : kModelled) {
    if (value("Scheduling policy") == number) order = policy;
  }
  if (!std::all_of(kMustBeZero.begin(), kMustBeZero.end(), [&](const char* key) { return value(key) == 0; })) {
    order.reset();
  }
  const bool positioning = order && DisksimPositioningOrder::TakesSchedulerTimes(*order);
  const bool priority = order == QueuePolicy::kPriVscanLbn;
  if (priority) {
    scheduler->timeout_scheduling = static_cast<int>(value("Timeout scheduling"));
    scheduler->priority_scheduling = static_cast<int>(value("Priority scheduling"));
  }
  if (positioning) {
    // A delay of 100 s or more makes every command cost more than DiskSim's starting
    // best, as any larger one does: held there, it fits in ns.
    constexpr double kDelayCapMs = 1e6;
    const auto delay_ns = [&](const char* key) { return MsToNs(std::min(value(key), kDelayCapMs)); };
    scheduler->read_initiation_delay_ns = delay_ns("Read initiation delay");
    scheduler->write_initiation_delay_ns = delay_ns("Write initiation delay");
    scheduler->age_weight = static_cast<int>(std::min(value("Timeout time/weight"), double{INT_MAX}));
  }
  const auto in = [](const auto& keys, const std::string& key) {
    return std::find(keys.begin(), keys.end(), key) != keys.end();
  };
  for (const Param& q : block.params) {
    const bool used = order && (q.key == "Scheduling policy" || in(kMustBeZero, q.key) ||
                                (positioning && in(kPositioningKeys, q.key)) || (priority && in(kPriorityKeys, q.key)));
    if (!used) ignored->Add(q);
  }
  return order;
}

// ---------------------------------------------------------------------------------------
// The dm_disk model (.model): layout and mechanics.

// "Skew units": sectors (DiskSim's default) or revolutions; a zone's overrides its layout's.
bool SkewsInRevolutions(BlockReader& r, bool otherwise) {
  const Param* units = r.Optional("Skew units");
  if (units == nullptr) return otherwise;
  const bool word = units->value.kind == Value::Kind::kWord;
  if (word && units->value.text == "revolutions") return true;
  if (word && units->value.text == "sectors") return false;
  Fail(units->value.where, "'Skew units' = " + Describe(units->value) + " does not exist (sectors, revolutions)");
}

int64_t NonNegativeInteger(const Value& v, const std::string& what) {
  const int64_t i = IntegerOf(v, what);
  if (i < 0) Fail(v.where, what + " must not be negative");
  return i;
}

HddZone ReadZone(const Block& block, bool layout_in_revolutions, IgnoredKeys* ignored) {
  BlockReader r(block, ignored);
  HddZone zone;
  zone.first_cylinder = r.Int("First cylinder number", 0);
  zone.last_cylinder = r.Int("Last cylinder number", 0, INT_MAX - 1);  // the layout counts last + 1 cylinders
  zone.sectors_per_track = r.Int("Blocks per track", 1);
  // In sectors DiskSim uses the integer part of the offset and of the skews; in
  // revolutions, the angle as given.
  const bool revolutions = SkewsInRevolutions(r, layout_in_revolutions);
  const double spt = zone.sectors_per_track;
  const double offset = r.Number("Offset of first block");
  zone.first_block_offset_sectors = revolutions ? offset * spt : std::trunc(offset);
  zone.empty_front_sectors = r.Integer("Empty space at zone front", 0, INT64_MAX);
  for (auto [key, skew, fraction] :
       {std::tuple{"Skew for track switch", &zone.track_skew_sectors, &zone.track_skew_fraction_sectors},
        std::tuple{"Skew for cylinder switch", &zone.cylinder_skew_sectors, &zone.cylinder_skew_fraction_sectors}}) {
    const Param* p = r.Optional(key);  // optional in DiskSim too, default 0
    if (p == nullptr) continue;
    const double given = NumberOf(p->value, Quote(key));
    const double sectors = revolutions ? given * spt : std::trunc(given);
    if (!std::isfinite(sectors) || std::fabs(sectors) > INT_MAX) Fail(p->value.where, Quote(key) + " is out of range");
    *skew = static_cast<int>(std::trunc(sectors));
    *fraction = sectors - std::trunc(sectors);
  }
  zone.spares = r.Integer("Number of spares", 0, INT64_MAX);
  for (const Value& v : r.List("slips")) zone.slips.push_back(NonNegativeInteger(v, "a slip"));
  const std::vector<Value>& defects = r.List("defects");
  if (defects.size() % 2 != 0) {
    Fail(r.Required("defects").value.where, "'defects' must list (defective, replacement) pairs");
  }
  for (size_t i = 0; i < defects.size(); i += 2) {
    zone.defects.emplace_back(NonNegativeInteger(defects[i], "a defect"),
                              NonNegativeInteger(defects[i + 1], "a defect's replacement"));
  }
  r.Finish();
  return zone;
}

void ReadLayout(const Block& block, HddLayout* layout, IgnoredKeys* ignored) {
  BlockReader r(block, ignored);
  layout->track_order = static_cast<TrackOrder>(r.Int("LBN-to-PBN mapping scheme", 0, 2));
  layout->sparing = static_cast<SparingScheme>(r.Int("Sparing scheme used", 0, 10));
  if (layout->sparing == SparingScheme::kPerRange) layout->range_size_cylinders = r.Int("Rangesize for sparing", 1);
  const bool revolutions = SkewsInRevolutions(r, false);
  for (const Value& v : r.List("Zones")) {
    if (v.kind != Value::Kind::kBlock || v.block->type != "dm_layout_g1_zone") {
      Fail(v.where, "'Zones' must list dm_layout_g1_zone blocks, found " + Describe(v));
    }
    layout->zones.push_back(ReadZone(*v.block, revolutions, ignored));
    // DiskSim never checks zones against "Number of cylinders": the zones define the
    // disk (the HP C2490A's last zone ends on cylinder 2629 of a declared 2629).
    layout->cylinders = std::max(layout->cylinders, layout->zones.back().last_cylinder + 1);
  }
  r.Finish();
  // Check the layout now, so that an error points at it.
  try {
    HddGeometry geometry(*layout);
  } catch (const InputError& e) {
    Fail(block.where, e.what());
  }
}

// A file named by a key, relative to the file that names it (DiskSim's lp_cwd).
std::string PathOf(const Value& v, const std::string& key) {
  if (v.kind != Value::Kind::kWord && v.kind != Value::Kind::kNumber) {
    Fail(v.where, Quote(key) + " must be a file name");
  }
  std::filesystem::path path(v.text);
  if (path.is_relative()) path = std::filesystem::path(v.where.file).parent_path() / path;
  return path.string();
}

// A g2 zone's skew keys in sectors or revolutions. DiskSim loads a block's keys in
// the order written and the skews do not depend on "Skew units", so the units apply
// to the skews written after them only.
uint32_t G2Skew(BlockReader& r, const std::string& key, uint32_t sector_width) {
  const Param* p = r.Optional(key);  // optional, default 0
  if (p == nullptr) return 0;
  const double given = NumberOf(p->value, Quote(key));
  const Param* units = r.Optional("Skew units");
  if (units != nullptr && units < p && SkewsInRevolutions(r, false)) {
    if (!(given >= 0) || given >= INT_MAX) {
      Fail(p->value.where, Quote(key) + " must be a non-negative number of revolutions");
    }
    return DisksimAngle(given);
  }
  if (!(std::fabs(given) < INT_MAX)) Fail(p->value.where, Quote(key) + " is out of range");
  return static_cast<uint32_t>(static_cast<int64_t>(given)) * sector_width;  // (int)d * width, wrapping
}

disksim_g2::Zone ReadG2Zone(const Block& block, IgnoredKeys* ignored) {
  BlockReader r(block, ignored);
  disksim_g2::Zone zone;
  zone.where = block.where;
  zone.first_cylinder = r.Int("First cylinder number", 0);
  zone.last_cylinder = r.Int("Last cylinder number", 0);
  zone.first_lbn = r.Int("First LBN", 0);
  zone.last_lbn = r.Int("Last LBN", 0);
  zone.sectors_per_track = r.Int("Blocks per track", 1);
  SkewsInRevolutions(r, false);  // checks the word
  const uint32_t width = disksim_g2::SectorWidth(zone.sectors_per_track);
  zone.zone_skew = G2Skew(r, "Zone Skew", width);
  zone.track_skew = G2Skew(r, "Skew for track switch", width);
  zone.cylinder_skew = G2Skew(r, "Skew for cylinder switch", width);
  r.Finish();
  return zone;
}

void ReadLayoutG2(const Block& block, int64_t blocks, HddLayout* layout, IgnoredKeys* ignored) {
  BlockReader r(block, ignored);
  const Value& file = r.Required("Layout Map File").value;
  std::vector<disksim_g2::Zone> zones;
  for (const Value& v : r.List("Zones")) {
    if (v.kind != Value::Kind::kBlock || v.block->type != "dm_layout_g2_zone") {
      Fail(v.where, "'Zones' must list dm_layout_g2_zone blocks, found " + Describe(v));
    }
    zones.push_back(ReadG2Zone(*v.block, ignored));
  }
  if (zones.empty()) Fail(r.Required("Zones").value.where, "'Zones' lists no zone");
  layout->extents = disksim_g2::Expand(PathOf(file, "Layout Map File"), file.where, zones, blocks, layout->cylinders,
                                       layout->surfaces);
  r.Finish();
}

// The items of a g4 table key, `fields` to an entry (DiskSim drops a partial last entry).
const std::vector<Value>& G4Table(BlockReader& r, const std::string& key, size_t fields) {
  const std::vector<Value>& items = r.List(key);
  if (items.size() % fields != 0) {
    Fail(r.Required(key).value.where, Quote(key) + " must list entries of " + std::to_string(fields) + " numbers");
  }
  return items;
}

// One IDX node: entries of lbn, cyl, off, len, cyllen, alen, runlen, cylrunlen,
// TRACK or IDX, child and, for TRACK, head (layout_g4_load.c's g4_load_idx).
std::vector<disksim_g4::Entry> ReadG4Index(const Value& node) {
  if (node.kind != Value::Kind::kList) Fail(node.where, "each 'IDX' node must be a list [ ... ]");
  const std::vector<Value>& v = node.items;
  std::vector<disksim_g4::Entry> entries;
  constexpr size_t kFields = 10;  // without the head
  for (size_t i = 0; i < v.size();) {
    if (v.size() - i < kFields) Fail(v[i].where, "an 'IDX' entry needs 10 fields (11 for a TRACK child)");
    disksim_g4::Entry e;
    e.where = v[i].where;
    auto angle = [&](const Value& x) {
      const double a = NumberOf(x, "an 'IDX' angle");
      if (!(a >= 0) || a >= INT_MAX) Fail(x.where, "an 'IDX' angle must be a non-negative number of revolutions");
      return a;
    };
    e.lbn = IntegerIn(v[i], "an 'IDX' LBN", 0, INT_MAX);
    e.cylinder = IntegerIn(v[i + 1], "an 'IDX' cylinder", INT_MIN, INT_MAX);
    e.offset = angle(v[i + 2]);
    e.length = IntegerIn(v[i + 3], "an 'IDX' length", 1, INT_MAX);
    e.cylinders = IntegerIn(v[i + 4], "an 'IDX' cylinder length", 1, INT_MAX);
    e.angle_step = angle(v[i + 5]);
    e.run = IntegerIn(v[i + 6], "an 'IDX' run length", 1, INT_MAX);
    e.cylinder_run = IntegerIn(v[i + 7], "an 'IDX' cylinder run length", INT_MIN + 1, INT_MAX);
    const Value& type = v[i + 8];
    e.child_is_track = type.kind == Value::Kind::kWord && type.text == "TRACK";
    if (!e.child_is_track && !(type.kind == Value::Kind::kWord && type.text == "IDX")) {
      Fail(type.where, "an 'IDX' child type must be TRACK or IDX, found " + Describe(type));
    }
    e.child = IntegerIn(v[i + 9], "an 'IDX' child", 0, INT_MAX);
    i += kFields;
    if (e.child_is_track) {
      if (i == v.size()) Fail(type.where, "a TRACK child needs a head after its index");
      e.head = IntegerIn(v[i++], "an 'IDX' head", 0, INT_MAX);
    }
    entries.push_back(e);
  }
  return entries;
}

void ReadLayoutG4(const Block& block, int64_t blocks, HddLayout* layout, IgnoredKeys* ignored) {
  BlockReader r(block, ignored);
  disksim_g4::Tables t;
  t.where = block.where;
  const std::vector<Value>& tp = G4Table(r, "TP", 3);
  for (size_t i = 0; i < tp.size(); i += 3) {
    t.tracks.push_back({IntegerIn(tp[i], "a 'TP' low sector", 0, INT_MAX),
                        IntegerIn(tp[i + 1], "a 'TP' high sector", 0, INT_MAX),
                        IntegerIn(tp[i + 2], "a 'TP' sectors per track", 1, INT_MAX), tp[i].where});
  }
  for (const Value& node : r.List("IDX")) t.indexes.push_back(ReadG4Index(node));
  const std::vector<Value>& slips = G4Table(r, "Slips", 2);
  for (size_t i = 0; i < slips.size(); i += 2) {
    t.slips.push_back({IntegerIn(slips[i], "a slip's position", 0, INT_MAX),
                       IntegerIn(slips[i + 1], "a slip's count", INT_MIN + 1, INT_MAX), slips[i].where});
  }
  const std::vector<Value>& remaps = G4Table(r, "Remaps", 6);
  for (size_t i = 0; i < remaps.size(); i += 6) {
    disksim_g4::Remap m;
    m.lbn = IntegerIn(remaps[i], "a remap's LBN", 0, INT_MAX);
    m.count = IntegerIn(remaps[i + 1], "a remap's count", 1, INT_MAX);
    m.cylinder = IntegerIn(remaps[i + 2], "a remap's cylinder", 0, INT_MAX);
    m.head = IntegerIn(remaps[i + 3], "a remap's head", 0, INT_MAX);
    m.sector = IntegerIn(remaps[i + 4], "a remap's sector", 0, INT_MAX);
    m.sectors_per_track = IntegerIn(remaps[i + 5], "a remap's sectors per track", 1, INT_MAX);
    m.where = remaps[i].where;
    t.remaps.push_back(m);
  }
  r.Finish();
  layout->extents = disksim_g4::Expand(t, blocks, layout->surfaces);
  // DiskSim never checks the tables against "Number of cylinders" either: the Maxtor
  // 300 GB of DiskSim's dual-seek example puts its last LBNs on cylinder 80512 of a
  // declared 80512 (0..80511), and DiskSim maps them there.
  for (const HddExtent& x : layout->extents) layout->cylinders = std::max(layout->cylinders, x.cylinder + 1);
}

// A number in a seek-curve row, the whole field (blanks around it allowed).
bool ParseField(std::string field, double* out) {
  const size_t first = field.find_first_not_of(" \t\r");
  if (first == std::string::npos) return false;
  field = field.substr(first, field.find_last_not_of(" \t\r") - first + 1);
  char* end = nullptr;
  *out = std::strtod(field.c_str(), &end);
  return end == field.c_str() + field.size() && std::isfinite(*out);
}

std::vector<std::string> SplitAtCommas(const std::string& line) {
  std::vector<std::string> fields;
  for (size_t start = 0;;) {
    const size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

// One row of a seek curve: "distance, ms", then anything DiskSim 4.0 ignores (its
// sscanf reads two numbers and a standard deviation): the standard deviation, or the
// write seek time of the dual-seek curves of DiskSim's later 64-bit branch.
std::pair<int, SimTime> ParseSeekRow(const std::string& line, const std::string& file, int number) {
  const std::vector<std::string> fields = SplitAtCommas(line);
  double distance = 0, ms = 0;
  if (fields.size() < 2 || !ParseField(fields[0], &distance) ||
      !ParseField(fields[1], &ms) || distance < 1 || distance != std::trunc(distance) || distance > INT_MAX || ms < 0) {
    throw InputError(file, number, "expected 'distance, milliseconds' with distance >= 1, found: " + line);
  }
  return {static_cast<int>(distance), MsToNs(ms)};
}

// DiskSim's measured seek curve: "Seek distances measured: N", then N rows, by
// increasing distance. The file is named relative to the file that names it.
std::vector<std::pair<int, SimTime>> ReadSeekCurve(const Param& p) {
  const std::filesystem::path path = PathOf(p.value, p.key);
  std::ifstream in(path);
  std::error_code error;
  if (!in || !std::filesystem::is_regular_file(path, error)) {
    Fail(p.value.where, "cannot open seek curve " + Quote(p.value.text) + " (looked for " + path.string() + ")");
  }
  const std::string file = path.string();
  const std::string header = "Seek distances measured:";
  std::string line;
  double declared = -1;
  if (!std::getline(in, line) || line.compare(0, header.size(), header) != 0 ||
      !ParseField(line.substr(header.size()), &declared) || declared < 1 || declared != std::trunc(declared)) {
    throw InputError(file, 1, "expected 'Seek distances measured: N' with N >= 1");
  }
  std::vector<std::pair<int, SimTime>> table;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    table.push_back(ParseSeekRow(line, file, number));
    if (table.size() > 1 && table.back().first <= table[table.size() - 2].first) {
      throw InputError(file, number, "seek distances must increase");
    }
  }
  if (static_cast<double>(table.size()) != declared) {
    throw InputError(file, 1, "declares " + std::to_string(static_cast<int64_t>(declared)) + " distances but lists " +
                                  std::to_string(table.size()));
  }
  return table;
}

std::vector<double> ReadNumbers(BlockReader& r, const std::string& key, size_t count) {
  const std::vector<Value>& items = r.List(key);
  if (items.size() != count) {
    Fail(r.Required(key).value.where, Quote(key) + " must list " + std::to_string(count) + " numbers");
  }
  std::vector<double> numbers;
  for (const Value& v : items) numbers.push_back(NumberOf(v, "each of " + Quote(key)));
  return numbers;
}

void ReadHpl(BlockReader& r, HddSeekModel* seek) {
  const std::vector<double> v = ReadNumbers(r, "HPL seek equation values", 6);
  NonNegativeInteger(r.List("HPL seek equation values")[0], "HPL V1 (a cylinder count)");
  std::copy(v.begin(), v.end(), seek->hpl);
}

HddSeekModel ReadSeek(BlockReader& r) {
  HddSeekModel seek;
  const Param& type = r.Required("Seek type");
  const std::string& name = type.value.text;
  if (type.value.kind == Value::Kind::kWord && name == "extracted") {
    seek.kind = HddSeekModel::Kind::kTable;
    seek.table = ReadSeekCurve(r.Required("Full seek curve"));
  } else if (type.value.kind == Value::Kind::kWord && (name == "hpl" || name == "hplplus10")) {
    seek.kind = HddSeekModel::Kind::kHpl;
    ReadHpl(r, &seek);
    if (name == "hplplus10") {
      for (double ms : ReadNumbers(r, "First ten seek times", 10)) seek.first_ten.push_back(MsToNs(ms));
    }
  } else if (type.value.kind == Value::Kind::kWord && (name == "linear" || name == "curve")) {
    seek.kind = name == "linear" ? HddSeekModel::Kind::kLinear : HddSeekModel::Kind::kThreePoint;
    seek.single_cylinder_ns = MsToNs(r.Number("Single cylinder seek time", 0));
    seek.average_ns = MsToNs(r.Number("Average seek time", 0));
    seek.full_stroke_ns = MsToNs(r.Number("Full strobe seek time", 0));
  } else if (type.value.kind == Value::Kind::kWord && name == "constant") {
    seek.kind = HddSeekModel::Kind::kConstant;
    seek.constant_ns = MsToNs(r.Number("Constant seek time", 0));
  } else {
    Fail(type.value.where,
         "seek type " + Describe(type.value) + " does not exist (extracted, hpl, hplplus10, linear, curve, constant)");
  }
  return seek;
}

void ReadMechanics(const Block& block, HddMechanics* out, IgnoredKeys* ignored) {
  BlockReader r(block, ignored);
  const Param& rpm = r.Required("Rotation speed (in rpms)");
  out->rpm = NumberOf(rpm.value, Quote(rpm.key));
  if (!(out->rpm > 0)) Fail(rpm.value.where, "'Rotation speed (in rpms)' must be positive");
  out->head_switch_ns = MsToNs(r.Number("Head switch time", 0));
  out->write_settle_ns = r.Ms("Add. write settling delay");
  out->seek = ReadSeek(r);
  r.Finish();
}

void ReadModel(const Block& model, HddParams* params, IgnoredKeys* ignored) {
  BlockReader r(model, ignored);
  params->layout.surfaces = r.Int("Number of data surfaces", 1);
  params->layout.cylinders = r.Int("Number of cylinders", 1);
  const Param& layout = r.Required("Layout Model");
  const std::string type = layout.value.kind == Value::Kind::kBlock ? layout.value.block->type : "";
  if (type == "dm_layout_g2" || type == "dm_layout_g4") {
    // These layouts map the LBNs below "Block count" (dm_sectors); g1 computes its own.
    const int64_t blocks = r.Integer("Block count", 1);
    try {
      (type == "dm_layout_g2" ? ReadLayoutG2 : ReadLayoutG4)(*layout.value.block, blocks, &params->layout, ignored);
      HddExtentMap check(params->layout);
    } catch (const InputError& e) {
      if (std::string(e.what()).rfind("HDD layout", 0) == 0) Fail(layout.value.block->where, e.what());
      throw;
    }
  } else if (type != "dm_layout_g1") {
    Fail(layout.value.where, "'Layout Model' is " + Describe(layout.value) +
                                 "; dm_layout_g1, dm_layout_g2 and dm_layout_g4 are supported");
  } else {
    ReadLayout(*layout.value.block, &params->layout, ignored);
  }
  ReadMechanics(r.SubBlock("Mechanical Model", "dm_mech_g1"), &params->mechanics, ignored);
  r.Finish();  // a g1 layout recomputes "Block count" from its zones, as DiskSim does
}

void ReadDisk(const Block& disk, const BusTimesMs& bus, DisksimImport* out, IgnoredKeys* ignored) {
  HddParams* params = &out->params;
  BlockReader r(disk, ignored);
  ReadModel(r.SubBlock("Model", "dm_disk"), params, ignored);
  params->queue_depth = r.Int("Max queue length", 1);
  ReadInterface(r, bus, &params->interface);
  ReadCache(r, &params->cache);
  ReadArmRelease(r, params);
  CheckUnmodelledDiskFeatures(r);
  out->queue_order = DiskQueueOrder(r, &params->scheduler, ignored);
  r.Finish();
}

}  // namespace

std::string DescribeDisks(const std::vector<DisksimDisk>& disks) {
  std::string text;
  for (const DisksimDisk& d : disks) text += (text.empty() ? "" : ", ") + d.name + " (" + d.block + ")";
  return text;
}

DisksimImport ImportDisksimDrive(const std::string& spec_path, DisksimHost host) {
  // "FILE.parv#disk2" names a disk of the topology, unless a file has that whole name.
  std::string parv_path = spec_path, disk_name;
  const size_t hash = spec_path.rfind('#');
  std::error_code error;
  if (hash != std::string::npos && !std::filesystem::exists(spec_path, error)) {
    parv_path = spec_path.substr(0, hash);
    disk_name = spec_path.substr(hash + 1);
    if (disk_name.empty()) throw InputError(spec_path + ": no disk name after '#'");
  }
  const libparam::ParamFile spec = libparam::ParseFile(parv_path);
  DisksimImport result;
  const DriveBlocks drive = FindDrive(spec, parv_path, disk_name, &result.disks);
  result.disk = drive.instance;
  IgnoredKeys ignored;
  for (const Block* block : drive.host) CheckHost(*block, host, &ignored);
  result.params.name = drive.disk->name;
  result.params.source = parv_path;
  ReadDisk(*drive.disk, ReadBus(drive.bus, &ignored), &result, &ignored);
  result.params.Validate();
  result.ignored = ignored.Take();
  return result;
}

}  // namespace ziosim
