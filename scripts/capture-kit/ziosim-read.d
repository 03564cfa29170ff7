#!/usr/sbin/dtrace -qs
/*
 * ziosim-read.d: the file-level read calls of a process and its children, in the
 * ziosim-dtrace 1 format (FreeBSD; run through capture-freebsd-dtrace.sh, or
 *   dtrace -q -s ziosim-read.d -c 'CMD ARGS' -o OUT    or    ... -p PID -o OUT).
 *
 *   # ziosim-dtrace 1
 *   <entry_ns> <pid> <call> <fd> <offset> <size> <ret> <latency_ns>[ <path>]
 *
 * One line per completed call, fields separated by one space:
 *   entry_ns    `timestamp` at the call's entry (ns, arbitrary origin)
 *   pid         the calling process
 *   call        open openat read pread lseek close dup dup2
 *   fd          the fd argument; -1 for open/openat (the new fd is in ret)
 *   offset      pread's offset argument, lseek's offset argument; -1 otherwise
 *   size        read/pread: the byte count asked; lseek: whence (0 SET, 1 CUR, 2 END);
 *               dup2: the new fd asked; 0 otherwise
 *   ret         the return value: bytes read, the new offset, the new fd, 0; -1 on error
 *   latency_ns  `timestamp` at return - entry_ns
 *   path        open/openat only: the path argument, copied in at entry; the rest of
 *               the line (it may hold spaces). openat's path is relative to its
 *               directory fd when it does not start with "/" (the fd is not recorded).
 *
 * DTrace prints each CPU's buffer in turn, so lines are not in entry_ns order;
 * capture-freebsd-dtrace.sh sorts them. A call in flight when tracing starts has
 * no entry here and is left out, and so is an open whose path could not be copied
 * in (dtrace reports an "invalid address" error on stderr). readv/preadv, mmap, sendfile and aio are not
 * recorded. Processes: $target and its descendants (progenyof), all threads.
 * Written from the FreeBSD syscall provider's documentation; not run by its author.
 */

#pragma D option quiet
#pragma D option switchrate=10hz
#pragma D option bufsize=16m
#pragma D option dynvarsize=16m
#pragma D option strsize=1024

/* Declared, so that every assignment keeps 64 bits (an undeclared variable takes
   the type of its first assignment in the program, `-1` being an int). */
self uint64_t ts;
self int64_t fd;
self int64_t off;
self int64_t size;
self string path;

BEGIN
{
	printf("# ziosim-dtrace 1\n");
}

/* open(path, flags, mode) */
syscall::open:entry
/progenyof($target)/
{
	self->path = copyinstr(arg0);	/* first: if it faults, the call is left out */
	self->ts = timestamp;
}

/* openat(fd, path, flags, mode) */
syscall::openat:entry
/progenyof($target)/
{
	self->path = copyinstr(arg1);
	self->ts = timestamp;
}

syscall::open:return, syscall::openat:return
/self->ts/
{
	printf("%u %d %s -1 -1 0 %d %u %s\n", self->ts, pid, probefunc, (int64_t)arg0,
	    timestamp - self->ts, self->path);
	self->ts = 0;
	self->path = 0;
}

/* read(fd, buf, nbyte) */
syscall::read:entry
/progenyof($target)/
{
	self->ts = timestamp;
	self->fd = (int)arg0;
	self->off = -1;
	self->size = (int64_t)arg2;
}

/* pread(fd, buf, nbyte, offset) */
syscall::pread:entry
/progenyof($target)/
{
	self->ts = timestamp;
	self->fd = (int)arg0;
	self->off = (int64_t)arg3;
	self->size = (int64_t)arg2;
}

/* lseek(fd, offset, whence) */
syscall::lseek:entry
/progenyof($target)/
{
	self->ts = timestamp;
	self->fd = (int)arg0;
	self->off = (int64_t)arg1;
	self->size = (int)arg2;
}

/* close(fd) */
syscall::close:entry
/progenyof($target)/
{
	self->ts = timestamp;
	self->fd = (int)arg0;
	self->off = -1;
	self->size = 0;
}

/* dup(fd), dup2(from, to): a program may read a file through a copy of its
   descriptor (dd reads its input as fd 0 after dup2) */
syscall::dup:entry
/progenyof($target)/
{
	self->ts = timestamp;
	self->fd = (int)arg0;
	self->off = -1;
	self->size = 0;
}

syscall::dup2:entry
/progenyof($target)/
{
	self->ts = timestamp;
	self->fd = (int)arg0;
	self->off = -1;
	self->size = (int)arg1;
}

syscall::read:return, syscall::pread:return, syscall::lseek:return, syscall::close:return,
syscall::dup:return, syscall::dup2:return
/self->ts/
{
	printf("%u %d %s %d %d %d %d %u\n", self->ts, pid, probefunc, self->fd, self->off,
	    self->size, (int64_t)arg0, timestamp - self->ts);
	self->ts = 0;
	self->fd = 0;
	self->off = 0;
	self->size = 0;
}
