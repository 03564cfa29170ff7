#!/usr/bin/env bash
# Records the file-level reads of a command or of a running process with strace,
# in the text format ziosim's strace reader takes (see README.md here):
#
#   capture-linux-strace.sh -o FILE [-f] [--data DIR] [--rewrite-prefix OLD=NEW ...] -- CMD ARGS...
#   capture-linux-strace.sh -o FILE [-f] [--data DIR] [--rewrite-prefix OLD=NEW ...] -p PID [-t SECONDS]
#
# It runs   strace -f -tt -T -y -s 0 -e trace=read,pread64,openat,lseek,close -o FILE
# and nothing else: no buffer contents are recorded (-s 0), nothing is written to
# the traced files (strace only reads the tracee's registers and path names). The
# output goes to a temporary file next to FILE and is renamed to FILE at the end.
#
#   -o FILE                the trace to write; refused if it exists, unless -f
#   -f                     overwrite FILE
#   --data DIR             the folder the traced program reads: FILE may not be inside it
#   --rewrite-prefix O=N   replace the text O by N everywhere in the trace (paths), e.g.
#                          --rewrite-prefix /dev/shm/mytree=/data ; may be repeated
#   -p PID                 attach to a running process (all its threads, and children it
#                          forks afterwards); stop with Ctrl-C, or after -t SECONDS
#   -t SECONDS             with -p: detach after SECONDS
#   -- CMD ARGS...         run CMD under strace; its stdin/stdout are the script's
#
# At the end it prints to stderr what was recorded (lines, calls per kind, bytes
# read, files) and the traced run's wall time. strace stops the tracee at every
# system call, traced or not: a program making many small calls runs many times
# slower (3.6x for dd bs=128k, 55x for bs=4k measured here; see README.md). Exit status: the traced command's, 2 for
# bad arguments, 1 if strace is missing or fails.
set -eu

me=capture-linux-strace.sh
die() { echo "$me: $1" >&2; exit 2; }
. "$(cd "$(dirname "$0")" && pwd)/capture-common.sh"
usage() { sed -n '4,5p' "$0" | sed 's/^# *//' >&2; exit 2; }

out=""
force=0
data=""
pid=""
seconds=""
rewrites=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -o) [ $# -ge 2 ] || die "-o needs a FILE"; out="$2"; shift 2 ;;
    -f) force=1; shift ;;
    --data) [ $# -ge 2 ] || die "--data needs a DIR"; data="$2"; shift 2 ;;
    --rewrite-prefix)
      [ $# -ge 2 ] || die "--rewrite-prefix needs OLD=NEW"
      case "$2" in ?*=*) ;; *) die "--rewrite-prefix takes OLD=NEW with a non-empty OLD, got '$2'" ;; esac
      rewrites+=("$2"); shift 2 ;;
    -p) [ $# -ge 2 ] || die "-p needs a PID"; pid="$2"; shift 2 ;;
    -t) [ $# -ge 2 ] || die "-t needs SECONDS"; seconds="$2"; shift 2 ;;
    --) shift; break ;;
    *) die "unknown argument '$1' (a command goes after --; see --help)" ;;
  esac
done

[ -n "$out" ] || die "-o FILE is required"
if [ -n "$pid" ]; then
  [ $# -eq 0 ] || die "give either -p PID or -- CMD, not both"
  case "$pid" in ''|*[!0-9]*) die "-p takes a numeric process id, got '$pid'" ;; esac
  [ -d "/proc/$pid" ] || die "no process $pid"
else
  [ $# -gt 0 ] || die "nothing to trace: give -p PID or -- CMD ARGS..."
  [ -z "$seconds" ] || die "-t applies to -p PID only"
fi
if [ -n "$seconds" ]; then
  case "$seconds" in ''|*[!0-9]*|0) die "-t takes a whole number of seconds > 0, got '$seconds'" ;; esac
fi
check_output "$out"
outdir_real="$(cd -- "$(dirname -- "$out")" && pwd -P)"
command -v strace >/dev/null || { echo "$me: strace not found (apt-get install strace)" >&2; exit 1; }

tmp="$(mktemp "$outdir_real/.capture-strace.XXXXXX")"
cleanup() { rm -f -- "$tmp" "$tmp.rw"; }
trap cleanup EXIT
trap 'interrupted=1' INT
interrupted=0

strace_cmd=(strace -f -tt -T -y -s 0 -e trace=read,pread64,openat,lseek,close -o "$tmp")
start="$(date +%s.%N)"
status=0
if [ -n "$pid" ]; then
  echo "$me: attached to $pid; Ctrl-C to stop${seconds:+ (or after $seconds s)}" >&2
  if [ -n "$seconds" ]; then
    timeout -s INT "$seconds" "${strace_cmd[@]}" -p "$pid" || status=$?
    [ "$status" -ne 124 ] || status=0
  else
    "${strace_cmd[@]}" -p "$pid" || status=$?
  fi
else
  "${strace_cmd[@]}" -- "$@" || status=$?
fi
end="$(date +%s.%N)"
trap - INT
[ -e "$tmp" ] || { echo "$me: strace failed (exit status $status)" >&2; exit 1; }
[ -s "$tmp" ] || echo "$me: warning: no call was recorded (exit status $status)" >&2

if [ ${#rewrites[@]} -gt 0 ]; then
  # literal, global replacement of each OLD by its NEW (awk's sub() would read OLD as a regex)
  printf '%s\n' "${rewrites[@]}" | awk '
    NR == FNR { i = index($0, "="); n++; old[n] = substr($0, 1, i - 1); new[n] = substr($0, i + 1); next }
    {
      for (k = 1; k <= n; k++) {
        s = $0; r = ""
        while ((i = index(s, old[k])) > 0) { r = r substr(s, 1, i - 1) new[k]; s = substr(s, i + length(old[k])) }
        $0 = r s
      }
      print
    }' - "$tmp" > "$tmp.rw"
  mv -f -- "$tmp.rw" "$tmp"
fi
chmod "$(printf '%o' $((0666 & ~0$(umask))))" "$tmp"   # mktemp made it 0600
mv -f -- "$tmp" "$out"

# What was recorded: an entry line counts the call (also "<unfinished ...>"); a
# "<... NAME resumed>" line carries its result.
awk -v wall="$(echo "$start $end" | awk '{ printf "%.3f", $2 - $1 }')" -v out="$out" '
  function fdpath(s,   i, j) {            # "read(3</a/b>, ..." -> "/a/b"
    i = index(s, "("); s = substr(s, i + 1); i = index(s, "<"); j = index(s, ">")
    return (i > 0 && j > i) ? substr(s, i + 1, j - i - 1) : ""
  }
  function result(s,   i) {               # ") = 131072 <0.000100>" -> 131072
    if (!match(s, /\) = -?[0-9]+/)) return ""
    s = substr(s, RSTART, RLENGTH); i = index(s, "= "); return substr(s, i + 2) + 0
  }
  {
    lines++
    if (!pids[$1]++) npids++
    if ($3 == "<...") {                   # PID TIME <... read resumed>""..., 4096) = 18 <0.001>
      name = $4; resumed++
    } else if ($3 ~ /^(\+\+\+|---)/) { other++; next
    } else {
      i = index($3, "("); name = substr($3, 1, i - 1); calls[name]++
      if (name == "read" || name == "pread64") { p = fdpath($0); if (p != "" && p !~ /^(pipe|socket|anon_inode):/ && !seen[p]++) nfiles++ }
      if (index($0, "<unfinished ...>")) next
    }
    if (name == "read" || name == "pread64") { v = result($0); if (v != "" && v > 0) bytes += v; if (v != "" && v < 0) errors++ }
  }
  END {
    printf "capture-linux-strace.sh: wrote %s: %d lines, %d processes/threads, %.3f s wall time traced\n", out, lines, npids, wall > "/dev/stderr"
    printf "  calls:" > "/dev/stderr"
    n = split("openat read pread64 lseek close", k, " ")
    for (j = 1; j <= n; j++) printf " %s %d", k[j], calls[k[j]] + 0 > "/dev/stderr"
    printf " (%d split by another thread: unfinished/resumed)\n", resumed + 0 > "/dev/stderr"
    printf "  read+pread64: %d bytes from %d files (pipes and sockets not counted), %d failed\n", bytes, nfiles, errors > "/dev/stderr"
    printf "  other lines (exits, signals): %d\n", other + 0 > "/dev/stderr"
    printf "  overhead: strace stops the program at every system call, traced or not: measured 75-150 us per dd block\n" > "/dev/stderr"
    printf "  (a read and a write), 3.6x slower at bs=128k, 55x at bs=4k, on tmpfs; see scripts/capture-kit/README.md\n" > "/dev/stderr"
  }' "$out"
[ "$interrupted" -eq 0 ] || echo "$me: stopped by Ctrl-C" >&2
exit "$status"
