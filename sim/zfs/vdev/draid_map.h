// dRAID permutation maps (OpenZFS module/zfs/vdev_draid.c, 2.1 and later):
// which child of a dRAID vdev holds each position of a redundancy group.
// For every child count 2..255 OpenZFS fixes a seed; the map is `nperms` rows,
// each a Fisher-Yates shuffle of the row before it (the first of 0..children-1)
// driven by xoroshiro128++ seeded with {VDEV_DRAID_SEED, the map's seed}, and
// checked against the stored Fletcher-4 checksum. Existing pools depend on these
// exact bytes, so the seeds and checksums are facts of the on-disk format.
#ifndef ZIOSIM_SIM_ZFS_VDEV_DRAID_MAP_H_
#define ZIOSIM_SIM_ZFS_VDEV_DRAID_MAP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ziosim {

// VDEV_DRAID_MIN_CHILDREN and VDEV_DRAID_MAX_CHILDREN (include/sys/fs/zfs.h).
inline constexpr int kDraidMinChildren = 2;
inline constexpr int kDraidMaxChildren = 255;
// VDEV_DRAID_SEED (include/sys/vdev_draid.h): the first word of the generator state.
inline constexpr uint64_t kDraidSeed = 0xd7a1d5eed;

// One entry of vdev_draid.c's draid_maps[] table.
struct DraidMapSeed {
  int children = 0;       // dm_children: permutation columns
  int nperms = 0;         // dm_nperms: permutation rows (256 or 512)
  uint64_t seed = 0;      // dm_seed
  uint64_t checksum = 0;  // dm_checksum: first Fletcher-4 word of the generated rows
};

// The table entry for `children` (vdev_draid_lookup_map); nullptr when there is
// none (outside 2..255).
const DraidMapSeed* FindDraidMapSeed(int children);

// xoroshiro128++ step (vdev_draid_rand.c): returns the next value and advances `state`.
uint64_t DraidRand(uint64_t state[2]);

// First word of the native Fletcher-4 checksum of `size` bytes
// (fletcher_4_native_varsize): the sum of the whole 32-bit words, host order;
// a tail of fewer than 4 bytes is not summed.
uint64_t Fletcher4FirstWord(const uint8_t* data, size_t size);

// The permutation rows of `map` (vdev_draid_generate_perms): nperms rows of
// `children` child indices, row-major. Throws InternalError when the rows are
// not permutations or their checksum is not the table's (a corrupted table).
std::vector<uint8_t> DraidPermutations(const DraidMapSeed& map);

}  // namespace ziosim

#endif  // ZIOSIM_SIM_ZFS_VDEV_DRAID_MAP_H_
