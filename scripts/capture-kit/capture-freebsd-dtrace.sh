#!/bin/sh
# Records the file-level reads of a command or of a running process on FreeBSD
# with DTrace (ziosim-read.d, next to this script), in the ziosim-dtrace 1 format:
#
#   capture-freebsd-dtrace.sh -o FILE [-f] [--data DIR] -c 'CMD ARGS'
#   capture-freebsd-dtrace.sh -o FILE [-f] [--data DIR] -p PID
#
#   # ziosim-dtrace 1
#   <entry_ns> <pid> <call> <fd> <offset> <size> <ret> <latency_ns>[ <path>]
#
#   -o FILE     the trace to write; refused if it exists, unless -f
#   -f          overwrite FILE
#   --data DIR  the folder the traced program reads: FILE may not be inside it
#   -c CMD      run CMD (one string; dtrace splits it at spaces, no shell) and trace
#               it and its children until it exits
#   -p PID      trace a running process and its children until it exits or Ctrl-C
#
# Calls recorded: open, openat, read, pread, lseek, close (see ziosim-read.d for
# the fields). DTrace copies no buffer contents and writes nothing to the traced
# files; the output goes to a temporary file next to FILE, is sorted by entry
# time (dtrace prints per-CPU buffers in turn) and renamed to FILE. Root only.
# Written for FreeBSD 12-14 from the DTrace documentation; not run by its author.
set -eu

me=capture-freebsd-dtrace.sh
kit="$(cd "$(dirname "$0")" && pwd)"
die() { echo "$me: $1" >&2; exit 2; }
. "$kit/capture-common.sh"

out=""; force=0; data=""; cmd=""; pid=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -o) [ $# -ge 2 ] || die "-o needs a FILE"; out="$2"; shift 2 ;;
    -f) force=1; shift ;;
    --data) [ $# -ge 2 ] || die "--data needs a DIR"; data="$2"; shift 2 ;;
    -c) [ $# -ge 2 ] || die "-c needs a command"; cmd="$2"; shift 2 ;;
    -p) [ $# -ge 2 ] || die "-p needs a PID"; pid="$2"; shift 2 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$out" ] || die "-o FILE is required"
if [ -n "$cmd" ] && [ -n "$pid" ]; then die "give either -c CMD or -p PID, not both"; fi
if [ -z "$cmd" ] && [ -z "$pid" ]; then die "nothing to trace: give -c CMD or -p PID"; fi
if [ -n "$pid" ]; then
  case "$pid" in *[!0-9]*) die "-p takes a numeric process id, got '$pid'" ;; esac
  kill -0 "$pid" 2>/dev/null || die "no process $pid"
fi
check_output "$out"
outdir_real="$(cd -- "$(dirname -- "$out")" && pwd -P)"
command -v dtrace >/dev/null 2>&1 || { echo "$me: dtrace not found (FreeBSD: kldload dtraceall)" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || die "dtrace needs root"

tmp="$(mktemp "$outdir_real/.capture-dtrace.XXXXXX")"
trap 'rm -f -- "$tmp" "$tmp.err" "$tmp.sorted"' EXIT
trap 'interrupted=1' INT
interrupted=0
status=0
if [ -n "$cmd" ]; then
  dtrace -q -s "$kit/ziosim-read.d" -o "$tmp" -c "$cmd" 2> "$tmp.err" || status=$?
else
  echo "$me: tracing $pid; Ctrl-C to stop" >&2
  dtrace -q -s "$kit/ziosim-read.d" -o "$tmp" -p "$pid" 2> "$tmp.err" || status=$?
fi
trap - INT
cat "$tmp.err" >&2
[ -s "$tmp" ] || { echo "$me: dtrace wrote nothing (exit status $status)" >&2; exit 1; }

# header first, then the calls by entry time (sort -n compares digit strings exactly)
{ grep '^#' "$tmp" | head -1; grep -v '^#' "$tmp" | grep -v '^$' | sort -s -n -k1,1; } > "$tmp.sorted"
chmod 644 "$tmp.sorted"
mv -f -- "$tmp.sorted" "$out"

awk -v out="$out" '
  /^#/ { next }
  { n++; calls[$3]++; if (($3 == "read" || $3 == "pread") && $7 > 0) bytes += $7; if ($7 < 0) errors++ }
  END {
    printf "%s: wrote %s: %d calls:", "capture-freebsd-dtrace.sh", out, n > "/dev/stderr"
    split("open openat read pread lseek close", k, " ")
    for (j = 1; j <= 6; j++) printf " %s %d", k[j], calls[k[j]] + 0 > "/dev/stderr"
    printf "; %d bytes read, %d failed calls\n", bytes, errors > "/dev/stderr"
  }' "$out"
if grep -q -i 'drop' "$tmp.err"; then
  echo "$me: warning: dtrace dropped records (see above); the trace has holes" >&2
fi
exit "$status"
