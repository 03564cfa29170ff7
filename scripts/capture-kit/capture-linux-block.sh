#!/usr/bin/env bash
# Records the block requests of one device with tracefs (block_rq_issue,
# block_rq_complete, block_rq_requeue) and converts them into the CSV that
# `ziosim replay --format ftrace` reads (issue_s,complete_s,rwbs,sector,nsectors,latency_us):
#
#   capture-linux-block.sh -d DEVICE -o OUT.csv [-f] [--raw RAW.txt] [--data DIR] -- CMD ARGS...
#   capture-linux-block.sh -d DEVICE -o OUT.csv [-f] [--raw RAW.txt] [--data DIR] [-t SECONDS]
#
#   -d DEVICE       a block device (/dev/sda, /dev/nvme0n1) or MAJ,MIN (8,0); for a
#                   partition its disk is traced (requests carry the disk's number)
#   -o OUT.csv      the CSV to write; refused if it exists, unless -f
#   --raw RAW.txt   keep the raw tracefs text there too (default: a temporary file, removed)
#   --data DIR      the folder the traced program reads: OUT.csv and RAW.txt may not be inside it
#   -- CMD ARGS...  trace while CMD runs (it is started after tracing is on)
#   -t SECONDS      trace for SECONDS; with neither, until Ctrl-C
#
# Root only. It uses its own tracefs instance (instances/ziosim-capture-PID), so
# the global trace buffer and other tracers are left alone, filters the events to
# the device in the kernel, and removes the instance at the end. It reads the
# tracefs files and writes OUT.csv (and RAW.txt); nothing else, never the device.
# Everything on the device is recorded, not only CMD's requests (a request is
# often issued by a kernel thread, not by the reader). tracefs is looked for at
# /sys/kernel/tracing, then /sys/kernel/debug/tracing; if neither is mounted:
#   mount -t tracefs nodev /sys/kernel/tracing
set -eu

me=capture-linux-block.sh
kit="$(cd "$(dirname "$0")" && pwd)"
die() { echo "$me: $1" >&2; exit 2; }
. "$kit/capture-common.sh"

dev=""; out=""; force=0; raw=""; data=""; seconds=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -d) [ $# -ge 2 ] || die "-d needs a DEVICE"; dev="$2"; shift 2 ;;
    -o) [ $# -ge 2 ] || die "-o needs a FILE"; out="$2"; shift 2 ;;
    -f) force=1; shift ;;
    --raw) [ $# -ge 2 ] || die "--raw needs a FILE"; raw="$2"; shift 2 ;;
    --data) [ $# -ge 2 ] || die "--data needs a DIR"; data="$2"; shift 2 ;;
    -t) [ $# -ge 2 ] || die "-t needs SECONDS"; seconds="$2"; shift 2 ;;
    --) shift; break ;;
    *) die "unknown argument '$1' (a command goes after --; see --help)" ;;
  esac
done
[ -n "$dev" ] || die "-d DEVICE is required"
[ -n "$out" ] || die "-o FILE is required"
if [ -n "$seconds" ]; then
  [ $# -eq 0 ] || die "give either -t SECONDS or -- CMD, not both"
  case "$seconds" in ''|*[!0-9]*|0) die "-t takes a whole number of seconds > 0, got '$seconds'" ;; esac
fi
case "$dev" in
  *[0-9],[0-9]*) case "$dev" in *[!0-9,]*) die "-d takes a block device or MAJ,MIN, got '$dev'" ;; esac
                 major="${dev%,*}"; minor="${dev#*,}" ;;
  *) [ -b "$dev" ] || die "$dev is not a block device"
     major=$((0x$(stat -L -c %t "$dev"))); minor=$((0x$(stat -L -c %T "$dev"))) ;;
esac
# Requests belong to whole disks (a partition's bios are remapped before they
# become requests): trace the disk a partition is on.
if [ -e "/sys/dev/block/$major:$minor/partition" ]; then
  disk="$(cat "$(readlink -f "/sys/dev/block/$major:$minor")/../dev")"
  echo "$me: $dev is a partition; block requests carry its disk's number: tracing $disk (all its partitions, disk sectors)" >&2
  major="${disk%:*}"; minor="${disk#*:}"
fi
for f in "$out" ${raw:+"$raw"}; do check_output "$f"; done
[ "$(id -u)" -eq 0 ] || die "tracefs needs root"
command -v python3 >/dev/null || { echo "$me: python3 not found (the converter needs it)" >&2; exit 1; }

tracing=""
for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
  if [ -e "$t/events/block/block_rq_issue/enable" ]; then tracing="$t"; break; fi
done
[ -n "$tracing" ] || { echo "$me: tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing) or has no block events" >&2; exit 1; }
outdev="$(stat -c %d "$(dirname -- "$out")")"
if [ "$outdev" -eq $(( (major << 8) | minor )) ] 2>/dev/null; then
  echo "$me: warning: $out is on the traced device: writing it shows up in the trace" >&2
fi

inst="$tracing/instances/ziosim-capture-$$"
[ ! -e "$inst" ] || die "$inst exists (another capture?)"
if [ -n "$raw" ]; then rawfile="$raw"; else rawfile="$(mktemp "${TMPDIR:-/tmp}/ziosim-block.XXXXXX")"; fi
reader=""
cleanup() {
  if [ -n "$reader" ]; then kill "$reader" 2>/dev/null || true; wait "$reader" 2>/dev/null || true; fi
  if [ -d "$inst" ]; then
    echo 0 > "$inst/tracing_on" 2>/dev/null || true
    for e in block_rq_issue block_rq_complete block_rq_requeue; do
      echo 0 > "$inst/events/block/$e/enable" 2>/dev/null || true
    done
    rmdir "$inst" 2>/dev/null || echo "$me: could not remove $inst (rmdir it by hand)" >&2
  fi
  [ -n "$raw" ] || rm -f -- "$rawfile"
}
trap cleanup EXIT
trap 'interrupted=1' INT
interrupted=0

mkdir "$inst"
echo 0 > "$inst/tracing_on"
echo 16384 > "$inst/buffer_size_kb"     # per CPU
# dev_t inside the kernel is MAJOR << 20 | MINOR
filter="dev == $(( (major << 20) | minor ))"
for e in block_rq_issue block_rq_complete block_rq_requeue; do
  if [ -e "$inst/events/block/$e/enable" ]; then
    echo "$filter" > "$inst/events/block/$e/filter"
    echo 1 > "$inst/events/block/$e/enable"
  fi
done
cat "$inst/trace_pipe" > "$rawfile" &
reader=$!
echo 1 > "$inst/tracing_on"
start="$(date +%s.%N)"
status=0
if [ $# -gt 0 ]; then
  "$@" || status=$?
elif [ -n "$seconds" ]; then
  echo "$me: tracing $major,$minor for $seconds s" >&2
  sleep "$seconds" || true
else
  echo "$me: tracing $major,$minor; Ctrl-C to stop" >&2
  while [ "$interrupted" -eq 0 ]; do sleep 1 || true; done
fi
echo 0 > "$inst/tracing_on"
end="$(date +%s.%N)"
trap - INT
sleep 1                                  # let trace_pipe drain
kill "$reader" 2>/dev/null || true
wait "$reader" 2>/dev/null || true
reader=""
lost="$(cat "$inst"/per_cpu/cpu*/stats 2>/dev/null | awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }')"

python3 "$kit/tracefs_to_csv.py" --dev "$major,$minor" -o "$out" "$rawfile" || { echo "$me: the conversion failed; raw text in ${raw:-a removed temporary file}" >&2; exit 1; }
echo "$me: $out: device $major,$minor, $(echo "$start $end" | awk '{ printf "%.3f", $2 - $1 }') s traced, $(($(wc -l < "$out") - 1)) requests, $(wc -l < "$rawfile") raw events${raw:+ (in $raw)}, $lost events lost to a full buffer" >&2
[ "$lost" -eq 0 ] || echo "$me: warning: $lost events were lost; the trace has holes (requests never completed are left out)" >&2
exit "$status"
