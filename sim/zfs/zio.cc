#include "sim/zfs/zio.h"

#include <stdexcept>

namespace ziosim {

const char* ZioPriorityName(ZioPriority p) {
  switch (p) {
    case ZioPriority::kSyncRead: return "sync_read";
    case ZioPriority::kSyncWrite: return "sync_write";
    case ZioPriority::kAsyncRead: return "async_read";
    case ZioPriority::kAsyncWrite: return "async_write";
    case ZioPriority::kScrub: return "scrub";
  }
  return "?";
}

Zio* ZioArena::New() {
  if (free_.empty()) {
    chunks_.push_back(std::make_unique<Zio[]>(kChunk));
    Zio* block = chunks_.back().get();
    free_.reserve(free_.size() + kChunk);
    for (int i = kChunk - 1; i >= 0; --i) free_.push_back(&block[i]);
  }
  Zio* z = free_.back();
  free_.pop_back();
  *z = Zio{};
  ++live_;
  return z;
}

void ZioArena::Free(Zio* zio) {
  if (live_ <= 0) throw std::logic_error("internal error: zio freed twice");
  --live_;
  free_.push_back(zio);
}

}  // namespace ziosim
