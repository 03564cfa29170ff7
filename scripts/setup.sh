#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   bash scripts/setup.sh demo   installs what is missing, builds, runs `ziosim demo`
#   bash scripts/setup.sh test   installs what is missing, builds, runs every test
#                                (Python: the package installed into .venv, pytest, on the Release
#                                build; C++: ctest under ASan+UBSan and a short fuzz run, from
#                                scripts/sanitize.sh's clang build)
# Debian packages are installed only when missing (needs root or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  cmake g++ make pkg-config
  libboost-random-dev libeigen3-dev libcli11-dev libtomlplusplus-dev nlohmann-json3-dev zlib1g-dev liblz4-dev
  libgtest-dev libgmock-dev libbenchmark-dev
)
# The Python package (test mode): a virtual environment and the module's headers; strace for the
# capture kit's test (tests/python/test_capture_kit.py, skipped without it).
PYTHON_DEBIAN_PACKAGES=(python3-venv python3-dev pybind11-dev strace)
# The sanitizer and fuzz build (test mode, scripts/sanitize.sh): clang and its libFuzzer runtime.
SANITIZE_DEBIAN_PACKAGES=(clang-14 libclang-rt-14-dev)
# The real-ZFS cross-check (scripts/crosscheck/, test mode): OpenZFS 2.1.11's libzpool and its
# headers from Debian's contrib component. Installed when the archive has them; the suite skips
# the real-code runs (saying so) where it does not.
CROSSCHECK_DEBIAN_PACKAGES=(libzpool5linux libzfslinux-dev)
VENV=.venv

install_missing_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then sudo=sudo; else
      echo "setup: missing Debian packages: ${missing[*]}" >&2
      echo "setup: run as root (or install them with apt-get) and try again" >&2
      exit 1
    fi
  fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Adds contrib to the Components of the Debian sources (deb822 or one-line format) if missing.
enable_contrib() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    if grep -q '^Components:' "$f" && ! grep -q '^Components:.*\bcontrib\b' "$f"; then
      sed -i 's/^Components: main$/Components: main contrib/' "$f"
    fi
  done
  if [ -f /etc/apt/sources.list ] && grep -qE '^deb .* main$' /etc/apt/sources.list; then
    sed -i -E 's/^(deb .* main)$/\1 contrib/' /etc/apt/sources.list
  fi
}

install_crosscheck_packages() {
  [ "$(id -u)" -eq 0 ] || { echo "setup: not root: the real-ZFS cross-check packages are not installed"; return 0; }
  local missing=()
  for pkg in "${CROSSCHECK_DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  enable_contrib
  apt-get update -qq || true
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    echo "setup: ${missing[*]} could not be installed: the real-ZFS cross-check will be skipped"
  fi
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build build -j"$(nproc)"
}

# ---- Python (test mode) ----------------------------------------------------------------------
# .venv gets the build backend first, so that `pip install .` can run without build isolation
# and reuse ./build: the C++ is compiled once, by build(), for the CLI and the wheel alike.
make_venv() {
  if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import sys' 2>/dev/null; then
    echo "setup: creating $VENV"
    rm -rf "$VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
  fi
  # pyproject.toml's [build-system] requires (scikit-build-core, pybind11).
  local requires
  requires=$("$VENV/bin/python" -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
  mapfile -t requires <<<"$requires"
  "$VENV/bin/python" -m pip install -q "${requires[@]}"
}

# The package with its test extras into .venv, from the ./build that build() just made: the same
# generator and options, so that nothing is configured or compiled twice.
install_python_package() {
  local generator
  generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' build/CMakeCache.txt)
  CMAKE_GENERATOR="$generator" "$VENV/bin/python" -m pip install -q --no-build-isolation ".[test]" \
    -C build-dir=build -C cmake.define.ZIOSIM_BUILD_TESTS=OFF -C cmake.define.ZIOSIM_BUILD_BENCH=ON \
    -C cmake.define.ZIOSIM_BUILD_PYTHON=ON
}

case "${1:-}" in
  demo)
    install_missing_packages "${DEBIAN_PACKAGES[@]}"
    build
    ./build/ziosim demo
    ;;
  test)
    install_missing_packages "${DEBIAN_PACKAGES[@]}" "${PYTHON_DEBIAN_PACKAGES[@]}" "${SANITIZE_DEBIAN_PACKAGES[@]}"
    install_crosscheck_packages
    make_venv
    # The Release build serves the CLI, the Python package, the benchmarks and the cross-check
    # harness. The C++ suite is compiled once, in the sanitizer build below, where every test runs
    # with asserts on under ASan+UBSan: a Release run of the same tests would check nothing that
    # run does not, for minutes of compiling on 2 cores.
    build -DPython_EXECUTABLE="$PWD/$VENV/bin/python" -DZIOSIM_BUILD_PYTHON=ON -DZIOSIM_BUILD_TESTS=OFF
    install_python_package
    # One pytest worker a core (pytest-xdist): the tests are independent, and the longest
    # (the documents' tables) runs its commands two at a time.
    "$VENV/bin/python" -m pytest -q -n auto tests/python
    # Replay memory and sweep speed at a size that takes seconds (the full sizes: no --quick).
    "$VENV/bin/python" scripts/scale_check.py --build build --quick
    # The C++ suite under ASan+UBSan, then every fuzz target for 3 s (fuzz/README.md).
    bash scripts/sanitize.sh 3
    ;;
  *)
    echo "usage: bash scripts/setup.sh demo|test" >&2
    exit 2
    ;;
esac
