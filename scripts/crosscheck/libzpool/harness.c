/*
 * harness.c - zpool_harness: drive real OpenZFS 2.1.11 code (libzpool) as an
 * oracle for ziosim.  Creates a pool on sparse files, writes objects with
 * random data, cold-restarts (export, kernel_fini/init, read-only import)
 * and times a multi-threaded dmu_read phase (or, with --scrub, a scrub of
 * the pool), reporting per-leaf vdev statistics, ARC/zfetch counters and
 * optionally every block pointer as one JSON object on stdout.  See
 * README.md.
 *
 * Written from scratch for the ziosim cross-check; it calls libzpool's
 * public (and a few internal, exported) interfaces only.
 */
#include <sys/zfs_context.h>
#include <sys/spa.h>
#include <sys/spa_impl.h>
#include <sys/vdev_impl.h>
#include <sys/dmu.h>
#include <sys/dnode.h>
#include <sys/dbuf.h>
#include <sys/zio.h>
#include <sys/dsl_prop.h>
#include <sys/txg.h>
#include <sys/arc_impl.h>
#include <sys/wmsum.h>
#include <sys/fs/zfs.h>
#include <zfeature_common.h>
#include <dlfcn.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "../leafdev.h"

#define	ZH_POOL		"zh"
#define	ZH_DS		"zh/ds"
#define	ZH_MAX_LEAVES	64
#define	ZH_NCLASS	ZIO_PRIORITY_NUM_QUEUEABLE

/* One explicit tag for own/disown/holds (FTAG differs per function). */
static char zh_tag[] = "zpool_harness";

/* ---------------------------------------------------------------- options */

typedef enum { RD_WHOLE, RD_RANGE, RD_HOLES } zh_read_t;

static struct {
	const char *dir;
	char vdev_kind[32];
	int nleaves;
	/* draid: parity, data columns per group, distributed spares, groups per slice */
	int draid_parity, draid_data, draid_spares, draid_groups;
	uint64_t leaf_size;
	int ashift;
	uint64_t recordsize;
	uint64_t file_size;
	int files;		/* -1 = readers */
	int readers;
	int same_file;
	uint64_t bs;
	zh_read_t read;
	uint64_t range_off, range_len;
	char read_spec[64];
	int primarycache_all;
	int rotational;
	uint64_t arc_max;
	uint64_t seed;
	int dump_blocks;
	int prefetch;
	int vdev_file_threads;
	int scrub;		/* scrub the pool instead of the read phase */
	int ntunables;
	char tunable_name[32][64];
	uint64_t tunable_val[32];
} zo;

static void
zh_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "zpool_harness: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static void
zh_badarg(const char *opt, const char *val)
{
	fprintf(stderr, "zpool_harness: bad argument --%s %s\n", opt,
	    val ? val : "");
	exit(2);
}

/* Byte count with optional K/M/G/T (binary) suffix. */
static int
zh_parse_bytes(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (end == s || errno != 0 || s[0] == '-')
		return (-1);
	uint64_t mul = 1;
	switch (*end) {
	case '\0': break;
	case 'k': case 'K': mul = 1ULL << 10; end++; break;
	case 'm': case 'M': mul = 1ULL << 20; end++; break;
	case 'g': case 'G': mul = 1ULL << 30; end++; break;
	case 't': case 'T': mul = 1ULL << 40; end++; break;
	default: return (-1);
	}
	if (*end == 'i' && mul > 1)
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end != '\0')
		return (-1);
	*out = (uint64_t)v * mul;
	return (0);
}

static int
zh_parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || v < lo || v > hi)
		return (-1);
	*out = v;
	return (0);
}

/*
 * draidP[:<D>d][:<S>s] over `children` leaves, with zpool create's default
 * data columns (min(children - spares - parity, 8)) and groups per slice
 * (draid_config_by_type). -1 when malformed or impossible.
 */
static int
zh_parse_draid(const char *kind, int children)
{
	const char *p = kind + 5;
	int parity = 1, data = 0, spares = 0;
	if (*p >= '1' && *p <= '3')
		parity = *p++ - '0';
	while (*p == ':') {
		char *end;
		long v = strtol(p + 1, &end, 10);
		if (end == p + 1 || v < 0 || (*end != 'd' && *end != 's'))
			return (-1);
		if (*end == 'd')
			data = (int)v;
		else
			spares = (int)v;
		p = end + 1;
	}
	if (*p != '\0')
		return (-1);
	if (data == 0)
		data = MIN(children - spares - parity, 8);
	if (data < 1 || data + parity + spares > children)
		return (-1);
	int groups = 1;
	while (groups * (data + parity) % (children - spares) != 0)
		groups++;
	zo.draid_parity = parity;
	zo.draid_data = data;
	zo.draid_spares = spares;
	zo.draid_groups = groups;
	return (0);
}

/*
 * Module parameters --tunable may set: exported globals of libzpool 2.1.11,
 * with their C sizes (4 = int/uint32_t/unsigned int, 8 = (unsigned) long).
 */
static const struct { const char *name; int size; } zh_tunables[] = {
	{ "zfs_vdev_max_active", 4 },
	{ "zfs_vdev_sync_read_min_active", 4 },
	{ "zfs_vdev_sync_read_max_active", 4 },
	{ "zfs_vdev_sync_write_min_active", 4 },
	{ "zfs_vdev_sync_write_max_active", 4 },
	{ "zfs_vdev_async_read_min_active", 4 },
	{ "zfs_vdev_async_read_max_active", 4 },
	{ "zfs_vdev_async_write_min_active", 4 },
	{ "zfs_vdev_async_write_max_active", 4 },
	{ "zfs_vdev_scrub_min_active", 4 },
	{ "zfs_vdev_scrub_max_active", 4 },
	{ "zfs_vdev_aggregation_limit", 4 },
	{ "zfs_vdev_aggregation_limit_non_rotating", 4 },
	{ "zfs_vdev_read_gap_limit", 4 },
	{ "zfs_vdev_write_gap_limit", 4 },
	{ "zfs_vdev_queue_depth_pct", 4 },
	{ "zfs_vdev_def_queue_depth", 4 },
	{ "zfs_prefetch_disable", 4 },
	{ "zfetch_max_streams", 4 },
	{ "zfetch_max_distance", 4 },
	{ "zfetch_max_idistance", 4 },
	{ "zfetch_array_rd_sz", 8 },
	{ "zfs_dirty_data_max", 8 },
	{ "zfs_arc_min", 8 },
	/* scan (scrub) parameters of dsl_scan.c */
	{ "zfs_scan_vdev_limit", 8 },
	{ "zfs_scan_mem_lim_fact", 4 },
	{ "zfs_scan_issue_strategy", 4 },
	{ "zfs_scan_legacy", 4 },
	{ "zfs_scan_max_ext_gap", 8 },
	{ "zfs_scrub_min_time_ms", 4 },
};

static int
zh_tunable_size(const char *name)
{
	for (size_t i = 0; i < sizeof (zh_tunables) / sizeof (zh_tunables[0]);
	    i++)
		if (strcmp(zh_tunables[i].name, name) == 0)
			return (zh_tunables[i].size);
	return (0);
}

static void
zh_apply_tunables(void)
{
	for (int t = 0; t < zo.ntunables; t++) {
		void *p = dlsym(RTLD_DEFAULT, zo.tunable_name[t]);
		if (p == NULL)
			zh_badarg("tunable", zo.tunable_name[t]);
		if (zh_tunable_size(zo.tunable_name[t]) == 4)
			*(uint32_t *)p = (uint32_t)zo.tunable_val[t];
		else
			*(uint64_t *)p = zo.tunable_val[t];
	}
}

static void
zh_usage(void)
{
	fprintf(stderr,
	    "usage: zpool_harness --dir DIR --vdev KIND:N [--leaf-size B] "
	    "[--ashift 9|12]\n"
	    "  [--recordsize B] [--file-size B] [--files N] [--readers N] "
	    "[--same-file]\n"
	    "  [--bs B] [--read whole|range:OFF:LEN|holes] "
	    "[--primarycache all|metadata]\n"
	    "  [--rotational 0|1] [--arc-max B] [--seed N] [--dump-blocks] "
	    "[--prefetch 0|1]\n"
	    "  [--vdev-file-threads N] [--scrub] [--tunable NAME=VALUE]...\n");
}

static void
zh_parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "vdev", required_argument, NULL, 'v' },
		{ "leaf-size", required_argument, NULL, 'L' },
		{ "ashift", required_argument, NULL, 'a' },
		{ "recordsize", required_argument, NULL, 'r' },
		{ "file-size", required_argument, NULL, 'F' },
		{ "files", required_argument, NULL, 'f' },
		{ "readers", required_argument, NULL, 'n' },
		{ "same-file", no_argument, NULL, 'S' },
		{ "bs", required_argument, NULL, 'b' },
		{ "read", required_argument, NULL, 'R' },
		{ "primarycache", required_argument, NULL, 'p' },
		{ "rotational", required_argument, NULL, 'o' },
		{ "arc-max", required_argument, NULL, 'A' },
		{ "seed", required_argument, NULL, 's' },
		{ "dump-blocks", no_argument, NULL, 'D' },
		{ "prefetch", required_argument, NULL, 'P' },
		{ "vdev-file-threads", required_argument, NULL, 'T' },
		{ "tunable", required_argument, NULL, 'X' },
		{ "scrub", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};

	zo.dir = NULL;
	strcpy(zo.vdev_kind, "stripe");
	zo.nleaves = 1;
	zo.leaf_size = 4ULL << 30;
	zo.ashift = 12;
	zo.recordsize = 128 << 10;
	zo.file_size = 256ULL << 20;
	zo.files = -1;
	zo.readers = 1;
	zo.bs = 1 << 20;
	zo.read = RD_WHOLE;
	strcpy(zo.read_spec, "whole");
	zo.primarycache_all = 1;
	zo.rotational = 0;
	zo.arc_max = 0;
	zo.seed = 1;
	zo.prefetch = 1;
	zo.vdev_file_threads = 256;

	int c, idx;
	long v;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, &idx)) != -1) {
		const char *name = (c == '?' || c == ':') ? NULL :
		    opts[idx].name;
		switch (c) {
		case 'd':
			zo.dir = optarg;
			break;
		case 'v': {
			/* KIND:N; a dRAID's KIND is draidP[:<D>d][:<S>s] */
			char kind[32];
			const char *colon = strrchr(optarg, ':');
			if (colon == NULL || colon - optarg >= (long)sizeof (kind))
				zh_badarg(name, optarg);
			memcpy(kind, optarg, colon - optarg);
			kind[colon - optarg] = '\0';
			int draid = strncmp(kind, "draid", 5) == 0;
			if (strcmp(kind, "stripe") != 0 &&
			    strcmp(kind, "mirror") != 0 &&
			    strcmp(kind, "raidz1") != 0 &&
			    strcmp(kind, "raidz2") != 0 &&
			    strcmp(kind, "raidz3") != 0 && !draid)
				zh_badarg(name, optarg);
			if (zh_parse_int(colon + 1, 1, ZH_MAX_LEAVES, &v) != 0)
				zh_badarg(name, optarg);
			int minl = 1;
			if (strcmp(kind, "mirror") == 0)
				minl = 2;
			else if (strncmp(kind, "raidz", 5) == 0)
				minl = (kind[5] - '0') + 1;
			if (v < minl ||
			    (draid && zh_parse_draid(kind, (int)v) != 0))
				zh_badarg(name, optarg);
			strcpy(zo.vdev_kind, kind);
			zo.nleaves = (int)v;
			break;
		}
		case 'L':
			if (zh_parse_bytes(optarg, &zo.leaf_size) != 0 ||
			    zo.leaf_size < (64ULL << 20))
				zh_badarg(name, optarg);
			break;
		case 'a':
			if (zh_parse_int(optarg, 9, 16, &v) != 0 ||
			    (v != 9 && v != 12))
				zh_badarg(name, optarg);
			zo.ashift = (int)v;
			break;
		case 'r':
			if (zh_parse_bytes(optarg, &zo.recordsize) != 0 ||
			    zo.recordsize < 512 ||
			    zo.recordsize > (16ULL << 20) ||
			    (zo.recordsize & (zo.recordsize - 1)) != 0)
				zh_badarg(name, optarg);
			break;
		case 'F':
			if (zh_parse_bytes(optarg, &zo.file_size) != 0 ||
			    zo.file_size == 0)
				zh_badarg(name, optarg);
			break;
		case 'f':
			if (zh_parse_int(optarg, 1, 4096, &v) != 0)
				zh_badarg(name, optarg);
			zo.files = (int)v;
			break;
		case 'n':
			if (zh_parse_int(optarg, 1, 4096, &v) != 0)
				zh_badarg(name, optarg);
			zo.readers = (int)v;
			break;
		case 'S':
			zo.same_file = 1;
			break;
		case 'b':
			if (zh_parse_bytes(optarg, &zo.bs) != 0 || zo.bs == 0 ||
			    zo.bs > (1ULL << 30))
				zh_badarg(name, optarg);
			break;
		case 'R':
			if (strlen(optarg) >= sizeof (zo.read_spec))
				zh_badarg(name, optarg);
			strcpy(zo.read_spec, optarg);
			if (strcmp(optarg, "whole") == 0) {
				zo.read = RD_WHOLE;
			} else if (strcmp(optarg, "holes") == 0) {
				zo.read = RD_HOLES;
			} else if (strncmp(optarg, "range:", 6) == 0) {
				char buf[64], *sep;
				strcpy(buf, optarg + 6);
				sep = strchr(buf, ':');
				if (sep == NULL)
					zh_badarg(name, optarg);
				*sep = '\0';
				if (zh_parse_bytes(buf, &zo.range_off) != 0 ||
				    zh_parse_bytes(sep + 1, &zo.range_len) !=
				    0 || zo.range_len == 0)
					zh_badarg(name, optarg);
				zo.read = RD_RANGE;
			} else {
				zh_badarg(name, optarg);
			}
			break;
		case 'p':
			if (strcmp(optarg, "all") == 0)
				zo.primarycache_all = 1;
			else if (strcmp(optarg, "metadata") == 0)
				zo.primarycache_all = 0;
			else
				zh_badarg(name, optarg);
			break;
		case 'o':
			if (zh_parse_int(optarg, 0, 1, &v) != 0)
				zh_badarg(name, optarg);
			zo.rotational = (int)v;
			break;
		case 'A':
			if (zh_parse_bytes(optarg, &zo.arc_max) != 0)
				zh_badarg(name, optarg);
			break;
		case 's': {
			char *end;
			errno = 0;
			zo.seed = strtoull(optarg, &end, 0);
			if (end == optarg || *end != '\0' || errno != 0)
				zh_badarg(name, optarg);
			break;
		}
		case 'D':
			zo.dump_blocks = 1;
			break;
		case 'P':
			if (zh_parse_int(optarg, 0, 1, &v) != 0)
				zh_badarg(name, optarg);
			zo.prefetch = (int)v;
			break;
		case 'T':
			if (zh_parse_int(optarg, 1, 100000, &v) != 0)
				zh_badarg(name, optarg);
			zo.vdev_file_threads = (int)v;
			break;
		case 'C':
			zo.scrub = 1;
			break;
		case 'X': {
			const char *eq = strchr(optarg, '=');
			if (eq == NULL || eq - optarg >= 64 || zo.ntunables >= 32)
				zh_badarg(name, optarg);
			int t = zo.ntunables;
			memcpy(zo.tunable_name[t], optarg, eq - optarg);
			zo.tunable_name[t][eq - optarg] = '\0';
			if (zh_tunable_size(zo.tunable_name[t]) == 0 ||
			    zh_parse_bytes(eq + 1, &zo.tunable_val[t]) != 0)
				zh_badarg(name, optarg);
			zo.ntunables++;
			break;
		}
		case 'h':
			zh_usage();
			exit(0);
		default: {
			const char *bad = argv[optind - 1];
			fprintf(stderr, "zpool_harness: bad argument %s\n",
			    bad ? bad : "?");
			exit(2);
		}
		}
	}
	if (optind < argc) {
		fprintf(stderr, "zpool_harness: bad argument %s\n",
		    argv[optind]);
		exit(2);
	}
	if (zo.dir == NULL) {
		fprintf(stderr, "zpool_harness: bad argument --dir (missing)\n");
		exit(2);
	}
	if (zo.files < 0)
		zo.files = zo.same_file ? 1 : zo.readers;
	if (zo.file_size % zo.recordsize != 0 && zo.file_size > zo.recordsize)
		fprintf(stderr, "zpool_harness: note: file size is not a "
		    "multiple of the record size\n");
	if (zo.read == RD_RANGE &&
	    zo.range_off + zo.range_len > zo.file_size)
		zh_badarg("read", zo.read_spec);
	if (zo.read == RD_HOLES && zo.file_size <= zo.recordsize)
		zh_badarg("read", "holes (file must be larger than a record)");
}

/* ------------------------------------------------------ interpositions */

/*
 * libzpool calls these through its PLT; definitions in the executable take
 * precedence (the executable is linked with -rdynamic).  Each forwards to
 * the real function found with dlsym(RTLD_NEXT).
 */

/* Raise the concurrency cap of vdev_file's taskq (max(ncpus,16) threads). */
taskq_t *
taskq_create(const char *name, int nthreads, pri_t pri, int minalloc,
    int maxalloc, uint_t flags)
{
	static taskq_t *(*real)(const char *, int, pri_t, int, int, uint_t);
	if (real == NULL)
		real = dlsym(RTLD_NEXT, "taskq_create");
	if (name != NULL && strcmp(name, "z_vdev_file") == 0 &&
	    nthreads < zo.vdev_file_threads && !(flags & TASKQ_THREADS_CPU_PCT))
		nthreads = zo.vdev_file_threads;
	return (real(name, nthreads, pri, minalloc, maxalloc, flags));
}

/* Leaf vdevs being counted, and bytes/ops per priority class. */
static vdev_t *zh_leaf_vd[ZH_MAX_LEAVES];
static int zh_nleaf_vd;
static volatile int zh_counting;
static uint64_t zh_cls_bytes[ZH_MAX_LEAVES][ZH_NCLASS];
static uint64_t zh_cls_ops[ZH_MAX_LEAVES][ZH_NCLASS];

void
vdev_stat_update(zio_t *zio, uint64_t psize)
{
	static void (*real)(zio_t *, uint64_t);
	if (real == NULL)
		real = dlsym(RTLD_NEXT, "vdev_stat_update");
	real(zio, psize);
	if (!zh_counting || zio->io_gang_tree != NULL || zio->io_error != 0 ||
	    zio->io_vd == NULL || (zio->io_flags & ZIO_FLAG_IO_BYPASS))
		return;
	int leaf = -1;
	for (int i = 0; i < zh_nleaf_vd; i++)
		if (zh_leaf_vd[i] == zio->io_vd)
			leaf = i;
	if (leaf < 0 || zio->io_priority >= ZIO_PRIORITY_NUM_QUEUEABLE)
		return;
	/* Same class folding as vdev_stat_update does for its histograms. */
	zio_priority_t p = zio->io_priority;
	if (p == ZIO_PRIORITY_REBUILD)
		p = zio->io_type == ZIO_TYPE_WRITE ? ZIO_PRIORITY_ASYNC_WRITE :
		    ZIO_PRIORITY_SCRUB;
	else if (p == ZIO_PRIORITY_INITIALIZING)
		p = ZIO_PRIORITY_ASYNC_WRITE;
	else if (p == ZIO_PRIORITY_REMOVAL)
		p = zio->io_type == ZIO_TYPE_WRITE ? ZIO_PRIORITY_ASYNC_WRITE :
		    ZIO_PRIORITY_ASYNC_READ;
	atomic_add_64(&zh_cls_bytes[leaf][p], psize);
	atomic_add_64(&zh_cls_ops[leaf][p], 1);
}

/*
 * dsl_scan() (what zpool scrub calls) reopens every vdev to probe the
 * devices, and vdev_file_open resets vdev_nonrot to B_TRUE: put the
 * --rotational setting back on the leaves after any reopen, before the
 * scrub issues its first read.  Only once the leaves of the imported pool
 * are known (zh_nleaf_vd is cleared again at teardown).
 */
void
vdev_reopen(vdev_t *vd)
{
	static void (*real)(vdev_t *);
	if (real == NULL)
		real = dlsym(RTLD_NEXT, "vdev_reopen");
	real(vd);
	if (zh_nleaf_vd == zo.nleaves)
		for (int i = 0; i < zh_nleaf_vd; i++)
			zh_leaf_vd[i]->vdev_nonrot = zo.rotational ? B_FALSE :
			    B_TRUE;
}

/* ------------------------------------------------------------- helpers */

static uint64_t
zh_now_ns(void)
{
	return ((uint64_t)leafdev_now_ns());
}

/* splitmix64: deterministic data from --seed. */
static uint64_t
zh_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return (z ^ (z >> 31));
}

static void
zh_fill(void *buf, size_t len, uint64_t *state)
{
	uint64_t *p = buf;
	for (size_t i = 0; i < len / 8; i++)
		p[i] = zh_rand(state);
}

static char zh_leaf_path[ZH_MAX_LEAVES][MAXPATHLEN];

static nvlist_t *
zh_make_leaf(int i)
{
	nvlist_t *nv = fnvlist_alloc();
	fnvlist_add_string(nv, ZPOOL_CONFIG_TYPE, VDEV_TYPE_FILE);
	fnvlist_add_string(nv, ZPOOL_CONFIG_PATH, zh_leaf_path[i]);
	fnvlist_add_uint64(nv, ZPOOL_CONFIG_ASHIFT, zo.ashift);
	return (nv);
}

static nvlist_t *
zh_make_root(void)
{
	nvlist_t *leaves[ZH_MAX_LEAVES];
	nvlist_t *root = fnvlist_alloc();
	for (int i = 0; i < zo.nleaves; i++)
		leaves[i] = zh_make_leaf(i);
	fnvlist_add_string(root, ZPOOL_CONFIG_TYPE, VDEV_TYPE_ROOT);
	if (strcmp(zo.vdev_kind, "stripe") == 0) {
		for (int i = 0; i < zo.nleaves; i++)
			fnvlist_add_uint64(leaves[i], ZPOOL_CONFIG_IS_LOG, 0);
		fnvlist_add_nvlist_array(root, ZPOOL_CONFIG_CHILDREN, leaves,
		    zo.nleaves);
	} else {
		nvlist_t *top = fnvlist_alloc();
		if (strcmp(zo.vdev_kind, "mirror") == 0) {
			fnvlist_add_string(top, ZPOOL_CONFIG_TYPE,
			    VDEV_TYPE_MIRROR);
		} else if (strncmp(zo.vdev_kind, "draid", 5) == 0) {
			/* as zpool create's construct_spec writes it */
			fnvlist_add_string(top, ZPOOL_CONFIG_TYPE,
			    VDEV_TYPE_DRAID);
			fnvlist_add_uint64(top, ZPOOL_CONFIG_NPARITY,
			    zo.draid_parity);
			fnvlist_add_uint64(top, ZPOOL_CONFIG_DRAID_NDATA,
			    zo.draid_data);
			fnvlist_add_uint64(top, ZPOOL_CONFIG_DRAID_NSPARES,
			    zo.draid_spares);
			fnvlist_add_uint64(top, ZPOOL_CONFIG_DRAID_NGROUPS,
			    zo.draid_groups);
		} else {
			fnvlist_add_string(top, ZPOOL_CONFIG_TYPE,
			    VDEV_TYPE_RAIDZ);
			fnvlist_add_uint64(top, ZPOOL_CONFIG_NPARITY,
			    zo.vdev_kind[5] - '0');
		}
		fnvlist_add_nvlist_array(top, ZPOOL_CONFIG_CHILDREN, leaves,
		    zo.nleaves);
		fnvlist_add_uint64(top, ZPOOL_CONFIG_IS_LOG, 0);
		fnvlist_add_nvlist_array(root, ZPOOL_CONFIG_CHILDREN, &top, 1);
		fnvlist_free(top);
	}
	for (int i = 0; i < zo.nleaves; i++)
		fnvlist_free(leaves[i]);
	return (root);
}

static void
zh_collect_leaves(vdev_t *vd)
{
	if (vd->vdev_ops->vdev_op_leaf) {
		for (int i = 0; i < zo.nleaves; i++) {
			if (vd->vdev_path != NULL &&
			    strcmp(vd->vdev_path, zh_leaf_path[i]) == 0) {
				zh_leaf_vd[i] = vd;
				zh_nleaf_vd++;
			}
		}
		return;
	}
	for (uint64_t c = 0; c < vd->vdev_children; c++)
		zh_collect_leaves(vd->vdev_child[c]);
}

static void
zh_set_prop(const char *prop, uint64_t val)
{
	int err = dsl_prop_set_int(ZH_DS, prop, ZPROP_SRC_LOCAL, val);
	if (err != 0)
		zh_die("setting %s=%" PRIu64 " failed: %d", prop, val, err);
}

/* --------------------------------------------------------------- stats */

typedef struct zh_leafstat {
	vdev_stat_t vs;
	vdev_stat_ex_t vsx;
} zh_leafstat_t;

static void
zh_snap_leaves(spa_t *spa, zh_leafstat_t *out)
{
	spa_config_enter(spa, SCL_ALL, zh_tag, RW_READER);
	for (int i = 0; i < zo.nleaves; i++)
		vdev_get_stats_ex(zh_leaf_vd[i], &out[i].vs, &out[i].vsx);
	spa_config_exit(spa, SCL_ALL, zh_tag);
}

/* Leaf I/Os queued or active in vdev_queue, summed over the leaves. */
static uint64_t
zh_queued(spa_t *spa)
{
	static zh_leafstat_t tmp[ZH_MAX_LEAVES];
	uint64_t n = 0;
	zh_snap_leaves(spa, tmp);
	for (int i = 0; i < zo.nleaves; i++)
		for (int c = 0; c < ZH_NCLASS; c++)
			n += tmp[i].vsx.vsx_active_queue[c] +
			    tmp[i].vsx.vsx_pend_queue[c];
	return (n);
}

/* Counters copied from libzpool's private sums (kstats are stubs here). */
typedef struct zh_zfetch_sums {		/* layout of dmu_zfetch.c's zfetch_sums */
	wmsum_t hits, misses, max_streams, io_issued;
	aggsum_t io_active;
} zh_zfetch_sums_t;
extern zh_zfetch_sums_t zfetch_sums;

#define	ZH_ARC_FIELDS(X) \
	X(hits) X(misses) X(demand_data_hits) X(demand_data_misses) \
	X(demand_metadata_hits) X(demand_metadata_misses) \
	X(prefetch_data_hits) X(prefetch_data_misses) \
	X(prefetch_metadata_hits) X(prefetch_metadata_misses) \
	X(mru_hits) X(mru_ghost_hits) X(mfu_hits) X(mfu_ghost_hits) \
	X(deleted) X(async_upgrade_sync) \
	X(demand_hit_predictive_prefetch) X(demand_hit_prescient_prefetch)

typedef struct zh_counters {
	uint64_t zf_hits, zf_misses, zf_max_streams, zf_io_issued;
#define	ZH_DECL(f) uint64_t arc_##f;
	ZH_ARC_FIELDS(ZH_DECL)
#undef ZH_DECL
} zh_counters_t;

static void
zh_snap_counters(zh_counters_t *c)
{
	c->zf_hits = wmsum_value(&zfetch_sums.hits);
	c->zf_misses = wmsum_value(&zfetch_sums.misses);
	c->zf_max_streams = wmsum_value(&zfetch_sums.max_streams);
	c->zf_io_issued = wmsum_value(&zfetch_sums.io_issued);
#define	ZH_SNAP(f) c->arc_##f = wmsum_value(&arc_sums.arcstat_##f);
	ZH_ARC_FIELDS(ZH_SNAP)
#undef ZH_SNAP
}

/* -------------------------------------------------------------- readers */

typedef struct zh_reader {
	pthread_t thr;
	int id;
	objset_t *os;
	uint64_t obj;
	uint64_t off, len;
	uint64_t bytes;
	uint64_t end_ns;
	int err;
} zh_reader_t;

static pthread_barrier_t zh_barrier;
static uint64_t zh_start_ns;

static void *
zh_reader_main(void *arg)
{
	zh_reader_t *r = arg;
	char *buf = malloc(zo.bs);
	if (buf == NULL)
		zh_die("out of memory");
	uint32_t flags = zo.prefetch ? DMU_READ_PREFETCH : DMU_READ_NO_PREFETCH;
	pthread_barrier_wait(&zh_barrier);
	uint64_t off = r->off, endoff = r->off + r->len;
	while (off < endoff) {
		uint64_t n = endoff - off < zo.bs ? endoff - off : zo.bs;
		int err = dmu_read(r->os, r->obj, off, n, buf, flags);
		if (err != 0) {
			r->err = err;
			break;
		}
		r->bytes += n;
		off += n;
	}
	r->end_ns = zh_now_ns();
	free(buf);
	return (NULL);
}

/* ---------------------------------------------------------------- scrub */

/* A scrub still running after this long is cancelled and reported as is. */
#define	ZH_SCRUB_MAX_NS	(3600ULL * 1000000000ULL)

static const char *
zh_scan_state_name(uint64_t state)
{
	switch (state) {
	case DSS_NONE: return ("none");
	case DSS_SCANNING: return ("scanning");
	case DSS_FINISHED: return ("finished");
	case DSS_CANCELED: return ("canceled");
	default: return ("unknown");
	}
}

/*
 * Start a scrub the way zpool scrub does: spa_scan() reopens the vdevs,
 * then runs the scan's setup sync task and returns once that txg has
 * synced.  The scan itself runs in syncing context (dsl_scan_sync): while
 * dsl_scan_active(), txg_sync_thread does not sleep out zfs_txg_timeout, so
 * txgs follow one another without the harness doing anything, until
 * dsl_scan_done() sets DSS_FINISHED in the txg in which the last scrub zios
 * were waited for.  Poll that state every millisecond (the returned time is
 * when it was seen); *ps gets the final scan stats.
 */
static uint64_t
zh_scrub(spa_t *spa, pool_scan_stat_t *ps)
{
	int err = spa_scan(spa, POOL_SCAN_SCRUB);
	if (err != 0)
		zh_die("spa_scan(POOL_SCAN_SCRUB) failed: %d", err);
	uint64_t end;
	for (;;) {
		end = zh_now_ns();
		if (spa_scan_get_stats(spa, ps) != 0)
			zh_die("spa_scan_get_stats: no scan");
		if (ps->pss_state != DSS_SCANNING)
			break;
		if (end - zh_start_ns > ZH_SCRUB_MAX_NS) {
			fprintf(stderr, "zpool_harness: scrub not finished "
			    "after %llu s, cancelled\n",
			    (u_longlong_t)(ZH_SCRUB_MAX_NS / 1000000000ULL));
			(void) spa_scan_stop(spa);
			(void) spa_scan_get_stats(spa, ps);
			break;
		}
		usleep(1000);
	}
	return (end);
}

/* -------------------------------------------------------- block dumping */

static void
zh_print_bp(uint64_t obj, int level, uint64_t blkid, const blkptr_t *bp,
    int *first)
{
	if (bp == NULL || BP_IS_HOLE(bp))
		return;
	printf("%s\n    {\"object\":%" PRIu64 ",\"level\":%d,\"blkid\":%" PRIu64
	    ",\"lsize\":%" PRIu64 ",\"psize\":%" PRIu64 ",\"birth\":%" PRIu64
	    ",\"embedded\":%s,\"dvas\":[", *first ? "" : ",", obj, level,
	    blkid, (uint64_t)BP_GET_LSIZE(bp),
	    BP_IS_EMBEDDED(bp) ? (uint64_t)BPE_GET_PSIZE(bp) :
	    (uint64_t)BP_GET_PSIZE(bp), (uint64_t)BP_PHYSICAL_BIRTH(bp),
	    BP_IS_EMBEDDED(bp) ? "true" : "false");
	*first = 0;
	if (!BP_IS_EMBEDDED(bp)) {
		int nd = 0;
		for (int d = 0; d < SPA_DVAS_PER_BP; d++) {
			const dva_t *dva = &bp->blk_dva[d];
			if (DVA_GET_ASIZE(dva) == 0)
				continue;
			printf("%s[%" PRIu64 ",%" PRIu64 ",%" PRIu64 "]",
			    nd++ ? "," : "", (uint64_t)DVA_GET_VDEV(dva),
			    (uint64_t)DVA_GET_OFFSET(dva),
			    (uint64_t)DVA_GET_ASIZE(dva));
		}
	}
	printf("]}");
}

static void
zh_dump_object(objset_t *os, uint64_t obj, int *first)
{
	dnode_t *dn;
	if (dnode_hold(os, obj, zh_tag, &dn) != 0)
		zh_die("dnode_hold(%" PRIu64 ") failed", obj);
	rw_enter(&dn->dn_struct_rwlock, RW_READER);
	int epbs = dn->dn_indblkshift - SPA_BLKPTRSHIFT;
	uint64_t maxblkid = dn->dn_maxblkid;
	for (int level = dn->dn_nlevels - 1; level >= 0; level--) {
		uint64_t nblk = (maxblkid >> (level * epbs)) + 1;
		for (uint64_t b = 0; b < nblk; b++) {
			dmu_buf_impl_t *db = dbuf_hold_level(dn, level, b,
			    zh_tag);
			if (db == NULL)
				continue;
			zh_print_bp(obj, level, b, db->db_blkptr, first);
			dbuf_rele(db, zh_tag);
		}
	}
	rw_exit(&dn->dn_struct_rwlock);
	dnode_rele(dn, zh_tag);
}

/* ----------------------------------------------------------------- JSON */

static const char *zh_class_name[ZH_NCLASS] = {
	"sync_read", "sync_write", "async_read", "async_write", "scrub",
	"removal", "initializing", "trim", "rebuild"
};
/* Classes vdev_stat_update reports (others are folded into these). */
static const int zh_report_cls[] = {
	ZIO_PRIORITY_SYNC_READ, ZIO_PRIORITY_SYNC_WRITE,
	ZIO_PRIORITY_ASYNC_READ, ZIO_PRIORITY_ASYNC_WRITE,
	ZIO_PRIORITY_SCRUB, ZIO_PRIORITY_TRIM
};
#define	ZH_NREPORT	(sizeof (zh_report_cls) / sizeof (zh_report_cls[0]))

static void
zh_print_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

static void
zh_print_histo(const char *key, uint64_t a[][VDEV_RQ_HISTO_BUCKETS],
    uint64_t b[][VDEV_RQ_HISTO_BUCKETS])
{
	printf(",\"%s\":{", key);
	for (size_t k = 0; k < ZH_NREPORT; k++) {
		int c = zh_report_cls[k];
		printf("%s\"%s\":[", k ? "," : "", zh_class_name[c]);
		for (int h = 0; h < VDEV_RQ_HISTO_BUCKETS; h++)
			printf("%s%" PRIu64, h ? "," : "", b[c][h] - a[c][h]);
		printf("]");
	}
	printf("}");
}

/* ----------------------------------------------------------------- main */

int
main(int argc, char **argv)
{
	zh_parse_args(argc, argv);

	void (*leafemu_phase)(int) = (void (*)(int))dlsym(RTLD_DEFAULT,
	    "leafemu_phase");
	long (*leafemu_outstanding)(void) = (long (*)(void))dlsym(RTLD_DEFAULT,
	    "leafemu_outstanding");

	/* Scratch files and the LEAFEMU_LEAVES map (leaf i = leaf<i>). */
	if (mkdir(zo.dir, 0755) != 0 && errno != EEXIST)
		zh_die("cannot create %s: %s", zo.dir, strerror(errno));
	char dir[MAXPATHLEN];
	if (realpath(zo.dir, dir) == NULL)
		zh_die("realpath(%s): %s", zo.dir, strerror(errno));
	size_t envlen = 1;
	for (int i = 0; i < zo.nleaves; i++) {
		snprintf(zh_leaf_path[i], MAXPATHLEN, "%s/leaf%d", dir, i);
		envlen += strlen(zh_leaf_path[i]) + 1;
		int fd = open(zh_leaf_path[i], O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || ftruncate(fd, zo.leaf_size) != 0)
			zh_die("cannot create %s: %s", zh_leaf_path[i],
			    strerror(errno));
		close(fd);
	}
	char *leavesenv = calloc(1, envlen);
	for (int i = 0; i < zo.nleaves; i++) {
		if (i)
			strcat(leavesenv, ":");
		strcat(leavesenv, zh_leaf_path[i]);
	}
	setenv("LEAFEMU_LEAVES", leavesenv, 1);
	static char cachefile[MAXPATHLEN];
	snprintf(cachefile, sizeof (cachefile), "%s/zpool.cache", dir);
	unlink(cachefile);
	spa_config_path = cachefile;
	zfs_flags = 0;
	if (zo.arc_max != 0) {
		/*
		 * Userland arc_init() sets arc_c_min = arc_c_max / 2 (of the
		 * default max) and arc_tuning_update() ignores a zfs_arc_max
		 * that is not above arc_c_min, so a small --arc-max alone is
		 * silently ignored.  Lower the minimum with it (same 1/2 ratio,
		 * at least 32 MiB); --tunable zfs_arc_min overrides this.
		 */
		zfs_arc_max = zo.arc_max;
		zfs_arc_min = MAX(zo.arc_max / 2, 2ULL << SPA_MAXBLOCKSHIFT);
	}
	zh_apply_tunables();

	/* ---- create */
	kernel_init(SPA_MODE_READ | SPA_MODE_WRITE);
	nvlist_t *nvroot = zh_make_root();
	nvlist_t *props = fnvlist_alloc();
	for (int i = 0; i < SPA_FEATURES; i++) {
		if (!spa_feature_table[i].fi_zfs_mod_supported)
			continue;
		char name[128];
		snprintf(name, sizeof (name), "feature@%s",
		    spa_feature_table[i].fi_uname);
		fnvlist_add_uint64(props, name, 0);
	}
	int err = spa_create(ZH_POOL, nvroot, props, NULL, NULL);
	if (err != 0)
		zh_die("spa_create failed: %d", err);
	fnvlist_free(nvroot);
	fnvlist_free(props);

	err = dmu_objset_create(ZH_DS, DMU_OST_OTHER, 0, NULL, NULL, NULL);
	if (err != 0)
		zh_die("dmu_objset_create failed: %d", err);
	zh_set_prop(zfs_prop_to_name(ZFS_PROP_COMPRESSION), ZIO_COMPRESS_OFF);
	zh_set_prop(zfs_prop_to_name(ZFS_PROP_RECORDSIZE), zo.recordsize);
	zh_set_prop(zfs_prop_to_name(ZFS_PROP_PRIMARYCACHE),
	    zo.primarycache_all ? ZFS_CACHE_ALL : ZFS_CACHE_METADATA);

	objset_t *os;
	err = dmu_objset_own(ZH_DS, DMU_OST_OTHER, B_FALSE, B_TRUE, zh_tag,
	    &os);
	if (err != 0)
		zh_die("dmu_objset_own failed: %d", err);

	/* ---- objects */
	uint64_t *objs = calloc(zo.files, sizeof (uint64_t));
	for (int f = 0; f < zo.files; f++) {
		dmu_tx_t *tx = dmu_tx_create(os);
		dmu_tx_hold_bonus(tx, DMU_NEW_OBJECT);
		if ((err = dmu_tx_assign(tx, TXG_WAIT)) != 0)
			zh_die("dmu_tx_assign failed: %d", err);
		objs[f] = dmu_object_alloc(os, DMU_OT_UINT64_OTHER,
		    (int)zo.recordsize, DMU_OT_NONE, 0, tx);
		dmu_tx_commit(tx);
	}

	/* ---- data: random, seeded; chunks of <= 1 MiB, one tx each */
	const uint64_t chunk = 1 << 20;
	char *wbuf = malloc(chunk);
	uint64_t written = 0;
	for (int f = 0; f < zo.files; f++) {
		uint64_t state = zo.seed * 0x100000001B3ULL + (uint64_t)f;
		uint64_t woff = 0, wend = zo.file_size;
		if (zo.read == RD_HOLES) {
			/* only the last record: everything before is a hole */
			woff = (zo.file_size - 1) / zo.recordsize *
			    zo.recordsize;
		}
		while (woff < wend) {
			uint64_t n = wend - woff < chunk ? wend - woff : chunk;
			zh_fill(wbuf, n, &state);
			dmu_tx_t *tx = dmu_tx_create(os);
			dmu_tx_hold_write(tx, objs[f], woff, (int)n);
			if ((err = dmu_tx_assign(tx, TXG_WAIT)) != 0)
				zh_die("dmu_tx_assign failed: %d", err);
			dmu_write(os, objs[f], woff, n, wbuf, tx);
			dmu_tx_commit(tx);
			woff += n;
			written += n;
		}
	}
	free(wbuf);
	txg_wait_synced(dmu_objset_pool(os), 0);

	/* ---- cold restart */
	spa_t *spa = dmu_objset_spa(os);
	dmu_objset_disown(os, B_TRUE, zh_tag);
	spa_evicting_os_wait(spa);
	nvlist_t *config = NULL;
	for (int tries = 0; ; tries++) {
		err = spa_export(ZH_POOL, &config, B_FALSE, B_FALSE);
		if (err != EBUSY || tries > 300)
			break;
		usleep(100000);
	}
	if (err != 0)
		zh_die("spa_export failed: %d", err);
	kernel_fini();
	kernel_init(SPA_MODE_READ | SPA_MODE_WRITE);
	/*
	 * A scrub needs a writable pool: its setup is a sync task, and its
	 * progress is written in every txg (dsl_scan_sync_state).
	 */
	nvlist_t *iprops = fnvlist_alloc();
	fnvlist_add_uint64(iprops, zpool_prop_to_name(ZPOOL_PROP_READONLY),
	    zo.scrub ? 0 : 1);
	err = spa_import(ZH_POOL, config, iprops, 0);
	if (err != 0)
		zh_die("spa_import failed: %d", err);
	fnvlist_free(iprops);
	fnvlist_free(config);
	err = dmu_objset_own(ZH_DS, DMU_OST_OTHER, B_TRUE, B_TRUE, zh_tag, &os);
	if (err != 0)
		zh_die("dmu_objset_own (read-only) failed: %d", err);
	spa = dmu_objset_spa(os);

	spa_config_enter(spa, SCL_ALL, zh_tag, RW_READER);
	zh_collect_leaves(spa->spa_root_vdev);
	spa_config_exit(spa, SCL_ALL, zh_tag);
	if (zh_nleaf_vd != zo.nleaves)
		zh_die("found %d of %d leaves after import", zh_nleaf_vd,
		    zo.nleaves);
	for (int i = 0; i < zo.nleaves; i++)
		zh_leaf_vd[i]->vdev_nonrot = zo.rotational ? B_FALSE : B_TRUE;
	/*
	 * The read-write import dirties the MOS (history, config): let that
	 * txg reach the disks before the scrub's clock starts.
	 */
	if (zo.scrub)
		txg_wait_synced(spa_get_dsl(spa), 0);

	/* ---- read phase (or scrub) */
	zh_reader_t *rd = calloc(zo.readers, sizeof (zh_reader_t));
	for (int r = 0; r < zo.readers && !zo.scrub; r++) {
		rd[r].id = r;
		rd[r].os = os;
		rd[r].obj = objs[zo.same_file ? 0 : r % zo.files];
		switch (zo.read) {
		case RD_WHOLE:
			rd[r].off = 0;
			rd[r].len = zo.file_size;
			break;
		case RD_RANGE:
			rd[r].off = zo.range_off;
			rd[r].len = zo.range_len;
			break;
		case RD_HOLES:
			rd[r].off = 0;
			rd[r].len = (zo.file_size - 1) / zo.recordsize *
			    zo.recordsize;
			break;
		}
	}
	/*
	 * Open the objects before the clock starts, as dd opens its file
	 * before its timer: the ZPL's open (zfs_zget) holds the object's
	 * bonus buffer, which reads the meta-dnode's indirect chain and the
	 * dnode block. Those reads (seven random ones, on an HDD tens of ms)
	 * are the open's, not the read phase's; ziosim's readers, like dd,
	 * time from the first read.
	 */
	dmu_buf_t **bonus = calloc(zo.files, sizeof (dmu_buf_t *));
	for (int f = 0; f < zo.files && !zo.scrub; f++)
		if ((err = dmu_bonus_hold(os, objs[f], zh_tag, &bonus[f])) != 0)
			zh_die("dmu_bonus_hold (open) failed: %d", err);
	if (!zo.scrub)
		pthread_barrier_init(&zh_barrier, NULL, zo.readers + 1);
	for (int r = 0; r < zo.readers && !zo.scrub; r++)
		if (pthread_create(&rd[r].thr, NULL, zh_reader_main, &rd[r]))
			zh_die("pthread_create failed");

	static zh_leafstat_t st0[ZH_MAX_LEAVES], st1[ZH_MAX_LEAVES];
	zh_counters_t c0, c1;
	memset(zh_cls_bytes, 0, sizeof (zh_cls_bytes));
	memset(zh_cls_ops, 0, sizeof (zh_cls_ops));
	zh_snap_leaves(spa, st0);
	zh_snap_counters(&c0);
	zh_counting = 1;
	if (leafemu_phase != NULL)
		leafemu_phase(1);
	zh_start_ns = zh_now_ns();
	uint64_t last_end = zh_start_ns;
	pool_scan_stat_t scan = { 0 };
	uint64_t txg0 = spa_last_synced_txg(spa);
	if (zo.scrub)
		last_end = zh_scrub(spa, &scan);
	else
		pthread_barrier_wait(&zh_barrier);
	for (int r = 0; r < zo.readers && !zo.scrub; r++) {
		pthread_join(rd[r].thr, NULL);
		if (rd[r].err != 0)
			zh_die("dmu_read failed in reader %d: %d", r,
			    rd[r].err);
		if (rd[r].end_ns > last_end)
			last_end = rd[r].end_ns;
	}
	/*
	 * Let I/O issued by the read phase (prefetch run-ahead) drain: wait
	 * until no leaf has queued/active zios and no leaf I/O is outstanding
	 * in the interposer for 10 consecutive 5 ms polls (at most 30 s).
	 * After a scrub this is the rest of the txg that finished it (scan
	 * state, history: writes).
	 */
	int quiet = 0;
	uint64_t settle_start = zh_now_ns();
	while (quiet < 10 && zh_now_ns() - settle_start < 30000000000ULL) {
		uint64_t q = zh_queued(spa);
		if (leafemu_outstanding != NULL)
			q += leafemu_outstanding();
		quiet = q == 0 ? quiet + 1 : 0;
		usleep(5000);
	}
	uint64_t settle_ns = zh_now_ns() - last_end;
	uint64_t txgs = spa_last_synced_txg(spa) - txg0;
	zh_counting = 0;
	zh_snap_leaves(spa, st1);
	zh_snap_counters(&c1);
	if (leafemu_phase != NULL)
		leafemu_phase(0);

	/* ---- report */
	double elapsed = (double)(last_end - zh_start_ns) / 1e9;
	uint64_t app_bytes = 0;
	for (int r = 0; r < zo.readers; r++)
		app_bytes += rd[r].bytes;

	printf("{\"implementation\":\"openzfs-2.1.11\",\"scenario\":{");
	printf("\"dir\":");
	zh_print_json_string(dir);
	printf(",\"vdev\":\"%s:%d\",\"vdev_kind\":\"%s\",\"nleaves\":%d",
	    zo.vdev_kind, zo.nleaves, zo.vdev_kind, zo.nleaves);
	printf(",\"leaf_size\":%" PRIu64 ",\"ashift\":%d,\"recordsize\":%"
	    PRIu64 ",\"file_size\":%" PRIu64 ",\"files\":%d,\"readers\":%d"
	    ",\"same_file\":%s,\"bs\":%" PRIu64 ",\"read\":\"%s\"",
	    zo.leaf_size, zo.ashift, zo.recordsize, zo.file_size, zo.files,
	    zo.readers, zo.same_file ? "true" : "false", zo.bs, zo.read_spec);
	printf(",\"primarycache\":\"%s\",\"rotational\":%d,\"arc_max\":%"
	    PRIu64 ",\"seed\":%" PRIu64 ",\"dump_blocks\":%s,\"prefetch\":%d"
	    ",\"vdev_file_threads\":%d,\"scrub\":%s,\"leafemu\":%s"
	    ",\"leafemu_device\":",
	    zo.primarycache_all ? "all" : "metadata", zo.rotational,
	    zo.arc_max, zo.seed, zo.dump_blocks ? "true" : "false",
	    zo.prefetch, zo.vdev_file_threads, zo.scrub ? "true" : "false",
	    leafemu_phase ? "true" : "false");
	const char *dev = getenv("LEAFEMU_DEVICE");
	if (dev && leafemu_phase)
		zh_print_json_string(dev);
	else
		printf("null");
	printf(",\"tunables\":{");
	for (int t = 0; t < zo.ntunables; t++)
		printf("%s\"%s\":%" PRIu64, t ? "," : "", zo.tunable_name[t],
		    zo.tunable_val[t]);
	printf("}}");
	if (zo.scrub) {
		printf(",\"written_bytes\":%" PRIu64, written);
		printf(",\"scrub\":{\"elapsed_s\":%.6f,\"settle_s\":%.6f"
		    ",\"state\":\"%s\",\"to_examine_bytes\":%" PRIu64
		    ",\"examined_bytes\":%" PRIu64 ",\"issued_bytes\":%" PRIu64
		    ",\"processed_bytes\":%" PRIu64 ",\"errors\":%" PRIu64
		    ",\"txgs\":%" PRIu64 "}",
		    elapsed, (double)settle_ns / 1e9,
		    zh_scan_state_name(scan.pss_state), scan.pss_to_examine,
		    scan.pss_examined, scan.pss_issued, scan.pss_processed,
		    scan.pss_errors, txgs);
	} else {
		printf(",\"readers\":%d,\"written_bytes\":%" PRIu64
		    ",\"elapsed_s\":%.6f,\"settle_s\":%.6f,\"app_bytes\":%"
		    PRIu64 ",\"throughput_mb_s\":%.3f,\"per_reader_mb_s\":[",
		    zo.readers, written, elapsed, (double)settle_ns / 1e9,
		    app_bytes,
		    elapsed > 0 ? (double)app_bytes / elapsed / 1e6 : 0.0);
		for (int r = 0; r < zo.readers; r++) {
			double e = (double)(rd[r].end_ns - zh_start_ns) / 1e9;
			printf("%s%.3f", r ? "," : "",
			    e > 0 ? (double)rd[r].bytes / e / 1e6 : 0.0);
		}
		printf("]");
	}
	printf(",\"objects\":[");
	for (int f = 0; f < zo.files; f++)
		printf("%s%" PRIu64, f ? "," : "", objs[f]);
	printf("],\"leaves\":[");
	for (int i = 0; i < zo.nleaves; i++) {
		zh_leafstat_t *a = &st0[i], *b = &st1[i];
		printf("%s\n  {\"index\":%d,\"path\":", i ? "," : "", i);
		zh_print_json_string(zh_leaf_path[i]);
		printf(",\"guid\":%" PRIu64 ",\"nonrot\":%d",
		    zh_leaf_vd[i]->vdev_guid, (int)zh_leaf_vd[i]->vdev_nonrot);
		printf(",\"ops_by_class\":{");
		for (size_t k = 0; k < ZH_NREPORT; k++) {
			int c = zh_report_cls[k];
			uint64_t n = 0;
			for (int h = 0; h < VDEV_RQ_HISTO_BUCKETS; h++)
				n += (b->vsx.vsx_agg_histo[c][h] -
				    a->vsx.vsx_agg_histo[c][h]) +
				    (b->vsx.vsx_ind_histo[c][h] -
				    a->vsx.vsx_ind_histo[c][h]);
			printf("%s\"%s\":%" PRIu64, k ? "," : "",
			    zh_class_name[c], n);
		}
		printf("},\"bytes_by_class\":{");
		for (size_t k = 0; k < ZH_NREPORT; k++) {
			int c = zh_report_cls[k];
			printf("%s\"%s\":%" PRIu64, k ? "," : "",
			    zh_class_name[c], zh_cls_bytes[i][c]);
		}
		printf("},\"ops_by_type\":{\"read\":%" PRIu64 ",\"write\":%"
		    PRIu64 "},\"bytes_by_type\":{\"read\":%" PRIu64
		    ",\"write\":%" PRIu64 "}",
		    b->vs.vs_ops[ZIO_TYPE_READ] - a->vs.vs_ops[ZIO_TYPE_READ],
		    b->vs.vs_ops[ZIO_TYPE_WRITE] - a->vs.vs_ops[ZIO_TYPE_WRITE],
		    b->vs.vs_bytes[ZIO_TYPE_READ] -
		    a->vs.vs_bytes[ZIO_TYPE_READ],
		    b->vs.vs_bytes[ZIO_TYPE_WRITE] -
		    a->vs.vs_bytes[ZIO_TYPE_WRITE]);
		zh_print_histo("agg_histo", a->vsx.vsx_agg_histo,
		    b->vsx.vsx_agg_histo);
		zh_print_histo("ind_histo", a->vsx.vsx_ind_histo,
		    b->vsx.vsx_ind_histo);
		printf("}");
	}
	printf("\n ],\"zfetch\":{\"hits\":%" PRIu64 ",\"misses\":%" PRIu64
	    ",\"max_streams\":%" PRIu64 ",\"io_issued\":%" PRIu64 "}",
	    c1.zf_hits - c0.zf_hits, c1.zf_misses - c0.zf_misses,
	    c1.zf_max_streams - c0.zf_max_streams,
	    c1.zf_io_issued - c0.zf_io_issued);
	printf(",\"arc\":{");
	int firstk = 1;
#define	ZH_PRINT(f) \
	printf("%s\"" #f "\":%" PRIu64, firstk ? "" : ",", \
	    c1.arc_##f - c0.arc_##f); firstk = 0;
	ZH_ARC_FIELDS(ZH_PRINT)
#undef ZH_PRINT
	printf(",\"c_min\":%" PRIu64 ",\"c_max\":%" PRIu64 ",\"size_after\":%"
	    PRIu64 "}", arc_stats.arcstat_c_min.value.ui64,
	    arc_stats.arcstat_c_max.value.ui64,
	    (uint64_t)aggsum_value(&arc_sums.arcstat_size));
	if (zo.dump_blocks) {
		printf(",\"blocks\":[");
		int first = 1;
		for (int f = 0; f < zo.files; f++)
			zh_dump_object(os, objs[f], &first);
		printf("\n ]");
	}
	printf("}\n");
	fflush(stdout);

	/* ---- teardown */
	for (int f = 0; f < zo.files && !zo.scrub; f++)
		dmu_buf_rele(bonus[f], zh_tag);
	free(bonus);
	zh_nleaf_vd = 0;	/* the leaves go away with the pool */
	dmu_objset_disown(os, B_TRUE, zh_tag);
	spa_evicting_os_wait(spa);
	for (int tries = 0; ; tries++) {
		err = spa_export(ZH_POOL, NULL, B_FALSE, B_FALSE);
		if (err != EBUSY || tries > 100)
			break;
		usleep(100000);
	}
	kernel_fini();
	free(rd);
	free(objs);
	free(leavesenv);
	return (0);
}
