#include "sim/workload/pool_replay.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

#include "models/catalog/catalog.h"
#include "sim/core/bytes.h"
#include "sim/core/invariants.h"
#include "sim/core/status.h"
#include "sim/stats/run_check.h"
#include "sim/workload/readers.h"
#include "sim/zfs/allocator.h"

namespace ziosim {
namespace {

constexpr int64_t kOldVolblocksize = 8 << 10;   // ZFS_DEFAULT_VOLBLOCKSIZE before 2.2
constexpr int64_t kVolblocksize22 = 16 << 10;   // from OpenZFS 2.2.0 (PR #12406)
// Linux zvols present 512-byte logical blocks (zvol_os.c sets only the physical
// block size to volblocksize), so trace requests are realigned to 512 bytes.
constexpr int64_t kZvolSectorBytes = 512;

// One instance's data as a replay target: its zvol (one DMU object), or its
// copy of the traced files (one object each, from first_object on). A read
// request is a read() of the object, a write request a write() through the
// DMU write path (null with --reads-only). Counts what it was asked and what
// came back for the end-of-run checks.
class ObjectsTarget final : public ReplayTarget, public ReadCaller, public WriteCaller {
 public:
  // `sizes`: the objects' sizes (one for a zvol), which must outlive the target.
  ObjectsTarget(Pool& pool, Dmu& dmu, DmuWrite* dmu_write, int first_object, const std::vector<int64_t>& sizes,
                bool files)
      : pool_(pool),
        dmu_(dmu),
        dmu_write_(dmu_write),
        first_object_(first_object),
        sizes_(sizes),
        files_(files),
        name_(files ? "the pool" : "zvol") {}
  const std::string& name() const override { return name_; }
  int64_t capacity_bytes(int32_t file) const override { return sizes_[files_ ? static_cast<size_t>(file) : 0]; }
  // A read() of a file takes any byte range.
  int64_t sector_bytes() const override { return files_ ? 1 : kZvolSectorBytes; }
  bool CanSubmit() const override { return true; }
  // The pool's own I/O classes decide how urgent its leaf I/Os are, not the trace.
  void Submit(uint32_t tag, const TraceRecord& record, int64_t offset_bytes, int64_t size_bytes) override {
    Books& b = record.op == IoOp::kWrite ? writes_ : reads_;
    ++b.calls;
    b.asked_bytes += size_bytes;
    const int object = first_object_ + (files_ ? record.file : 0);
    if (record.op == IoOp::kWrite) {
      dmu_write_->Write(object, offset_bytes, size_bytes, this, tag);
    } else {
      dmu_.Read(object, offset_bytes, size_bytes, this, tag);
    }
  }
  void set_listener(ReplayTargetListener* listener) override { listener_ = listener; }
  void Finish(SimTime /*now*/) override {
    dmu_.StopFeeding();
    pool_.SettleStats();
  }
  void OnReadDone(uint64_t tag, int64_t bytes) override { Done(reads_, tag, bytes); }
  void OnWriteDone(uint64_t tag, int64_t bytes) override { Done(writes_, tag, bytes); }

  void CheckDone() const {
    CheckCompletedOnce("pool replay: read() calls", reads_.calls, reads_.returned);
    CheckBytesDelivered("pool replay: reads", reads_.asked_bytes, reads_.done_bytes);
    CheckCompletedOnce("pool replay: write() calls", writes_.calls, writes_.returned);
    CheckBytesDelivered("pool replay: writes", writes_.asked_bytes, writes_.done_bytes);
  }

 private:
  struct Books {
    int64_t calls = 0, returned = 0, asked_bytes = 0, done_bytes = 0;
  };
  void Done(Books& b, uint64_t tag, int64_t bytes) {
    ++b.returned;
    b.done_bytes += bytes;
    listener_->OnTargetDone(static_cast<uint32_t>(tag), pool_.sim()->now());
  }

  Pool& pool_;
  Dmu& dmu_;
  DmuWrite* dmu_write_;
  int first_object_;
  const std::vector<int64_t>& sizes_;
  bool files_;
  std::string name_;
  ReplayTargetListener* listener_ = nullptr;
  Books reads_, writes_;
};

void CheckOptions(const PoolReplayOptions& o) {
  if (o.volblocksize != 0 &&
      (o.volblocksize < 512 || o.volblocksize > (16 << 20) || (o.volblocksize & (o.volblocksize - 1)) != 0)) {
    throw InputError("--volblocksize: must be a power of two from 512 to 16M (got " +
                     std::to_string(o.volblocksize) + ")");
  }
  if (o.volsize < 0) throw InputError("--volsize: must not be negative");
  if (o.instances < 1 || o.instances > kMaxReplayInstances) {
    throw InputError("--readers: each count must be from 1 to " + std::to_string(kMaxReplayInstances) + " (got " +
                     std::to_string(o.instances) + ")");
  }
  if (o.stagger_ns < 0) throw InputError("--stagger: must not be negative");
  if (o.arc_max < 0) throw InputError("--arc-max: must not be negative");
  ParsePrimaryCache(o.primarycache);
  CheckPoolStateWithLayout(ParsePoolState(o.pool_state, o.pool_state_label), ParseLayoutPreset(o.layout));
}

Tunables PoolReplayTunables(const PoolReplayOptions& o) {
  Tunables t = ProfileTunables(o.profile);
  for (const auto& [name, value] : o.settings) t.Set(name, value, "--set");
  if (o.arc_max > 0) t.Set("zfs_arc_max", std::to_string(o.arc_max), "--arc-max");
  return t;
}

// What the requests the replay will take reach: the highest offset + size of
// each traced file (file-level traces), or of the whole volume (one entry).
struct TraceExtents {
  bool file_level = false;
  std::vector<std::string> files;
  std::vector<int64_t> end_bytes;
};

TraceExtents ScanExtents(const std::string& path, TraceFormat format, const TraceReaderOptions& reader_options,
                         const ReplayOptions& options) {
  std::unique_ptr<TraceReader> trace = OpenTrace(path, format, reader_options);
  TraceExtents out;
  out.file_level = IsFileLevel(trace->format());
  out.end_bytes.assign(1, 0);
  TraceRecord r;
  int64_t taken = 0;
  while ((options.limit == 0 || taken < options.limit) && trace->Next(r)) {
    if ((options.device >= 0 && r.device != options.device) || (options.reads_only && r.op == IoOp::kWrite)) continue;
    ++taken;
    if (r.offset_bytes > INT64_MAX - r.size_bytes) {
      throw InputError(path, r.line, "field offset: " + std::to_string(r.offset_bytes) + " + size is too large");
    }
    const size_t slot = out.file_level ? static_cast<size_t>(r.file) : 0;
    if (slot >= out.end_bytes.size()) out.end_bytes.resize(slot + 1, 0);
    out.end_bytes[slot] = std::max(out.end_bytes[slot], r.offset_bytes + r.size_bytes);
  }
  if (out.file_level) {
    out.files = trace->files();
    out.end_bytes.resize(out.files.size(), 0);  // files opened and never read are empty
  }
  return out;
}

}  // namespace

int64_t DefaultVolblocksize(std::string_view profile) {
  constexpr std::string_view kOpenZfs = "openzfs-";
  if (!profile.starts_with(kOpenZfs)) return kOldVolblocksize;  // ZoL and FreeBSD eras
  const std::string_view version = profile.substr(kOpenZfs.size());
  int major = 0, minor = 0;
  const auto [dot, ec] = std::from_chars(version.data(), version.data() + version.size(), major);
  if (ec == std::errc() && dot < version.data() + version.size() && *dot == '.') {
    std::from_chars(dot + 1, version.data() + version.size(), minor);
  }
  return major > 2 || (major == 2 && minor >= 2) ? kVolblocksize22 : kOldVolblocksize;
}

namespace {

// The data one instance replays on, as the pool holds it: its objects' sizes and specs.
struct DataShape {
  std::vector<int64_t> sizes;
  std::vector<FileSpec> specs;
};

DataShape ShapeData(const TraceExtents& extents, const PoolReplayOptions& o, PoolReplayResult& out) {
  DataShape d;
  if (extents.file_level) {
    out.volblocksize = o.recordsize;
    out.files = extents.files;
    d.sizes = extents.end_bytes;
    out.file_bytes = d.sizes;
    for (const int64_t size : d.sizes) {
      d.specs.push_back(FileSpec{.size_bytes = size, .recordsize = o.recordsize});
      out.volsize += size;
    }
    return d;
  }
  out.volblocksize = o.volblocksize > 0 ? o.volblocksize : DefaultVolblocksize(o.profile);
  const int64_t extent = o.volsize > 0 ? o.volsize : extents.end_bytes[0];
  out.volsize = RoundUp(std::max<int64_t>(extent, 1), out.volblocksize);  // zvol_check_volsize: whole blocks
  d.sizes = {out.volsize};
  d.specs = {FileSpec{.size_bytes = out.volsize, .recordsize = out.volblocksize}};
  return d;
}

}  // namespace

PoolReplayResult ReplayTraceOnPool(const std::string& trace_path, TraceFormat format,
                                   const TraceReaderOptions& reader_options, const PoolReplayOptions& o,
                                   const ReplayOptions& options, const ReplayRequestCallback& on_request) {
  CheckOptions(o);
  PoolReplayResult out;
  out.profile = o.profile;
  // The trace is opened (and sized) before the pool is built, so that a wrong file is reported first.
  TraceExtents extents;
  if (o.volsize > 0) {
    extents.file_level = IsFileLevel(OpenTrace(trace_path, format, reader_options)->format());
    if (extents.file_level) throw InputError("--volsize: applies to a block trace (a file-level trace replays on files)");
  }
  if (o.volsize == 0) extents = ScanExtents(trace_path, format, reader_options, options);
  out.file_level = extents.file_level;
  const DataShape data = ShapeData(extents, o, out);

  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), PoolReplayTunables(o), o.seed);
  out.pool = FormatPoolSpec(pool.spec());
  // One copy of the data per instance, laid out one after another (as readers' files).
  const int copies = o.same_data ? 1 : o.instances;
  std::vector<FileSpec> specs;
  for (int c = 0; c < copies; ++c) specs.insert(specs.end(), data.specs.begin(), data.specs.end());
  const PoolState state = ParsePoolState(o.pool_state, o.pool_state_label);
  if (state.set) BlockAllocator(pool, state, o.seed, o.pool_state_label);  // refuses a state this pool cannot take
  const std::vector<FileLayout> layouts =
      AllocateFiles(pool, specs, ParseLayoutPreset(o.layout), o.seed, state, &out.pool_before);
  out.placement = PlacementOf(pool, layouts);
  std::unique_ptr<Device> l2;
  if (!o.l2arc.empty()) {
    l2 = MakeDevice(&sim, "l2arc", ResolveDrive(o.l2arc), QueuePolicy::kFifo, SpindlePhase(o.seed, "l2arc"));
  }
  // With writes the DMU reads through the txg's block tree (rewrites move
  // blocks); --reads-only keeps the lighter read-only model of the layout.
  std::vector<TxgFile> files;
  std::unique_ptr<Txg> txg;
  if (!options.reads_only) {
    for (const FileLayout& layout : layouts) files.push_back(MakeTxgFile(pool, layout));
    txg = std::make_unique<Txg>(&pool, &files, state, o.seed);
  }
  const PrimaryCache primarycache = ParsePrimaryCache(o.primarycache);
  std::unique_ptr<Dmu> reader =
      txg ? std::make_unique<Dmu>(&pool, static_cast<const BlockMap*>(txg.get()), primarycache, std::move(l2))
          : std::make_unique<Dmu>(&pool, &layouts, primarycache, std::move(l2));
  Dmu& dmu = *reader;
  HostCpu cpu(pool.tunables());
  std::unique_ptr<DmuWrite> dmu_write;
  if (txg) dmu_write = std::make_unique<DmuWrite>(&pool, txg.get(), &cpu, &dmu);

  const int per_copy = static_cast<int>(data.sizes.size());
  std::vector<std::unique_ptr<ObjectsTarget>> targets;
  std::vector<std::unique_ptr<TraceReader>> traces;
  std::vector<ReplayInstance> instances;
  for (int i = 0; i < o.instances; ++i) {
    const int first = (o.same_data ? 0 : i) * per_copy;
    targets.push_back(std::make_unique<ObjectsTarget>(pool, dmu, dmu_write.get(), first, data.sizes,
                                                      extents.file_level));
    traces.push_back(OpenTrace(trace_path, format, reader_options));
    instances.push_back(ReplayInstance{traces.back().get(), targets.back().get(), i * o.stagger_ns, on_request});
  }
  ReplayGroupResult group = ReplayTraces(instances, sim, options);
  out.replay = std::move(group.pooled);
  out.instances = std::move(group.instances);
  out.format = traces[0]->format();
  out.trace_stats = traces[0]->stats();
  for (const LeafVdev* l : pool.leaves()) {
    out.disk_bytes_read += l->device().stats().read_bytes();
    out.disk_bytes_written += l->device().stats().written_bytes();
  }
  out.arc = dmu.arc().stats();
  out.dmu = dmu.stats();
  if (out.dmu.demand_blocks > 0) {
    out.arc_hit_pct = 100.0 * static_cast<double>(out.dmu.demand_blocks - out.dmu.demand_misses) /
                      static_cast<double>(out.dmu.demand_blocks);
  }
  if (out.replay.end_ns > 0) {
    const int cores = dmu.cpu().costs().cores;
    out.cpu_busy_pct = 100.0 * static_cast<double>(dmu.cpu().busy_ns() + cpu.busy_ns()) /
                       (static_cast<double>(cores) * static_cast<double>(out.replay.end_ns));
  }
  out.disks = ReportDisks(pool, out.replay.end_ns);
  if (dmu_write) out.dmu_write = dmu_write->stats();

  // The books, once the dirty data is on disk and the prefetches have landed.
  for (const auto& target : targets) target->CheckDone();
  if (txg) SyncOutAndCheck(*txg, sim, "pool replay");
  const Device* cache = dmu.l2arc();
  while ((pool.live_zios() > 0 || (cache != nullptr && cache->in_device() > 0)) && sim.Step()) {
  }
  sim.CheckClock();  // the replay steps the loop itself
  CheckPoolQuiescent(pool, sim.now());
  if (cache != nullptr) CheckDeviceAccounting(*cache, sim.now());
  return out;
}

}  // namespace ziosim
