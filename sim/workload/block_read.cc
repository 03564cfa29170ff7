#include "sim/workload/block_read.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "sim/core/invariants.h"
#include "sim/core/random.h"
#include "sim/core/status.h"
#include "sim/stats/demerit.h"
#include "sim/stats/run_check.h"
#include "sim/workload/io_log.h"
#include "sim/zfs/vdev/draid_vdev.h"

namespace ziosim {

namespace {

constexpr int64_t kMetaslabAliquotBytes = 512 << 10;  // metaslab_aliquot, OpenZFS <= 2.1

// Keeps `depth` block reads in flight until `count` are done; samples intervals.
class Reader : public ZioDoneListener, public EventHandler {
 public:
  Reader(Pool* pool, const BlockReadOptions& o, const BlockLayout& layout)
      : pool_(pool), o_(o), layout_(layout), rng_(o.seed, "block-read") {
    span_blocks_ = o.span_bytes > 0 ? std::max<int64_t>(1, o.span_bytes / o.block_bytes) : layout.capacity_blocks();
    span_blocks_ = std::min(span_blocks_, layout.capacity_blocks());
    latencies_ms_.reserve(static_cast<size_t>(o.count));
  }
  void Start() {
    for (int i = 0; i < o_.depth && issued_ < o_.count; ++i) IssueNext();
    if (o_.interval_ns > 0) pool_->sim()->ScheduleIn(o_.interval_ns, this, 0);
    Snapshot(prev_reads_, prev_bytes_);
  }
  void OnZioDone(Zio* zio) override {
    if (zio->error != 0) throw std::logic_error("internal error: block read failed (no readable copy)");
    latencies_ms_.push_back(NsToMs(pool_->sim()->now() - zio->created_ns));
    last_done_ = pool_->sim()->now();
    if (issued_ < o_.count) IssueNext();
  }
  void OnEvent(uint32_t, uint64_t) override {  // interval tick
    IntervalSample s;
    s.end_ns = pool_->sim()->now();
    std::vector<uint64_t> reads;
    std::vector<int64_t> bytes;
    Snapshot(reads, bytes);
    for (size_t i = 0; i < reads.size(); ++i) {
      s.reads.push_back(reads[i] - prev_reads_[i]);
      s.read_bytes.push_back(bytes[i] - prev_bytes_[i]);
    }
    prev_reads_ = reads;
    prev_bytes_ = bytes;
    intervals.push_back(std::move(s));
    if (static_cast<int64_t>(latencies_ms_.size()) < o_.count) pool_->sim()->ScheduleIn(o_.interval_ns, this, 0);
  }
  SimTime last_done() const { return last_done_; }
  int64_t issued() const { return issued_; }
  std::vector<double>& latencies_ms() { return latencies_ms_; }
  std::vector<IntervalSample> intervals;

 private:
  void IssueNext() {
    const int64_t index = o_.pattern == BenchPattern::kSequential ? issued_ % span_blocks_
                                                                 : rng_.UniformInt(0, span_blocks_ - 1);
    const BlockAddress a = layout_.Locate(index);
    pool_->Read(a.top, a.offset, layout_.psize(), o_.priority, this, static_cast<uint64_t>(issued_));
    ++issued_;
  }
  void Snapshot(std::vector<uint64_t>& reads, std::vector<int64_t>& bytes) const {
    reads.clear();
    bytes.clear();
    for (const LeafVdev* l : pool_->leaves()) {
      reads.push_back(l->device().stats().reads());
      bytes.push_back(l->device().stats().read_bytes());
    }
  }

  Pool* pool_;
  const BlockReadOptions& o_;
  const BlockLayout& layout_;
  RandomStream rng_;
  int64_t span_blocks_ = 0;
  int64_t issued_ = 0;
  SimTime last_done_ = 0;
  std::vector<double> latencies_ms_;
  std::vector<uint64_t> prev_reads_;
  std::vector<int64_t> prev_bytes_;
};

void CheckOptions(const BlockReadOptions& o) {
  if (o.block_bytes <= 0 || o.block_bytes % 512 != 0) {
    throw InputError("--bs: " + std::to_string(o.block_bytes) + " is not a positive multiple of 512");
  }
  if (o.block_bytes > (16 << 20)) throw InputError("--bs: larger than the 16 MiB ZFS block limit");
  if (o.depth < 1) throw InputError("--depth: must be at least 1");
  if (o.count < 1) throw InputError("--count: must be at least 1");
  if (o.span_bytes < 0) throw InputError("--span: must not be negative");
}

// `zpool replace POOL dN draidP-T-S` with its rebuild done: dN is faulted and
// the next free distributed spare of its dRAID holds its columns.
void UseDistributedSpare(const Pool& pool, const std::string& name) {
  LeafVdev* leaf = pool.Leaf(name, "--spare");
  auto* draid = dynamic_cast<DraidVdev*>(leaf->parent());
  if (draid == nullptr) throw InputError("--spare: " + name + " is not in a dRAID vdev (no distributed spares)");
  const int spares = draid->layout().config().spares;
  int spare = 0;
  while (spare < spares && draid->spared_child(spare) >= 0) ++spare;
  const auto& kids = draid->children();
  const int child = static_cast<int>(
      std::find_if(kids.begin(), kids.end(), [&](const auto& c) { return c.get() == leaf; }) - kids.begin());
  for (int s = 0; s < spare; ++s) {
    if (draid->spared_child(s) == child) throw InputError("--spare: " + name + " is given twice");
  }
  if (spare == spares) {
    throw InputError("--spare: " + draid->name() + " has " + std::to_string(spares) + " distributed spare" +
                     (spares == 1 ? "" : "s") + ", all taken before " + name);
  }
  leaf->set_faulted(true);
  draid->UseSpare(child, spare);
}

}  // namespace

BlockLayout::BlockLayout(const Pool& pool, int64_t block_bytes) : psize_(block_bytes) {
  int64_t prefix = 0;
  capacity_blocks_ = INT64_MAX;
  for (int t = 0; t < pool.top_count(); ++t) {
    const int64_t asize = pool.BlockAsize(t, block_bytes);
    const int64_t children = std::max<int64_t>(1, static_cast<int64_t>(pool.top(t)->children().size()));
    const int64_t per_round = std::max<int64_t>(1, (kMetaslabAliquotBytes * children + asize - 1) / asize);
    asize_.push_back(asize);
    per_round_.push_back(per_round);
    round_prefix_.push_back(prefix);
    prefix += per_round;
    // The pool is full when the first vdev to fill is full.
    capacity_blocks_ = std::min(capacity_blocks_, pool.top(t)->asize_bytes() / asize / per_round);
  }
  round_blocks_ = prefix;
  capacity_blocks_ *= round_blocks_;
}

BlockAddress BlockLayout::Locate(int64_t index) const {
  const int64_t round = index / round_blocks_;
  const int64_t k = index % round_blocks_;
  const int top = static_cast<int>(std::upper_bound(round_prefix_.begin(), round_prefix_.end(), k) -
                                   round_prefix_.begin()) - 1;
  const int64_t j = k - round_prefix_[top];
  return BlockAddress{top, (round * per_round_[top] + j) * asize_[top]};
}

void CheckBlockReadOptions(const BlockReadOptions& o) {
  CheckOptions(o);
  ParsePoolSpec(o.pool, o.ashift);
  RunTunables(o.profile, o.settings);
}

BlockReadResult RunBlockRead(const BlockReadOptions& o) {
  CheckOptions(o);
  Simulation sim;
  Pool pool(&sim, ParsePoolSpec(o.pool, o.ashift), RunTunables(o.profile, o.settings), o.seed);
  for (const std::string& name : o.faulted) pool.Leaf(name, "--fault")->set_faulted(true);
  for (const std::string& name : o.spared) UseDistributedSpare(pool, name);
  if (!pool.root().readable()) throw InputError("--fault: too many faulted disks: the pool cannot be read");
  const BlockLayout layout(pool, o.block_bytes);
  if (o.pattern == BenchPattern::kSequential && o.count > layout.capacity_blocks()) {
    throw InputError("--count: " + std::to_string(o.count) + " blocks do not fit in the pool");
  }
  std::unique_ptr<IoLog> log;
  if (!o.io_log_path.empty()) {
    log = std::make_unique<IoLog>(o.io_log_path);
    pool.set_observer(log.get());
  }
  Reader reader(&pool, o, layout);
  reader.Start();
  sim.Run();
  CheckCompletedOnce("block-read: block reads", reader.issued(), static_cast<int64_t>(reader.latencies_ms().size()));
  CheckPoolQuiescent(pool, sim.now());
  if (log) log->Commit();
  pool.SettleStats();

  BlockReadResult r;
  r.pool = FormatPoolSpec(pool.spec());
  r.profile = o.profile;
  r.blocks = o.count;
  r.bytes = o.count * o.block_bytes;
  r.elapsed_ns = reader.last_done();
  r.mb_s = r.elapsed_ns > 0 ? static_cast<double>(r.bytes) / static_cast<double>(r.elapsed_ns) * 1e3 : 0;
  const LatencySummary s = SummarizeLatencies(std::move(reader.latencies_ms()));
  r.lat_mean_ms = s.mean_ms;
  r.lat_p99_ms = s.p99_ms;
  r.disks = ReportDisks(pool, r.elapsed_ns);
  r.intervals = std::move(reader.intervals);
  return r;
}

}  // namespace ziosim
