#!/bin/sh
# Reproduce the figures in README.md (root; ~3.5 minutes):
#   verify_b134.sh OUTDIR [extra run_b134.py arguments, e.g. --direct]
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/b134-verify}
[ $# -gt 0 ] && shift
mkdir -p "$out"
dev=fixed:latency=4ms,bandwidth=150MB/s,lanes=1
for v in mirror:2 raidz2:5; do
  for n in 1 2 4; do
    t=$(echo $v | tr -d :)_r$n
    python3 "$here/run_b134.py" --work "$out/work" --vdev $v --ashift 12 --recordsize 131072 \
      --file-size 268435456 --readers $n --bs 1048576 --device $dev --dump-blocks "$@" \
      --log "$out/$t.csv" > "$out/$t.json"
  done
  t=$(echo $v | tr -d :)_range16m
  python3 "$here/run_b134.py" --work "$out/work" --vdev $v --ashift 12 --recordsize 131072 \
    --file-size 536870912 --readers 1 --bs 1048576 --read range:0:16777216 --device $dev \
    --dump-blocks "$@" --log "$out/$t.csv" > "$out/$t.json"
done
rm -rf "$out/work"
python3 "$here/summarize.py" "$out"/*.json
