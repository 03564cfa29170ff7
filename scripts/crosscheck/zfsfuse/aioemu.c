/*
 * aioemu.c - LD_PRELOAD library for the zfs-fuse (ONNV b134) daemon.
 *
 * zfs-fuse links libaio statically, so io_setup/io_submit/io_getevents are
 * raw syscall instructions inside the binary and cannot be interposed by
 * symbol.  This library instead installs a seccomp filter that makes the
 * io_* syscalls trap (SECCOMP_RET_TRAP -> SIGSYS) and emulates them fully in
 * user space inside the SIGSYS handler:
 *
 *   io_setup      -> returns a pointer to a private context object
 *   io_submit     -> performs the real pread/pwrite at once, computes the
 *                    emulated device completion time and queues the event;
 *                    returns without waiting
 *   io_getevents  -> returns events whose emulated completion time has passed
 *                    (CLOCK_MONOTONIC), sleeping until then or the timeout
 *   io_destroy / io_cancel -> trivial
 *
 * pread64/pwrite64 on leaf files (the synchronous fallback path of
 * vdev_file.c) are interposed by symbol and emulated synchronously.
 *
 * Environment:
 *   LEAFEMU_LEAVES   "path0:path1:..."   leaf files (index = position)
 *   LEAFEMU_EXE      optional: activate only in the process whose executable
 *                    has this base name (the seccomp filter is inherited by
 *                    children and across exec, so it must not be installed
 *                    in a wrapper such as nice)
 *   LEAFEMU_DEVICE   "fixed:latency=4ms,bandwidth=150MB/s,lanes=1", or a ziosim
 *                    drive ("wd-re4-1tb"): ziosim's own model serves each I/O in
 *                    real time (libziosim_realtime.so, see ../leafdev.h) and an
 *                    asynchronous one is due when the emulator completes it
 *   LEAFEMU_LOG      CSV written at the end of each phase
 *   LEAFEMU_CONTROL  control file, polled every millisecond by a thread:
 *                    content starting with "on" starts a phase (emulation +
 *                    logging; optional second word = log path overriding
 *                    LEAFEMU_LOG), anything else / missing file = off.
 *                    Each applied transition is acknowledged by writing
 *                    "on\n" or "off\n" to CONTROL.ack (after the log has been
 *                    written for "off").
 *
 * Device model (per leaf): `lanes` servers; at arrival a (under a per-leaf
 * mutex), the earliest-free lane is chosen, start = max(a, lane_free),
 * end = start + latency + size*1e9/bandwidth, lane_free = end.
 * in_flight = I/Os of this leaf with end > a, plus this one.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "../leafdev.h"

#define MAX_LEAVES 64

typedef struct {
	char path[4096];
	pthread_mutex_t lock;
	int64_t lane_free[LEAFDEV_MAX_LANES];
	int64_t *ends;		/* end times of I/Os possibly still in flight */
	size_t nends, capends;
	int64_t zinflight;	/* ziosim drive: I/Os submitted, not completed */
} leaf_t;

typedef struct {
	int leaf, op;
	int64_t off, size, arr, start, end;
	int inflight;
} rec_t;

typedef struct {
	uint64_t data, obj;
	int64_t res, res2;
	int64_t due;		/* CLOCK_MONOTONIC ns */
	int waits;		/* ziosim drive: of the real I/O and the emulator, still to finish */
	int64_t end_at;		/* ziosim drive: the emulator's completion */
} pend_t;

typedef struct {
	uint64_t pad[8];	/* ring->magic lives at offset 16: keep it 0 */
	uint32_t magic;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pend_t *p;
	size_t np, capp;
} ctx_t;
#define CTX_MAGIC 0x41494f45u

static leaf_t leaves[MAX_LEAVES];
static int nleaves;
/* The device model; without LEAFEMU_DEVICE (or "none") I/O takes no time. */
static leafdev_t dev = { 0, INFINITY, 1 };
static leafdev_ziosim_t zdev;	/* or a ziosim drive */
static int use_ziosim;

static volatile int emul_on;
static int64_t phase_start;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static rec_t *recs;
static size_t nrecs, caprecs;
static char log_path[4096];
static char ctl_path[4096];
static int64_t nsubmits_total;
/* completion lateness (delivery by io_getevents - due), during a phase */
static int64_t late_n, late_sum, late_max, late_over1ms;

static ssize_t (*real_pread64)(int, void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static int (*real_pthread_sigmask)(int, const sigset_t *, sigset_t *);
static int (*real_sigprocmask)(int, const sigset_t *, sigset_t *);

static int64_t
now_ns(void)
{
	return leafdev_now_ns();
}

static void
die(const char *msg)
{
	fprintf(stderr, "aioemu: %s\n", msg);
	_exit(111);
}

/* ---- device spec ---- */

static void
parse_device(const char *spec)
{
	char err[256], msg[300];
	if (!spec || !*spec || !strcmp(spec, "none"))
		return;
	if (strncmp(spec, "fixed:", 6) != 0) {
		char zerr[1024], zmsg[1100];
		if (leafdev_ziosim_open(&zdev, spec, nleaves, zerr, sizeof (zerr)) != 0) {
			snprintf(zmsg, sizeof (zmsg), "LEAFEMU_DEVICE: %s", zerr);
			die(zmsg);
		}
		use_ziosim = 1;
		return;
	}
	if (leafdev_parse(spec, &dev, err, sizeof (err)) != 0) {
		snprintf(msg, sizeof (msg), "LEAFEMU_DEVICE: %s", err);
		die(msg);
	}
}

/* ---- leaves ---- */

static int
fd_leaf(int fd)
{
	char lnk[64], target[4096];
	ssize_t n;
	if (fd < 0 || nleaves == 0)
		return -1;
	snprintf(lnk, sizeof (lnk), "/proc/self/fd/%d", fd);
	n = readlink(lnk, target, sizeof (target) - 1);
	if (n <= 0)
		return -1;
	target[n] = 0;
	for (int i = 0; i < nleaves; i++)
		if (!strcmp(target, leaves[i].path))
			return i;
	return -1;
}

/* Appends one record (times in ns since the phase started) while a phase is on. */
static void
log_io(int li, int op, int64_t off, int64_t size, int64_t arr, int64_t start, int64_t end, int inflight)
{
	pthread_mutex_lock(&log_lock);
	if (emul_on) {
		if (nrecs == caprecs) {
			caprecs = caprecs ? 2 * caprecs : 65536;
			recs = realloc(recs, caprecs * sizeof (rec_t));
		}
		rec_t *r = &recs[nrecs++];
		r->leaf = li;
		r->op = op;
		r->off = off;
		r->size = size;
		r->arr = arr;
		r->start = start;
		r->end = end;
		r->inflight = inflight;
	}
	pthread_mutex_unlock(&log_lock);
}

/*
 * Book one I/O on the emulated device; returns the completion time
 * (CLOCK_MONOTONIC ns).  Logs it when a phase is active.
 */
static int64_t
device_book(int li, int op, int64_t off, int64_t size)
{
	int64_t a = now_ns(), start, end;
	leaf_t *L;
	int inflight;
	size_t j, k;

	if (li < 0 || !emul_on)
		return a;
	L = &leaves[li];
	pthread_mutex_lock(&L->lock);
	a = now_ns();
	end = leafdev_book(&dev, L->lane_free, a, size, &start);
	for (j = 0, k = 0; j < L->nends; j++)
		if (L->ends[j] > a)
			L->ends[k++] = L->ends[j];
	L->nends = k;
	inflight = (int)k + 1;
	if (L->nends == L->capends) {
		L->capends = L->capends ? 2 * L->capends : 64;
		L->ends = realloc(L->ends, L->capends * sizeof (int64_t));
	}
	L->ends[L->nends++] = end;

	/* log under the leaf lock so that per-leaf log order = booking order */
	log_io(li, op, off, size, a - phase_start, start - phase_start, end - phase_start, inflight);
	pthread_mutex_unlock(&L->lock);
	return end;
}

/* ---- a ziosim drive: completions come from the emulator's thread ---- */

typedef struct {
	ctx_t *c;
	uint64_t obj;
	int li, op, inflight;
	int64_t off, size, arr;
} zpend_t;

static ziosim_rt_io_t *
ziosim_submit(int li, int op, int64_t off, int64_t size, int64_t *arr)
{
	char err[1024];
	ziosim_rt_io_t *io = zdev.submit(zdev.rt, li, op, off, size, arr, err, sizeof (err));
	if (io == NULL)
		die(err);
	return (io);
}

/* Under c->lock: the pending event of iocb obj. */
static pend_t *
find_pend(ctx_t *c, uint64_t obj)
{
	for (size_t j = 0; j < c->np; j++)
		if (c->p[j].obj == obj)
			return (&c->p[j]);
	die("completion of an iocb that is not pending");
	return (NULL);
}

/* Under c->lock: one of the two halves finished; the event is due once both have. */
static void
pend_half_done(ctx_t *c, pend_t *p)
{
	if (--p->waits == 0) {
		p->due = p->end_at;
		pthread_cond_broadcast(&c->cond);
	}
}

static void
ziosim_async_done(void *arg, int64_t start, int64_t end)
{
	zpend_t *z = arg;
	pthread_mutex_lock(&z->c->lock);
	pend_t *p = find_pend(z->c, z->obj);
	p->end_at = phase_start + end;
	pend_half_done(z->c, p);
	pthread_mutex_unlock(&z->c->lock);
	__atomic_sub_fetch(&leaves[z->li].zinflight, 1, __ATOMIC_RELAXED);
	log_io(z->li, z->op, z->off, z->size, z->arr, start, end, z->inflight);
	free(z);
}

/* io_submit of a read or write on a leaf served by a ziosim drive. */
static void
ziosim_io_submit(ctx_t *c, struct iocb *cb, int li, int op)
{
	zpend_t *z = malloc(sizeof (*z));
	char err[1024];
	if (z == NULL)
		die("out of memory");
	*z = (zpend_t){ c, (uint64_t)(uintptr_t)cb, li, op, 0, (int64_t)cb->aio_offset,
	    (int64_t)cb->aio_nbytes, 0 };
	pthread_mutex_lock(&c->lock);
	if (c->np == c->capp) {
		c->capp = c->capp ? 2 * c->capp : 256;
		c->p = realloc(c->p, c->capp * sizeof (pend_t));
	}
	c->p[c->np++] = (pend_t){ cb->aio_data, z->obj, 0, 0, INT64_MAX, 2, 0 };
	pthread_mutex_unlock(&c->lock);
	z->inflight = (int)__atomic_add_fetch(&leaves[li].zinflight, 1, __ATOMIC_RELAXED);
	if (zdev.submit_async(zdev.rt, li, op, z->off, z->size, ziosim_async_done, z, &z->arr, err,
	    sizeof (err)) != 0)
		die(err);
	int64_t res = op == 'R' ?
	    syscall(SYS_pread64, (int)cb->aio_fildes, (void *)(uintptr_t)cb->aio_buf, (size_t)cb->aio_nbytes,
	    (off_t)cb->aio_offset) :
	    syscall(SYS_pwrite64, (int)cb->aio_fildes, (void *)(uintptr_t)cb->aio_buf, (size_t)cb->aio_nbytes,
	    (off_t)cb->aio_offset);
	if (res < 0)
		res = -errno;
	pthread_mutex_lock(&c->lock);
	pend_t *p = find_pend(c, (uint64_t)(uintptr_t)cb);	/* z may be freed already */
	p->res = res;
	pend_half_done(c, p);
	pthread_mutex_unlock(&c->lock);
}

static void
sleep_until(int64_t t)
{
	struct timespec ts;
	ts.tv_sec = t / 1000000000LL;
	ts.tv_nsec = t % 1000000000LL;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	    EINTR)
		;
}

/* ---- AIO emulation ---- */

static long
emu_io_setup(unsigned nr, uint64_t *ctxp)
{
	ctx_t *c;
	pthread_condattr_t ca;
	(void) nr;
	if (!ctxp)
		return -EFAULT;
	c = calloc(1, sizeof (*c));
	if (!c)
		return -ENOMEM;
	c->magic = CTX_MAGIC;
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cond, &ca);
	*ctxp = (uint64_t)(uintptr_t)c;
	return 0;
}

static ctx_t *
get_ctx(uint64_t id)
{
	ctx_t *c = (ctx_t *)(uintptr_t)id;
	if (!c || c->magic != CTX_MAGIC)
		return NULL;
	return c;
}

static long
emu_io_submit(uint64_t id, long nr, struct iocb **iocbpp)
{
	ctx_t *c = get_ctx(id);
	long i;
	if (!c)
		return -EINVAL;
	if (nr < 0)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		struct iocb *cb = iocbpp[i];
		int64_t res, due;
		int op, li;
		int fd = (int)cb->aio_fildes;

		switch (cb->aio_lio_opcode) {
		case IOCB_CMD_PREAD:
			op = 'R';
			break;
		case IOCB_CMD_PWRITE:
			op = 'W';
			break;
		case IOCB_CMD_FSYNC:
		case IOCB_CMD_FDSYNC:
			op = 'F';
			break;
		default:
			return i ? i : -EINVAL;
		}
		li = fd_leaf(fd);
		if (op != 'F' && li >= 0 && emul_on && use_ziosim) {
			ziosim_io_submit(c, cb, li, op);
			__atomic_add_fetch(&nsubmits_total, 1, __ATOMIC_RELAXED);
			continue;
		}
		if (op == 'F') {
			res = syscall(SYS_fsync, fd);
			res = res < 0 ? -errno : 0;
			due = now_ns();
		} else {
			due = device_book(li, op, cb->aio_offset,
			    (int64_t)cb->aio_nbytes);
			if (op == 'R')
				res = syscall(SYS_pread64, fd,
				    (void *)(uintptr_t)cb->aio_buf,
				    (size_t)cb->aio_nbytes, (off_t)cb->aio_offset);
			else
				res = syscall(SYS_pwrite64, fd,
				    (void *)(uintptr_t)cb->aio_buf,
				    (size_t)cb->aio_nbytes, (off_t)cb->aio_offset);
			if (res < 0)
				res = -errno;
		}
		pthread_mutex_lock(&c->lock);
		if (c->np == c->capp) {
			c->capp = c->capp ? 2 * c->capp : 256;
			c->p = realloc(c->p, c->capp * sizeof (pend_t));
		}
		pend_t *p = &c->p[c->np++];
		p->data = cb->aio_data;
		p->obj = (uint64_t)(uintptr_t)cb;
		p->res = res;
		p->res2 = 0;
		p->due = due;
		p->waits = 0;
		p->end_at = due;
		pthread_cond_broadcast(&c->cond);
		pthread_mutex_unlock(&c->lock);
		__atomic_add_fetch(&nsubmits_total, 1, __ATOMIC_RELAXED);
	}
	return nr;
}

static long
emu_io_getevents(uint64_t id, long min_nr, long nr, struct io_event *ev,
    struct timespec *tmo)
{
	ctx_t *c = get_ctx(id);
	int64_t deadline = -1;
	long got = 0;
	if (!c)
		return -EINVAL;
	if (min_nr < 0 || nr < 0 || min_nr > nr)
		return -EINVAL;
	if (tmo)
		deadline = now_ns() + (int64_t)tmo->tv_sec * 1000000000LL +
		    tmo->tv_nsec;
	pthread_mutex_lock(&c->lock);
	for (;;) {
		int64_t t = now_ns(), next = INT64_MAX;
		/* collect due events, earliest first */
		while (got < nr) {
			size_t bi = (size_t)-1;
			for (size_t j = 0; j < c->np; j++)
				if (c->p[j].due <= t &&
				    (bi == (size_t)-1 || c->p[j].due < c->p[bi].due))
					bi = j;
			if (bi == (size_t)-1)
				break;
			if (emul_on) {
				int64_t late = t - c->p[bi].due;
				__atomic_add_fetch(&late_n, 1, __ATOMIC_RELAXED);
				__atomic_add_fetch(&late_sum, late, __ATOMIC_RELAXED);
				if (late > 1000000)
					__atomic_add_fetch(&late_over1ms, 1,
					    __ATOMIC_RELAXED);
				if (late > late_max)
					late_max = late;
			}
			ev[got].data = c->p[bi].data;
			ev[got].obj = c->p[bi].obj;
			ev[got].res = c->p[bi].res;
			ev[got].res2 = c->p[bi].res2;
			got++;
			c->p[bi] = c->p[--c->np];
		}
		if (got >= min_nr && (got > 0 || min_nr == 0))
			break;
		if (got >= nr)
			break;
		for (size_t j = 0; j < c->np; j++)
			if (c->p[j].due < next)
				next = c->p[j].due;
		if (deadline >= 0 && t >= deadline)
			break;
		if (deadline >= 0 && next > deadline)
			next = deadline;
		if (next == INT64_MAX) {
			pthread_cond_wait(&c->cond, &c->lock);
		} else {
			struct timespec ts;
			ts.tv_sec = next / 1000000000LL;
			ts.tv_nsec = next % 1000000000LL;
			pthread_cond_timedwait(&c->cond, &c->lock, &ts);
		}
	}
	pthread_mutex_unlock(&c->lock);
	return got;
}

static void
sigsys_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	int saved = errno;
	long ret;
	(void) sig;
	switch (si->si_syscall) {
	case SYS_io_setup:
		ret = emu_io_setup((unsigned)g[REG_RDI],
		    (uint64_t *)(uintptr_t)g[REG_RSI]);
		break;
	case SYS_io_destroy:
		ret = get_ctx((uint64_t)g[REG_RDI]) ? 0 : -EINVAL;
		break;
	case SYS_io_submit:
		ret = emu_io_submit((uint64_t)g[REG_RDI], (long)g[REG_RSI],
		    (struct iocb **)(uintptr_t)g[REG_RDX]);
		break;
	case SYS_io_getevents:
		ret = emu_io_getevents((uint64_t)g[REG_RDI], (long)g[REG_RSI],
		    (long)g[REG_RDX], (struct io_event *)(uintptr_t)g[REG_R10],
		    (struct timespec *)(uintptr_t)g[REG_R8]);
		break;
	case SYS_io_cancel:
		ret = -EAGAIN;
		break;
	default:
		ret = -ENOSYS;
	}
	g[REG_RAX] = ret;
	errno = saved;
}

/* ---- symbol interposition ---- */

/* A synchronous leaf I/O: the real one at once, then the device's completion time. */
static ssize_t
sync_leaf_io(int fd, int op, void *buf, size_t n, off_t off)
{
	int li = (emul_on && nleaves) ? fd_leaf(fd) : -1;
	if (li >= 0 && use_ziosim) {
		int64_t arr, start, end;
		int inflight = (int)__atomic_add_fetch(&leaves[li].zinflight, 1, __ATOMIC_RELAXED);
		ziosim_rt_io_t *io = ziosim_submit(li, op, off, (int64_t)n, &arr);
		ssize_t r = op == 'R' ? real_pread64(fd, buf, n, off) : real_pwrite64(fd, buf, n, off);
		int e = errno;
		zdev.wait(zdev.rt, io, &start, &end);
		__atomic_sub_fetch(&leaves[li].zinflight, 1, __ATOMIC_RELAXED);
		log_io(li, op, off, (int64_t)n, arr, start, end, inflight);
		errno = e;
		return r;
	}
	int64_t due = li >= 0 ? device_book(li, op, off, n) : 0;
	ssize_t r = op == 'R' ? real_pread64(fd, buf, n, off) : real_pwrite64(fd, buf, n, off);
	if (li >= 0) {
		int e = errno;
		sleep_until(due);
		errno = e;
	}
	return r;
}

ssize_t
pread64(int fd, void *buf, size_t n, off_t off)
{
	return sync_leaf_io(fd, 'R', buf, n, off);
}

ssize_t
pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	return sync_leaf_io(fd, 'W', (void *)buf, n, off);
}

/* Never let a thread block SIGSYS: a blocked trap signal kills the process. */
static const sigset_t *
strip_sigsys(int how, const sigset_t *set, sigset_t *tmp)
{
	if (!set || how == SIG_UNBLOCK)
		return set;
	*tmp = *set;
	sigdelset(tmp, SIGSYS);
	return tmp;
}

int
pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t tmp;
	return real_pthread_sigmask(how, strip_sigsys(how, set, &tmp), old);
}

int
sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t tmp;
	return real_sigprocmask(how, strip_sigsys(how, set, &tmp), old);
}

/* ---- phase control ---- */

static void
write_log(const char *path)
{
	char stats[4200];
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "aioemu: cannot write %s\n", path);
		return;
	}
	fprintf(f, "%s\n", LEAFDEV_CSV_HEADER);
	for (size_t i = 0; i < nrecs; i++) {
		rec_t *r = &recs[i];
		leafdev_write_row(f, r->leaf, r->op, r->off, r->size, r->arr, r->start, r->end, r->inflight);
		fputc('\n', f);
	}
	fclose(f);
	snprintf(stats, sizeof (stats), "%s.emu.json", path);
	f = fopen(stats, "w");
	if (f) {
		fprintf(f, "{\"completions\": %lld, \"mean_late_us\": %.1f, "
		    "\"max_late_us\": %.1f, \"late_over_1ms\": %lld}\n",
		    (long long)late_n, late_n ? late_sum / 1e3 / late_n : 0.0,
		    late_max / 1e3, (long long)late_over1ms);
		fclose(f);
	}
}

static void
ack(const char *state)
{
	char p[4200], tmp[4200];
	snprintf(p, sizeof (p), "%s.ack", ctl_path);
	snprintf(tmp, sizeof (tmp), "%s.ack.tmp", ctl_path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%s\n", state);
	fclose(f);
	rename(tmp, p);
}

static void *
control_thread(void *arg)
{
	char cur_log[4096];
	(void) arg;
	cur_log[0] = 0;
	for (;;) {
		char buf[4200] = { 0 };
		int want = 0;
		FILE *f = fopen(ctl_path, "r");
		if (f) {
			size_t n = fread(buf, 1, sizeof (buf) - 1, f);
			buf[n] = 0;
			fclose(f);
			want = strncmp(buf, "on", 2) == 0;
		}
		if (want && !emul_on) {
			char *lp = buf + 2;
			while (*lp == ' ' || *lp == '\t')
				lp++;
			lp[strcspn(lp, "\r\n")] = 0;
			snprintf(cur_log, sizeof (cur_log), "%s",
			    *lp ? lp : log_path);
			for (int i = 0; i < nleaves; i++) {
				pthread_mutex_lock(&leaves[i].lock);
				memset(leaves[i].lane_free, 0,
				    sizeof (leaves[i].lane_free));
				leaves[i].nends = 0;
				pthread_mutex_unlock(&leaves[i].lock);
			}
			if (use_ziosim)		/* fresh drives, once the last phase's I/O is done */
				zdev.start(zdev.rt);
			pthread_mutex_lock(&log_lock);
			nrecs = 0;
			late_n = late_sum = late_max = late_over1ms = 0;
			phase_start = use_ziosim ? zdev.origin_ns(zdev.rt) : now_ns();
			__atomic_store_n(&emul_on, 1, __ATOMIC_SEQ_CST);
			pthread_mutex_unlock(&log_lock);
			ack("on");
		} else if (!want && emul_on) {
			pthread_mutex_lock(&log_lock);
			__atomic_store_n(&emul_on, 0, __ATOMIC_SEQ_CST);
			pthread_mutex_unlock(&log_lock);
			if (cur_log[0])
				write_log(cur_log);
			ack("off");
		}
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void
install_seccomp(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		    offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_setup, 5, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_destroy, 4, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_submit, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_getevents, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_cancel, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
	};
	struct sock_fprog prog = { sizeof (f) / sizeof (f[0]), f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		die("PR_SET_NO_NEW_PRIVS failed");
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
	    SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0)
		die("seccomp filter failed");
}

__attribute__((constructor)) static void
aioemu_init(void)
{
	const char *s;
	struct sigaction sa;
	pthread_t th;
	sigset_t m;

	real_pread64 = dlsym(RTLD_NEXT, "pread64");
	real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
	real_pthread_sigmask = dlsym(RTLD_NEXT, "pthread_sigmask");
	real_sigprocmask = dlsym(RTLD_NEXT, "sigprocmask");
	if (!real_pread64 || !real_pwrite64 || !real_pthread_sigmask ||
	    !real_sigprocmask)
		die("dlsym failed");

	/*
	 * LEAFEMU_EXE: only activate in the process whose executable has this
	 * base name (e.g. when LD_PRELOAD passes through nice/env first).
	 */
	s = getenv("LEAFEMU_EXE");
	if (s && *s) {
		char exe[4096];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof (exe) - 1);
		const char *base;
		if (n <= 0)
			return;
		exe[n] = 0;
		base = strrchr(exe, '/');
		base = base ? base + 1 : exe;
		if (strcmp(base, s) != 0)
			return;
	}
	/* do not propagate into children (system() etc.) */
	unsetenv("LD_PRELOAD");

	s = getenv("LEAFEMU_LEAVES");
	if (s && *s) {
		char *dup = strdup(s), *save, *tok;
		for (tok = strtok_r(dup, ":", &save); tok;
		    tok = strtok_r(NULL, ":", &save)) {
			if (nleaves == MAX_LEAVES)
				die("too many leaves");
			char *rp = realpath(tok, NULL);
			snprintf(leaves[nleaves].path,
			    sizeof (leaves[nleaves].path), "%s", rp ? rp : tok);
			free(rp);
			pthread_mutex_init(&leaves[nleaves].lock, NULL);
			nleaves++;
		}
		free(dup);
	}
	parse_device(getenv("LEAFEMU_DEVICE"));
	s = getenv("LEAFEMU_LOG");
	snprintf(log_path, sizeof (log_path), "%s", s ? s : "");
	s = getenv("LEAFEMU_CONTROL");
	snprintf(ctl_path, sizeof (ctl_path), "%s", s ? s : "");

	memset(&sa, 0, sizeof (sa));
	sa.sa_sigaction = sigsys_handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != 0)
		die("sigaction(SIGSYS) failed");
	sigemptyset(&m);
	sigaddset(&m, SIGSYS);
	real_sigprocmask(SIG_UNBLOCK, &m, NULL);
	install_seccomp();

	if (ctl_path[0]) {
		if (pthread_create(&th, NULL, control_thread, NULL) != 0)
			die("cannot start control thread");
		pthread_detach(th);
	}
}
