#include "models/disksim/disksim_import.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>
#include <utility>

#include "models/device/hdd_geometry.h"
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
    const Param& p = Required(key);
    const int64_t v = IntegerOf(p.value, Quote(key));
    if (v < min || v > max) {
      Fail(p.value.where, Quote(key) + " = " + std::to_string(v) + " is outside " + std::to_string(min) + ".." +
                              std::to_string(max));
    }
    return v;
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

DriveBlocks FindDrive(const libparam::ParamFile& spec, const std::string& parv_path) {
  if (spec.topologies.empty()) throw InputError(parv_path + ": no topology, so no disk to import");
  if (spec.topologies.size() > 1) Fail(spec.topologies[1].where, "a second topology; only one disk is supported");
  std::vector<const TopologyNode*> path;
  std::vector<std::vector<const TopologyNode*>> disks;
  CollectDisks(spec.topologies[0], &path, &disks);
  if (disks.empty()) Fail(spec.topologies[0].where, "the topology has no disksim_disk");
  // Several disks import as one drive when they are all instances of the same disk
  // block (an array of one model); the first one's path gives the bus and host.
  for (const auto& other : disks) {
    const Block& a = ResolveInstance(spec, *disks[0].back());
    const Block& b = ResolveInstance(spec, *other.back());
    if (&a != &b) {
      Fail(other.back()->where, "the topology's disks are of more than one kind (" + Quote(disks[0].back()->name) +
                                    " is " + Quote(a.name) + ", " + Quote(other.back()->name) + " is " +
                                    Quote(b.name) + "); a drive is one kind of disk");
    }
  }
  DriveBlocks drive;
  for (const TopologyNode* node : disks[0]) {
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

// The model assumes the host side costs nothing (glossary, section 1, step 1): refuse
// host components that would add time to every request.
void CheckHost(const Block& block) {
  IgnoredKeys unused;  // host blocks are not part of the drive: their other keys are not listed
  BlockReader r(block, &unused);
  if (block.type == "disksim_iodriver") {
    r.Unmodelled("Constant access time", 0, "simulates the device instead of a constant access time");
  } else if (block.type == "disksim_ctlr") {
    // DiskSim's type 2 (a 53C700-like controller, 0.5 ms x scale per message; it aborts
    // DiskSim's own validation runs) and type 3 (a caching controller, as in synthcachemem)
    // are controllers of their own; type 1 passes messages on after 1 ms x scale each
    // (disksim_ctlrdumb.c, PASSTHRU_DELAY).
    r.Unmodelled("type", 1, "passes requests through the controller unchanged (types 2 and 3 are controller "
                            "models): controller type");
    r.Unmodelled("Scale for delays", 0, "charges nothing for messages through the controller: scale");
  }
}

struct BusTimesMs {
  double read = 0;
  double write = 0;
  double arbitration = 0;
  const Param* arbitration_key = nullptr;
};

BusTimesMs ReadBus(const Block* bus, IgnoredKeys* ignored) {
  if (bus == nullptr) return {};
  BlockReader r(*bus, ignored);
  BusTimesMs times{r.Number("Read block transfer time", 0), r.Number("Write block transfer time", 0)};
  times.arbitration_key = r.Optional("Arbitration time");
  if (times.arbitration_key != nullptr) times.arbitration = r.Number("Arbitration time", 0);
  r.Finish();
  return times;
}

// ---------------------------------------------------------------------------------------
// The disk block (.diskspecs).

void ReadInterface(BlockReader& r, const BusTimesMs& bus, HddInterface* out) {
  // Every overhead scales, except the minimum seek delay (and the Extradisc
  // inter-disconnect delay, which the model does not use).
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
  out->hold_bus_write = r.Flag("Hold bus entire write xfer");
  out->read_watermark = r.Number("High (read) water mark", 0);
  out->write_watermark = r.Number("Low (write) water mark", 0);
  out->watermark_by_request_size = r.Flag("Set watermark by reqsize");
  out->immediate_partial_hit = r.Flag("Immed transfer partial hit");
  out->extra_write_disconnect = r.Flag("Extra write disconnect");
  out->never_disconnect = r.Flag("Never disconnect");
  // Checked against DiskSim only on drives that disconnect: with 'Never disconnect'
  // (the DEC RZ26) DiskSim charges reads and writes differently, which is not modelled.
  out->bus_arbitration_ns = MsToNs(bus.arbitration);
  if (out->never_disconnect && out->bus_arbitration_ns > 0) {
    Fail(bus.arbitration_key->value.where,
         "'Arbitration time' > 0 with 'Never disconnect' = 1 is not supported: the model charges arbitration only "
         "to drives that disconnect");
  }
}

void ReadCache(BlockReader& r, HddCache* out) {
  const Param& enable = r.Required("Enable caching in buffer");
  out->enabled = r.Int("Enable caching in buffer", 0, 2) != 0;  // 2 behaves as 1 in DiskSim 4.0
  out->segments = r.Int("Number of buffer segments", out->enabled ? 1 : 0);
  out->segment_blocks = r.Int("Segment size (in blks)", 1);
  out->max_write_segments = r.Int("Maximum number of write segments", 0);
  out->separate_write_segment = r.Flag("Use separate write segment");
  out->read_ahead_scheme = r.Int("Buffer continuous read", 0, 4);
  out->min_read_ahead_blocks = r.Int("Minimum read-ahead (blks)", 0);
  out->max_read_ahead_blocks = r.Int("Maximum read-ahead (blks)", 0);
  out->read_ahead_on_idle_hit = r.Flag("Read-ahead on idle hit");
  out->fast_write_level = r.Int("Fast write level", 0, 2);
  out->combine_seq_writes = r.Flag("Combine seq writes");
  out->read_hits_on_write_data = r.Flag("Allow read hits on write data");
  out->stop_prefetch_in_sector = r.Flag("Stop prefetch in sector");
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

// The read hits that may be sent while the arm is busy ("sneaky"), and how early the
// arm leaves a read. DiskSim aborts on sneaky hits with a bus held for whole reads
// (disk_postpass_perdisk); the model cannot start a queued command's seek before the
// previous command completes, so preseeking needs a queue of one.
void ReadArmRelease(BlockReader& r, int queue_depth, HddParams* out) {
  HddCache& c = out->cache;
  for (auto [key, field] : {std::pair{"Allow sneaky full read hits", &c.sneaky_full_read_hits},
                            std::pair{"Allow sneaky partial read hits", &c.sneaky_partial_read_hits}}) {
    *field = r.OptionalInt(key, 0, 1, 0) == 1;
    if (*field && out->interface.hold_bus_read) {
      Fail(r.Required(key).value.where, Quote(key) + " = 1 with 'Hold bus entire read xfer' = 1, which DiskSim refuses");
    }
  }
  c.preseek_level = r.OptionalInt("Preseeking level", 0, 2, 0);
  if (c.preseek_level > 0 && queue_depth > 1) {
    Fail(r.Required("Preseeking level").value.where,
         "'Preseeking level' = " + std::to_string(c.preseek_level) +
             " with 'Max queue length' > 1 is not supported: the model starts a queued command's seek only when "
             "the previous command completes");
  }
}

// Disk features that HddParams has no field for: the model behaves as DiskSim does
// with these values, which are those of the six validated drives.
void CheckUnmodelledDiskFeatures(BlockReader& r, int queue_depth) {
  // Both act only on requests waiting in the drive's queue, which holds one at most
  // with 'Max queue length' = 1: then they change nothing.
  if (queue_depth > 1) {
    const std::string meaning = "lets no queued request use the bus before its turn, which is exact only with "
                                "'Max queue length' = 1";
    r.Unmodelled("Allow sneaky intermediate read hits", 0, meaning);
    r.Unmodelled("Allow write prebuffering", 0, meaning);
  }
  r.Inert("Allow sneaky intermediate read hits", 0, 1);
  r.Inert("Allow write prebuffering", 0, 1);
  r.Unmodelled("Disconnect write if seek", 0, "lets a seeking read-ahead be preempted");
  // Whether a sector needs room in the segment before it is read (1) or passes through
  // a sector buffer (0): the model never holds a read back for room in the segment,
  // so neither value changes it. With 0, DiskSim 4.0 moves none of the ten validation
  // drives' requests by more than 0.1 us.
  r.Inert("Read directly to buffer", 0, 1);
}

// The disk's scheduler orders its queue; the HDD device's queue policy is chosen
// separately (and with one request queued it orders nothing), so its keys are ignored.
void IgnoreScheduler(BlockReader& r, IgnoredKeys* ignored) {
  const Param* scheduler = r.Optional("Scheduler");
  if (scheduler == nullptr) return;
  if (scheduler->value.kind != Value::Kind::kBlock) Fail(scheduler->value.where, "'Scheduler' must be a block");
  for (const Param& p : scheduler->value.block->params) ignored->Add(p);
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

// One row of a seek curve: "distance, ms" or "distance, ms, ignored".
std::pair<int, SimTime> ParseSeekRow(const std::string& line, const std::string& file, int number) {
  const std::vector<std::string> fields = SplitAtCommas(line);
  double distance = 0, ms = 0;
  if ((fields.size() != 2 && fields.size() != 3) || !ParseField(fields[0], &distance) ||
      !ParseField(fields[1], &ms) || distance < 1 || distance != std::trunc(distance) || distance > INT_MAX || ms < 0) {
    throw InputError(file, number, "expected 'distance, milliseconds' with distance >= 1, found: " + line);
  }
  return {static_cast<int>(distance), MsToNs(ms)};
}

// DiskSim's measured seek curve: "Seek distances measured: N", then N rows, by
// increasing distance. The file is named relative to the file that names it.
std::vector<std::pair<int, SimTime>> ReadSeekCurve(const Param& p) {
  if (p.value.kind != Value::Kind::kWord && p.value.kind != Value::Kind::kNumber) {
    Fail(p.value.where, "'Full seek curve' must be a file name");
  }
  std::filesystem::path path(p.value.text);
  if (path.is_relative()) path = std::filesystem::path(p.value.where.file).parent_path() / path;
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
  ReadLayout(r.SubBlock("Layout Model", "dm_layout_g1"), &params->layout, ignored);
  ReadMechanics(r.SubBlock("Mechanical Model", "dm_mech_g1"), &params->mechanics, ignored);
  r.Finish();  // "Block count" is recomputed from the zones, as DiskSim does
}

void ReadDisk(const Block& disk, const BusTimesMs& bus, HddParams* params, IgnoredKeys* ignored) {
  BlockReader r(disk, ignored);
  ReadModel(r.SubBlock("Model", "dm_disk"), params, ignored);
  params->queue_depth = r.Int("Max queue length", 1);
  ReadInterface(r, bus, &params->interface);
  ReadCache(r, &params->cache);
  ReadArmRelease(r, params->queue_depth, params);
  CheckUnmodelledDiskFeatures(r, params->queue_depth);
  IgnoreScheduler(r, ignored);
  r.Finish();
}

}  // namespace

DisksimImport ImportDisksimDrive(const std::string& parv_path) {
  const libparam::ParamFile spec = libparam::ParseFile(parv_path);
  const DriveBlocks drive = FindDrive(spec, parv_path);
  for (const Block* block : drive.host) CheckHost(*block);
  IgnoredKeys ignored;
  DisksimImport result;
  result.params.name = drive.disk->name;
  result.params.source = parv_path;
  ReadDisk(*drive.disk, ReadBus(drive.bus, &ignored), &result.params, &ignored);
  result.params.Validate();
  result.ignored = ignored.Take();
  return result;
}

}  // namespace ziosim
