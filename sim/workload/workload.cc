#include "sim/workload/workload.h"

#include <algorithm>
#include <memory>

#include "sim/core/invariants.h"
#include "sim/core/random.h"
#include "sim/core/status.h"
#include "sim/stats/run_check.h"
#include "sim/workload/fio_latency.h"
#include "sim/zfs/allocator.h"
#include "sim/zfs/dmu.h"
#include "sim/zfs/dmu_write.h"
#include "sim/zfs/txg.h"

namespace ziosim {
namespace {

constexpr int kMaxThreads = 4096;

// What every thread shares.
struct Shared {
  Simulation* sim;
  const Personality* p;
  const NfsFront* nfs;
  Dmu* dmu;
  DmuWrite* dmu_write;
  Zil* zil;
  SimTime end_ns;
  FioLatency read_latency, sync_latency;
  uint64_t reads = 0, writes = 0, sync_writes = 0;
  int64_t read_bytes = 0, write_bytes = 0;
  double total_weight = 0;
};

// One thread of the personality: operation after operation until the end.
// An operation is cut into NFS RPCs (one piece when local); each piece waits
// its RPC time, then runs on the server; a write piece the server must make
// stable commits the log before the next piece; an fsync (or the COMMIT of
// unstable NFS writes) closes the operation.
class Thread : public ReadCaller, public WriteCaller, public ZilCaller, public EventHandler {
 public:
  Thread(Shared* s, int index, uint64_t seed)
      : s_(s), rng_(seed, "workload-thread" + std::to_string(index)), file_(index % s->p->files) {}

  void Start() { NextOp(); }
  bool idle() const { return idle_; }
  void CheckDone(int index) const {
    const std::string what = "workload: thread " + std::to_string(index);
    CheckCompletedOnce(what + ": read()/write() calls", calls_, returned_);
    CheckBytesDelivered(what, asked_bytes_, done_bytes_);
  }

  void OnEvent(uint32_t kind, uint64_t) override {
    if (kind == kRpcDone) {
      Serve();
    } else {
      s_->zil->Commit(file_, this, kCommitTag);  // the COMMIT RPC reached the server
    }
  }
  void OnReadDone(uint64_t, int64_t bytes) override {
    Returned(bytes);
    PieceDone();
  }
  void OnWriteDone(uint64_t, int64_t bytes) override {
    Returned(bytes);
    s_->zil->LogWrite(file_, bytes);
    if (s_->zil->WriteMustCommit(StablePiece())) {
      committed_ = true;
      s_->zil->Commit(file_, this, kPieceTag);
    } else {
      PieceDone();
    }
  }
  void OnCommitDone(uint64_t tag) override {
    if (tag == kPieceTag) {
      PieceDone();
    } else {
      OpDone();
    }
  }

 private:
  enum Event : uint32_t { kRpcDone = 0, kCommitRpcDone = 1 };
  static constexpr uint64_t kPieceTag = 0, kCommitTag = 1;

  void NextOp() {
    if (s_->sim->now() >= s_->end_ns) {
      idle_ = true;
      return;
    }
    const Personality& p = *s_->p;
    is_read_ = rng_.Uniform01() * 100 < p.read_pct;
    size_ = PickSize();
    if (rng_.Uniform01() * 100 < p.random_pct) {
      file_ = static_cast<int>(rng_.UniformInt(0, p.files - 1));
      offset_ = rng_.UniformInt(0, (p.file_size - size_) / size_) * size_;
    } else {
      if (seq_offset_ + size_ > p.file_size) seq_offset_ = 0;
      offset_ = seq_offset_;
      seq_offset_ += size_;
    }
    done_ = 0;
    committed_ = false;
    start_ns_ = s_->sim->now();
    SendPiece();
  }

  int64_t PickSize() {
    double x = rng_.Uniform01() * s_->total_weight;
    for (const auto& [size, weight] : s_->p->io_sizes) {
      if (x < weight) return size;
      x -= weight;
    }
    return s_->p->io_sizes.back().first;
  }

  int64_t PieceBytes() const {
    const int64_t max = !s_->nfs->enabled ? size_ : is_read_ ? s_->nfs->rsize : s_->nfs->wsize;
    return std::min(max, size_ - done_);
  }

  void SendPiece() {
    if (!s_->nfs->enabled) {
      Serve();
      return;
    }
    s_->sim->Schedule(s_->sim->now() + s_->nfs->RpcNs(PieceBytes()), this, kRpcDone);
  }

  void Serve() {
    const int64_t n = PieceBytes();
    ++calls_;
    asked_bytes_ += n;
    if (is_read_) {
      s_->dmu->Read(file_, offset_ + done_, n, this, 0);
    } else {
      s_->dmu_write->Write(file_, offset_ + done_, n, this, 0);
    }
  }

  // Whether the server must make this write stable before replying (O_DSYNC
  // locally; FILE_SYNC over NFS unless the export is async).
  bool StablePiece() const {
    const bool o_dsync = s_->p->sync == Personality::Sync::kODsync;
    if (!s_->nfs->enabled) return o_dsync;
    return !s_->nfs->async_export && (!s_->nfs->unstable || o_dsync);
  }

  // fsync(), or the client's COMMIT after UNSTABLE writes of an O_DSYNC file.
  bool NeedsCommitAfter() const {
    if (is_read_) return false;
    if (s_->nfs->enabled && s_->nfs->async_export) return false;
    return s_->p->sync == Personality::Sync::kFsync;
  }

  void Returned(int64_t bytes) {
    ++returned_;
    done_bytes_ += bytes;
  }

  void PieceDone() {
    done_ += PieceBytes();
    if (done_ < size_) {
      SendPiece();
      return;
    }
    if (NeedsCommitAfter() && !s_->zil->disabled()) {
      committed_ = true;
      if (s_->nfs->enabled) {
        s_->sim->Schedule(s_->sim->now() + s_->nfs->RpcNs(0), this, kCommitRpcDone);
      } else {
        s_->zil->Commit(file_, this, kCommitTag);
      }
      return;
    }
    OpDone();
  }

  void OpDone() {
    const SimTime latency = s_->sim->now() - start_ns_;
    if (s_->sim->now() <= s_->end_ns) {
      if (is_read_) {
        ++s_->reads;
        s_->read_bytes += size_;
        s_->read_latency.Add(latency);
      } else {
        ++s_->writes;
        s_->write_bytes += size_;
        if (committed_) {
          ++s_->sync_writes;
          s_->sync_latency.Add(latency);
        }
      }
    }
    NextOp();
  }

  Shared* s_;
  RandomStream rng_;
  int file_;
  bool idle_ = false;
  bool is_read_ = false;
  bool committed_ = false;
  int64_t size_ = 0, offset_ = 0, done_ = 0, seq_offset_ = 0;
  SimTime start_ns_ = 0;
  int64_t calls_ = 0, returned_ = 0, asked_bytes_ = 0, done_bytes_ = 0;  // the books
};

double Ms(int64_t ns) { return NsToMs(ns); }

// The options, checked and parsed.
struct RunSetup {
  Personality personality;
  SyncMode sync;
  Logbias logbias;
  NfsFront nfs;
};

RunSetup Setup(const WorkloadOptions& o) {
  Personality p = LoadPersonality(o.personality);
  if (o.threads < 0 || o.threads > kMaxThreads) {
    throw InputError("--threads: " + std::to_string(o.threads) + " is not between 1 and " +
                     std::to_string(kMaxThreads));
  }
  if (o.threads > 0) p.threads = o.threads;
  if (o.duration_ns <= 0) throw InputError("--duration: must be positive");
  return {p, ParseSyncMode(o.sync, "--sync"), ParseLogbias(o.logbias, "--logbias"),
          o.use_nfs ? ParseNfsFront(o.nfs) : NfsFront{}};
}

}  // namespace

void CheckWorkloadOptions(const WorkloadOptions& o) {
  Setup(o);
  ParsePoolSpec(o.pool, o.ashift);
  RunTunables(o.profile, o.settings);
}

WorkloadRun RunWorkload(const WorkloadOptions& o) {
  const RunSetup setup = Setup(o);
  const Personality& p = setup.personality;
  const SyncMode sync = setup.sync;
  const Logbias logbias = setup.logbias;
  const NfsFront& nfs = setup.nfs;

  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o.profile, o.settings), o.seed);
  std::vector<FileSpec> specs(static_cast<size_t>(p.files));
  for (FileSpec& f : specs) {
    f.size_bytes = p.file_size;
    f.recordsize = p.recordsize;
  }
  const std::vector<FileLayout> layouts = AllocateFiles(pool, specs, ParseLayoutPreset("sequential"), o.seed);
  std::vector<TxgFile> files;
  for (const FileLayout& l : layouts) files.push_back(MakeTxgFile(pool, l));
  // Reads go through the txg's files: rewritten records from their new place.
  Txg txg(&pool, &files);
  Dmu dmu(&pool, &txg, PrimaryCache::kAll, MakeL2arcDevice(pool, ""));
  HostCpu cpu(pool.tunables());
  DmuWrite dmu_write(&pool, &txg, &cpu, &dmu);
  Zil zil(&pool, sync, logbias, &txg);

  Shared shared{&sim, &p, &nfs, &dmu, &dmu_write, &zil, o.duration_ns, {}, {}};
  for (const auto& [size, weight] : p.io_sizes) shared.total_weight += weight;
  std::vector<std::unique_ptr<Thread>> threads;
  for (int i = 0; i < p.threads; ++i) threads.push_back(std::make_unique<Thread>(&shared, i, o.seed));
  for (auto& t : threads) t->Start();
  while (std::any_of(threads.begin(), threads.end(), [](auto& t) { return !t->idle(); }) && sim.Step()) {
  }
  if (!std::all_of(threads.begin(), threads.end(), [](auto& t) { return t->idle(); })) {
    throw InternalError("workload: threads stalled with no event pending");
  }
  dmu.StopFeeding();
  pool.SettleStats();

  WorkloadRun run;
  run.personality = p.name;
  run.profile = o.profile;
  run.pool = FormatPoolSpec(pool.spec());
  run.nfs = nfs.enabled;
  run.threads = p.threads;
  run.duration_ns = o.duration_ns;
  const double sec = NsToSec(o.duration_ns);
  run.reads = shared.reads;
  run.writes = shared.writes;
  run.read_bytes = shared.read_bytes;
  run.write_bytes = shared.write_bytes;
  run.ops_per_s = static_cast<double>(run.reads + run.writes) / sec;
  run.read_iops = static_cast<double>(run.reads) / sec;
  run.write_iops = static_cast<double>(run.writes) / sec;
  run.read_mb_s = static_cast<double>(run.read_bytes) / sec / 1e6;
  run.write_mb_s = static_cast<double>(run.write_bytes) / sec / 1e6;
  run.read_p50_ms = Ms(shared.read_latency.Percentile(50));
  run.read_p99_ms = Ms(shared.read_latency.Percentile(99));
  run.sync_writes = shared.sync_writes;
  run.sync_p50_ms = Ms(shared.sync_latency.Percentile(50));
  run.sync_p99_ms = Ms(shared.sync_latency.Percentile(99));
  run.sync_p999_ms = Ms(shared.sync_latency.Percentile(99.9));
  const TxgStats& ts = txg.stats();
  run.txgs = ts.synced;
  run.txg_sync_mean_ms = ts.synced > 0 ? NsToMs(ts.sync_ns_sum) / static_cast<double>(ts.synced) : 0;
  run.txg_sync_max_ms = NsToMs(ts.sync_ns_max);
  const DmuWriteStats& ws = dmu_write.stats();
  run.throttle_pct = 100.0 * static_cast<double>(ws.delay_ns + ws.dirty_wait_ns) /
                     (static_cast<double>(p.threads) * static_cast<double>(sim.now()));
  run.zil = zil.stats();
  run.disks = ReportDisks(pool, sim.now());

  // The books, once the dirty data is on disk and the prefetches have landed.
  for (size_t i = 0; i < threads.size(); ++i) threads[i]->CheckDone(static_cast<int>(i));
  SyncOutAndCheck(txg, sim, "workload");
  const Device* cache = dmu.l2arc();
  while ((pool.live_zios() > 0 || (cache != nullptr && cache->in_device() > 0)) && sim.Step()) {
  }
  CheckPoolQuiescent(pool, sim.now());
  if (cache != nullptr) CheckDeviceAccounting(*cache, sim.now());
  return run;
}

nlohmann::json WorkloadToJson(const WorkloadRun& r) {
  const ZilStats& z = r.zil;
  return {{"personality", r.personality},
          {"profile", r.profile},
          {"pool", r.pool},
          {"nfs", r.nfs},
          {"threads", r.threads},
          {"duration_s", NsToSec(r.duration_ns)},
          {"reads", r.reads},
          {"writes", r.writes},
          {"ops_per_s", r.ops_per_s},
          {"read_iops", r.read_iops},
          {"write_iops", r.write_iops},
          {"read_mb_s", r.read_mb_s},
          {"write_mb_s", r.write_mb_s},
          {"read_p50_ms", r.read_p50_ms},
          {"read_p99_ms", r.read_p99_ms},
          {"sync_writes", r.sync_writes},
          {"sync_p50_ms", r.sync_p50_ms},
          {"sync_p99_ms", r.sync_p99_ms},
          {"sync_p999_ms", r.sync_p999_ms},
          {"txgs", r.txgs},
          {"txg_sync_mean_ms", r.txg_sync_mean_ms},
          {"txg_sync_max_ms", r.txg_sync_max_ms},
          {"throttle_pct", r.throttle_pct},
          {"zil",
           {{"commits", z.commits}, {"batches", z.batches}, {"lwbs", z.lwbs}, {"lwb_bytes", z.lwb_bytes},
            {"indirect_records", z.indirect_records}, {"indirect_bytes", z.indirect_bytes},
            {"flushes", z.flushes}, {"flush_wait_ms", NsToMs(z.flush_wait_ns)}}},
          {"disks", DisksToJson(r.disks)}};
}

}  // namespace ziosim
