#!/usr/bin/env bash
# Regenerates the file-level fixtures of this folder (see README.md here):
#
#   traces/file-level/make-fixtures.sh [OUTDIR]     (default: this folder)
#
# Makes the tree of make-tree.sh in a new folder on tmpfs (/dev/shm), captures
# the three workloads with scripts/capture-kit/capture-linux-strace.sh from inside
# that folder (its path is rewritten to /data in the traces), converts the dd
# capture to the ziosim-dtrace format, and removes the tree. LC_ALL=C keeps the C
# library from opening locale files. Overwrites the fixtures in OUTDIR.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
kit="$here/../../scripts/capture-kit"
case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; -*) echo "make-fixtures.sh: unknown option $1" >&2; exit 2 ;; esac
out="$(cd "${1:-$here}" && pwd)"
root="$(mktemp -d /dev/shm/ziosim-tree.XXXXXX)"
trap 'rm -rf -- "$root"' EXIT
bash "$here/make-tree.sh" "$root"
# The traced programs' stderr is a pipe (through cat), so its path in the traces
# (`close(2<pipe:[N]>)`) says nothing about the terminal or the job runner.
cap() { "$kit/capture-linux-strace.sh" -f --data "$root" --rewrite-prefix "$root=/data" "$@" 2> >(cat >&2); }
cd "$root"
export LC_ALL=C
cap -o "$out/dd-128k.strace" -- dd if="$root/big.bin" of=/dev/null bs=128k
cap -o "$out/dd-4k-skip.strace" -- dd if="$root/big.bin" of=/dev/null bs=4k skip=512 count=256
# GNU tar reads no file contents when the archive is /dev/null (also `> /dev/null`,
# which it detects with fstat): the archive goes to a pipe instead.
cap -o "$out/tar.strace" -- tar cf - tree | cat > /dev/null
# ... and what `tar cf /dev/null tree` does: no file is opened or read
cap -o "$out/tar-devnull.strace" -- tar cf /dev/null tree < /dev/null > /dev/null
python3 "$kit/strace_to_dtrace.py" -o "$out/dd-128k.dtrace" "$out/dd-128k.strace"
wait   # for the stderr pipes' cat
ls -l "$out"/*.strace "$out"/*.dtrace
