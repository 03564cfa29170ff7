#include "sim/zfs/tunables.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <stdexcept>
#include <tuple>

#include "sim/core/bytes.h"
#include "sim/core/toml.h"

#include "sim/core/data_dir.h"
#include "sim/core/status.h"
#include "sim/core/text.h"
#include "sim/core/toml_util.h"
#include "sim/core/units.h"

#ifndef ZIOSIM_PROFILES_DIR
// Builds that predate the definition find the profiles next to the drive catalog.
#define ZIOSIM_PROFILES_DIR ZIOSIM_CATALOG_DIR "/../profiles"
#endif

namespace ziosim {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kInt32Max = 2147483647;
constexpr int64_t kSpaMaxBlockSize = 16 * kMiB;  // SPA_MAXBLOCKSIZE: ZFS caps aggregates at it

using K = TunableKind;

// Reference: ../shared/reference/zfs-read-path.md, sections 1, 2 and Appendix A.
// Fallbacks are the OpenZFS 2.2 defaults; era profiles (models/profiles/) change them.
constexpr TunableDef kTable[] = {
    // ---- Mirror child selection (vdev_mirror.c, reference section 1) ----
    {.name = "mirror_policy", .kind = K::kChoice, .unit = "", .fallback = "load_locality", .choices = "",
     .doc = "mirror read policy: rotor (offset>>21 rotor, <=2013), least_pending (ZoL 0.6.2-0.6.5), "
            "load_locality (FreeBSD 10+, ZoL 0.7+), or any registered policy"},
    {.name = "mirror_last_offset", .kind = K::kChoice, .unit = "", .fallback = "issue",
     .choices = "selection|issue",
     .doc = "load_locality's last offset: selection = last read the mirror assigned (FreeBSD, ZoL <= 0.7), "
            "issue = end of the last I/O the leaf issued (ZoL 0.8+, d6c6590c5d)"},
    {.name = "vdev_mirror_shift", .kind = K::kInt, .unit = "log2 bytes", .fallback = "21", .min = 0, .max = 62,
     .doc = "mirror offset hash: rotor stripe / load_locality tie-break region is 2^shift bytes"},
    {.name = "zfs_vdev_mirror_switch_us", .kind = K::kInt, .unit = "us", .fallback = "10000", .min = 1,
     .max = kInt32Max, .doc = "least_pending: ties go to the same child for this long (time window)"},
    {.name = "zfs_vdev_mirror_rotating_inc", .kind = K::kInt, .unit = "", .fallback = "0", .min = 0,
     .max = 1000000, .doc = "load_locality: load added on a rotating child when the read continues its last one"},
    {.name = "zfs_vdev_mirror_rotating_seek_inc", .kind = K::kInt, .unit = "", .fallback = "5", .min = 0,
     .max = 1000000,
     .doc = "load_locality: load added on a rotating child for a far read (half of it for a near one)"},
    {.name = "zfs_vdev_mirror_rotating_seek_offset", .kind = K::kBytes, .unit = "bytes", .fallback = "1M",
     .min = 0, .max = INT64_MAX, .doc = "load_locality: a read closer than this to the last one is near"},
    {.name = "zfs_vdev_mirror_non_rotating_inc", .kind = K::kInt, .unit = "", .fallback = "0", .min = 0,
     .max = 1000000, .doc = "load_locality: load added on a non-rotating child for a sequential read"},
    {.name = "zfs_vdev_mirror_non_rotating_seek_inc", .kind = K::kInt, .unit = "", .fallback = "1", .min = 0,
     .max = 1000000, .doc = "load_locality: load added on a non-rotating child for any other read"},

    // ---- Per-leaf queue (vdev_queue.c, reference section 2) ----
    {.name = "ziosim_vdev_scheduler", .kind = K::kChoice, .unit = "", .fallback = "class",
     .choices = "deadline|class",
     .doc = "leaf scheduler: deadline (pre-2013, max_pending) or class (illumos 4045, per-class active limits)"},
    {.name = "zfs_vdev_max_pending", .kind = K::kInt, .unit = "I/Os", .fallback = "10", .min = 1, .max = 100000,
     .doc = "deadline: most I/Os issued to the device (35 before the 2010 b141 rebase)"},
    {.name = "zfs_vdev_min_pending", .kind = K::kInt, .unit = "I/Os", .fallback = "4", .min = 1, .max = 100000,
     .doc = "deadline: an arriving I/O is issued at once only while fewer than this are in the device"},
    {.name = "zfs_vdev_ramp_rate", .kind = K::kInt, .unit = "I/Os", .fallback = "2", .min = 1, .max = 100000,
     .doc = "deadline: most I/Os issued per completion"},
    {.name = "zfs_vdev_time_shift", .kind = K::kInt, .unit = "log2 time units", .fallback = "29", .min = 0,
     .max = 62, .doc = "deadline: bucket = (now >> shift) + priority (6 on lbolt ticks, 29 on gethrtime ns)"},
    {.name = "ziosim_vdev_time_unit_ns", .kind = K::kInt, .unit = "ns", .fallback = "1", .min = 1,
     .max = 1000000000,
     .doc = "deadline: length of the clock's time unit: 1 = gethrtime, 1000000 = FreeBSD hz=1000 ticks, "
            "4000000 = Linux HZ=250 jiffies"},
    {.name = "zfs_vdev_max_active", .kind = K::kInt, .unit = "I/Os", .fallback = "1000", .min = 1,
     .max = kInt32Max, .doc = "class: most I/Os in the device, all classes together"},
    {.name = "zfs_vdev_sync_read_min_active", .kind = K::kInt, .unit = "I/Os", .fallback = "10", .min = 0,
     .max = kInt32Max, .doc = "class: demand reads issued before other classes are considered"},
    {.name = "zfs_vdev_sync_read_max_active", .kind = K::kInt, .unit = "I/Os", .fallback = "10", .min = 1,
     .max = kInt32Max, .doc = "class: most demand reads in the device"},
    {.name = "zfs_vdev_sync_write_min_active", .kind = K::kInt, .unit = "I/Os", .fallback = "10", .min = 0,
     .max = kInt32Max, .doc = "class: ZIL writes issued before other classes are considered"},
    {.name = "zfs_vdev_sync_write_max_active", .kind = K::kInt, .unit = "I/Os", .fallback = "10", .min = 1,
     .max = kInt32Max, .doc = "class: most ZIL writes in the device"},
    {.name = "zfs_vdev_async_read_min_active", .kind = K::kInt, .unit = "I/Os", .fallback = "1", .min = 0,
     .max = kInt32Max, .doc = "class: prefetch reads issued before other classes are considered"},
    {.name = "zfs_vdev_async_read_max_active", .kind = K::kInt, .unit = "I/Os", .fallback = "3", .min = 1,
     .max = kInt32Max, .doc = "class: most prefetch reads in the device"},
    {.name = "zfs_vdev_async_write_min_active", .kind = K::kInt, .unit = "I/Os", .fallback = "2", .min = 0,
     .max = kInt32Max, .doc = "class: txg writes issued at low dirty data (1 before 06226b5936, ZoL 0.7)"},
    {.name = "zfs_vdev_async_write_max_active", .kind = K::kInt, .unit = "I/Os", .fallback = "10", .min = 1,
     .max = kInt32Max, .doc = "class: most txg writes in the device (at high dirty data)"},
    {.name = "zfs_vdev_scrub_min_active", .kind = K::kInt, .unit = "I/Os", .fallback = "1", .min = 0,
     .max = kInt32Max, .doc = "class: scrub/resilver I/Os issued before other classes are considered"},
    {.name = "zfs_vdev_scrub_max_active", .kind = K::kInt, .unit = "I/Os", .fallback = "3", .min = 1,
     .max = kInt32Max, .doc = "class: most scrub/resilver I/Os in the device (2 before 6f5aac3ca0, 2.1)"},
    {.name = "ziosim_vdev_nia", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "class: the scrub class yields to interactive I/O by a credit (6f5aac3ca0, OpenZFS 2.1); false before"},
    {.name = "zfs_vdev_nia_delay", .kind = K::kInt, .unit = "I/Os", .fallback = "5", .min = 0, .max = kInt32Max,
     .doc = "class: scrub I/Os that complete with no interactive I/O before the scrub class gets its max_active"},
    {.name = "zfs_vdev_nia_credit", .kind = K::kInt, .unit = "I/Os", .fallback = "5", .min = 0, .max = kInt32Max,
     .doc = "class: scrub I/Os allowed while interactive I/O is active, renewed at each interactive completion"},
    {.name = "zfs_vdev_aggregation_limit", .kind = K::kBytes, .unit = "bytes", .fallback = "1M", .min = 0,
     .max = kSpaMaxBlockSize,
     .doc = "largest aggregated I/O on rotating media (128K until d4a72f2386, ZoL 0.8); 0 = no aggregation"},
    {.name = "zfs_vdev_aggregation_limit_non_rotating", .kind = K::kBytes, .unit = "bytes", .fallback = "128K",
     .min = 0, .max = kSpaMaxBlockSize, .doc = "largest aggregated I/O on non-rotating media (1af240f3b5, 2019)"},
    {.name = "zfs_vdev_read_gap_limit", .kind = K::kBytes, .unit = "bytes", .fallback = "32K", .min = 0,
     .max = kSpaMaxBlockSize, .doc = "reads are aggregated across holes up to this size (the hole is read too)"},
    {.name = "zfs_vdev_write_gap_limit", .kind = K::kBytes, .unit = "bytes", .fallback = "4K", .min = 0,
     .max = kSpaMaxBlockSize, .doc = "writes: an optional pad write may close a gap up to this size"},
    // ---- The vdev cache (vdev_cache.c, reference section 5.6) ----
    {.name = "zfs_vdev_cache_size", .kind = K::kBytes, .unit = "bytes", .fallback = "0", .min = 0,
     .max = int64_t{1} << 40,
     .doc = "vdev cache per leaf: metadata reads become whole-line reads; 10M until illumos 175 / ZoL "
            "2cc6c8db12 (2011), 0 after; removed in 2.2"},
    {.name = "zfs_vdev_cache_max", .kind = K::kBytes, .unit = "bytes", .fallback = "16K", .min = 0,
     .max = kSpaMaxBlockSize, .doc = "vdev cache: largest read that is inflated to a line"},
    {.name = "zfs_vdev_cache_bshift", .kind = K::kInt, .unit = "log2 bytes", .fallback = "16", .min = 9,
     .max = 24, .doc = "vdev cache: line size is 2^bshift bytes (64 KiB)"},
    {.name = "ziosim_vdev_aggregate_sync_reads", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "class: demand (sync) reads can be aggregated; false in the original 4045 scheduler (until 5313)"},
    {.name = "ziosim_vdev_aggregate_cross_class", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "class: aggregate through the per-type offset tree, across classes (illumos 5313, ZoL 0.6.5); "
            "false = only within the chosen class"},
    {.name = "ziosim_vdev_lba_last", .kind = K::kChoice, .unit = "", .fallback = "bucket",
     .choices = "start|end|bucket",
     .doc = "class: where LBA-sorted classes continue: start of the last issued I/O (2013-2017), its end "
            "(d6c6590c5d, 2017-2023), or end within 0.5 s arrival buckets (8469b5aac0, 2.2+)"},
    {.name = "ziosim_max_device_io", .kind = K::kBytes, .unit = "bytes", .fallback = "1280K", .min = 4 * kKiB,
     .max = kGiB,
     .doc = "largest device command; bigger I/Os are split (FreeBSD <= 12 MAXPHYS 128K, Linux max_sectors_kb)"},

    // ---- Allocation (metaslab.c, dnode, reference section 4) ----
    {.name = "metaslab_aliquot", .kind = K::kBytes, .unit = "bytes", .fallback = "1M", .min = 4 * kKiB,
     .max = kGiB, .doc = "bytes allocated on a top-level vdev before the rotor moves on, per unit of ziosim_aliquot_per"},
    {.name = "ziosim_aliquot_per", .kind = K::kChoice, .unit = "", .fallback = "data_disks",
     .choices = "children|data_disks",
     .doc = "aliquot scaling: children (512K x children, <= OpenZFS 2.1) or data_disks (1M x (disks - parity), "
            "2.2+, c55b293287)"},
    {.name = "ziosim_df_align", .kind = K::kBool, .unit = "", .fallback = "false",
     .doc = "round a block's start up to its own alignment (asize & -asize), as the first-fit allocator "
            "(metaslab_ff_ops, a build option) does; the default DF allocator never did (block_picker align 1)"},
    // Metaslab choice and DF on a pool that is not empty (--pool-state only; metaslab.c, verified at
    // zfs-0.6.5.11, zfs-0.7.0, zfs-0.8.0, zfs-2.0.0, zfs-2.1.11, zfs-2.2.0).
    {.name = "zfs_metaslab_segment_weight_enabled", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "metaslab_weight: segment-based (largest free-segment bucket, then its count; OpenZFS 7303, ZoL 0.7.0+) "
            "instead of metaslab_space_weight (free space, fragmentation factor, LBA bias)"},
    {.name = "metaslab_lba_weighting_enabled", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "metaslab_space_weight: on rotational vdevs, low metaslabs weigh up to 2x (weight x (2 - ms_id / ms_count))"},
    {.name = "metaslab_fragmentation_factor_enabled", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "metaslab_space_weight: free space scaled by (100 - (FRAG - 1)) / 100 (ZoL 0.6.4+, illumos 4976)"},
    {.name = "zfs_metaslab_switch_threshold", .kind = K::kInt, .unit = "buckets", .fallback = "2", .min = 0, .max = 64,
     .doc = "segment weighting: the active metaslab is given up once its largest free-segment bucket is this many "
            "below the one it was activated at (metaslab_segment_may_passivate; ZoL 0.7.0+)"},
    {.name = "metaslab_df_alloc_threshold", .kind = K::kBytes, .unit = "bytes", .fallback = "128K", .min = 512,
     .max = kGiB,
     .doc = "DF takes the smallest free segment that fits (best fit) once a metaslab's largest is below this: "
            "SPA_OLD_MAXBLOCKSIZE 128K (0.7.0+), SPA_MAXBLOCKSIZE 16M in ZoL 0.6.5"},
    {.name = "metaslab_df_free_pct", .kind = K::kInt, .unit = "%", .fallback = "4", .min = 0, .max = 100,
     .doc = "DF takes the best fit once a metaslab's free space is below this percent"},
    {.name = "metaslab_df_max_search", .kind = K::kBytes, .unit = "bytes", .fallback = "16M", .min = 0, .max = kGiB,
     .doc = "DF's first-fit search stops this far past its first segment (after 100 segments) and falls back to "
            "best fit, without wrapping (OpenZFS 2.0+); 0: no limit, wrap once to the metaslab's start (before 2.0)"},
    {.name = "zfs_default_ibs", .kind = K::kInt, .unit = "log2 bytes", .fallback = "17", .min = 12, .max = 17,
     .doc = "indirect block size shift: 17 (128K) since OpenZFS 7104 / ZoL 0.7, 14 (16K) before"},
    {.name = "zfs_txg_timeout", .kind = K::kInt, .unit = "s", .fallback = "5", .min = 1, .max = 3600,
     .doc = "seconds between transaction groups (sets the run length of concurrent writers' interleaving)"},

    // ---- Scrub and resilver (dsl_scan.c; 0.7.13 for the legacy scan, 2.1.11 for the sorted one) ----
    {.name = "zfs_scan_legacy", .kind = K::kBool, .unit = "", .fallback = "false",
     .doc = "scan in block-pointer order, reading each block as it is visited (the only scan before ZoL 0.8 / "
            "FreeBSD 12, d4a72f2386); false: gather per-vdev extents and issue them sorted"},
    {.name = "zfs_top_maxinflight", .kind = K::kInt, .unit = "I/Os", .fallback = "32", .min = 1, .max = kInt32Max,
     .doc = "legacy scan: scan reads in flight, per top-level vdev, counted pool-wide (dsl_scan.c 0.7)"},
    {.name = "zfs_scrub_delay", .kind = K::kInt, .unit = "ticks", .fallback = "4", .min = 0, .max = kInt32Max,
     .doc = "legacy scan: ticks a scrub read waits when other I/O came within zfs_scan_idle ticks"},
    {.name = "zfs_resilver_delay", .kind = K::kInt, .unit = "ticks", .fallback = "2", .min = 0, .max = kInt32Max,
     .doc = "legacy scan: the same for a resilver read"},
    {.name = "zfs_scan_idle", .kind = K::kInt, .unit = "ticks", .fallback = "50", .min = 0, .max = kInt32Max,
     .doc = "legacy scan: the pool counts as busy this many ticks after its last non-scan read"},
    {.name = "ziosim_kernel_hz", .kind = K::kInt, .unit = "ticks/s", .fallback = "250", .min = 1, .max = 10000,
     .doc = "kernel clock ticks per second, the unit of the legacy scan's delays (Debian's Linux: CONFIG_HZ=250; "
            "FreeBSD: 1000; illumos: 100)"},
    {.name = "zfs_scrub_min_time_ms", .kind = K::kInt, .unit = "ms", .fallback = "1000", .min = 1,
     .max = kInt32Max, .doc = "a scrub's share of each txg before it yields to waiting syncs (zfs_scan_min_time_ms "
                               "before 0.8)"},
    {.name = "zfs_resilver_min_time_ms", .kind = K::kInt, .unit = "ms", .fallback = "3000", .min = 1,
     .max = kInt32Max, .doc = "the same for a resilver"},
    {.name = "zfs_scan_vdev_limit", .kind = K::kBytes, .unit = "bytes", .fallback = "4M", .min = 1,
     .max = INT64_MAX / 4, .doc = "sorted scan: bytes in flight per data disk of a top-level vdev"},
    {.name = "zfs_scan_max_ext_gap", .kind = K::kBytes, .unit = "bytes", .fallback = "2M", .min = 0,
     .max = INT64_MAX / 4, .doc = "sorted scan: blocks this close on a vdev join one extent"},
    {.name = "zfs_scan_fill_weight", .kind = K::kInt, .unit = "", .fallback = "3", .min = 0, .max = 1000,
     .doc = "sorted scan: weight of an extent's fill (its share of data) against its size in the issue order"},
    {.name = "zfs_scan_issue_strategy", .kind = K::kInt, .unit = "", .fallback = "0", .min = 0, .max = 2,
     .doc = "sorted scan: 1 LBA order, 2 largest extents first, 0 LBA when draining, largest first when memory "
            "runs out"},
    {.name = "zfs_scan_mem_lim_fact", .kind = K::kInt, .unit = "", .fallback = "20", .min = 1, .max = kInt32Max,
     .doc = "sorted scan: the gathered extents may use RAM / this (RAM taken as 2 x zfs_arc_max), at most 5 % of "
            "the allocated space, at least zfs_scan_mem_lim_min"},
    {.name = "zfs_scan_mem_lim_soft_fact", .kind = K::kInt, .unit = "", .fallback = "20", .min = 1,
     .max = kInt32Max, .doc = "sorted scan: issuing stops once memory is below the limit less limit / this"},
    {.name = "zfs_scan_mem_lim_min", .kind = K::kBytes, .unit = "bytes", .fallback = "16M", .min = 0,
     .max = INT64_MAX / 4, .doc = "sorted scan: smallest memory limit"},
    {.name = "zfs_scan_mem_lim_soft_max", .kind = K::kBytes, .unit = "bytes", .fallback = "128M", .min = 0,
     .max = INT64_MAX / 4, .doc = "sorted scan: most the soft limit stays below the hard one"},
    {.name = "zfs_rebuild_max_segment", .kind = K::kBytes, .unit = "bytes", .fallback = "1M", .min = 4096,
     .max = INT64_MAX / 4, .doc = "sequential rebuild: most bytes per data column a chunk reads (vdev_rebuild.c)"},
    {.name = "zfs_rebuild_vdev_limit", .kind = K::kBytes, .unit = "bytes", .fallback = "32M", .min = 1,
     .max = INT64_MAX / 4, .doc = "sequential rebuild: bytes in flight per child of the top-level vdev"},
    {.name = "zfs_no_scrub_prefetch", .kind = K::kBool, .unit = "", .fallback = "false",
     .doc = "the scan reads its indirect blocks only when it visits them, without reading ahead"},

    // ---- Write path: dirty data, txg sync, write throttle (dsl_pool.c, dmu_tx.c, vdev_queue.c;
    // the OpenZFS write throttle of illumos 4045, 2013; older eras are not modelled) ----
    {.name = "zfs_dirty_data_max", .kind = K::kBytes, .unit = "bytes", .fallback = "0", .min = 0,
     .max = INT64_MAX / 4,
     .doc = "most dirty data in the pool; 0: zfs_dirty_data_max_percent of RAM (taken as 2 x zfs_arc_max, "
            "arc.c's default arc_max being half of RAM), capped at zfs_dirty_data_max_max (arc_init)"},
    {.name = "zfs_dirty_data_max_max", .kind = K::kBytes, .unit = "bytes", .fallback = "4G", .min = kMiB,
     .max = INT64_MAX / 4, .doc = "cap of the derived zfs_dirty_data_max (dsl_pool.c: 4 GiB)"},
    {.name = "zfs_dirty_data_max_percent", .kind = K::kInt, .unit = "% of RAM", .fallback = "10", .min = 1,
     .max = 100, .doc = "derived zfs_dirty_data_max as a share of RAM (dsl_pool.c: 10)"},
    {.name = "zfs_dirty_data_sync_percent", .kind = K::kInt, .unit = "% of dirty max", .fallback = "20", .min = 1,
     .max = 100, .doc = "dirty data in the open txg that starts its sync early (dsl_pool.c: 20, ZoL 0.8+)"},
    {.name = "zfs_dirty_data_sync", .kind = K::kBytes, .unit = "bytes", .fallback = "0", .min = 0,
     .max = INT64_MAX / 4, .doc = "the same threshold in bytes before ZoL 0.8 (64 MiB); 0: use the percent"},
    {.name = "zfs_delay_min_dirty_percent", .kind = K::kInt, .unit = "% of dirty max", .fallback = "60", .min = 0,
     .max = 100, .doc = "write throttle: writers are delayed above this much dirty data (dsl_pool.c: 60)"},
    {.name = "zfs_delay_scale", .kind = K::kInt, .unit = "ns", .fallback = "500000", .min = 0, .max = kInt32Max,
     .doc = "write throttle: delay = scale x (dirty - min) / (max - dirty) per write (dsl_pool.c: 10^9 / 2000)"},
    {.name = "zfs_delay_max_ns", .kind = K::kInt, .unit = "ns", .fallback = "100000000", .min = 0,
     .max = kInt32Max, .doc = "write throttle: longest delay of one write (dmu_tx.c: 100 ms)"},
    {.name = "zfs_vdev_async_write_active_min_dirty_percent", .kind = K::kInt, .unit = "% of dirty max",
     .fallback = "30", .min = 0, .max = 100,
     .doc = "class: below this much dirty data async_write_min_active txg writes per disk (vdev_queue.c: 30)"},
    {.name = "zfs_vdev_async_write_active_max_dirty_percent", .kind = K::kInt, .unit = "% of dirty max",
     .fallback = "60", .min = 0, .max = 100,
     .doc = "class: above this much dirty data async_write_max_active; linear in between (vdev_queue.c: 60)"},

    // ---- Intent log (zil.c, zfs_log.c) ----
    {.name = "zfs_immediate_write_sz", .kind = K::kBytes, .unit = "bytes", .fallback = "32K", .min = 0,
     .max = kSpaMaxBlockSize,
     .doc = "without a log device, sync writes this large are WR_INDIRECT: data written in place (zfs_log.c: 32768)"},
    {.name = "zil_maxblocksize", .kind = K::kBytes, .unit = "bytes", .fallback = "128K", .min = 4 * kKiB,
     .max = kSpaMaxBlockSize, .doc = "largest log block, lwb (zil.c: SPA_OLD_MAXBLOCKSIZE = 128K)"},
    {.name = "zfs_nocacheflush", .kind = K::kBool, .unit = "", .fallback = "false",
     .doc = "skip the write-cache flush after log blocks (zil_flush_vdevs); unsafe without NVRAM"},
    {.name = "zil_disable", .kind = K::kBool, .unit = "", .fallback = "false",
     .doc = "no intent log at all: fsync/O_DSYNC return at once (illumos before b140, FreeBSD before v28)"},

    // ---- Prefetch (dmu_zfetch.c, reference section 5) ----
    {.name = "zfs_prefetch_disable", .kind = K::kBool, .unit = "", .fallback = "false",
     .doc = "disable predictive prefetch"},
    {.name = "ziosim_zfetch_era", .kind = K::kChoice, .unit = "", .fallback = "2022", .choices = "old|2015|2022",
     .doc = "prefetcher: old (strided streams, <= 2015), 2015 (illumos 5987 rewrite), 2022 (adaptive distance, 2.2+)"},
    {.name = "zfetch_max_streams", .kind = K::kInt, .unit = "streams", .fallback = "8", .min = 1, .max = 1024,
     .doc = "prefetch streams per file"},
    {.name = "zfetch_min_sec_reap", .kind = K::kInt, .unit = "s", .fallback = "1", .min = 0, .max = 3600,
     .doc = "an idle stream may be reused after this long (2 s before 2.2)"},
    {.name = "zfetch_max_sec_reap", .kind = K::kInt, .unit = "s", .fallback = "2", .min = 0, .max = 3600,
     .doc = "2022 era: an idle stream is deleted after this long"},
    {.name = "zfetch_block_cap", .kind = K::kInt, .unit = "blocks", .fallback = "256", .min = 1, .max = 1 << 20,
     .doc = "old era: most blocks a stream prefetches per burst"},
    {.name = "zfetch_array_rd_sz", .kind = K::kBytes, .unit = "bytes", .fallback = "1M", .min = 0, .max = kGiB,
     .doc = "read chunks longer than this are not prefetched for (retired in 2.3)"},
    {.name = "ziosim_zfetch_rd_sz_inclusive", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "a chunk of exactly zfetch_array_rd_sz still prefetches (illumos 6281, ZoL 0.7); false: the 5987 quirk"},
    {.name = "ziosim_zfetch_misaligned_hit", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "2015 era: a read overlapping the stream's last block by one still matches (OpenZFS 8835, ZoL 0.8)"},
    {.name = "ziosim_zfetch_after_miss", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "data prefetch only once a stream has seen a demand miss (891568c990, 2.1)"},
    {.name = "zfetch_max_distance", .kind = K::kBytes, .unit = "bytes", .fallback = "64M", .min = 0,
     .max = 16 * kGiB, .doc = "most bytes of data a stream prefetches ahead (8 MiB 2015-2022)"},
    {.name = "zfetch_min_distance", .kind = K::kBytes, .unit = "bytes", .fallback = "4M", .min = 0,
     .max = 16 * kGiB, .doc = "2022 era: distance grows by doubling up to this, then by 1/8 per late prefetch"},
    {.name = "zfetch_max_idistance", .kind = K::kBytes, .unit = "bytes", .fallback = "64M", .min = 0,
     .max = 16 * kGiB, .doc = "indirect-block prefetch reach beyond the data prefetch (0 before OpenZFS 6322)"},
    {.name = "ziosim_prefetch_promote", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "a demand read waiting on a queued prefetch promotes it to sync_read (a8b2e30685, ZoL 0.8)"},

    // ---- ARC, dbuf cache, L2ARC (arc.c, reference section 6) ----
    {.name = "zfs_arc_max", .kind = K::kBytes, .unit = "bytes", .fallback = "4G", .min = 64 * kMiB,
     .max = INT64_MAX / 4, .doc = "ARC size limit (OpenZFS: half of RAM; 4 GiB here unless set)"},
    {.name = "zfs_compressed_arc_enabled", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "keep blocks compressed in the ARC (OpenZFS 6950, ZoL 0.7)"},
    {.name = "dbuf_cache_max_bytes", .kind = K::kBytes, .unit = "bytes", .fallback = "0", .min = 0,
     .max = INT64_MAX / 4, .doc = "dbuf cache of decompressed blocks; 0: zfs_arc_max / 32"},
    {.name = "l2arc_write_max", .kind = K::kBytes, .unit = "bytes", .fallback = "8M", .min = 0, .max = 16 * kGiB,
     .doc = "bytes written to the cache device per feed pass (32M since 2.3)"},
    {.name = "l2arc_write_boost", .kind = K::kBytes, .unit = "bytes", .fallback = "8M", .min = 0,
     .max = 16 * kGiB, .doc = "extra bytes per feed pass while the ARC is still warming up"},
    {.name = "l2arc_headroom", .kind = K::kInt, .unit = "x write_max", .fallback = "2", .min = 0, .max = 1000,
     .doc = "how far from the eviction end a feed pass scans (8 since 2.3)"},
    {.name = "l2arc_feed_secs", .kind = K::kInt, .unit = "s", .fallback = "1", .min = 1, .max = 3600,
     .doc = "seconds between L2ARC feed passes"},
    {.name = "l2arc_noprefetch", .kind = K::kBool, .unit = "", .fallback = "true",
     .doc = "blocks read by prefetch are neither written to nor (before Oct 2023) served from the L2ARC"},

    // ---- Host CPU (estimated figures for a 2015-era x86 server core; a host
    // profile, models/hosts/*.toml from `ziosim calibrate --kind host`, gives
    // measured ones) ----
    {.name = "ziosim_cpu_cores", .kind = K::kInt, .unit = "cores", .fallback = "4", .min = 1, .max = 1024,
     .doc = "host cores available to readers and the zio pipeline"},
    {.name = "ziosim_cpu_syscall_ns", .kind = K::kInt, .unit = "ns", .fallback = "2000", .min = 0,
     .max = kInt32Max, .doc = "CPU per read() call through VFS, zfs_read and dmu (estimated)"},
    {.name = "ziosim_cpu_buffer_alloc_ns", .kind = K::kInt, .unit = "ns", .fallback = "1000", .min = 0,
     .max = kInt32Max, .doc = "allocate and free one block buffer, per call (estimated)"},
    // 0 keeps every buffer at the per-call cost alone, as before page costs were modelled.
    {.name = "ziosim_cpu_buffer_alloc_per_page_ns", .kind = K::kInt, .unit = "ns", .fallback = "0", .min = 0,
     .max = kInt32Max,
     .doc = "more per 4 KiB page of a buffer above ziosim_cpu_alloc_page_threshold_bytes (0: none; measured by "
            "`ziosim calibrate --kind host`)"},
    // OpenZFS 2.x has a kmem cache for every zio buffer size up to the 16 MiB
    // largest block, so no block buffer goes to the page allocator.
    {.name = "ziosim_cpu_alloc_page_threshold_bytes", .kind = K::kBytes, .unit = "bytes", .fallback = "16M",
     .min = 0, .max = 16 * kGiB,
     .doc = "buffers larger than this come from the page allocator, charged per page (FreeBSD malloc(9) "
            "without zio_use_uma: its largest zone, vm.kmem_zmax)"},
    {.name = "ziosim_cpu_memcpy_mb_s", .kind = K::kInt, .unit = "MB/s", .fallback = "6000", .min = 1,
     .max = kInt32Max, .doc = "copy-out bandwidth of one core (estimated, DDR3/DDR4 single thread)"},
    {.name = "ziosim_cpu_zero_mb_s", .kind = K::kInt, .unit = "MB/s", .fallback = "10000", .min = 1,
     .max = kInt32Max, .doc = "memset bandwidth of one core (estimated)"},
    {.name = "ziosim_cpu_checksum_mb_s", .kind = K::kInt, .unit = "MB/s", .fallback = "4000", .min = 1,
     .max = kInt32Max, .doc = "fletcher4 checksum bandwidth of one core (estimated, scalar)"},
    {.name = "ziosim_cpu_decompress_mb_s", .kind = K::kInt, .unit = "MB/s", .fallback = "3000", .min = 1,
     .max = kInt32Max, .doc = "lz4 decompression output bandwidth of one core (estimated)"},
};

std::vector<std::string> SplitChoices(std::string_view choices) {
  std::vector<std::string> out;
  while (!choices.empty()) {
    const size_t bar = choices.find('|');
    out.emplace_back(choices.substr(0, bar));
    if (bar == std::string_view::npos) break;
    choices.remove_prefix(bar + 1);
  }
  return out;
}

// Exact binary form: 131072 -> "128K", 1310720 -> "1280K", 1000 -> "1000".
std::string FormatBytes(int64_t v) {
  if (v == 0) return "0";
  static constexpr std::pair<int, char> kSuffixes[] = {{40, 'T'}, {30, 'G'}, {20, 'M'}, {10, 'K'}};
  for (const auto& [shift, letter] : kSuffixes) {
    const int64_t unit = int64_t{1} << shift;
    if (v % unit == 0) return std::to_string(v / unit) + letter;
  }
  return std::to_string(v);
}

std::string FormatValue(const TunableDef& def, int64_t v) {
  return def.kind == K::kBytes ? FormatBytes(v) : std::to_string(v);
}

[[noreturn]] void Fail(std::string_view origin, std::string_view name, const std::string& what) {
  throw InputError(std::string(origin) + ": " + std::string(name) + ": " + what);
}

const TunableDef& RequireDef(std::string_view name) {
  const TunableDef* def = FindTunable(name);
  if (def == nullptr) throw std::logic_error("no tunable named " + std::string(name));
  return *def;
}

int64_t ParseInt(const TunableDef& def, std::string_view text, std::string_view origin) {
  int64_t v = 0;
  std::string_view digits = text;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || end != digits.data() + digits.size() || ec == std::errc::invalid_argument) {
    Fail(origin, def.name, "\"" + std::string(text) + "\" is not an integer");
  }
  if (ec == std::errc::result_out_of_range) Fail(origin, def.name, "\"" + std::string(text) + "\" is too large");
  return v;
}

int64_t ParseBytes(const TunableDef& def, std::string_view text, std::string_view origin) {
  try {
    return ParseSize(text, def.name);
  } catch (const InputError& e) {
    throw InputError(std::string(origin) + ": " + e.what());
  }
}

int64_t ParseBool(const TunableDef& def, std::string_view text, std::string_view origin) {
  const std::string v = Lower(text);
  if (v == "true" || v == "1" || v == "yes" || v == "on") return 1;
  if (v == "false" || v == "0" || v == "no" || v == "off") return 0;
  Fail(origin, def.name, "\"" + std::string(text) + "\" is not a boolean (true/false, 1/0, yes/no, on/off)");
}

void CheckRange(const TunableDef& def, int64_t v, std::string_view text, std::string_view origin) {
  if (v >= def.min && v <= def.max) return;
  const std::string got = " (got " + std::string(text) + ")";
  if (def.max == INT64_MAX) Fail(origin, def.name, "must be at least " + FormatValue(def, def.min) + got);
  Fail(origin, def.name,
       "must be between " + FormatValue(def, def.min) + " and " + FormatValue(def, def.max) + got);
}

// The canonical spelling of `text` among def's choices (case-insensitive).
std::string ParseChoice(const TunableDef& def, std::string_view text, std::string_view origin) {
  if (def.choices.empty()) {
    if (text.empty()) Fail(origin, def.name, "empty value: give a name");
    return std::string(text);
  }
  const std::vector<std::string> choices = SplitChoices(def.choices);
  for (const std::string& c : choices) {
    if (Lower(text) == c) return c;
  }
  Fail(origin, def.name, "\"" + std::string(text) + "\" is not one of " + Join(choices, " or "));
}

std::string UnknownTunableMessage(std::string_view name) {
  const std::vector<std::string> close = SuggestTunables(name);
  std::string what = "unknown tunable";
  if (!close.empty()) what += "; did you mean " + Join(close, " or ") + "?";
  return what + " (`ziosim tunables` lists them all)";
}

// ---- Profile files ----

// Name order with digit runs compared as numbers: freebsd-9 < freebsd-10, zol-0.6.5 < zol-0.7.
bool NaturalLess(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      std::string_view na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      while (na.size() > 1 && na.front() == '0') na.remove_prefix(1);
      while (nb.size() > 1 && nb.front() == '0') nb.remove_prefix(1);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

bool LooksLikePath(std::string_view s) {
  return s.find('/') != std::string_view::npos || (s.size() > 5 && s.substr(s.size() - 5) == ".toml");
}

}  // namespace

// ---- The table ----

std::span<const TunableDef> TunableTable() { return kTable; }

const TunableDef* FindTunable(std::string_view name) {
  for (const TunableDef& def : kTable) {
    if (def.name == name) return &def;
  }
  return nullptr;
}

std::string TunableValues(const TunableDef& def) {
  switch (def.kind) {
    case K::kBool: return "true|false";
    case K::kChoice: return def.choices.empty() ? "any registered name" : std::string(def.choices);
    case K::kInt:
    case K::kBytes: {
      const std::string lo = FormatValue(def, def.min);
      return def.max == INT64_MAX ? ">= " + lo : lo + ".." + FormatValue(def, def.max);
    }
  }
  return "";
}

std::vector<std::string> SuggestTunables(std::string_view name, size_t max) {
  // A FreeBSD sysctl name (vfs.zfs.vdev.max_active) maps to the Linux one (zfs_vdev_max_active).
  std::string wanted = Lower(Trim(name));
  if (wanted.starts_with("vfs.zfs.")) wanted = "zfs_" + wanted.substr(8);
  std::replace(wanted.begin(), wanted.end(), '.', '_');
  std::vector<std::string_view> names;
  for (const TunableDef& def : kTable) names.push_back(def.name);
  return ClosestWords(wanted, names, max);
}

// ---- Tunables ----

Tunables::Tunables() {
  for (const TunableDef& def : kTable) Set(def.name, def.fallback, "built-in fallback");
}

void Tunables::Set(std::string_view name, std::string_view value, std::string_view origin) {
  const TunableDef* def = FindTunable(name);
  if (def == nullptr) Fail(origin, name, UnknownTunableMessage(name));
  const std::string_view text = Trim(value);
  switch (def->kind) {
    case K::kChoice:
      text_[std::string(def->name)] = ParseChoice(*def, text, origin);
      return;
    case K::kBool:
      ints_[std::string(def->name)] = ParseBool(*def, text, origin);
      return;
    case K::kInt:
    case K::kBytes: {
      if (text.empty()) Fail(origin, def->name, "empty value");
      const int64_t v = def->kind == K::kInt ? ParseInt(*def, text, origin) : ParseBytes(*def, text, origin);
      CheckRange(*def, v, text, origin);
      ints_[std::string(def->name)] = v;
      return;
    }
  }
}

int64_t Tunables::Int(std::string_view name) const {
  const TunableDef& def = RequireDef(name);
  if (def.kind == K::kChoice) throw std::logic_error("tunable " + std::string(name) + " is a choice, not a number");
  return ints_.find(name)->second;
}

const std::string& Tunables::Choice(std::string_view name) const {
  const TunableDef& def = RequireDef(name);
  if (def.kind != K::kChoice) throw std::logic_error("tunable " + std::string(name) + " is not a choice");
  return text_.find(name)->second;
}

std::string Tunables::Text(std::string_view name) const {
  const TunableDef& def = RequireDef(name);
  switch (def.kind) {
    case K::kChoice: return Choice(name);
    case K::kBool: return Bool(name) ? "true" : "false";
    case K::kInt:
    case K::kBytes: return FormatValue(def, Int(name));
  }
  return "";
}

// ---- Era profiles ----

std::string ProfilesDir() { return DataDir("profiles", ZIOSIM_PROFILES_DIR); }

std::vector<std::string> ProfileNames() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(ProfilesDir(), ec)) {
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  }
  if (ec) throw InputError(ProfilesDir() + ": cannot read the era profiles: " + ec.message());
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return NaturalLess(a, b); });
  return names;
}

EraProfile LoadTunableFile(const std::string& path, std::string_view what, std::string_view only_prefix) {
  const toml::table root = ParseTomlFile(path, std::string(what) + " file");
  EraProfile profile;
  profile.name = fs::path(path).stem().string();
  for (auto&& [key, node] : root) {
    if (key != "description" && key != "tunables") {
      throw InputError(path, TomlLine(node),
                       std::string(key.str()) + ": unknown key (a " + std::string(what) +
                           " has description and [tunables])");
    }
  }
  const toml::node* description = root.get("description");
  if (description == nullptr) throw InputError(path, 1, "description: missing");
  if (!description->is_string() || description->as_string()->get().empty()) {
    throw InputError(path, TomlLine(*description), "description: expected a non-empty string");
  }
  profile.description = description->as_string()->get();

  const toml::node* section = root.get("tunables");
  if (section == nullptr) return profile;  // a profile equal to the fallbacks
  const toml::table* tunables = section->as_table();
  if (tunables == nullptr) {
    throw InputError(path, TomlLine(*section), "tunables: expected a [tunables] table, got " + TomlTypeName(*section));
  }
  // toml++ keeps keys sorted; report and keep them in file order.
  std::vector<std::tuple<int, std::string, const toml::node*>> entries;
  for (auto&& [key, node] : *tunables) entries.emplace_back(TomlLine(node), std::string(key.str()), &node);
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  Tunables check;
  for (const auto& [line, key, node] : entries) {
    const std::string origin = path + ":" + std::to_string(line);
    check.Set(key, TomlScalarText(path, std::string(key), *node), origin);
    if (!key.starts_with(only_prefix)) {
      Fail(origin, key, "not a " + std::string(what) + " tunable (a " + std::string(what) + " sets " +
                            std::string(only_prefix) + "* only)");
    }
    profile.settings.emplace_back(key, check.Text(key));
  }
  return profile;
}

EraProfile LoadProfileFile(const std::string& path) { return LoadTunableFile(path, "profile", ""); }

std::vector<EraProfile> EraProfiles() {
  std::vector<EraProfile> profiles;
  for (const std::string& name : ProfileNames()) {
    profiles.push_back(LoadProfileFile((fs::path(ProfilesDir()) / (name + ".toml")).string()));
  }
  return profiles;
}

Tunables ProfileTunables(std::string_view name) {
  std::string path;
  if (LooksLikePath(name)) {
    path = std::string(name);
  } else {
    const std::vector<std::string> names = ProfileNames();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      const std::vector<std::string> close = ClosestWords(Lower(name), {names.begin(), names.end()}, 3);
      throw InputError("unknown profile \"" + std::string(name) + "\"" +
                       (close.empty() ? "" : "; did you mean " + Join(close, " or ") + "?") +
                       "; known profiles: " + Join(names) + " (or a path to a .toml profile file)");
    }
    path = (fs::path(ProfilesDir()) / (std::string(name) + ".toml")).string();
  }
  const EraProfile profile = LoadProfileFile(path);
  Tunables tunables;
  for (const auto& [key, value] : profile.settings) tunables.Set(key, value, path);
  return tunables;
}

Tunables RunTunables(std::string_view profile, const std::vector<std::pair<std::string, std::string>>& settings,
                     int64_t arc_max_bytes) {
  Tunables t = ProfileTunables(profile);
  for (const auto& [name, value] : settings) t.Set(name, value, "--set");
  if (arc_max_bytes > 0) t.Set("zfs_arc_max", std::to_string(arc_max_bytes), "--arc-max");
  return t;
}

}  // namespace ziosim
