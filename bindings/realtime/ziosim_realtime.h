/*
 * ziosim devices in real time, from C: libziosim_realtime.so.
 *
 * Serves block I/O from real programs (libzpool under the cross-check's
 * interposer, scripts/crosscheck/) as a ziosim Device would in simulation:
 * one device per leaf, built from any drive name ziosim takes (a catalog
 * entry, disksim:FILE.parv, a .toml drive file, fixed:...), each ordering its
 * queue as the drive does (an HDD with NCQ by shortest positioning time).
 * One emulator thread runs a ziosim Simulation whose clock is CLOCK_MONOTONIC
 * minus the origin set by ziosim_rt_start(): an I/O enters the simulation at
 * the instant it was submitted, and its waiter is released when the wall
 * clock reaches its simulated completion. Given the same arrival times, the
 * service times are those of `ziosim` itself, event for event.
 *
 * Commands beyond the drive's queue depth wait in arrival order in front of
 * it (the host's queue); an I/O's start is when it entered the drive. Leaf i
 * is device "d<i>", its spindle at the angle a ziosim pool run with seed
 * ZIOSIM_RT_SEED (the default --seed) gives its leaf "d<i>".
 *
 * Thread-safe: any number of threads may submit and wait at once.
 */
#ifndef ZIOSIM_BINDINGS_REALTIME_ZIOSIM_REALTIME_H_
#define ZIOSIM_BINDINGS_REALTIME_ZIOSIM_REALTIME_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ZIOSIM_RT_ABI_VERSION 1
#define ZIOSIM_RT_SEED 1

typedef struct ziosim_rt ziosim_rt_t;
typedef struct ziosim_rt_io ziosim_rt_io_t;

/* The ABI this library implements (ZIOSIM_RT_ABI_VERSION). */
int ziosim_rt_abi_version(void);

/*
 * `leaves` devices of drive `drive`. NULL on error, with a one-line message
 * in err (e.g. an unknown drive, listing the catalog). The clock starts as
 * if ziosim_rt_start() had been called.
 */
ziosim_rt_t *ziosim_rt_open(const char *drive, int leaves, char *err, size_t errlen);

/* Whether ZFS should be told the drive rotates (vdev_nonrot = !this). */
int ziosim_rt_rotational(const ziosim_rt_t *rt);

/* The drive's capacity in bytes (every leaf's). */
int64_t ziosim_rt_capacity_bytes(const ziosim_rt_t *rt);

/*
 * Fresh devices (idle, heads parked, caches empty) and a new clock origin:
 * now, once every I/O in flight has completed (it waits for them).
 */
void ziosim_rt_start(ziosim_rt_t *rt);

/* CLOCK_MONOTONIC ns of the current origin. */
int64_t ziosim_rt_origin_ns(const ziosim_rt_t *rt);

/*
 * Submits a read (op 'R') or write ('W') of `size` bytes at byte `offset` of
 * leaf `leaf`; *arrival_ns is its arrival (ns since the origin). Returns a
 * handle for ziosim_rt_wait(), or NULL with a message in err if the request
 * does not fit the drive (outside its capacity, not whole sectors).
 */
ziosim_rt_io_t *ziosim_rt_submit(ziosim_rt_t *rt, int leaf, int op, int64_t offset, int64_t size,
                                 int64_t *arrival_ns, char *err, size_t errlen);

/*
 * Blocks until the I/O has completed on its emulated drive (the wall clock
 * has reached its simulated end); sets its start (entered the drive) and end,
 * in ns since the origin, and frees the handle.
 */
void ziosim_rt_wait(ziosim_rt_t *rt, ziosim_rt_io_t *io, int64_t *start_ns, int64_t *end_ns);

/* Called once an asynchronous I/O has completed: start and end as ziosim_rt_wait() gives them. */
typedef void (*ziosim_rt_done_fn)(void *arg, int64_t start_ns, int64_t end_ns);

/*
 * As ziosim_rt_submit(), but nobody waits: `done(arg, start, end)` is called
 * from the emulator's thread when the wall clock reaches the I/O's end, with
 * no lock of the library held (it may submit more). 0, or -1 with a message.
 */
int ziosim_rt_submit_async(ziosim_rt_t *rt, int leaf, int op, int64_t offset, int64_t size,
                           ziosim_rt_done_fn done, void *arg, int64_t *arrival_ns, char *err, size_t errlen);

/* Stops the emulator thread and frees everything. REQUIRES: no I/O in flight. */
void ziosim_rt_close(ziosim_rt_t *rt);

#ifdef __cplusplus
}
#endif

#endif /* ZIOSIM_BINDINGS_REALTIME_ZIOSIM_REALTIME_H_ */
