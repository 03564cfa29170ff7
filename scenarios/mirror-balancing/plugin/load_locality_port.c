/*
 * A worked example of a ziosim mirror policy plug-in: OpenZFS 2.x's
 * vdev_mirror_load() and vdev_mirror_child_select() (module/zfs/vdev_mirror.c,
 * zfs-2.1.11), with the vdev_t accesses replaced by the plug-in's fields, and a
 * patch under discussion behind -DPATCH_COUNT_QUEUED: count the I/Os waiting in
 * a child's ZFS queue in its load too, not only those issued to the device.
 *
 *   cc -O2 -fPIC -shared -I sim/zfs/vdev/mirror_policy/plugin \
 *      scenarios/mirror-balancing/plugin/load_locality_port.c -o port.so
 *   cc -O2 -fPIC -shared -I sim/zfs/vdev/mirror_policy/plugin -DPATCH_COUNT_QUEUED \
 *      scenarios/mirror-balancing/plugin/load_locality_port.c -o patched.so
 *   build/ziosim --policy-plugin ./port.so --policy-plugin ./patched.so readers \
 *      --pool "mirror 2xwd-re4-1tb" --profile openzfs-2.1 --set mirror_policy=port_load_locality
 *
 * Unpatched it chooses exactly as the built-in load_locality of the issue era
 * (tests/sim/zfs/vdev/mirror_policy/mirror_plugin_test.cc checks that read by read).
 */
#include <limits.h>
#include <stdlib.h>

#include "ziosim_mirror_plugin.h"

/* The 2.x defaults (static in zfs-2.1.11's vdev_mirror.c). */
static const int zfs_vdev_mirror_rotating_inc = 0;
static const int zfs_vdev_mirror_rotating_seek_inc = 5;
static const int64_t zfs_vdev_mirror_rotating_seek_offset = 1 * 1024 * 1024;
static const int zfs_vdev_mirror_non_rotating_inc = 0;
static const int zfs_vdev_mirror_non_rotating_seek_inc = 1;
static const int vdev_mirror_shift = 21;

#define	MAX_CHILDREN 64

int
ziosim_mirror_policy_abi(void)
{
	return (ZIOSIM_MIRROR_PLUGIN_ABI);
}

const char *
ziosim_mirror_policy_name(void)
{
#ifdef PATCH_COUNT_QUEUED
	return ("patched_load_locality");
#else
	return ("port_load_locality");
#endif
}

const char *
ziosim_mirror_policy_doc(void)
{
	return ("vdev_mirror_load() of OpenZFS 2.x ported to the plug-in ABI"
#ifdef PATCH_COUNT_QUEUED
	    ", patched to count queued I/Os in the load"
#endif
	    );
}

static int
vdev_mirror_load(const ziosim_mirror_child_t *vd, int64_t zio_offset)
{
	int64_t last_offset, offset_diff;
	int load;

	/* Standard load based on pending queue length. */
	load = vd->queue_length;
#ifdef PATCH_COUNT_QUEUED
	load += vd->queued;
#endif
	last_offset = vd->last_offset;

	if (!vd->rotational) {
		/* Non-rotating media. */
		if (last_offset == zio_offset)
			return (load + zfs_vdev_mirror_non_rotating_inc);
		return (load + zfs_vdev_mirror_non_rotating_seek_inc);
	}

	/* Rotating media I/O's which directly follow the last I/O. */
	if (last_offset == zio_offset)
		return (load + zfs_vdev_mirror_rotating_inc);

	/*
	 * Apply half the seek increment to I/O's within seek offset
	 * of the last I/O issued to this vdev as they should incur less
	 * of a seek increment.  (ziosim marks "no I/O yet" as -1, which,
	 * like 2.x's 0, is never near a leaf offset past the labels.)
	 */
	offset_diff = last_offset - zio_offset;
	if (last_offset >= 0 && llabs(offset_diff) < zfs_vdev_mirror_rotating_seek_offset)
		return (load + (zfs_vdev_mirror_rotating_seek_inc / 2));

	/* Apply the full seek increment to all other I/O's. */
	return (load + zfs_vdev_mirror_rotating_seek_inc);
}

int
ziosim_mirror_child_select(const ziosim_mirror_child_t *children, int nchildren,
    const ziosim_mirror_io_t *io, void *state)
{
	int preferred[MAX_CHILDREN], preferred_cnt = 0;
	int lowest_load = INT_MAX;
	(void) state;

	for (int c = 0; c < nchildren && c < MAX_CHILDREN; c++) {
		if (!children[c].readable)
			continue;
		int load = vdev_mirror_load(&children[c], io->offset);
		if (load > lowest_load)
			continue;
		if (load < lowest_load) {
			lowest_load = load;
			preferred_cnt = 0;
		}
		preferred[preferred_cnt++] = c;
	}
	if (preferred_cnt == 1)
		return (preferred[0]);
	/* vdev_mirror_preferred_child_randomize(): the offset as a pseudo-random seed. */
	return (preferred[(io->mirror_offset >> vdev_mirror_shift) % preferred_cnt]);
}
