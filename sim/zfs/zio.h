// A zio is one I/O in flight through the vdev tree, as in OpenZFS: a logical
// block read at the root fans out into child zios (mirror: one child; RAID-Z:
// one per data column) and completes when its last child completes. Leaf zios
// wait in the leaf's queue, may be aggregated with neighbours, and go to the
// device. Zios come from a ZioArena, so the hot path never calls malloc.
#ifndef ZIOSIM_SIM_ZFS_ZIO_H_
#define ZIOSIM_SIM_ZFS_ZIO_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/time.h"

namespace ziosim {

class Vdev;
struct Zio;

enum class ZioType : uint8_t { kRead = 0, kWrite = 1 };

// The I/O classes of OpenZFS's zio_priority_t, in priority order.
enum class ZioPriority : uint8_t {
  kSyncRead = 0,   // demand reads
  kSyncWrite = 1,  // ZIL
  kAsyncRead = 2,  // prefetch
  kAsyncWrite = 3, // txg sync
  kScrub = 4,      // scrub / resilver
};
inline constexpr int kNumZioPriorities = 5;
const char* ZioPriorityName(ZioPriority p);

class ZioDoneListener {
 public:
  virtual ~ZioDoneListener() = default;
  // A root zio (one with no parent) completed. The zio is freed after this returns.
  virtual void OnZioDone(Zio* zio) = 0;
};

// A scan's read (ZIO_FLAG_SCRUB / ZIO_FLAG_RESILVER): a scrub reads every
// copy and every parity column, to verify them all; a resilver reads as a
// normal read does (and repairs what is missing).
enum class ZioScan : uint8_t { kNone, kScrub, kResilver };

// Why a mirror picked the child it did, for the per-I/O log.
enum class MirrorReason : uint8_t { kNone, kPolicy, kOnlyReadable, kFallback };

struct Zio {
  ZioType type = ZioType::kRead;
  ZioPriority priority = ZioPriority::kSyncRead;
  int64_t offset = 0;  // in vdev's address space; on a leaf, the physical byte (label included)
  int64_t size = 0;
  Vdev* vdev = nullptr;
  Zio* parent = nullptr;
  int children_pending = 0;
  Zio* first_child = nullptr;   // children still in flight, linked through next/prev_sibling
  Zio* next_sibling = nullptr;
  Zio* prev_sibling = nullptr;
  ZioDoneListener* listener = nullptr;  // for root zios
  int top_vdev = 0;                     // root zios: which top-level vdev the DVA names
  uint64_t tag = 0;                     // caller's identifier
  SimTime created_ns = 0;
  int error = 0;                        // 0 or an errno-like code (ENXIO: child unreadable)
  // A RAID-Z skip-sector write (ZIO_FLAG_OPTIONAL | ZIO_FLAG_NODATA): written
  // only inside an aggregate, where it fills the hole between two writes;
  // dropped when the queue would issue it alone. Nobody waits for it.
  bool optional = false;
  // Metadata (an indirect block): the vdev cache may take it. File data is
  // ZIO_FLAG_DONT_CACHE (arc_read), and so are fills and aggregates.
  bool metadata = false;
  // Scrub or resilver (ZIO_FLAG_SCRUB / ZIO_FLAG_RESILVER, inherited by child zios).
  ZioScan scan = ZioScan::kNone;
  // A vdev cache fill (tag: its line); the leaf hands its completion to the cache.
  bool cache_fill = false;
  Zio* cache_next = nullptr;  // next zio waiting for the same vdev cache fill

  // Leaf-queue bookkeeping.
  SimTime queued_ns = 0;
  SimTime issued_ns = 0;
  Zio* agg_next = nullptr;  // aggregate: linked list of constituents; constituent: next one
  Zio* agg_head = nullptr;  // aggregate: first constituent
  int agg_count = 0;        // aggregate: number of constituents (0: not an aggregate)
  int device_pieces = 0;    // device commands still outstanding (platform splitting)

  // Mirror bookkeeping (for the per-I/O log).
  int8_t mirror_child = -1;
  MirrorReason mirror_reason = MirrorReason::kNone;

  bool is_aggregate() const { return agg_count > 0; }
  int64_t end() const { return offset + size; }
};

// Fixed-size blocks of Zios recycled through a free list. Not thread-safe.
class ZioArena {
 public:
  ZioArena() = default;
  ZioArena(const ZioArena&) = delete;
  ZioArena& operator=(const ZioArena&) = delete;

  Zio* New();
  void Free(Zio* zio);
  int64_t live() const { return live_; }

 private:
  static constexpr int kChunk = 256;
  std::vector<std::unique_ptr<Zio[]>> chunks_;
  std::vector<Zio*> free_;
  int64_t live_ = 0;
};

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_ZIO_H_
