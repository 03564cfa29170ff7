#!/usr/bin/env bash
# Makes the small, deterministic file tree the file-level fixtures were captured on:
#
#   traces/file-level/make-tree.sh ROOT
#
#   ROOT/big.bin      8 MiB, read by the dd fixtures
#   ROOT/tree/        40 files, 4 KiB .. 4 MiB (6.7 MiB in all) in two folders, read by tar
#
# Every byte is fixed (lines of text naming the file), so the same tree comes out
# on every machine; nothing is random. ROOT must not exist yet, or be empty: the
# script writes only under ROOT. Put ROOT on tmpfs (/dev/shm) so that the traces
# show the file system's cost and not a disk's.
set -eu

usage() { echo "usage: $0 ROOT   (ROOT: a new or empty folder, e.g. /dev/shm/ziosim-tree)" >&2; exit 2; }
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; '') usage ;; -*) usage ;; esac
[ $# -eq 1 ] || usage
root="$1"
if [ -e "$root" ] && [ -n "$(ls -A "$root" 2>/dev/null)" ]; then
  echo "make-tree.sh: $root exists and is not empty; refusing to write into it" >&2
  exit 2
fi
mkdir -p "$root/tree/a" "$root/tree/b"

# fill FILE SIZE: SIZE bytes of text lines naming FILE (deterministic)
fill() { yes "ziosim make-tree $(basename "$1") $2 bytes: fixed content, 0123456789abcdef" | head -c "$2" > "$1"; }

fill "$root/big.bin" $((8 * 1024 * 1024))
# 40 files: 39 of 4 KiB .. 256 KiB, one of 4 MiB (names sort in creation order)
sizes_kib="4 4 4 8 8 8 12 12 16 16 16 20 24 28 32 32 40 48 48 56 64 64 72 80 96 100 112 128 128 144 160 160 192 200 224 240 256 64 64 4096"
i=0
for kib in $sizes_kib; do
  i=$((i + 1))
  if [ $((i % 2)) -eq 1 ]; then sub=a; else sub=b; fi
  fill "$(printf '%s/tree/%s/f%02d-%sk.dat' "$root" "$sub" "$i" "$kib")" $((kib * 1024))
done
echo "make-tree.sh: $root/big.bin (8 MiB) and $i files under $root/tree ($(du -sk "$root/tree" | cut -f1) KiB on disk)"
