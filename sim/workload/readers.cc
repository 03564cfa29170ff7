#include "sim/workload/readers.h"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "models/catalog/catalog.h"
#include "sim/core/invariants.h"
#include "sim/core/random.h"
#include "sim/core/status.h"
#include "sim/stats/run_check.h"
#include "sim/workload/io_log.h"
#include "sim/workload/reader.h"
#include "sim/zfs/allocator.h"

namespace ziosim {

namespace {

void CheckOptions(const ReadersOptions& o) {
  if (o.readers.empty()) throw InputError("--readers: give at least one reader count");
  for (int n : o.readers) {
    if (n < 1 || n > 1024) throw InputError("--readers: " + std::to_string(n) + " is not between 1 and 1024");
  }
  if (o.bs <= 0) throw InputError("--bs: must be positive");
  if (o.file_size <= 0) throw InputError("--file-size: must be positive");
  if (o.recordsize < 512 || o.recordsize > (16 << 20) || (o.recordsize & (o.recordsize - 1)) != 0) {
    throw InputError("--recordsize: must be a power of two from 512 to 16M");
  }
  if (!(o.compression >= 1.0) || o.compression > 100) throw InputError("--compressratio: must be from 1 to 100");
  if (!o.compressed && o.compression != 1.0) {
    throw InputError("--compressratio: must be 1 with compression off (off stores the data as it is)");
  }
  if (o.arc_max < 0) throw InputError("--arc-max: must not be negative");
  if (o.read_offset < 0 || o.read_offset >= o.file_size) {
    throw InputError("--read-offset: " + std::to_string(o.read_offset) + " is not inside the file (--file-size " +
                     std::to_string(o.file_size) + ")");
  }
  if (o.read_length < 0 || o.read_length > o.file_size - o.read_offset) {
    throw InputError("--read-length: " + std::to_string(o.read_length) + " reaches past the end of the file");
  }
}

ReadRange RangeOf(const ReadersOptions& o) {
  return {o.read_offset, o.read_length > 0 ? o.read_length : o.file_size - o.read_offset};
}

// Reads every file once so the measured pass starts with whatever the ARC kept.
void Warm(Dmu& dmu, Simulation& sim, int files, int64_t file_size, int64_t bs, uint64_t seed) {
  std::vector<std::unique_ptr<Reader>> warmers;
  for (int f = 0; f < files; ++f) {
    warmers.push_back(std::make_unique<Reader>(&dmu, &sim, 1000 + f, f, ReadRange{0, file_size}, bs, false, seed));
    warmers.back()->Start();
  }
  while (std::any_of(warmers.begin(), warmers.end(), [](auto& w) { return !w->finished(); }) && sim.Step()) {
  }
}

// `given`: the files' layouts (one per file the run reads), else AllocateFiles's.
// `io_log`: every leaf I/O of the measured pass, if set.
ReadersRun RunOnce(const ReadersOptions& o, int n, const std::vector<FileLayout>* given, IoLog* io_log) {
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o.profile, o.settings, o.arc_max), o.seed);
  const int files = o.same_file ? 1 : n;
  std::vector<FileSpec> specs(static_cast<size_t>(files));
  for (FileSpec& s : specs) {
    s.size_bytes = o.file_size;
    s.recordsize = o.recordsize;
    s.compression_ratio = o.compression;
    s.sparse = o.sparse;
  }
  PoolFigures before;
  const std::vector<FileLayout> layouts =
      given != nullptr ? *given
                       : AllocateFiles(pool, specs, ParseLayoutPreset(o.layout), o.seed,
                                       ParsePoolState(o.pool_state, o.pool_state_label), &before);
  std::unique_ptr<Device> l2 = MakeL2arcDevice(pool, o.l2arc);  // --l2arc, else the spec's cache device
  Dmu dmu(&pool, &layouts, ParsePrimaryCache(o.primarycache), std::move(l2));
  if (o.warm) {
    Warm(dmu, sim, files, o.file_size, o.bs, o.seed);
    pool.ResetStats();  // report the measured pass only
    dmu.ResetStats();
  }
  const SimTime start = sim.now();
  const SimTime cpu_before = dmu.cpu().busy_ns();
  pool.set_observer(io_log);

  std::vector<std::unique_ptr<Reader>> readers;
  for (int i = 0; i < n; ++i) {
    readers.push_back(std::make_unique<Reader>(&dmu, &sim, i, o.same_file ? 0 : i, RangeOf(o), o.bs, o.random, o.seed));
  }
  for (auto& r : readers) r->Start();
  while (std::any_of(readers.begin(), readers.end(), [](auto& r) { return !r->finished(); }) && sim.Step()) {
  }
  if (!std::all_of(readers.begin(), readers.end(), [](auto& r) { return r->finished(); })) {
    throw std::logic_error("internal error: readers stalled with no event pending");
  }
  dmu.StopFeeding();
  const SimTime end = sim.now();
  pool.SettleStats();

  ReadersRun run;
  run.readers = n;
  run.elapsed_ns = end - start;
  for (auto& r : readers) {
    run.app_bytes_read += r->bytes();
    run.per_reader_mb_s.push_back(static_cast<double>(r->bytes()) / static_cast<double>(r->elapsed_ns()) * 1e3);
  }
  run.throughput_mb_s = static_cast<double>(run.app_bytes_read) / static_cast<double>(run.elapsed_ns) * 1e3;
  for (const LeafVdev* l : pool.leaves()) run.disk_bytes_read += l->device().stats().read_bytes();
  const int cores = dmu.cpu().costs().cores;
  run.cpu_busy_pct = 100.0 * static_cast<double>(dmu.cpu().busy_ns() - cpu_before) /
                     (static_cast<double>(cores) * static_cast<double>(run.elapsed_ns));
  run.arc = dmu.arc().stats();
  run.dmu = dmu.stats();
  run.disks = ReportDisks(pool, run.elapsed_ns);
  run.placement = PlacementOf(pool, layouts);
  run.pool_before = before;

  // Let the I/O still in flight (prefetches) land, then check the run's books.
  for (auto& r : readers) r->CheckDone();
  const Device* cache = dmu.l2arc();
  while ((pool.live_zios() > 0 || (cache != nullptr && cache->in_device() > 0)) && sim.Step()) {
  }
  CheckPoolQuiescent(pool, sim.now() - start);
  if (cache != nullptr) CheckDeviceAccounting(*cache, sim.now());
  pool.set_observer(nullptr);
  return run;
}

}  // namespace

PrimaryCache ParsePrimaryCache(const std::string& text) {
  if (text == "all") return PrimaryCache::kAll;
  if (text == "metadata") return PrimaryCache::kMetadata;
  if (text == "none") return PrimaryCache::kNone;
  throw InputError("--primarycache: \"" + text + "\" is not all, metadata or none");
}

void CheckReadersOptions(const ReadersOptions& o) {
  CheckOptions(o);
  ParsePrimaryCache(o.primarycache);
  const PoolState state = ParsePoolState(o.pool_state, o.pool_state_label);
  CheckPoolStateWithLayout(state, ParseLayoutPreset(o.layout));
  Simulation sim;
  const Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o.profile, o.settings, o.arc_max), o.seed);
  if (state.set) BlockAllocator(pool, state, o.seed, o.pool_state_label);  // refuses a state this pool cannot take
  if (!o.l2arc.empty()) ResolveDrive(o.l2arc);
}

std::vector<ReadersRun> RunReaders(const ReadersOptions& o) {
  CheckReadersOptions(o);
  std::vector<ReadersRun> runs;
  std::unique_ptr<IoLog> log;
  if (!o.io_log_path.empty()) log = std::make_unique<IoLog>(o.io_log_path);
  for (size_t i = 0; i < o.readers.size(); ++i) {
    // The log holds the last run's I/O (a sweep's other runs would only interleave with it).
    runs.push_back(RunOnce(o, o.readers[i], nullptr, i + 1 == o.readers.size() ? log.get() : nullptr));
  }
  if (log) log->Commit();
  return runs;
}

ReadersRun RunReadersOnLayouts(const ReadersOptions& o, int n, const std::vector<FileLayout>& layouts) {
  CheckReadersOptions(o);
  if (static_cast<int>(layouts.size()) != (o.same_file ? 1 : n)) {
    throw std::invalid_argument("RunReadersOnLayouts: one layout per file read is needed");
  }
  return RunOnce(o, n, &layouts, nullptr);
}

}  // namespace ziosim
