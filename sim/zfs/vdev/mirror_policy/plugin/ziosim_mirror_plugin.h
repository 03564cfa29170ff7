/*
 * ziosim mirror policy plug-ins: a mirror child selection written in C (a
 * patch to vdev_mirror.c under discussion), compiled to a shared library and
 * loaded at run time, without rebuilding ziosim:
 *
 *   cc -O2 -fPIC -shared -I<ziosim>/sim/zfs/vdev/mirror_policy/plugin my_policy.c -o my_policy.so
 *   ziosim --policy-plugin ./my_policy.so readers --pool "mirror 2xwd-re4-1tb" \
 *          --set mirror_policy=my_policy
 *   ziosim.load_mirror_policy_plugin("./my_policy.so")            (Python)
 *
 * The shape follows vdev_mirror_child_select(): for each read the mirror
 * hands the plug-in one ziosim_mirror_child_t per child (what
 * vdev_mirror_load() reads: vdev_queue_length(), vdev_queue_last_offset(),
 * vdev_nonrot, readability) and the read; the plug-in returns the index of a
 * readable child. A patch's own load function therefore compiles nearly
 * unchanged with its vdev_t accesses replaced by these fields. Plain C, no
 * ziosim types; ABI version below. Every function is called from one thread
 * per simulation; `state` (from ziosim_mirror_policy_create) is per mirror.
 */
#ifndef ZIOSIM_MIRROR_PLUGIN_H
#define ZIOSIM_MIRROR_PLUGIN_H

#include <stdint.h>

#define ZIOSIM_MIRROR_PLUGIN_ABI 1

/* zio priority classes as ziosim passes them (ZioPriority). */
#define ZIOSIM_PRIORITY_SYNC_READ 0
#define ZIOSIM_PRIORITY_ASYNC_READ 2
#define ZIOSIM_PRIORITY_SCRUB 4

typedef struct ziosim_mirror_child {
	int readable;		/* 0: faulted or offline: never choose it */
	int rotational;		/* !vdev_nonrot */
	int queue_length;	/* vdev_queue_length(): I/Os issued to the device, not done */
	int queued;		/* I/Os waiting in the child's ZFS queue */
	int64_t last_offset;	/* vdev_queue_last_offset() in the era's meaning; -1: none yet */
} ziosim_mirror_child_t;

typedef struct ziosim_mirror_io {
	int64_t offset;		/* zio_offset as vdev_mirror_load() compares it with last_offset */
	int64_t size;
	int64_t mirror_offset;	/* io_offset at the mirror vdev (no label): for offset hashes */
	int priority;		/* ZIOSIM_PRIORITY_* */
	int64_t now_ns;		/* simulated time */
} ziosim_mirror_io_t;

/* Required. */
int ziosim_mirror_policy_abi(void);		/* return ZIOSIM_MIRROR_PLUGIN_ABI */
const char *ziosim_mirror_policy_name(void);	/* the name mirror_policy= selects */
int ziosim_mirror_child_select(const ziosim_mirror_child_t *children, int nchildren,
    const ziosim_mirror_io_t *io, void *state);

/* Optional. */
const char *ziosim_mirror_policy_doc(void);	/* one line for `ziosim` listings */
void *ziosim_mirror_policy_create(void);	/* per-mirror state, passed to child_select */
void ziosim_mirror_policy_destroy(void *state);

#endif /* ZIOSIM_MIRROR_PLUGIN_H */
