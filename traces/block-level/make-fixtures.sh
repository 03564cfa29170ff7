#!/usr/bin/env bash
# Regenerates the block-level fixtures of this folder (see README.md here). Root,
# tracefs, a free loop device:
#
#   traces/block-level/make-fixtures.sh [OUTDIR]     (default: this folder)
#
# Makes a 64 MiB ext4 file system in a file on tmpfs, attaches it to a loop device,
# writes the tree of traces/file-level/make-tree.sh into it, remounts it (so the
# page cache is cold for it, and only for it), and records the loop device's block
# requests with scripts/capture-kit/capture-linux-block.sh while dd and tar read
# the tree. Then unmounts, detaches and removes everything it made.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
kit="$here/../../scripts/capture-kit"
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; -*) echo "make-fixtures.sh: unknown option $1" >&2; exit 2 ;; esac
out="$(cd "${1:-$here}" && pwd)"
[ "$(id -u)" -eq 0 ] || { echo "make-fixtures.sh: needs root (loop device, mount, tracefs)" >&2; exit 2; }
img="$(mktemp /dev/shm/ziosim-ext4.XXXXXX)"
mnt="$(mktemp -d /tmp/ziosim-ext4-mnt.XXXXXX)"
loop=""
cleanup() {
  cd /
  mountpoint -q "$mnt" && umount "$mnt"
  [ -z "$loop" ] || losetup -d "$loop"
  rmdir "$mnt"; rm -f "$img"
}
trap cleanup EXIT
truncate -s 64M "$img"
mkfs.ext4 -q -F "$img"
loop="$(losetup --find --show "$img")"
mount "$loop" "$mnt"
rmdir "$mnt/lost+found"
bash "$here/../file-level/make-tree.sh" "$mnt"
umount "$mnt"; mount -o ro "$loop" "$mnt"    # cold cache; read-only from here on
cd "$mnt"
export LC_ALL=C
"$kit/capture-linux-block.sh" -f -d "$loop" --data "$mnt" -o "$out/dd-128k-ext4.csv" --raw "$out/dd-128k-ext4.tracefs.txt" \
  -- dd if=big.bin of=/dev/null bs=128k
"$kit/capture-linux-block.sh" -f -d "$loop" --data "$mnt" -o "$out/tar-ext4.csv" --raw "$out/tar-ext4.tracefs.txt" \
  -- sh -c 'tar cf - tree | cat > /dev/null'
ls -l "$out"/*.csv "$out"/*.tracefs.txt
