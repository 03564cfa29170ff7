/*
 * The cross-check's reference device, shared by both interposers (libzpool's
 * leafemu.c, zfs-fuse's aioemu.c) and implemented identically by ziosim in
 * simulated time (models/device/fixed_device.h):
 *
 *   LEAFEMU_DEVICE="fixed:latency=4ms,bandwidth=150MB/s,lanes=1"
 *
 * Per leaf, `lanes` servers; an I/O arriving at time a takes the lane that
 * frees first, start = max(a, lane_free), end = start + latency +
 * size * 1e9 / bandwidth (rounded to the ns, as ziosim does), lane_free = end.
 * Any other LEAFEMU_DEVICE is a ziosim drive name ("wd-re4-1tb",
 * "disksim:FILE.parv", ...), served in real time by ziosim's own device model
 * from libziosim_realtime.so (bindings/realtime/), loaded here on demand.
 * Also the one CSV format of the leaf-I/O log. Header only: each interposer is
 * one shared object built from one .c file.
 */
#ifndef ZIOSIM_CROSSCHECK_LEAFDEV_H
#define ZIOSIM_CROSSCHECK_LEAFDEV_H

#include <dlfcn.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../bindings/realtime/ziosim_realtime.h"

#define LEAFDEV_MAX_LANES 1024
#define LEAFDEV_CSV_HEADER "leaf,op,offset,size,arrival_ns,start_ns,end_ns,in_flight"

typedef struct {
	int64_t latency_ns;
	double bandwidth;	/* bytes per second */
	int lanes;
} leafdev_t;

/* CLOCK_MONOTONIC in ns: the clock of the device model and of the logs. */
static inline int64_t
leafdev_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec);
}

/* "4ms", "250us", "1000000ns", "0.004s"; a bare number is ns. -1 if bad. */
static inline int64_t
leafdev_parse_time(const char *s)
{
	static const struct { const char *u; double m; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	char *end;
	double v = strtod(s, &end);
	if (end == s || !(v >= 0))
		return (-1);
	for (size_t i = 0; i < sizeof (units) / sizeof (units[0]); i++)
		if (strcmp(end, units[i].u) == 0)
			return ((int64_t)llround(v * units[i].m));
	return (-1);
}

/* "150MB/s" (10^3 steps) or "100MiB/s" (2^10 steps). -1 if bad. */
static inline double
leafdev_parse_rate(const char *s)
{
	static const struct { const char *u; double m; } units[] = {
		{ "B/s", 1 }, { "KB/s", 1e3 }, { "MB/s", 1e6 }, { "GB/s", 1e9 },
		{ "KiB/s", 1024.0 }, { "MiB/s", 1048576.0 }, { "GiB/s", 1073741824.0 },
	};
	char *end;
	double v = strtod(s, &end);
	if (end == s || !(v > 0) || !isfinite(v))
		return (-1);
	for (size_t i = 0; i < sizeof (units) / sizeof (units[0]); i++)
		if (strcmp(end, units[i].u) == 0)
			return (v * units[i].m);
	return (-1);
}

/*
 * Parses "fixed:KEY=VALUE,..." (latency and bandwidth required, lanes 1 by
 * default). 0 on success; -1 with a message naming the key in err.
 */
static inline int
leafdev_parse(const char *spec, leafdev_t *dev, char *err, size_t errlen)
{
	char buf[1024], *tok, *save = NULL;
	int have_latency = 0, have_bandwidth = 0;
	dev->latency_ns = 0;
	dev->bandwidth = 0;
	dev->lanes = 1;
	if (strncmp(spec, "fixed:", 6) != 0) {
		snprintf(err, errlen, "\"%s\" is not fixed:latency=T,bandwidth=R[,lanes=N]", spec);
		return (-1);
	}
	snprintf(buf, sizeof (buf), "%s", spec + 6);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *val = strchr(tok, '=');
		char *e;
		if (val == NULL) {
			snprintf(err, errlen, "%s: expected KEY=VALUE", tok);
			return (-1);
		}
		*val++ = '\0';
		if (strcmp(tok, "latency") == 0) {
			have_latency = (dev->latency_ns = leafdev_parse_time(val)) >= 0;
			if (!have_latency) {
				snprintf(err, errlen, "latency: \"%s\" is not a time (ns, us, ms, s)", val);
				return (-1);
			}
		} else if (strcmp(tok, "bandwidth") == 0) {
			have_bandwidth = (dev->bandwidth = leafdev_parse_rate(val)) > 0;
			if (!have_bandwidth) {
				snprintf(err, errlen, "bandwidth: \"%s\" is not a rate (B/s, MB/s, MiB/s, ...)", val);
				return (-1);
			}
		} else if (strcmp(tok, "lanes") == 0) {
			long n = strtol(val, &e, 10);
			if (*e != '\0' || n < 1 || n > LEAFDEV_MAX_LANES) {
				snprintf(err, errlen, "lanes: \"%s\" is not from 1 to %d", val, LEAFDEV_MAX_LANES);
				return (-1);
			}
			dev->lanes = (int)n;
		} else {
			snprintf(err, errlen, "%s: unknown key (latency, bandwidth, lanes)", tok);
			return (-1);
		}
	}
	if (!have_latency || !have_bandwidth) {
		snprintf(err, errlen, "%s: missing", have_latency ? "bandwidth" : "latency");
		return (-1);
	}
	return (0);
}

/*
 * Books an I/O of `size` bytes arriving at `arrival` on a leaf whose lanes
 * free at lane_free[0..lanes): returns its end and sets *start. The caller
 * holds the leaf's lock, so that arrival order is FIFO order.
 */
static inline int64_t
leafdev_book(const leafdev_t *dev, int64_t *lane_free, int64_t arrival, int64_t size, int64_t *start)
{
	int best = 0;
	for (int l = 1; l < dev->lanes; l++)
		if (lane_free[l] < lane_free[best])
			best = l;
	*start = arrival > lane_free[best] ? arrival : lane_free[best];
	lane_free[best] = *start + dev->latency_ns + (int64_t)llround((double)size * 1e9 / dev->bandwidth);
	return (lane_free[best]);
}

/* libziosim_realtime.so's entry points (ziosim_realtime.h), found with dlsym. */
typedef struct {
	ziosim_rt_t *rt;
	void (*start)(ziosim_rt_t *);
	int64_t (*origin_ns)(const ziosim_rt_t *);
	ziosim_rt_io_t *(*submit)(ziosim_rt_t *, int, int, int64_t, int64_t, int64_t *, char *, size_t);
	void (*wait)(ziosim_rt_t *, ziosim_rt_io_t *, int64_t *, int64_t *);
	int (*submit_async)(ziosim_rt_t *, int, int, int64_t, int64_t, ziosim_rt_done_fn, void *, int64_t *, char *,
	    size_t);
} leafdev_ziosim_t;

/*
 * Loads the library (env LEAFEMU_ZIOSIM_LIB, else the path the build compiled
 * in) and opens `leaves` devices of `drive`. 0, or -1 with a message in err.
 */
static inline int
leafdev_ziosim_open(leafdev_ziosim_t *z, const char *drive, int leaves, char *err, size_t errlen)
{
	const char *path = getenv("LEAFEMU_ZIOSIM_LIB");
#ifdef LEAFEMU_ZIOSIM_LIB
	if (path == NULL || *path == '\0')
		path = LEAFEMU_ZIOSIM_LIB;
#endif
	if (path == NULL || *path == '\0') {
		snprintf(err, errlen, "\"%s\" is a ziosim drive: set LEAFEMU_ZIOSIM_LIB to libziosim_realtime.so", drive);
		return (-1);
	}
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		snprintf(err, errlen, "cannot load %s: %s", path, dlerror());
		return (-1);
	}
	int (*abi)(void) = (int (*)(void))dlsym(h, "ziosim_rt_abi_version");
	ziosim_rt_t *(*open)(const char *, int, char *, size_t) =
	    (ziosim_rt_t *(*)(const char *, int, char *, size_t))dlsym(h, "ziosim_rt_open");
	z->start = (void (*)(ziosim_rt_t *))dlsym(h, "ziosim_rt_start");
	z->origin_ns = (int64_t (*)(const ziosim_rt_t *))dlsym(h, "ziosim_rt_origin_ns");
	z->submit = (ziosim_rt_io_t *(*)(ziosim_rt_t *, int, int, int64_t, int64_t, int64_t *, char *, size_t))
	    dlsym(h, "ziosim_rt_submit");
	z->wait = (void (*)(ziosim_rt_t *, ziosim_rt_io_t *, int64_t *, int64_t *))dlsym(h, "ziosim_rt_wait");
	z->submit_async = (int (*)(ziosim_rt_t *, int, int, int64_t, int64_t, ziosim_rt_done_fn, void *, int64_t *,
	    char *, size_t))dlsym(h, "ziosim_rt_submit_async");
	if (abi == NULL || open == NULL || z->start == NULL || z->origin_ns == NULL || z->submit == NULL ||
	    z->wait == NULL || z->submit_async == NULL || abi() != ZIOSIM_RT_ABI_VERSION) {
		snprintf(err, errlen, "%s is not libziosim_realtime.so ABI %d", path, ZIOSIM_RT_ABI_VERSION);
		dlclose(h);
		return (-1);
	}
	z->rt = open(drive, leaves, err, errlen);
	return (z->rt != NULL ? 0 : -1);
}

/* One CSV row of the leaf-I/O log (no newline: a caller may add columns). */
static inline void
leafdev_write_row(FILE *f, int leaf, int op, int64_t offset, int64_t size, int64_t arrival, int64_t start,
    int64_t end, int64_t in_flight)
{
	fprintf(f, "%d,%c,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64, leaf, op,
	    offset, size, arrival, start, end, in_flight);
}

#endif /* ZIOSIM_CROSSCHECK_LEAFDEV_H */
