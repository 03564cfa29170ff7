#!/usr/bin/env bash
# Runs the calibration job set against a device or file, one fio JSON result
# per job in OUTDIR, named like the job (randread_4k_libaio_qd1.json, ...).
#
#   scripts/calibration-kit/run.sh [--allow-writes] [--runtime SECONDS] DEVICE_OR_FILE OUTDIR
#
# Read-only unless --allow-writes: fio runs with --readonly, which makes it
# refuse any write to the target, and the write job file is skipped. The
# target must already exist (fio would otherwise create a file, a write).
set -euo pipefail

usage() {
  echo "usage: $0 [--allow-writes] [--runtime SECONDS] DEVICE_OR_FILE OUTDIR" >&2
  exit 2
}

allow_writes=0
runtime=30
while [ $# -gt 0 ]; do
  case "$1" in
    --allow-writes) allow_writes=1; shift ;;
    --runtime) [ $# -ge 2 ] || usage; runtime="$2"; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "run.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || usage
target="$1"
outdir="$2"
kit="$(cd "$(dirname "$0")" && pwd)"

command -v fio >/dev/null || { echo "run.sh: fio not found (apt-get install fio)" >&2; exit 1; }
case "$runtime" in ''|*[!0-9]*) echo "run.sh: --runtime must be a whole number of seconds" >&2; exit 2 ;; esac
if [ ! -b "$target" ] && [ ! -s "$target" ]; then
  echo "run.sh: $target is neither a block device nor a non-empty file" >&2
  exit 2
fi
mkdir -p "$outdir"

jobfiles=(randread.fio seqread_zones.fio seqread_numjobs.fio)
readonly_flag=(--readonly)
if [ "$allow_writes" -eq 1 ]; then
  jobfiles+=(randwrite.fio)
  readonly_flag=()
  echo "run.sh: --allow-writes: randwrite.fio will OVERWRITE data on $target" >&2
fi

export ZIOSIM_TARGET="$target" ZIOSIM_RUNTIME="$runtime"
for jobfile in "${jobfiles[@]}"; do
  # One JSON file per job: fio's --section runs that job alone.
  for job in $(sed -n 's/^\[\(.*\)\]$/\1/p' "$kit/$jobfile" | grep -v '^global$'); do
    echo "run.sh: $job" >&2
    fio "${readonly_flag[@]}" --output-format=json --output="$outdir/$job.json" --section="$job" "$kit/$jobfile"
  done
done
fio --version > "$outdir/fio-version.txt"
echo "run.sh: results in $outdir" >&2
