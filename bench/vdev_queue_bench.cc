// Raw speed of the per-leaf scheduler: one leaf kept at a fixed number of zios
// (queued + in the device); each step completes the oldest I/O in the device
// and tops the leaf up with fresh zios, as a saturated disk does.
// items_per_second = zios through the queue (add + issue + done); the time per
// item is the cost of one zio's trip through the scheduler.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/zfs/vdev/queue/vdev_queue.h"
#include "sim/zfs/tunables.h"
#include "sim/zfs/zio.h"

namespace ziosim {
namespace {

// The device: a FIFO of issued I/Os (a ring, so the bench allocates nothing either).
class RingSink final : public VdevQueueSink {
 public:
  explicit RingSink(ZioArena* arena) : arena_(arena), ring_(4096) {}
  void IssueToDevice(Zio* io) override { ring_[(head_ + count_++) % ring_.size()] = io; }
  Zio* NewAggregate() override { return arena_->New(); }
  Zio* PopOldest() {
    Zio* io = ring_[head_];
    head_ = (head_ + 1) % ring_.size();
    --count_;
    return io;
  }
  size_t in_device() const { return count_; }

 private:
  ZioArena* arena_;
  std::vector<Zio*> ring_;
  size_t head_ = 0;
  size_t count_ = 0;
};

enum Workload : int64_t { kRandomSync, kRandomMixed, kSequentialPrefetch };

void Run(benchmark::State& state, const char* scheduler) {
  const int depth = static_cast<int>(state.range(0));
  const auto workload = static_cast<Workload>(state.range(1));
  Tunables tunables;
  tunables.Set("ziosim_vdev_scheduler", scheduler, "bench");
  ZioArena arena;
  RingSink sink(&arena);
  std::unique_ptr<VdevQueue> q = MakeVdevQueue(tunables, /*rotational=*/true, &sink);

  uint64_t rng = 88172645463325252ULL;
  int64_t seq_offset = 0;
  SimTime now = 0;
  int64_t zios = 0;
  auto add_one = [&] {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    Zio* z = arena.New();
    z->type = ZioType::kRead;
    z->size = 128 << 10;
    switch (workload) {
      case kRandomSync:
        z->priority = ZioPriority::kSyncRead;
        z->offset = static_cast<int64_t>((rng >> 20) % (1ULL << 30)) * 4096;
        break;
      case kRandomMixed:
        z->priority = (rng >> 60) < 10 ? ZioPriority::kSyncRead : ZioPriority::kAsyncRead;
        z->offset = static_cast<int64_t>((rng >> 20) % (1ULL << 30)) * 4096;
        break;
      case kSequentialPrefetch:  // 16K prefetch reads in order: aggregated 64 at a time
        z->priority = ZioPriority::kAsyncRead;
        z->size = 16 << 10;
        z->offset = seq_offset;
        seq_offset += z->size;
        break;
    }
    q->Add(z, now);
    ++zios;
  };
  auto complete_oldest = [&] {
    Zio* io = sink.PopOldest();
    q->Done(io, now);
    if (io->is_aggregate()) {
      for (Zio* c = io->agg_head; c != nullptr;) {
        Zio* next = c->agg_next;
        arena.Free(c);
        c = next;
      }
    }
    arena.Free(io);
  };

  for (auto _ : state) {
    while (q->queued() + q->active() < depth) add_one();
    complete_oldest();
    now += 50'000;
  }
  state.SetItemsProcessed(zios);
  benchmark::DoNotOptimize(q->stats().issued);
}

void BM_ClassQueue(benchmark::State& state) { Run(state, "class"); }
void BM_DeadlineQueue(benchmark::State& state) { Run(state, "deadline"); }

// Args: zios at the leaf (queued + in the device), workload.
BENCHMARK(BM_ClassQueue)
    ->Args({16, kRandomSync})
    ->Args({64, kRandomSync})
    ->Args({64, kRandomMixed})
    ->Args({256, kRandomMixed})
    ->Args({256, kSequentialPrefetch});
BENCHMARK(BM_DeadlineQueue)->Args({16, kRandomSync})->Args({64, kRandomMixed})->Args({256, kRandomMixed});

}  // namespace
}  // namespace ziosim
