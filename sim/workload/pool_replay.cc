#include "sim/workload/pool_replay.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <memory>

#include "models/catalog/catalog.h"
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

// The zvol (one DMU object) as a replay target: a read request is a read()
// of its blocks, a write request a write() through the DMU write path (null
// with --reads-only). Counts what it was asked and what came back for the
// end-of-run checks.
class ZvolTarget final : public ReplayTarget, public ReadCaller, public WriteCaller {
 public:
  ZvolTarget(Pool& pool, Dmu& dmu, DmuWrite* dmu_write, int64_t volsize)
      : pool_(pool), dmu_(dmu), dmu_write_(dmu_write), volsize_(volsize) {}
  const std::string& name() const override { return name_; }
  int64_t capacity_bytes() const override { return volsize_; }
  int64_t sector_bytes() const override { return kZvolSectorBytes; }
  bool CanSubmit() const override { return true; }
  void Submit(uint32_t tag, IoOp op, int64_t offset_bytes, int64_t size_bytes) override {
    Books& b = op == IoOp::kWrite ? writes_ : reads_;
    ++b.calls;
    b.asked_bytes += size_bytes;
    if (op == IoOp::kWrite) {
      dmu_write_->Write(0, offset_bytes, size_bytes, this, tag);
    } else {
      dmu_.Read(0, offset_bytes, size_bytes, this, tag);
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
  int64_t volsize_;
  std::string name_ = "zvol";
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
  if (o.arc_max < 0) throw InputError("--arc-max: must not be negative");
  ParsePrimaryCache(o.primarycache);
  CheckPoolStateWithLayout(ParsePoolState(o.pool_state, o.pool_state_label), ParseLayoutPreset(o.layout));
}

Tunables RunTunables(const PoolReplayOptions& o) {
  Tunables t = ProfileTunables(o.profile);
  for (const auto& [name, value] : o.settings) t.Set(name, value, "--set");
  if (o.arc_max > 0) t.Set("zfs_arc_max", std::to_string(o.arc_max), "--arc-max");
  return t;
}

// The highest offset + size among the requests the replay will take.
int64_t TraceExtent(const std::string& path, TraceFormat format, const TraceReaderOptions& reader_options,
                    const ReplayOptions& options) {
  std::unique_ptr<TraceReader> trace = OpenTrace(path, format, reader_options);
  TraceRecord r;
  int64_t end = 0, taken = 0;
  while ((options.limit == 0 || taken < options.limit) && trace->Next(r)) {
    if ((options.device >= 0 && r.device != options.device) || (options.reads_only && r.op == IoOp::kWrite)) continue;
    ++taken;
    if (r.offset_bytes > INT64_MAX - r.size_bytes) {
      throw InputError(path, r.line, "field offset: " + std::to_string(r.offset_bytes) + " + size is too large");
    }
    end = std::max(end, r.offset_bytes + r.size_bytes);
  }
  return end;
}

int64_t RoundUp(int64_t v, int64_t unit) { return (v + unit - 1) / unit * unit; }

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

PoolReplayResult ReplayTraceOnPool(const std::string& trace_path, TraceFormat format,
                                   const TraceReaderOptions& reader_options, const PoolReplayOptions& o,
                                   const ReplayOptions& options, const ReplayRequestCallback& on_request) {
  CheckOptions(o);
  PoolReplayResult out;
  out.profile = o.profile;
  out.volblocksize = o.volblocksize > 0 ? o.volblocksize : DefaultVolblocksize(o.profile);
  // The trace is opened (and sized) before the pool is built, so that a wrong file is reported first.
  const int64_t extent = o.volsize > 0 ? o.volsize : TraceExtent(trace_path, format, reader_options, options);
  out.volsize = RoundUp(std::max<int64_t>(extent, 1), out.volblocksize);  // zvol_check_volsize: whole blocks

  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o));
  out.pool = FormatPoolSpec(pool.spec());
  FileSpec zvol;
  zvol.size_bytes = out.volsize;
  zvol.recordsize = out.volblocksize;
  const PoolState state = ParsePoolState(o.pool_state, o.pool_state_label);
  if (state.set) BlockAllocator(pool, state, o.seed, o.pool_state_label);  // refuses a state this pool cannot take
  const std::vector<FileLayout> layouts =
      AllocateFiles(pool, {zvol}, ParseLayoutPreset(o.layout), o.seed, state, &out.pool_before);
  out.placement = PlacementOf(pool, layouts);
  std::unique_ptr<Device> l2;
  if (!o.l2arc.empty()) l2 = MakeDevice(&sim, "l2arc", ResolveDrive(o.l2arc), QueuePolicy::kFifo);
  // With writes the DMU reads through the txg's block tree (rewrites move
  // blocks); --reads-only keeps the lighter read-only model of the layout.
  std::vector<TxgFile> files;
  std::unique_ptr<Txg> txg;
  if (!options.reads_only) {
    files.push_back(MakeTxgFile(pool, layouts[0]));
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
  ZvolTarget target(pool, dmu, dmu_write.get(), out.volsize);

  std::unique_ptr<TraceReader> trace = OpenTrace(trace_path, format, reader_options);
  out.replay = ReplayTrace(*trace, target, sim, options, on_request);
  out.format = trace->format();
  out.trace_stats = trace->stats();
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
  out.disks = ReportDisks(pool, out.replay.end_ns);
  if (dmu_write) out.dmu_write = dmu_write->stats();

  // The books, once the dirty data is on disk and the prefetches have landed.
  target.CheckDone();
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
