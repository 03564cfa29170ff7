#!/usr/bin/env bash
# The C++ suite under AddressSanitizer + UndefinedBehaviorSanitizer, then a short
# run of every fuzz target (fuzz/README.md), from one clang build in build-sanitize/:
# the core is compiled once with ASan/UBSan and libFuzzer's coverage hooks, and both
# the GoogleTest suite and the fuzzers link against it.
#   bash scripts/sanitize.sh [FUZZ_SECONDS_PER_TARGET]   build, ctest, fuzz (default 5 s each)
#   bash scripts/sanitize.sh --build-only                configure and build only
# ZIOSIM_SANITIZE_BUILD names another build folder; CXX another clang (default clang++-14).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${ZIOSIM_SANITIZE_BUILD:-build-sanitize}
CLANG=${CXX:-clang++-14}
CLANG_C=${CC:-clang-14}  # the C example plug-in the tests dlopen must share the binary's ASan runtime
JOBS=$(nproc)

# -O1 keeps the sanitizers' stack traces exact at a fraction of -O0's run time;
# asserts stay on (no NDEBUG). The Python module and benchmarks are not built here.
cmake -S . -B "$BUILD" -DCMAKE_CXX_COMPILER="$CLANG" -DCMAKE_C_COMPILER="$CLANG_C" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
  -DZIOSIM_SANITIZE=ON -DZIOSIM_FUZZ=ON -DZIOSIM_BUILD_PYTHON=OFF -DZIOSIM_BUILD_BENCH=OFF >/dev/null
cmake --build "$BUILD" -j"$JOBS"
[ "${1:-}" = "--build-only" ] && exit 0

# A leak, a UBSan report or an ASan error fails the test that caused it.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$BUILD" --output-on-failure -j"$JOBS"
bash scripts/fuzz.sh "${1:-5}"
