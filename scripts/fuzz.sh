#!/usr/bin/env bash
# Runs every libFuzzer target fuzz/*_fuzzer.cc for SECONDS each (default 5), building
# them first if needed (scripts/sanitize.sh configures the build). The test command
# runs it briefly; a long run is the same with a larger number:
#   bash scripts/fuzz.sh 600                  every target, 10 minutes each
#   bash scripts/fuzz.sh 60 trace_msr zdb     only those targets
# Each target starts from its seeds in fuzz/corpus/TARGET/ and keeps what it finds
# in BUILD/fuzz/corpus/TARGET/, so later runs go on from there. A finding (crash,
# sanitizer report, leak, uncaught exception, timeout over 5 s, over 1 GiB of memory)
# is saved as BUILD/fuzz/findings/TARGET-*; the script prints its path and exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${ZIOSIM_SANITIZE_BUILD:-build-sanitize}
SECONDS_PER_TARGET=${1:-5}
shift || true

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for source in fuzz/*_fuzzer.cc; do
    name=$(basename "$source" _fuzzer.cc)
    targets+=("$name")
  done
fi

[ -f "$BUILD/CMakeCache.txt" ] || bash scripts/sanitize.sh --build-only
cmake --build "$BUILD" -j"$(nproc)" --target "${targets[@]/%/_fuzzer}"

# Targets that share a format's keywords share its dictionary.
dictionary() {
  case "$1" in
    trace_*) echo fuzz/trace.dict ;;
    drive_toml | profile_toml | run_config) echo fuzz/toml.dict ;;
    libparam | disksim_import) echo fuzz/disksim.dict ;;
    *) echo "fuzz/$1.dict" ;;
  esac
}

mkdir -p "$BUILD/fuzz/findings" "$BUILD/fuzz/logs"
failed=0
printf '%-24s %12s %10s  %s\n' target executions exec/s result
for t in "${targets[@]}"; do
  work="$BUILD/fuzz/corpus/$t"
  log="$BUILD/fuzz/logs/$t.log"
  mkdir -p "$work"
  args=(-max_total_time="$SECONDS_PER_TARGET" -timeout=5 -rss_limit_mb=1024 -print_final_stats=1
        -artifact_prefix="$BUILD/fuzz/findings/$t-")
  dict=$(dictionary "$t")
  [ -f "$dict" ] && args+=(-dict="$dict")
  seeds=()
  [ -d "fuzz/corpus/$t" ] && seeds=("fuzz/corpus/$t")
  result=ok
  "$BUILD/fuzz/${t}_fuzzer" "${args[@]}" "$work" "${seeds[@]}" >"$log" 2>&1 || result=FINDING
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  printf '%-24s %12s %10s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$result"
  if [ "$result" != ok ]; then
    failed=1
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|terminate called)' "$log" | head -5 | sed 's/^/    /'
    sed -n 's/.*Test unit written to \(.*\)/    input: \1/p' "$log"
    echo "    log: $log"
  fi
done
exit "$failed"
