#include "sim/zfs/dmu.h"

#include <algorithm>
#include <stdexcept>

namespace ziosim {

namespace {

enum EventKind : uint32_t { kStartCall = 1, kChunkCopied = 2, kBlockArrived = 3, kFeed = 4 };

constexpr int64_t kReadChunkBytes = 1 << 20;  // zfs_read_chunk_size

// ARC keys packed in 64 bits: object (16) | level (2) | block id (46).
uint64_t Pack(int file, int level, int64_t blkid) {
  return (static_cast<uint64_t>(file) << 48) | (static_cast<uint64_t>(level) << 46) | static_cast<uint64_t>(blkid);
}
int FileOf(uint64_t key) { return static_cast<int>(key >> 48); }
int LevelOf(uint64_t key) { return static_cast<int>((key >> 46) & 3); }
int64_t BlkidOf(uint64_t key) { return static_cast<int64_t>(key & ((uint64_t{1} << 46) - 1)); }
ArcKey ToArcKey(uint64_t key) { return ArcKey{static_cast<uint64_t>(FileOf(key)), LevelOf(key), BlkidOf(key)}; }

// A free slot of `slots` (one more when none is free): storage reused from call to call.
template <typename Slots>
uint32_t TakeSlot(Slots& slots, std::vector<uint32_t>& free) {
  if (free.empty()) {
    slots.emplace_back();
    return static_cast<uint32_t>(slots.size() - 1);
  }
  const uint32_t slot = free.back();
  free.pop_back();
  return slot;
}

}  // namespace

struct Dmu::Call {
  ReadCaller* caller = nullptr;
  uint64_t tag = 0;
  int file = 0;
  int64_t chunk_start = 0;
  int64_t chunk_end = 0;
  int64_t end = 0;
  int64_t bytes = 0;
  int pending = 0;        // blocks of this chunk still being read
  SimTime cpu_work = 0;   // reader CPU owed for this chunk (decompress, zero-fill)
  std::vector<int64_t> held;  // data blocks to release after copy-out
};


Dmu::Dmu(Pool* pool, const std::vector<FileLayout>* files, PrimaryCache primarycache, std::unique_ptr<Device> l2arc)
    : Dmu(pool, std::make_unique<LayoutBlockMap>(files), nullptr, primarycache, std::move(l2arc)) {}

Dmu::Dmu(Pool* pool, const BlockMap* map, PrimaryCache primarycache, std::unique_ptr<Device> l2arc)
    : Dmu(pool, nullptr, map, primarycache, std::move(l2arc)) {}

Dmu::Dmu(Pool* pool, std::unique_ptr<LayoutBlockMap> owned, const BlockMap* map, PrimaryCache primarycache,
         std::unique_ptr<Device> l2arc)
    : pool_(pool),
      owned_map_(std::move(owned)),
      map_(map != nullptr ? map : owned_map_.get()),
      may_dirty_(map_->may_dirty()),
      primarycache_(primarycache),
      l2arc_(std::move(l2arc)),
      arc_(pool->tunables(), l2arc_ ? l2arc_->capacity_bytes() : 0),
      cpu_(pool->tunables()),
      chunk_bytes_(kReadChunkBytes),
      indirect_bytes_(int64_t{1} << pool->tunables().Int("zfs_default_ibs")),
      compressed_arc_(pool->tunables().Bool("zfs_compressed_arc_enabled")),
      promote_(pool->tunables().Bool("ziosim_prefetch_promote")) {
  for (int f = 0; f < map_->files(); ++f) {
    shapes_.push_back(FileShape{map_->block_bytes(f), map_->ptrs_per_indirect(f)});
    zfetch_.push_back(MakeZfetch(pool->tunables(), map_->blocks(f), map_->block_bytes(f), map_->ptrs_per_indirect(f),
                                 /*fetch_data=*/primarycache == PrimaryCache::kAll));
  }
  inflight_index_.Reserve(4096);
  if (l2arc_) {
    l2arc_->set_listener(this);
    feeding_ = true;
    pool_->sim()->ScheduleIn(pool_->tunables().Int("l2arc_feed_secs") * kNsPerSec, this, kFeed);
  }
}

Dmu::~Dmu() = default;

uint32_t Dmu::InFlightSlot(uint64_t key) const {
  return inflight_index_.Find(ToArcKey(key), [this](uint32_t i) -> const ArcKey& { return inflight_[i].key; });
}

Dmu::InFlight* Dmu::FindInFlight(uint64_t key) {
  const uint32_t slot = InFlightSlot(key);
  return slot == ArcIndex::kNone ? nullptr : &inflight_[slot];
}

Dmu::InFlight& Dmu::InFlightFor(uint64_t key) {
  if (InFlight* f = FindInFlight(key)) return *f;
  const uint32_t slot = TakeSlot(inflight_, free_inflight_);
  InFlight& f = inflight_[slot];
  f.key = ToArcKey(key);
  inflight_index_.Insert(f.key, slot);
  return f;
}

uint32_t Dmu::EndInFlight(uint64_t key) {
  const uint32_t slot = InFlightSlot(key);
  if (slot == ArcIndex::kNone) throw std::logic_error("internal error: a block arrived that nobody read");
  inflight_index_.Erase(inflight_[slot].key, slot);
  return slot;
}

void Dmu::FreeInFlight(uint32_t slot) {
  inflight_[slot].Reset();
  free_inflight_.push_back(slot);
}

bool Dmu::Cacheable(int level) const {
  return primarycache_ == PrimaryCache::kAll || (primarycache_ == PrimaryCache::kMetadata && level > 0);
}

void Dmu::Read(int file, int64_t offset, int64_t length, ReadCaller* caller, uint64_t tag) {
  const uint32_t id = TakeSlot(calls_, free_calls_);
  Call& c = calls_[id];
  c.caller = caller;
  c.tag = tag;
  c.file = file;
  c.chunk_start = offset;
  c.end = offset + length;
  c.bytes = length;
  ++stats_.calls;
  const SimTime now = pool_->sim()->now();
  pool_->sim()->Schedule(cpu_.Run(now, cpu_.costs().syscall_ns), this, kStartCall, id);
}

// Predicts, holds every block of the next chunk (reading the missing ones),
// then issues the prefetches: the prefetcher sees the chunk as it was before
// its demand reads (dbuf_read asked it per block, 2.1+ asks before reading), and
// prefetch I/O goes out after the demand I/O of the call.
void Dmu::StartChunk(uint32_t id) {
  Call& c = calls_[id];
  const int64_t bs = BlockBytes(c.file);
  c.chunk_end = std::min(c.end, (c.chunk_start / chunk_bytes_ + 1) * chunk_bytes_);
  c.pending = 0;
  c.cpu_work = 0;
  c.held.clear();
  const int64_t first = c.chunk_start / bs;
  const int64_t last = (c.chunk_end - 1) / bs;
  Predict(c, first, last - first + 1);
  for (int64_t b = first; b <= last; ++b) HoldBlock(id, b, &c.cpu_work);
  IssuePrefetches(c.file);
  if (c.pending == 0) FinishChunk(id);
}

bool Dmu::Cached(int file, int64_t blkid) const {
  const uint64_t key = Pack(file, 0, blkid);
  return InFlightSlot(key) != ArcIndex::kNone || arc_.Contains(ToArcKey(key)) || Unsynced(file, blkid) ||
         map_->Locate(file, 0, blkid).hole;
}

void Dmu::Predict(const Call& c, int64_t first, int64_t nblks) {
  ranges_.clear();
  if (primarycache_ == PrimaryCache::kNone) return;  // dmu_zfetch is not called at all
  const int file = c.file;
  bool missed = false;
  for (int64_t b = first; b < first + nblks; ++b) missed = missed || !Cached(file, b);
  auto cached = [this, file](int64_t b) { return Cached(file, b); };
  zfetch_[file]->Access(first, nblks, c.chunk_end - c.chunk_start, missed, cached, pool_->sim()->now(), &ranges_);
}

void Dmu::IssuePrefetches(int file) {
  for (const PrefetchRange& r : ranges_) {
    for (int64_t b = r.first; b < r.first + r.count; ++b) {
      const uint64_t key = Pack(file, r.level, b);
      if (FindInFlight(key) != nullptr || arc_.Contains(ToArcKey(key))) continue;
      if (r.level == 0 && Unsynced(file, b)) continue;
      if (map_->Locate(file, r.level, b).hole) continue;
      ++stats_.prefetch_reads;
      const ArcLookupResult where = arc_.Lookup(ToArcKey(key), /*prefetch=*/true, pool_->sim()->now());
      if (where.where == ArcLookupResult::Where::kL2 && l2arc_) {
        InFlight& fl = InFlightFor(key);
        fl.from_l2 = true;
        fl.l2_offset = where.l2_offset;
        fl.l2_bytes = where.l2_bytes;
      }
      ReadBlock(key, ZioPriority::kAsyncRead, /*prefetch=*/true);
    }
  }
}

void Dmu::HoldBlock(uint32_t id, int64_t blkid, SimTime* cpu_work) {
  Call& c = calls_[id];
  ++stats_.demand_blocks;
  if (Unsynced(c.file, blkid)) {  // the dirty dbuf holds the data
    ++stats_.dirty_hits;
    return;
  }
  if (map_->Locate(c.file, 0, blkid).hole) {
    // dbuf_read_hole: an anonymous buffer of the whole block, zeroed, never cached.
    ++stats_.hole_blocks;
    *cpu_work += cpu_.BufferAllocNs(BlockBytes(c.file)) + cpu_.ZeroNs(BlockBytes(c.file));
    return;
  }
  const uint64_t key = Pack(c.file, 0, blkid);
  c.held.push_back(blkid);
  if (InFlight* waited = FindInFlight(key)) {
    ++stats_.waited_on_inflight;
    InFlight& f = *waited;
    f.waiters.push_back(id);
    ++c.pending;
    // From ZoL 0.8 (a8b2e30685) a demand read waiting on a prefetch moves it
    // to the sync class; before, it waited behind async_read_max_active.
    // A prefetch still waiting for its indirect block has no zio yet: it will be
    // issued in the sync class.
    if (promote_ && f.priority == ZioPriority::kAsyncRead) {
      f.priority = ZioPriority::kSyncRead;
      ++stats_.promoted;
      if (f.zio != nullptr) pool_->root().ChangePriority(f.zio, ZioPriority::kSyncRead);
    }
    return;
  }
  const ArcLookupResult r = arc_.Lookup(ToArcKey(key), /*prefetch=*/false, pool_->sim()->now());
  if (r.where == ArcLookupResult::Where::kArc) {
    if (r.needs_decompress) *cpu_work += cpu_.DecompressNs(BlockBytes(c.file));
    return;
  }
  ++stats_.demand_misses;
  InFlight& fl = InFlightFor(key);
  fl.waiters.push_back(id);
  ++c.pending;
  if (r.where == ArcLookupResult::Where::kL2 && l2arc_) {
    fl.from_l2 = true;
    fl.l2_offset = r.l2_offset;
    fl.l2_bytes = r.l2_bytes;
  }
  ReadBlock(key, ZioPriority::kSyncRead, /*prefetch=*/false);
}

// `key` has an InFlight entry. A data block needs its indirect block in memory
// first (dbuf_read of the parent); if it is not, that read goes first.
void Dmu::ReadBlock(uint64_t key, ZioPriority priority, bool prefetch) {
  InFlight& f = InFlightFor(key);
  f.priority = priority;
  f.prefetch = prefetch;
  const int64_t l1_blkid = BlkidOf(key) / shapes_[static_cast<size_t>(FileOf(key))].ptrs_per_indirect;
  if (LevelOf(key) == 0 && !f.from_l2 && !map_->Locate(FileOf(key), 1, l1_blkid).hole) {
    const uint64_t l1 = Pack(FileOf(key), 1, l1_blkid);
    if (InFlight* parent = FindInFlight(l1)) {
      parent->dependents.push_back(key);
      return;
    }
    if (arc_.Lookup(ToArcKey(l1), prefetch, pool_->sim()->now()).where != ArcLookupResult::Where::kArc) {
      ++stats_.indirect_reads;
      InFlight& parent = InFlightFor(l1);
      parent.priority = priority;
      parent.prefetch = prefetch;
      parent.dependents.push_back(key);
      IssueBlock(l1, parent);
      return;
    }
  }
  IssueBlock(key, f);
}

void Dmu::IssueBlock(uint64_t key, InFlight& f) {
  if (f.from_l2) {
    ++stats_.l2_reads;
    stats_.l2_read_bytes += f.l2_bytes;
    if (l2arc_->in_device() < l2arc_->queue_depth()) {
      l2arc_->Submit(DeviceRequest{key, f.l2_offset, f.l2_bytes, IoOp::kRead});
      return;
    }
    f.from_l2 = false;  // cache device saturated: read the pool instead
  }
  const BlockPointer bp = map_->Locate(FileOf(key), LevelOf(key), BlkidOf(key));
  f.zio = pool_->Read(bp.top, bp.offset, bp.psize, f.priority, this, key, LevelOf(key) > 0);
}

void Dmu::OnZioDone(Zio* zio) {
  if (InFlight* f = FindInFlight(zio->tag)) f->zio = nullptr;  // freed after this
  PipelineDone(zio->tag, zio->size);
}

void Dmu::OnDeviceDone(const DeviceRequest& req, SimTime, SimTime) {
  if (req.op == IoOp::kWrite) return;  // L2ARC feed writes
  PipelineDone(req.tag, req.size_bytes);
}

// The zio pipeline verifies the checksum before the block is usable; without
// compressed ARC it also decompresses every block as it enters the ARC
// (arc_read_done), prefetched or not.
void Dmu::PipelineDone(uint64_t key, int64_t psize) {
  SimTime work = cpu_.ChecksumNs(psize);
  const int64_t lsize = LogicalSize(key);
  if (!compressed_arc_ && psize < lsize) work += cpu_.DecompressNs(lsize);
  pool_->sim()->Schedule(cpu_.Run(pool_->sim()->now(), work), this, kBlockArrived, key);
}

int64_t Dmu::LogicalSize(uint64_t key) const {
  return LevelOf(key) == 0 ? BlockBytes(FileOf(key)) : indirect_bytes_;
}

void Dmu::BlockArrived(uint64_t key) {
  const uint32_t slot = EndInFlight(key);
  const InFlight& f = inflight_[slot];
  const int file = FileOf(key);
  const int level = LevelOf(key);
  const BlockPointer bp = map_->Locate(file, level, BlkidOf(key));
  const int64_t lsize = LogicalSize(key);
  arc_.Insert(ToArcKey(key), lsize, bp.psize, level > 0, f.prefetch, pool_->sim()->now());
  if (f.prefetch && !f.waiters.empty() && level == 0) zfetch_[file]->LatePrefetch(BlkidOf(key));
  for (uint64_t dep : f.dependents) {
    if (InFlight* d = FindInFlight(dep)) IssueBlock(dep, *d);
  }
  // With compressed ARC the dbuf of each waiting reader gets a decompressed copy.
  const bool decompress = compressed_arc_ && bp.psize < lsize && level == 0;
  for (uint32_t id : f.waiters) {
    Call& c = calls_[id];
    if (decompress) c.cpu_work += cpu_.DecompressNs(lsize);
    if (--c.pending == 0) FinishChunk(id);
  }
  if (level > 0) arc_.Release(ToArcKey(key), Cacheable(level));
  FreeInFlight(slot);
}

// A record being read from its old place keeps that read (it lands, then
// later reads see the ARC copy); compression of dirty data is not modelled.
void Dmu::CacheDirtied(int file, int64_t blkid) {
  const uint64_t key = Pack(file, 0, blkid);
  if (!Cacheable(0) || FindInFlight(key) != nullptr) return;
  const int64_t lsize = BlockBytes(file);
  arc_.Insert(ToArcKey(key), lsize, lsize, /*metadata=*/false, /*prefetch=*/false, pool_->sim()->now());
  arc_.Release(ToArcKey(key), /*cacheable=*/true);
}

void Dmu::FinishChunk(uint32_t id) {
  Call& c = calls_[id];
  const SimTime work = c.cpu_work + cpu_.CopyNs(c.chunk_end - c.chunk_start);
  pool_->sim()->Schedule(cpu_.Run(pool_->sim()->now(), work), this, kChunkCopied, id);
}

void Dmu::Feed() {
  if (!feeding_) return;
  const int64_t bytes = arc_.FeedL2(pool_->sim()->now()) / 4096 * 4096;
  if (bytes > 0 && l2arc_->in_device() < l2arc_->queue_depth()) {
    if (l2_hand_ + bytes > l2arc_->capacity_bytes()) l2_hand_ = 0;
    l2arc_->Submit(DeviceRequest{0, l2_hand_, bytes, IoOp::kWrite});
    l2_hand_ += bytes;
  }
  pool_->sim()->Schedule(std::max(arc_.NextL2FeedTime(), pool_->sim()->now() + 1), this, kFeed);
}

void Dmu::OnEvent(uint32_t kind, uint64_t arg) {
  switch (kind) {
    case kStartCall:
      StartChunk(static_cast<uint32_t>(arg));
      return;
    case kBlockArrived:
      BlockArrived(arg);
      return;
    case kFeed:
      Feed();
      return;
    case kChunkCopied: {
      const uint32_t id = static_cast<uint32_t>(arg);
      Call& c = calls_[id];
      for (int64_t b : c.held) arc_.Release(ToArcKey(Pack(c.file, 0, b)), Cacheable(0));
      stats_.app_bytes += c.chunk_end - c.chunk_start;
      c.chunk_start = c.chunk_end;
      if (c.chunk_start < c.end) {
        StartChunk(id);
        return;
      }
      free_calls_.push_back(id);
      c.caller->OnReadDone(c.tag, c.bytes);
      return;
    }
  }
}

}  // namespace ziosim
