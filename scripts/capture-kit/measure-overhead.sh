#!/usr/bin/env bash
# Measures what strace (as capture-linux-strace.sh runs it) costs a reader:
# dd of a file on tmpfs to /dev/null, with and without strace, at two block
# sizes; median wall time of RUNS runs each.
#
#   scripts/capture-kit/measure-overhead.sh [--size MIB] [--runs N] [--dir DIR]
#   scripts/capture-kit/measure-overhead.sh --block DEVICE FILE [--runs N]
#
# Writes one file, DIR/ziosim-overhead.bin (default DIR /dev/shm, SIZE 1024 MiB),
# and the strace output to DIR/ziosim-overhead.strace; removes both at the end.
# With --block: what capture-linux-block.sh costs dd iflag=direct bs=4k reading
# FILE (an existing file on DEVICE; only read) to /dev/null, with and without
# the capture (its "s traced", the command's run); root, tracefs.
set -eu
me=measure-overhead.sh
die() { echo "$me: $1" >&2; exit 2; }
size=1024; runs=5; dir=/dev/shm; block=""; bfile=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    --size) [ $# -ge 2 ] || die "--size needs MIB"; size="$2"; shift 2 ;;
    --runs) [ $# -ge 2 ] || die "--runs needs N"; runs="$2"; shift 2 ;;
    --dir) [ $# -ge 2 ] || die "--dir needs DIR"; dir="$2"; shift 2 ;;
    --block) [ $# -ge 3 ] || die "--block needs DEVICE FILE"; block="$2"; bfile="$3"; shift 3 ;;
    *) die "unknown argument '$1'" ;;
  esac
done
case "$size$runs" in *[!0-9]*) die "--size and --runs take whole numbers" ;; esac
if [ -n "$block" ]; then
  [ -b "$block" ] || die "$block is not a block device"
  [ -s "$bfile" ] || die "$bfile is not a non-empty file"
  kit="$(cd "$(dirname "$0")" && pwd)"
  csv="$(mktemp -u /dev/shm/ziosim-overhead.XXXXXX).csv"
  trap 'rm -f "$csv"' EXIT
  pick() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
  plain=$(for i in $(seq "$runs"); do
    s=$(date +%s.%N); dd if="$bfile" of=/dev/null bs=4k iflag=direct status=none; e=$(date +%s.%N)
    echo "$s $e" | awk '{ printf "%.4f\n", $2 - $1 }'; done | pick)
  traced=$(for i in $(seq "$runs"); do
    "$kit/capture-linux-block.sh" -f -d "$block" -o "$csv" -- dd if="$bfile" of=/dev/null bs=4k iflag=direct status=none 2>&1 |
      sed -n 's/.* \([0-9.]*\) s traced.*/\1/p'; done | pick)
  n=$(( $(stat -c %s "$bfile") / 4096 ))
  echo "$(uname -sr), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $bfile on $block, median of $runs runs"
  echo "| dd iflag=direct bs=4k | requests | plain s | under capture-linux-block.sh s | slowdown | cost per request, us |"
  echo "|---|---|---|---|---|---|"
  echo "x $n $plain $traced" | awk '{ printf "| %s | %d | %.3f | %.3f | %.2fx | %.1f |\n", "read", $2, $3, $4, $4 / $3, ($4 - $3) / $2 * 1e6 }'
  exit 0
fi
[ -d "$dir" ] || die "$dir is not a folder"
command -v strace >/dev/null || { echo "$me: strace not found" >&2; exit 1; }
f="$dir/ziosim-overhead.bin"; t="$dir/ziosim-overhead.strace"
[ ! -e "$f" ] || die "$f exists; remove it first"
trap 'rm -f "$f" "$t"' EXIT
dd if=/dev/zero of="$f" bs=1M count="$size" status=none

# median wall seconds of $runs runs of "$@"
median() {
  local i s e
  for i in $(seq "$runs"); do
    s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
    echo "$s $e" | awk '{ printf "%.4f\n", $2 - $1 }'
  done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
st=(strace -f -tt -T -y -s 0 -e trace=read,pread64,openat,lseek,close -o "$t")
echo "strace $(strace -V | head -1 | awk '{print $NF}'), $(uname -sr), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), file $size MiB on $(df -P "$dir" | awk 'NR==2{print $1}') ($dir), median of $runs runs"
echo "| dd bs | blocks (a read + a write each) | plain s | under strace s | slowdown | strace cost per block, us |"
echo "|---|---|---|---|---|---|"
for bs in 128k 4k; do
  n=$(( size * 1024 / ${bs%k} ))
  plain=$(median dd if="$f" of=/dev/null bs="$bs")
  traced=$(median "${st[@]}" dd if="$f" of=/dev/null bs="$bs")
  echo "$bs $n $plain $traced" | awk '{ printf "| %s | %d | %.3f | %.3f | %.1fx | %.1f |\n", $1, $2, $3, $4, $4 / $3, ($4 - $3) / $2 * 1e6 }'
done
