#include "sim/workload/fio_run.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <memory>

#include "models/catalog/catalog.h"
#include "sim/core/invariants.h"
#include "sim/core/random.h"
#include "sim/core/simulation.h"
#include "sim/core/status.h"
#include "sim/stats/run_check.h"
#include "sim/zfs/allocator.h"
#include "sim/zfs/dmu.h"
#include "sim/zfs/dmu_write.h"
#include "sim/zfs/pool_report.h"
#include "sim/zfs/pool_spec.h"

namespace ziosim {
namespace {

constexpr SimTime kNever = std::numeric_limits<SimTime>::max();

[[noreturn]] void JobFail(const FioJob& j, const std::string& what) {
  throw InputError(j.file, j.line, "job '" + j.name + "': " + what);
}

// A clone's region (or total) must hold at least one block.
void CheckHoldsABlock(const FioJob& j, const std::string& what, int64_t bytes) {
  if (bytes < j.bs_bytes) {
    JobFail(j, what + " " + std::to_string(bytes) + " is smaller than bs " + std::to_string(j.bs_bytes));
  }
}

bool HasWrites(const FioJob& j) {
  if (j.rw == FioRw::kWrite || j.rw == FioRw::kRandWrite) return true;
  return FioMixed(j.rw) && j.rwmixread < 100;
}

// A clone's I/Os cycle over its regions (fio's default file_service_type=roundrobin);
// on a drive the one region is device space, on a pool each is a span of one file.
struct Region {
  int file = -1;        // pool: file index; drive: -1
  int64_t start = 0;    // byte offset in the device or file
  int64_t bytes = 0;
  int64_t next = 0;     // sequential: the next offset in the region
};

// One I/O in flight.
struct Slot {
  SimTime issued_ns = 0;
  int64_t bytes = 0;
  bool write = false;
};

struct Clone {
  const FioJob* job = nullptr;
  FioCloneResult result;
  int phase = 0;
  std::vector<Region> regions;
  std::vector<Slot> slots;  // one per I/O it may keep in flight; a finished slot issues the next I/O
  RandomStream rng;
  int64_t ios_limit = -1;   // size-bounded: I/Os to issue; -1: until the deadline
  int64_t issued = 0;
  int64_t completed = 0;    // the books: every I/O completes once, with its bytes
  int64_t issued_bytes = 0, completed_bytes = 0;
  int inflight = 0;
  size_t next_region = 0;
  SimTime measure_from_ns = 0, deadline_ns = kNever;
  bool finished = false;
};

// Reporting groups and stonewall phases, numbered as fio numbers them: a
// stonewall or new_group job starts a new group unless the current one is empty.
void NumberGroups(const std::vector<FioJob>& jobs, std::vector<int>* groups, std::vector<int>* phases) {
  int group = 0, phase = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (i > 0 && (jobs[i].stonewall || jobs[i].new_group)) ++group;
    if (i > 0 && jobs[i].stonewall) ++phase;
    groups->push_back(group);
    phases->push_back(phase);
  }
}

// Issues the clones' I/Os to a raw device or through the DMU (reads) and the
// DMU write path (writes: a write() returns once its records are dirty), and
// counts completions.
class Runner : public DeviceListener, public ReadCaller, public WriteCaller {
 public:
  Runner(Simulation* sim, std::vector<Clone>* clones) : sim_(sim), clones_(clones) {}

  void UseDevice(Device* device) {
    device_ = device;
    device_->set_listener(this);
    size_t slots = 0;
    for (const Clone& c : *clones_) slots += c.slots.size();
    waiting_.resize(slots);  // the host queue never holds more than every slot
  }
  // `dmu_write` may be null when no job writes.
  void UseDmu(Dmu* dmu, DmuWrite* dmu_write) {
    dmu_ = dmu;
    dmu_write_ = dmu_write;
  }

  void Start(Clone& c) {
    const SimTime now = sim_->now();
    c.measure_from_ns = now + c.job->ramp_time_ns;
    c.deadline_ns = c.job->runtime_ns > 0 ? c.measure_from_ns + c.job->runtime_ns : kNever;
    for (size_t s = 0; s < c.slots.size(); ++s) Issue(c, s);
    CheckFinished(c);
  }

  void OnDeviceDone(const DeviceRequest& req, SimTime, SimTime) override {
    const uint64_t tag = req.tag;  // read before Submit reuses the device's storage
    if (waiting_count_ > 0) {  // a tag freed in the device: the host queue's head goes in
      device_->Submit(waiting_[waiting_head_]);
      waiting_head_ = (waiting_head_ + 1) % waiting_.size();
      --waiting_count_;
    }
    Complete(tag, req.size_bytes);
  }
  void OnReadDone(uint64_t tag, int64_t bytes) override { Complete(tag, bytes); }
  void OnWriteDone(uint64_t tag, int64_t bytes) override { Complete(tag, bytes); }

 private:
  static bool MayIssue(const Clone& c, SimTime now) {
    return now < c.deadline_ns && (c.ios_limit < 0 || c.issued < c.ios_limit);
  }

  void Issue(Clone& c, size_t slot) {
    const SimTime now = sim_->now();
    if (!MayIssue(c, now)) return;
    const FioJob& j = *c.job;
    const bool write = j.rw == FioRw::kWrite || j.rw == FioRw::kRandWrite ||
                       (FioMixed(j.rw) && c.rng.UniformInt(1, 100) > j.rwmixread);
    Region& r = c.regions[c.next_region];
    c.next_region = (c.next_region + 1) % c.regions.size();
    int64_t offset;
    if (FioRandom(j.rw)) {
      offset = c.rng.UniformInt(0, r.bytes / j.bs_bytes - 1) * j.bs_bytes;
    } else {
      if (r.next + j.bs_bytes > r.bytes) r.next = 0;  // the end of the region: start over (looping jobs)
      offset = r.next;
      r.next += j.bs_bytes;
    }
    c.slots[slot] = Slot{now, j.bs_bytes, write};
    ++c.issued;
    c.issued_bytes += j.bs_bytes;
    ++c.inflight;
    const uint64_t tag = (static_cast<uint64_t>(&c - clones_->data()) << 32) | slot;
    if (dmu_ != nullptr) {
      if (write) {
        dmu_write_->Write(r.file, r.start + offset, j.bs_bytes, this, tag);
      } else {
        dmu_->Read(r.file, r.start + offset, j.bs_bytes, this, tag);
      }
      return;
    }
    const DeviceRequest req{tag, r.start + offset, j.bs_bytes, write ? IoOp::kWrite : IoOp::kRead};
    if (device_->in_device() < device_->queue_depth()) {
      device_->Submit(req);
    } else {  // the block layer holds what the drive's queue cannot take
      waiting_[(waiting_head_ + waiting_count_) % waiting_.size()] = req;
      ++waiting_count_;
    }
  }

  void Complete(uint64_t tag, int64_t bytes) {
    Clone& c = (*clones_)[tag >> 32];
    const size_t slot = tag & 0xffffffffu;
    const Slot& s = c.slots[slot];
    const SimTime now = sim_->now();
    --c.inflight;
    ++c.completed;
    c.completed_bytes += bytes;
    if (now >= c.measure_from_ns) {  // fio resets its counters when ramp_time ends
      FioDirection& d = s.write ? c.result.write : c.result.read;
      d.io_bytes += s.bytes;
      ++d.total_ios;
      d.clat.Add(now - s.issued_ns);
    }
    Issue(c, slot);
    CheckFinished(c);
  }

  void CheckFinished(Clone& c) {
    if (c.finished || c.inflight > 0) return;
    c.finished = true;
    c.result.runtime_ns = std::max<SimTime>(0, sim_->now() - c.measure_from_ns);
  }

  Simulation* sim_;
  std::vector<Clone>* clones_;
  Device* device_ = nullptr;
  Dmu* dmu_ = nullptr;
  DmuWrite* dmu_write_ = nullptr;
  std::vector<DeviceRequest> waiting_;  // ring buffer
  size_t waiting_head_ = 0, waiting_count_ = 0;
};

// Bytes a size-bounded clone moves in all; fio stops when less than a block is left.
void SetLimit(Clone& c, int64_t total_bytes) {
  const FioJob& j = *c.job;
  // Observed in fio 3.33 (shared/data/fio-vm: 1 GiB jobs with runtime=8 and
  // ramp_time=1 read for the whole 8 s): with ramp_time, a job runs to its runtime.
  const bool loops = j.time_based || (j.ramp_time_ns > 0 && j.runtime_ns > 0);
  CheckHoldsABlock(j, "size", total_bytes);
  c.ios_limit = loops ? -1 : total_bytes / j.bs_bytes;
}

void PlanDriveClone(Clone& c, const Device& device) {
  const FioJob& j = *c.job;
  const int64_t capacity = device.capacity_bytes();
  const int64_t sector = device.sector_bytes();
  if (j.nrfiles > 1) JobFail(j, "nrfiles > 1 needs a pool target (a raw drive is one file)");
  if (j.bs_bytes % sector != 0) {
    JobFail(j, "bs " + std::to_string(j.bs_bytes) + " is not a multiple of the drive's " + std::to_string(sector) +
                   "-byte sector");
  }
  Region r;
  r.start = j.offset_bytes + j.offset_increment_bytes * c.result.clone;
  if (r.start % sector != 0) JobFail(j, "offset " + std::to_string(r.start) + " is not sector-aligned");
  if (r.start >= capacity) JobFail(j, "offset " + std::to_string(r.start) + " lies beyond the drive's capacity");
  if (j.size_bytes > 0) {
    r.bytes = j.size_bytes;
  } else if (j.size_pct > 0) {
    r.bytes = static_cast<int64_t>(std::floor(static_cast<double>(capacity) * j.size_pct / 100.0));
  } else {
    r.bytes = capacity - r.start;  // fio's default: the rest of the device
  }
  if (r.bytes > capacity - r.start) {
    JobFail(j, "clone " + std::to_string(c.result.clone) + " would read or write " + std::to_string(r.bytes) +
                   " bytes from offset " + std::to_string(r.start) + ", beyond the drive's " +
                   std::to_string(capacity) + " bytes");
  }
  c.regions.push_back(r);
  SetLimit(c, r.bytes);
}

// Each clone's files on a pool: fio names them jobname.clone.file unless filename= names one
// (then every clone shares it). A file is as large as the furthest region any clone reads.
void PlanPoolClone(Clone& c, std::map<std::string, int>* file_ids, std::vector<int64_t>* file_sizes) {
  const FioJob& j = *c.job;
  int64_t per_file = 0;
  if (j.size_bytes > 0) {
    per_file = j.size_bytes / j.nrfiles;
  } else if (j.size_pct > 0) {
    if (j.filesize_bytes == 0) JobFail(j, "size=N% needs filesize on a pool target");
    per_file = static_cast<int64_t>(std::floor(static_cast<double>(j.filesize_bytes) * j.size_pct / 100.0));
  } else {
    per_file = j.filesize_bytes;
  }
  if (per_file == 0) JobFail(j, "needs size or filesize on a pool target (the files to create)");
  CheckHoldsABlock(j, "size per file", per_file);
  const int64_t start = j.offset_bytes + j.offset_increment_bytes * c.result.clone;
  for (int f = 0; f < j.nrfiles; ++f) {
    const std::string name =
        j.filename.empty() ? j.name + "." + std::to_string(c.result.clone) + "." + std::to_string(f) : j.filename;
    auto [it, added] = file_ids->emplace(name, static_cast<int>(file_sizes->size()));
    if (added) file_sizes->push_back(0);
    int64_t& size = (*file_sizes)[static_cast<size_t>(it->second)];
    size = std::max({size, j.filesize_bytes, start + per_file});
    c.regions.push_back(Region{it->second, start, per_file, 0});
  }
  SetLimit(c, per_file * j.nrfiles);
}

std::vector<Clone> MakeClones(const std::vector<FioJob>& jobs, bool on_pool, uint64_t seed, FioResult* out) {
  std::vector<int> groups, phases;
  NumberGroups(jobs, &groups, &phases);
  std::vector<Clone> clones;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const FioJob& j = jobs[i];
    std::string why;
    const int depth = EffectiveIodepth(j, on_pool, &why);
    if (!why.empty()) out->notes.push_back("job '" + j.name + "': " + why);
    for (int k = 0; k < j.numjobs; ++k) {
      // Streams are named by job and clone, so adding a job does not change another's offsets.
      const std::string stream = "fio:" + std::to_string(i) + ":" + j.name + ":" + std::to_string(k);
      Clone c{&j, FioCloneResult{}, phases[i], {}, std::vector<Slot>(static_cast<size_t>(depth)),
              RandomStream(j.randseed_given ? j.randseed : seed, stream)};
      c.result.job = i;
      c.result.clone = k;
      c.result.groupid = groups[i];
      c.result.effective_iodepth = depth;
      clones.push_back(std::move(c));
    }
  }
  return clones;
}

// Runs phase after phase (stonewall); every clone of a phase starts together.
void RunPhases(Simulation& sim, Runner& runner, std::vector<Clone>& clones) {
  const int last_phase = clones.empty() ? -1 : clones.back().phase;
  for (int p = 0; p <= last_phase; ++p) {
    for (Clone& c : clones) {
      if (c.phase == p) runner.Start(c);
    }
    const auto phase_done = [&] {
      return std::all_of(clones.begin(), clones.end(), [p](const Clone& c) { return c.phase != p || c.finished; });
    };
    while (!phase_done() && sim.Step()) {
    }
    if (!phase_done()) throw std::logic_error("internal error: fio jobs stalled with no event pending");
  }
}

// Every clone's I/Os completed once each, with the bytes they asked for.
void CheckClonesDone(const std::vector<Clone>& clones) {
  for (const Clone& c : clones) {
    const std::string what = "fio: job '" + c.job->name + "' clone " + std::to_string(c.result.clone);
    CheckCompletedOnce(what + ": I/Os", c.issued, c.completed);
    CheckBytesDelivered(what, c.issued_bytes, c.completed_bytes);
  }
}

void RunOnDrive(const std::vector<FioJob>& jobs, const FioTarget& target, uint64_t seed, FioResult* out) {
  const DriveSpec drive = ResolveDrive(target.drive);
  Simulation sim;
  // NCQ reordering, as drives do by default (as ziosim disk-bench).
  std::unique_ptr<Device> device = MakeDevice(&sim, drive.name, drive, QueuePolicy::kSptf);
  std::vector<Clone> clones = MakeClones(jobs, false, seed, out);
  for (Clone& c : clones) PlanDriveClone(c, *device);
  Runner runner(&sim, &clones);
  runner.UseDevice(device.get());
  RunPhases(sim, runner, clones);
  device->FinishStats(sim.now());
  CheckClonesDone(clones);
  CheckDeviceAccounting(*device, sim.now());
  out->elapsed_ns = sim.now();
  const DeviceStats& s = device->stats();
  out->disks.push_back(FioDiskUtil{drive.name, s.reads(), s.writes(),
                                   out->elapsed_ns > 0 ? 100.0 * static_cast<double>(s.busy_ns()) /
                                                             static_cast<double>(out->elapsed_ns)
                                                       : 0.0});
  for (Clone& c : clones) out->clones.push_back(std::move(c.result));
}

Tunables PoolTunables(const ReadersOptions& o) {
  Tunables t = ProfileTunables(o.profile);
  for (const auto& [name, value] : o.settings) t.Set(name, value, "--set");
  if (o.arc_max > 0) t.Set("zfs_arc_max", std::to_string(o.arc_max), "--arc-max");
  return t;
}

void RunOnPool(const std::vector<FioJob>& jobs, const FioTarget& target, uint64_t seed, FioResult* out) {
  const ReadersOptions& o = target.pool;
  CheckReadersOptions(o);
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), PoolTunables(o), seed);
  std::vector<Clone> clones = MakeClones(jobs, true, seed, out);
  std::map<std::string, int> file_ids;
  std::vector<int64_t> file_sizes;
  for (Clone& c : clones) PlanPoolClone(c, &file_ids, &file_sizes);
  std::vector<FileSpec> specs(file_sizes.size());
  for (size_t f = 0; f < specs.size(); ++f) {
    specs[f].size_bytes = file_sizes[f];
    specs[f].recordsize = o.recordsize;
    specs[f].compression_ratio = o.compression;
  }
  const PoolState state = ParsePoolState(o.pool_state, o.pool_state_label);
  const std::vector<FileLayout> layouts = AllocateFiles(pool, specs, ParseLayoutPreset(o.layout), seed, state);
  // Jobs that write go through the txgs, and reads through the txg's block
  // tree (rewrites move blocks); read-only jobs read the layouts as laid out.
  std::vector<TxgFile> files;
  std::unique_ptr<Txg> txg;
  if (std::any_of(jobs.begin(), jobs.end(), HasWrites)) {
    for (const FileLayout& l : layouts) files.push_back(MakeTxgFile(pool, l));
    txg = std::make_unique<Txg>(&pool, &files, state, seed);
  }
  const PrimaryCache primarycache = ParsePrimaryCache(o.primarycache);
  std::unique_ptr<Dmu> dmu =
      txg ? std::make_unique<Dmu>(&pool, static_cast<const BlockMap*>(txg.get()), primarycache,
                                  MakeL2arcDevice(pool, o.l2arc))
          : std::make_unique<Dmu>(&pool, &layouts, primarycache, MakeL2arcDevice(pool, o.l2arc));
  HostCpu cpu(pool.tunables());
  std::unique_ptr<DmuWrite> dmu_write;
  if (txg) dmu_write = std::make_unique<DmuWrite>(&pool, txg.get(), &cpu, dmu.get());
  Runner runner(&sim, &clones);
  runner.UseDmu(dmu.get(), dmu_write.get());
  RunPhases(sim, runner, clones);
  dmu->StopFeeding();
  pool.SettleStats();
  out->elapsed_ns = sim.now();
  const std::vector<DiskReport> disks = ReportDisks(pool, out->elapsed_ns);
  for (size_t i = 0; i < disks.size(); ++i) {
    out->disks.push_back(FioDiskUtil{disks[i].name, disks[i].reads, pool.leaves()[i]->device().stats().writes(),
                                     disks[i].busy_pct});
  }
  CheckClonesDone(clones);
  for (Clone& c : clones) out->clones.push_back(std::move(c.result));

  // The books, once the dirty data is on disk and the prefetches have landed
  // (after fio ends, the next txgs take its dirty data to disk).
  if (txg) SyncOutAndCheck(*txg, sim, "fio");
  const Device* cache = dmu->l2arc();
  while ((pool.live_zios() > 0 || (cache != nullptr && cache->in_device() > 0)) && sim.Step()) {
  }
  CheckPoolQuiescent(pool, sim.now());
  if (cache != nullptr) CheckDeviceAccounting(*cache, sim.now());
}

}  // namespace

FioTarget FioTargetFromText(const std::string& text) {
  FioTarget t;
  (IsPoolSpecText(text) ? t.pool.pool : t.drive) = text;
  return t;
}

int EffectiveIodepth(const FioJob& job, bool on_pool, std::string* why) {
  const auto limited = [&](const std::string& reason) {
    if (why != nullptr && job.iodepth > 1) {
      *why = "iodepth=" + std::to_string(job.iodepth) + " has no effect: " + reason;
    }
    return 1;
  };
  switch (job.ioengine) {
    case FioEngine::kPsync:
    case FioEngine::kSync:
      return limited(std::string(FioEngineName(job.ioengine)) + " is synchronous: one I/O in flight per job");
    case FioEngine::kPosixaio:
      // glibc's POSIX AIO serves the requests of one file descriptor one after another.
      return limited("posixaio (glibc) runs one file's requests one at a time");
    case FioEngine::kLibaio:
      // io_submit only queues without blocking for O_DIRECT I/O; buffered I/O completes inside
      // it. ZFS before 2.3 accepts O_DIRECT but ignores it (zpl has no direct or async I/O path;
      // Direct I/O arrived in OpenZFS 2.3), so on a ZFS file every libaio job runs at depth 1.
      if (on_pool) return limited("ZFS before 2.3 ignores O_DIRECT, so libaio completes inside io_submit");
      if (!job.direct) return limited("buffered libaio completes inside io_submit (set direct=1)");
      return job.iodepth;
    case FioEngine::kIoUring:
      // io_uring hands a request that would block (buffered, or a file system without
      // non-blocking reads such as ZFS) to its io-wq worker threads, so iodepth requests do run at once.
      return job.iodepth;
  }
  return 1;
}

FioResult RunFioJobs(const std::vector<FioJob>& jobs, const FioTarget& target, uint64_t seed) {
  if (jobs.empty()) throw InputError("fio: no jobs to run");
  FioResult out;
  if (!target.drive.empty()) {
    RunOnDrive(jobs, target, seed, &out);
  } else {
    RunOnPool(jobs, target, seed, &out);
  }
  return out;
}

}  // namespace ziosim
