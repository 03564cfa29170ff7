#include "sim/zfs/dmu_write.h"

#include <algorithm>
#include <stdexcept>

namespace ziosim {

DmuWrite::DmuWrite(Pool* pool, Txg* txg, HostCpu* cpu, Dmu* reader)
    : pool_(pool), txg_(txg), cpu_(cpu), reader_(reader) {}

void DmuWrite::Write(int file, int64_t offset, int64_t length, WriteCaller* caller, uint64_t tag) {
  const TxgFile& f = (*txg_->files()).at(static_cast<size_t>(file));
  if (offset < 0 || length <= 0 || offset + length > f.size_bytes) {
    throw std::invalid_argument("DmuWrite::Write: range outside the file");
  }
  uint32_t id;
  if (!free_calls_.empty()) {
    id = free_calls_.back();
    free_calls_.pop_back();
  } else {
    id = static_cast<uint32_t>(calls_.size());
    calls_.emplace_back();
  }
  Call& c = calls_[id];
  c = Call{file, offset, length, caller, tag, pool_->sim()->now(), -1, 0};
  ++stats_.calls;
  Assign(id);
}

// dmu_tx_assign: wait below zfs_dirty_data_max (dmu_tx_wait), then the delay (dmu_tx_delay).
void DmuWrite::Assign(uint32_t id) {
  Call& c = calls_[id];
  const SimTime now = pool_->sim()->now();
  if (c.wait_since_ns >= 0) {
    stats_.dirty_wait_ns += now - c.wait_since_ns;
    c.wait_since_ns = -1;
  }
  if (txg_->throttle().Full(txg_->dirty_bytes())) {
    c.wait_since_ns = now;
    txg_->WaitDirtySpace(this, id);
    return;
  }
  const SimTime wake = txg_->throttle().WakeupAt(now, c.start_ns, txg_->dirty_bytes());
  if (wake > now) {
    ++stats_.delayed_calls;
    stats_.delay_ns += wake - now;
    pool_->sim()->Schedule(wake, this, kDelayDone, id);
    return;
  }
  ReadModify(id);
}

void DmuWrite::OnTxgEvent(uint64_t tag) { Assign(static_cast<uint32_t>(tag)); }

// Records covered in part that are on disk and not in memory are read first.
void DmuWrite::ReadModify(uint32_t id) {
  Call& c = calls_[id];
  const TxgFile& f = (*txg_->files())[static_cast<size_t>(c.file)];
  const int64_t bs = f.block_bytes;
  const int64_t first = c.offset / bs;
  const int64_t last = (c.offset + c.length - 1) / bs;
  c.pending_reads = 1;  // held while the reads are started: one may finish at once
  for (int64_t b = first; b <= last; ++b) {
    const int64_t rec_start = b * bs;
    const int64_t rec_end = std::min(rec_start + bs, f.size_bytes);
    if (c.offset <= rec_start && c.offset + c.length >= rec_end) continue;  // whole record
    ++stats_.partial_records;
    // In memory: a hole, a dirty dbuf, or (without a reader's ARC) any record this path wrote.
    const bool wrote = f.dirty_txg[static_cast<size_t>(b)] != 0;
    if (f.l0[static_cast<size_t>(b)].hole || txg_->Unsynced(c.file, b) || (reader_ == nullptr && wrote)) continue;
    if (reader_ == nullptr) throw std::logic_error("internal error: read-modify-write without a reader");
    ++stats_.rmw_reads;
    ++c.pending_reads;
    reader_->Read(c.file, rec_start, rec_end - rec_start, this, id);
  }
  if (--c.pending_reads == 0) CopyIn(id);
}

void DmuWrite::OnReadDone(uint64_t tag, int64_t) {
  const uint32_t id = static_cast<uint32_t>(tag);
  if (--calls_[id].pending_reads == 0) CopyIn(id);
}

// The system call and the copy from user space, on the host CPU.
void DmuWrite::CopyIn(uint32_t id) {
  const Call& c = calls_[id];
  const SimTime now = pool_->sim()->now();
  pool_->sim()->Schedule(cpu_->Run(now, cpu_->costs().syscall_ns + cpu_->CopyNs(c.length)), this, kCopied, id);
}

void DmuWrite::OnEvent(uint32_t kind, uint64_t arg) {
  const uint32_t id = static_cast<uint32_t>(arg);
  if (kind == kDelayDone) {
    ReadModify(id);
  } else {
    Finish(id);
  }
}

void DmuWrite::Finish(uint32_t id) {
  const Call c = calls_[id];
  const int64_t bs = (*txg_->files())[static_cast<size_t>(c.file)].block_bytes;
  for (int64_t b = c.offset / bs; b <= (c.offset + c.length - 1) / bs; ++b) {
    txg_->Dirty(c.file, b, bs);
    if (reader_ != nullptr) reader_->CacheDirtied(c.file, b);
  }
  stats_.app_bytes += c.length;
  free_calls_.push_back(id);
  c.caller->OnWriteDone(c.tag, c.length);
}

}  // namespace ziosim
