/*
 * leafemu.c - LD_PRELOAD interposer for libzpool's leaf file I/O.
 *
 * libzpool (OpenZFS userspace) reaches its file vdevs through
 * zfs_file_open / zfs_file_close / zfs_file_pread / zfs_file_pwrite, all
 * called through the PLT, so a preloaded library that defines them sees
 * every leaf I/O.  This library
 *   - maps each opened zfs_file_t to a leaf index: the position of the
 *     opened path in env LEAFEMU_LEAVES ("path0:path1:..."); files whose
 *     path is not listed (e.g. the pool cache file) are passed through
 *     untouched and never logged;
 *   - while the phase is on (leafemu_phase(1)), logs every leaf I/O into a
 *     preallocated in-memory array and writes it as CSV to env LEAFEMU_LOG
 *     when the phase is turned off;
 *   - while the phase is on and env LEAFEMU_DEVICE is set, serves every leaf
 *     I/O as an emulated device: the reference device fixed:... (see
 *     README.md for the exact model), or any ziosim drive, whose own model
 *     serves it in real time (leafdev.h, libziosim_realtime.so).
 *
 * Written from scratch for the ziosim cross-check.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <time.h>

#include "../leafdev.h"

/* Only the pointer type matters; libzpool's zfs_file_t is opaque to us. */
typedef struct zfs_file zfs_file_t;
typedef long long le_loff_t;

typedef int (*le_open_fn)(const char *, int, int, zfs_file_t **);
typedef void (*le_close_fn)(zfs_file_t *);
typedef int (*le_pread_fn)(zfs_file_t *, void *, size_t, le_loff_t,
    ssize_t *);
typedef int (*le_pwrite_fn)(zfs_file_t *, const void *, size_t, le_loff_t,
    ssize_t *);

#define	LE_MAX_LEAVES	256
#define	LE_MAX_FILES	1024

static le_open_fn le_real_open;
static le_close_fn le_real_close;
static le_pread_fn le_real_pread;
static le_pwrite_fn le_real_pwrite;

typedef struct le_leaf {
	pthread_mutex_t	lock;
	int64_t		in_flight;
	int64_t		lane_free[LEAFDEV_MAX_LANES];
} le_leaf_t;

typedef struct le_rec {
	int32_t		leaf;
	int32_t		op;		/* 'R' or 'W' */
	int64_t		offset;
	int64_t		size;
	int64_t		arrival;
	int64_t		start;
	int64_t		end;		/* model end (measured if no device) */
	int64_t		done;		/* measured completion */
	int64_t		in_flight;
} le_rec_t;

static pthread_mutex_t le_map_lock = PTHREAD_MUTEX_INITIALIZER;
static struct { zfs_file_t *fp; int leaf; } le_map[LE_MAX_FILES];
static int le_nmap;

static le_leaf_t le_leaves[LE_MAX_LEAVES];
static pthread_once_t le_once = PTHREAD_ONCE_INIT;

static volatile int le_on;		/* phase on: log (+ emulate) */
static enum { LE_NONE, LE_FIXED, LE_ZIOSIM } le_emulate; /* device model configured */
static int64_t le_origin_ns;		/* CLOCK_MONOTONIC at phase on */
static leafdev_t le_dev;		/* LE_FIXED: the reference device */
static leafdev_ziosim_t le_zdev;	/* LE_ZIOSIM: ziosim's devices, opened once */
static int le_device_checked;

static pthread_mutex_t le_log_lock = PTHREAD_MUTEX_INITIALIZER;
static le_rec_t *le_log;
static size_t le_log_cap, le_log_n, le_log_dropped;

static int64_t
le_now(void)
{
	return (leafdev_now_ns());
}

static void
le_init(void)
{
	le_real_open = (le_open_fn)dlsym(RTLD_NEXT, "zfs_file_open");
	le_real_close = (le_close_fn)dlsym(RTLD_NEXT, "zfs_file_close");
	le_real_pread = (le_pread_fn)dlsym(RTLD_NEXT, "zfs_file_pread");
	le_real_pwrite = (le_pwrite_fn)dlsym(RTLD_NEXT, "zfs_file_pwrite");
	if (!le_real_open || !le_real_close || !le_real_pread ||
	    !le_real_pwrite) {
		fprintf(stderr, "leafemu: cannot find libzpool's zfs_file_* "
		    "functions (%s)\n", dlerror());
		abort();
	}
	for (int i = 0; i < LE_MAX_LEAVES; i++)
		pthread_mutex_init(&le_leaves[i].lock, NULL);
}

/* Leaf index of path in LEAFEMU_LEAVES, or -1. */
static int
le_leaf_of_path(const char *path)
{
	const char *env = getenv("LEAFEMU_LEAVES");
	if (env == NULL || path == NULL)
		return (-1);
	size_t plen = strlen(path);
	int idx = 0;
	const char *p = env;
	while (*p != '\0' && idx < LE_MAX_LEAVES) {
		const char *e = strchr(p, ':');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == plen && strncmp(p, path, len) == 0)
			return (idx);
		idx++;
		if (e == NULL)
			break;
		p = e + 1;
	}
	return (-1);
}

/* Number of paths in LEAFEMU_LEAVES. */
static int
le_count_leaves(void)
{
	const char *env = getenv("LEAFEMU_LEAVES");
	int n = 0;
	for (const char *p = env; p != NULL && *p != '\0'; p = strchr(p, ':') ? strchr(p, ':') + 1 : "")
		n++;
	return (n > LE_MAX_LEAVES ? LE_MAX_LEAVES : n);
}

static int
le_leaf_of_fp(zfs_file_t *fp)
{
	int leaf = -1;
	pthread_mutex_lock(&le_map_lock);
	for (int i = 0; i < le_nmap; i++) {
		if (le_map[i].fp == fp) {
			leaf = le_map[i].leaf;
			break;
		}
	}
	pthread_mutex_unlock(&le_map_lock);
	return (leaf);
}

int
zfs_file_open(const char *path, int flags, int mode, zfs_file_t **fpp)
{
	pthread_once(&le_once, le_init);
	int err = le_real_open(path, flags, mode, fpp);
	if (err == 0 && fpp != NULL && *fpp != NULL) {
		int leaf = le_leaf_of_path(path);
		if (leaf >= 0) {
			pthread_mutex_lock(&le_map_lock);
			if (le_nmap < LE_MAX_FILES) {
				le_map[le_nmap].fp = *fpp;
				le_map[le_nmap].leaf = leaf;
				le_nmap++;
			}
			pthread_mutex_unlock(&le_map_lock);
		}
	}
	return (err);
}

void
zfs_file_close(zfs_file_t *fp)
{
	pthread_once(&le_once, le_init);
	pthread_mutex_lock(&le_map_lock);
	for (int i = 0; i < le_nmap; i++) {
		if (le_map[i].fp == fp) {
			le_map[i] = le_map[le_nmap - 1];
			le_nmap--;
			break;
		}
	}
	pthread_mutex_unlock(&le_map_lock);
	le_real_close(fp);
}

static int
le_io(int op, zfs_file_t *fp, void *buf, size_t len, le_loff_t off,
    ssize_t *resid)
{
	pthread_once(&le_once, le_init);
	int leaf = le_on ? le_leaf_of_fp(fp) : -1;
	if (leaf < 0) {
		if (op == 'R')
			return (le_real_pread(fp, buf, len, off, resid));
		return (le_real_pwrite(fp, buf, len, off, resid));
	}

	le_leaf_t *lf = &le_leaves[leaf];
	int64_t origin = le_origin_ns;
	int emulate = le_emulate;
	int64_t arrival, start, model_end = 0, inflight;
	ziosim_rt_io_t *zio = NULL;

	pthread_mutex_lock(&lf->lock);
	arrival = le_now() - origin;
	inflight = ++lf->in_flight;
	if (emulate == LE_FIXED) {
		model_end = leafdev_book(&le_dev, lf->lane_free, arrival, (int64_t)len, &start);
	} else if (emulate == LE_ZIOSIM) {
		char msg[512];
		zio = le_zdev.submit(le_zdev.rt, leaf, op, off, (int64_t)len, &arrival, msg, sizeof (msg));
		if (zio == NULL) {
			fprintf(stderr, "leafemu: LEAFEMU_DEVICE: %s\n", msg);
			exit(2);
		}
	} else {
		start = arrival;
	}
	pthread_mutex_unlock(&lf->lock);

	int err;
	if (op == 'R')
		err = le_real_pread(fp, buf, len, off, resid);
	else
		err = le_real_pwrite(fp, buf, len, off, resid);

	if (emulate == LE_ZIOSIM) {
		le_zdev.wait(le_zdev.rt, zio, &start, &model_end);
	} else if (emulate == LE_FIXED) {
		int64_t abs_end = origin + model_end;
		struct timespec ts = { abs_end / 1000000000LL,
		    abs_end % 1000000000LL };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
		    NULL) == EINTR)
			;
	}
	int64_t done = le_now() - origin;
	int64_t end = emulate ? model_end : done;

	pthread_mutex_lock(&lf->lock);
	lf->in_flight--;
	pthread_mutex_unlock(&lf->lock);

	pthread_mutex_lock(&le_log_lock);
	if (le_log != NULL && le_log_n < le_log_cap) {
		le_rec_t *r = &le_log[le_log_n++];
		r->leaf = leaf;
		r->op = op;
		r->offset = off;
		r->size = (int64_t)len;
		r->arrival = arrival;
		r->start = start;
		r->end = end;
		r->done = done;
		r->in_flight = inflight;
	} else {
		le_log_dropped++;
	}
	pthread_mutex_unlock(&le_log_lock);
	return (err);
}

int
zfs_file_pread(zfs_file_t *fp, void *buf, size_t len, le_loff_t off,
    ssize_t *resid)
{
	return (le_io('R', fp, buf, len, off, resid));
}

int
zfs_file_pwrite(zfs_file_t *fp, const void *buf, size_t len, le_loff_t off,
    ssize_t *resid)
{
	return (le_io('W', fp, (void *)buf, len, off, resid));
}

/*
 * Sets le_emulate from LEAFEMU_DEVICE. A ziosim drive is opened once, at the
 * first phase (open_ziosim), when the harness has set LEAFEMU_LEAVES.
 */
static void
le_parse_device(int open_ziosim)
{
	const char *env = getenv("LEAFEMU_DEVICE");
	char err[1024];
	le_emulate = LE_NONE;
	if (env == NULL || *env == '\0')
		return;
	if (strncmp(env, "fixed:", 6) == 0) {
		if (leafdev_parse(env, &le_dev, err, sizeof (err)) != 0) {
			fprintf(stderr, "leafemu: LEAFEMU_DEVICE: %s\n", err);
			exit(2);
		}
		le_emulate = LE_FIXED;
		return;
	}
	if (!open_ziosim)
		return;
	if (!le_device_checked) {
		if (leafdev_ziosim_open(&le_zdev, env, le_count_leaves(), err, sizeof (err)) != 0) {
			fprintf(stderr, "leafemu: LEAFEMU_DEVICE: %s\n", err);
			exit(2);
		}
		le_device_checked = 1;
	}
	le_emulate = LE_ZIOSIM;
}

static void
le_flush_log(void)
{
	const char *path = getenv("LEAFEMU_LOG");
	pthread_mutex_lock(&le_log_lock);
	if (path != NULL && *path != '\0' && le_log != NULL) {
		FILE *f = fopen(path, "w");
		if (f == NULL) {
			fprintf(stderr, "leafemu: cannot write %s: %s\n",
			    path, strerror(errno));
		} else {
			const char *dn = getenv("LEAFEMU_LOG_DONE");
			int with_done = dn != NULL && strcmp(dn, "1") == 0;
			fprintf(f, "%s%s\n", LEAFDEV_CSV_HEADER,
			    with_done ? ",done_ns" : "");
			for (size_t i = 0; i < le_log_n; i++) {
				le_rec_t *r = &le_log[i];
				leafdev_write_row(f, r->leaf, r->op, r->offset,
				    r->size, r->arrival, r->start, r->end,
				    r->in_flight);
				if (with_done)
					fprintf(f, ",%" PRId64, r->done);
				fputc('\n', f);
			}
			fclose(f);
		}
	}
	if (le_log_dropped > 0)
		fprintf(stderr, "leafemu: %zu I/O records dropped (raise "
		    "LEAFEMU_LOG_MAX)\n", le_log_dropped);
	pthread_mutex_unlock(&le_log_lock);
}

/*
 * on=1: new clock origin, empty log, lanes idle, logging (and emulation if
 * LEAFEMU_DEVICE is set) on.  on=0: off, log written to LEAFEMU_LOG.
 */
void
leafemu_phase(int on)
{
	pthread_once(&le_once, le_init);
	if (on) {
		le_parse_device(1);
		pthread_mutex_lock(&le_log_lock);
		if (le_log == NULL) {
			const char *m = getenv("LEAFEMU_LOG_MAX");
			le_log_cap = m ? strtoull(m, NULL, 10) : 4000000;
			le_log = calloc(le_log_cap, sizeof (le_rec_t));
			if (le_log == NULL)
				le_log_cap = 0;
		}
		le_log_n = 0;
		le_log_dropped = 0;
		pthread_mutex_unlock(&le_log_lock);
		for (int i = 0; i < LE_MAX_LEAVES; i++) {
			pthread_mutex_lock(&le_leaves[i].lock);
			memset(le_leaves[i].lane_free, 0,
			    sizeof (le_leaves[i].lane_free));
			le_leaves[i].in_flight = 0;
			pthread_mutex_unlock(&le_leaves[i].lock);
		}
		if (le_emulate == LE_ZIOSIM) {
			le_zdev.start(le_zdev.rt);
			le_origin_ns = le_zdev.origin_ns(le_zdev.rt);
		} else {
			le_origin_ns = le_now();
		}
		__atomic_store_n(&le_on, 1, __ATOMIC_SEQ_CST);
	} else {
		__atomic_store_n(&le_on, 0, __ATOMIC_SEQ_CST);
		le_flush_log();
	}
}

/* Leaf I/Os currently outstanding (for the harness's settle wait). */
long
leafemu_outstanding(void)
{
	long n = 0;
	for (int i = 0; i < LE_MAX_LEAVES; i++) {
		pthread_mutex_lock(&le_leaves[i].lock);
		n += le_leaves[i].in_flight;
		pthread_mutex_unlock(&le_leaves[i].lock);
	}
	return (n);
}

/* Number of records logged in the current/last phase. */
long
leafemu_logged(void)
{
	return ((long)le_log_n);
}

/* Validate a fixed: LEAFEMU_DEVICE at load time, not only after the write phase. */
__attribute__((constructor))
static void
le_check_env(void)
{
	le_parse_device(0);
	le_emulate = LE_NONE;
}
