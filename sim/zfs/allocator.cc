// The allocation model of allocator.h (reference section 4, recipe 4.5): the
// order in which the files' blocks reach the metaslab model.
//
// Modelling choices where the reference is silent (also in the report of the
// change that added this file; the metaslab model's are in metaslab_allocator.cc):
//  * Write rate: the writers together produce kWriteRateBytesPerSec (200 MB/s)
//    of logical data, so a txg holds 200 MB x zfs_txg_timeout (1 GB at 5 s).
//    The early sync at zfs_dirty_data_sync is not modelled. With writers:N the
//    txg is shared equally by the writers that have a file at the start of the
//    txg (N at most; fewer when fewer files remain): the pre-2017 model, where
//    dnodes are synced one after another and each file's txg-worth of blocks
//    forms one run, runs in dnode (file index) order. The post-2017 parallel
//    sync and the 2018+ allocators (one metaslab per allocator) are not modelled.
//  * A writer that finishes a file mid-txg continues with the next file in the
//    same txg; a file is written by one writer, front to back.
//  * psize: ceil(logical / compression_ratio) rounded up to the sector; a block
//    that would not save 1/8 is stored uncompressed (zio_compress_data). The
//    last block of a multi-block file is a whole record: uncompressed when the
//    ratio is 1 (compression off), else its data compressed (the zero tail is
//    free). A file no larger than recordsize has one block of its size rounded
//    up to 512 bytes (dnode_set_blksz).
//  * L1 indirect blocks: 2^(ibs-7) pointers; psize 4 KiB at ibs 17 (a 128 KiB
//    block of block pointers compresses to a few KiB), the sector at ibs < 17;
//    two DVAs. A file of one block has no L1 (its pointer is in the dnode).
//    Each txg writes every L1 that covers dirty blocks of the file right after
//    the last of them (an L1 is allocated once its children are ready), so the
//    L1s lie between the data, one per span of 2^(ibs-7) records, as zdb shows
//    on a real pool; the copy of an earlier txg is freed kTxgDefer txgs later. L2+
//    indirect blocks, dnode blocks and the objset/MOS are not allocated.
//  * shuffle:K: the blocks of each file's run in a txg are allocated in a
//    random order within consecutive windows of K blocks (fixed windows from the
//    start of the run).
//  * sendrecv: one stream, files in order (data as sequential); each file's L1s
//    are written once, after all its data, instead of per txg (a simplification:
//    a real receive also writes its indirect blocks per txg).
#include "sim/zfs/allocator.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <memory>
#include <string>
#include <utility>

#include "sim/core/bytes.h"
#include "sim/core/random.h"
#include "sim/core/status.h"

namespace ziosim {
namespace {

// Logical bytes per second all writers together produce (sets the txg size).
constexpr int64_t kWriteRateBytesPerSec = 200'000'000;
// L1 psize at ibs 17 (128 KiB of block pointers, compressed).
constexpr int64_t kL1PsizeLarge = 4 * 1024;
// Frees are deferred TXG_DEFER_SIZE txgs.
constexpr int64_t kTxgDefer = 2;
// Object number of the first file (objects 0 and 1 are the meta-dnode and the master node).
constexpr uint64_t kFirstObject = 2;

int64_t CompressedPsize(int64_t lsize, int64_t data_bytes, double ratio, int64_t sector) {
  if (ratio <= 1.0) return RoundUp(lsize, sector);
  const int64_t c = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(static_cast<double>(data_bytes) / ratio)));
  if (c > lsize - lsize / 8) return RoundUp(lsize, sector);  // saves less than 1/8: stored uncompressed
  return std::min(RoundUp(c, sector), RoundUp(lsize, sector));
}

void CheckFile(const FileSpec& f, size_t i) {
  const std::string where = "file " + std::to_string(i) + ": ";
  if (f.size_bytes < 0) throw InputError(where + "size " + std::to_string(f.size_bytes) + " is negative");
  if (f.recordsize < 512 || f.recordsize > kMaxBlockBytes || !std::has_single_bit(static_cast<uint64_t>(f.recordsize))) {
    throw InputError(where + "recordsize " + std::to_string(f.recordsize) +
                     " is not a power of two from 512 to 16M");
  }
  if (!(f.compression_ratio >= 1.0) || !std::isfinite(f.compression_ratio)) {
    throw InputError(where + "compression ratio " + std::to_string(f.compression_ratio) + " must be >= 1");
  }
}

// One file being written.
struct FileWork {
  size_t index = 0;
  int64_t bs = 0, nblocks = 0;
  int64_t psize_full = 0, psize_last = 0;  // of every block but the last, of the last
  int64_t next = 0;  // next blkid to be written
  ExtentBuilder l0{0};
  std::vector<Dva> l1a, l1b;  // the latest copy of each L1 (both DVAs)

  // Not sparse and not empty: it has blocks to write.
  bool has_data() const { return nblocks > 0 && psize_full > 0; }
  int64_t Psize(int64_t blkid) const { return blkid == nblocks - 1 ? psize_last : psize_full; }
};

// Blocks [lo, hi) of one file, written in one txg.
struct TxgRun {
  size_t file;
  int64_t lo, hi;
};

// Writes the files txg by txg through one BlockAllocator.
class FileWriter {
 public:
  FileWriter(const Pool& pool, const std::vector<FileSpec>& files, const LayoutPreset& preset,
             const WriteOrder& order, uint64_t seed, const PoolState& state)
      : pool_(pool),
        files_(files),
        preset_(preset),
        order_(order),
        sector_(int64_t{1} << pool.ashift()),
        ibs_(static_cast<int>(pool.tunables().Int("zfs_default_ibs"))),
        ptrs_(1 << (ibs_ - 7)),
        l1_psize_(std::min(int64_t{1} << ibs_, RoundUp(ibs_ >= 17 ? kL1PsizeLarge : sector_, sector_))),
        txg_bytes_(kWriteRateBytesPerSec * pool.tunables().Int("zfs_txg_timeout")),
        space_(state.set ? std::make_unique<BlockAllocator>(pool, state, seed)
                         : std::make_unique<BlockAllocator>(pool, order.old_data_fill, seed)),
        shuffle_rng_(seed, "layout-shuffle"),
        active_(static_cast<size_t>(order.writers), -1),
        credit_(static_cast<size_t>(order.writers), 0) {}

  PoolFigures Figures() const { return {space_->CapacityPercent(), space_->FragmentationPercent()}; }

  std::vector<FileLayout> Write() {
    CheckFits(PlanFiles());
    for (size_t i = 0; i < files_.size(); ++i) {
      if (work_[i].has_data()) queue_.push_back(i);
    }
    for (int64_t txg = 0; StartTxg(); ++txg) WriteTxg(txg);
    for (size_t i = 0; i < files_.size(); ++i) FinishLayout(work_[i], out_[i]);
    return std::move(out_);
  }

 private:
  // The files' shapes and sizes on disk; returns a lower bound of the space
  // they need: each block on its cheapest vdev.
  int64_t PlanFiles() {
    out_.reserve(files_.size());
    work_.resize(files_.size());
    int64_t need = 0;
    for (size_t i = 0; i < files_.size(); ++i) {
      const FileSpec& f = files_[i];
      FileWork& w = work_[i];
      w.index = i;
      w.bs = f.size_bytes > f.recordsize ? f.recordsize : RoundUp(std::max<int64_t>(f.size_bytes, 1), 512);
      out_.emplace_back(kFirstObject + i, f.size_bytes, w.bs, ptrs_);
      w.nblocks = out_.back().blocks();
      if (f.sparse || w.nblocks == 0) continue;
      const int64_t tail = f.size_bytes - (w.nblocks - 1) * w.bs;
      w.psize_full = CompressedPsize(w.bs, w.bs, f.compression_ratio, sector_);
      w.psize_last = CompressedPsize(w.bs, tail, f.compression_ratio, sector_);
      if (w.nblocks > 1) {
        w.l1a.assign(static_cast<size_t>(out_.back().indirect_blocks()), Dva{});
        w.l1b = w.l1a;
      }
      need += (w.nblocks - 1) * MinAsize(w.psize_full) + MinAsize(w.psize_last) +
              static_cast<int64_t>(w.l1a.size()) * 2 * MinAsize(l1_psize_);
    }
    return need;
  }

  int64_t MinAsize(int64_t psize) const {
    int64_t m = INT64_MAX;
    for (int t = 0; t < pool_.top_count(); ++t) m = std::min(m, pool_.BlockAsize(t, psize));
    return m;
  }

  void CheckFits(int64_t need) const {
    if (need <= space_->free_bytes()) return;
    throw InputError("the files do not fit in the pool: they need at least " + std::to_string(need) +
                     " bytes of allocated space and the pool has " + std::to_string(space_->free_bytes()) +
                     " bytes free" +
                     (order_.old_data_fill > 0 ? " (" + std::to_string(preset_.param) + " % taken by old data)"
                                               : ""));
  }

  // Gives each idle writer the next unwritten file; false when no writer has one.
  bool StartTxg() {
    bool busy = false;
    for (int64_t& file : active_) {
      if (file < 0 && !queue_.empty()) {
        file = static_cast<int64_t>(queue_.front());
        queue_.pop_front();
      }
      busy = busy || file >= 0;
    }
    return busy;
  }

  void WriteTxg(int64_t txg) {
    while (!frees_.empty() && frees_.front().first <= txg) {
      space_->Free(frees_.front().second);
      frees_.pop_front();
    }
    const int64_t busy = std::count_if(active_.begin(), active_.end(), [](int64_t f) { return f >= 0; });
    const int64_t share = std::max<int64_t>(1, txg_bytes_ / busy);
    runs_.clear();
    for (size_t w = 0; w < active_.size(); ++w) {
      if (active_[w] >= 0) TakeShare(w, share);
    }
    // Dirty dnodes are synced in object order.
    std::sort(runs_.begin(), runs_.end(), [](const TxgRun& a, const TxgRun& b) { return a.file < b.file; });
    for (const TxgRun& r : runs_) WriteRun(work_[r.file], r.lo, r.hi, txg);
  }

  // Writer `w`'s share of the txg: runs of its files, front to back.
  void TakeShare(size_t w, int64_t share) {
    credit_[w] += share;
    while (active_[w] >= 0) {
      FileWork& f = work_[static_cast<size_t>(active_[w])];
      const int64_t take = std::min(credit_[w] / f.bs, f.nblocks - f.next);
      if (take <= 0) break;
      runs_.push_back({f.index, f.next, f.next + take});
      f.next += take;
      credit_[w] -= take * f.bs;
      if (f.next < f.nblocks) continue;
      if (queue_.empty()) {
        active_[w] = -1;
        credit_[w] = 0;
      } else {
        active_[w] = static_cast<int64_t>(queue_.front());
        queue_.pop_front();
      }
    }
  }

  void WriteRun(FileWork& w, int64_t lo, int64_t hi, int64_t txg) {
    int64_t next_l1 = lo / ptrs_;  // the next L1 of this run to be written
    for (int64_t start = lo; start < hi; start += order_.shuffle_window) {
      const int64_t end = std::min(hi, start + order_.shuffle_window);
      WriteWindow(w, start, end);
      // An L1's write is allocated once its dirty children of this txg are
      // (the parent zio's DVA_ALLOCATE waits for its children to be ready), so
      // it lands right behind the last of them, while the next L1's children
      // are still being written: between the data, one per L1 span.
      while (!order_.l1_after_file && !w.l1a.empty() && next_l1 <= (hi - 1) / ptrs_ &&
             std::min(hi, (next_l1 + 1) * ptrs_) <= end) {
        WriteL1(w, next_l1++, txg);
      }
    }
    if (order_.l1_after_file && !w.l1a.empty() && hi == w.nblocks) {
      for (int64_t j = 0; j < static_cast<int64_t>(w.l1a.size()); ++j) WriteL1(w, j, txg);
    }
  }

  // Data blocks [start, end), allocated in a random order (a no-op shuffle for one block).
  void WriteWindow(FileWork& w, int64_t start, int64_t end) {
    order_scratch_.clear();
    for (int64_t b = start; b < end; ++b) order_scratch_.push_back(b);
    for (size_t i = order_scratch_.size(); i > 1; --i) {  // Fisher-Yates
      std::swap(order_scratch_[i - 1],
                order_scratch_[static_cast<size_t>(shuffle_rng_.UniformInt(0, static_cast<int64_t>(i) - 1))]);
    }
    placed_.assign(order_scratch_.size(), Dva{});
    for (int64_t b : order_scratch_) placed_[static_cast<size_t>(b - start)] = space_->Alloc(w.Psize(b), nullptr);
    FileLayout& fl = out_[w.index];
    for (int64_t b = start; b < end; ++b) {
      const Dva& d = placed_[static_cast<size_t>(b - start)];
      w.l0.Add(fl, b, ToBlockPointer(d, nullptr, w.Psize(b)), d.asize, 0);
    }
  }

  // L1 `j` (both copies); its copy of an earlier txg is freed kTxgDefer txgs later.
  void WriteL1(FileWork& w, int64_t j, int64_t txg) {
    const size_t k = static_cast<size_t>(j);
    if (w.l1a[k].top >= 0) {
      frees_.emplace_back(txg + kTxgDefer, w.l1a[k]);
      frees_.emplace_back(txg + kTxgDefer, w.l1b[k]);
    }
    w.l1a[k] = space_->Alloc(l1_psize_, nullptr);
    w.l1b[k] = space_->Alloc(l1_psize_, &w.l1a[k]);
  }

  void FinishLayout(FileWork& w, FileLayout& fl) const {
    w.l0.Finish(fl, w.nblocks);
    if (w.l1a.empty()) return;  // no indirect block: extents(1) stays empty
    ExtentBuilder l1(1);
    for (size_t j = 0; j < w.l1a.size(); ++j) {
      if (w.l1a[j].top < 0) continue;
      l1.Add(fl, static_cast<int64_t>(j), ToBlockPointer(w.l1a[j], &w.l1b[j], l1_psize_), w.l1a[j].asize,
             w.l1b[j].asize);
    }
    l1.Finish(fl, fl.indirect_blocks());
  }

  const Pool& pool_;
  const std::vector<FileSpec>& files_;
  const LayoutPreset& preset_;
  const WriteOrder order_;
  const int64_t sector_;
  const int ibs_;
  const int ptrs_;
  const int64_t l1_psize_;
  const int64_t txg_bytes_;
  std::unique_ptr<BlockAllocator> space_;
  RandomStream shuffle_rng_;
  std::vector<FileLayout> out_;
  std::vector<FileWork> work_;
  std::deque<size_t> queue_;                    // files no writer has started
  std::vector<int64_t> active_;                 // per writer: its file, or -1
  std::vector<int64_t> credit_;                 // per writer: bytes of the txg not yet written
  std::vector<TxgRun> runs_;                    // this txg's
  std::deque<std::pair<int64_t, Dva>> frees_;   // (due txg, block)
  std::vector<int64_t> order_scratch_;          // a window's blocks in allocation order
  std::vector<Dva> placed_;                     // a window's DVAs by blkid
};

}  // namespace

std::vector<FileLayout> AllocateFiles(const Pool& pool, const std::vector<FileSpec>& files,
                                      const LayoutPreset& preset, uint64_t seed) {
  for (size_t i = 0; i < files.size(); ++i) CheckFile(files[i], i);
  if (pool.top_count() <= 0) throw InputError("the pool has no top-level vdev");
  return FileWriter(pool, files, preset, WriteOrderOf(preset), seed, PoolState{}).Write();
}

std::vector<FileLayout> AllocateFiles(const Pool& pool, const std::vector<FileSpec>& files,
                                      const LayoutPreset& preset, uint64_t seed, const PoolState& state,
                                      PoolFigures* before) {
  if (!state.set) {
    std::vector<FileLayout> out = AllocateFiles(pool, files, preset, seed);
    if (before != nullptr) *before = PoolFigures{};
    return out;
  }
  CheckPoolStateWithLayout(state, preset);
  for (size_t i = 0; i < files.size(); ++i) CheckFile(files[i], i);
  if (pool.top_count() <= 0) throw InputError("the pool has no top-level vdev");
  FileWriter writer(pool, files, preset, WriteOrderOf(preset), seed, state);
  if (before != nullptr) *before = writer.Figures();
  return writer.Write();
}

void CheckPoolStateWithLayout(const PoolState& state, const LayoutPreset& preset) {
  if (state.set && preset.kind == LayoutPreset::Kind::kFragmented) {
    throw InputError("--pool-state " + state.text + " and --layout " + preset.text +
                     " both put old data on the pool: give one of them");
  }
}

Placement PlacementOf(const Pool& pool, const std::vector<FileLayout>& layouts) {
  Placement p;
  std::vector<std::pair<double, int64_t>> at;  // (first block's percent, blocks), per extent
  double last = 0;
  for (const FileLayout& l : layouts) {
    for (const LayoutExtent& e : l.extents(0)) {
      if (e.hole || e.count <= 0) continue;
      const double size = static_cast<double>(pool.top(e.top)->asize_bytes());
      const double lo = 100.0 * static_cast<double>(e.offset) / size;
      const double hi = 100.0 * static_cast<double>(e.offset + (e.count - 1) * e.stride) / size;
      if (p.extents == 0 || lo < p.first_pct) p.first_pct = lo;
      last = std::max(last, hi);
      at.emplace_back(lo, e.count);
      ++p.extents;
      p.blocks += e.count;
    }
  }
  if (p.blocks == 0) return p;
  p.last_pct = last;
  // The median block: extents sorted by offset (an extent's blocks lie within a fraction of a
  // percent, so its first block stands for them).
  std::sort(at.begin(), at.end());
  int64_t seen = 0;
  for (const auto& [pct, n] : at) {
    seen += n;
    if (2 * seen >= p.blocks) {
      p.median_pct = pct;
      break;
    }
  }
  return p;
}

}  // namespace ziosim
