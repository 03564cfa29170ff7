#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine:
#   bash scripts/setup.sh demo   installs what is missing, builds, runs `ziosim demo`
#   bash scripts/setup.sh test   installs what is missing, builds, runs every test
# Debian packages are installed only when missing (needs root or sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

DEBIAN_PACKAGES=(
  cmake g++ make pkg-config
  libboost-random-dev libeigen3-dev libcli11-dev libtomlplusplus-dev nlohmann-json3-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
)

install_missing_packages() {
  local missing=()
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
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

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$(nproc)"
}

case "${1:-}" in
  demo)
    install_missing_packages
    build
    ./build/ziosim demo
    ;;
  test)
    install_missing_packages
    build
    ctest --test-dir build --output-on-failure -j"$(nproc)"
    ;;
  *)
    echo "usage: bash scripts/setup.sh demo|test" >&2
    exit 2
    ;;
esac
