#!/bin/bash
# Builds OpenZFS 2.1's userspace libzpool.so (optionally with a patch applied)
# so that the cross-check harness runs on it instead of Debian's:
#
#   scripts/crosscheck/libzpool/build_libzpool.sh DIR [PATCH ...]
#   LD_LIBRARY_PATH=DIR/src/lib/libzpool/.libs \
#     python3 scripts/crosscheck/crosscheck.py run --era openzfs-2.1 --only mirror2 --refs DIR/refs
#
# DIR/src is the source: if it does not exist, Debian's own zfs-linux source
# package (2.1.11 with Debian's patches: the code of libzpool5linux) is fetched
# there with apt-get source (a deb-src entry is added if the system has none).
# Put a checkout of your own OpenZFS 2.1 branch at DIR/src to build that
# instead. The configuration is Debian's (debian/rules: --with-config=user,
# dpkg-buildflags' hardening), so the library's structures are laid out as in
# the Debian build the harness was compiled against; libzpool's own Makefile
# always adds -DDEBUG -DZFS_DEBUG, with or without --enable-debug. Only the
# libraries libzpool needs are built: about 3 minutes on 2 cores.
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 DIR [PATCH ...]" >&2
  exit 2
fi
dir=$(realpath -m "$1")
shift
patches=()
for p in "$@"; do
  [[ -f $p ]] || { echo "build_libzpool.sh: PATCH: $p: no such file" >&2; exit 2; }
  patches+=("$(realpath "$p")")
done
mkdir -p "$dir"

apt_install() {
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null
}

apt_install build-essential autoconf automake libtool gawk dpkg-dev uuid-dev libblkid-dev libssl-dev \
  zlib1g-dev libtirpc-dev libudev-dev libaio-dev libattr1-dev libelf-dev libffi-dev python3-dev

if [[ ! -d $dir/src ]]; then
  if ! grep -rqs '^\(deb-src\|Types:.*deb-src\)' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    # Debian 12's default sources with source packages, main and contrib (zfs-linux is in contrib).
    cat > /etc/apt/sources.list.d/ziosim-deb-src.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    apt-get update -q >/dev/null
  fi
  (cd "$dir" && apt-get source -q --download-only zfs-linux >/dev/null)
  dsc=$(ls "$dir"/zfs-linux_*.dsc | head -n 1)
  dpkg-source -x "$dsc" "$dir/src" >/dev/null  # applies debian/patches
fi

cd "$dir/src"
for p in "${patches[@]}"; do
  echo "build_libzpool.sh: applying $p"
  patch -p1 --forward < "$p"
done
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
eval "$(dpkg-buildflags --export=sh)"
autoreconf -f -i >/dev/null 2>&1
./configure -q --build=x86_64-linux-gnu --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
  --runstatedir=/run --libdir=/lib/x86_64-linux-gnu --disable-dependency-tracking --with-config=user
make -s gitrev
# lib/Makefile.am's SUBDIRS order, up to libzpool.
for d in libavl libicp libspl libtpool libzstd libefi libnvpair libzutil libunicode libuutil libzfs_core libzpool; do
  make -s -C "lib/$d" -j"$(nproc)" >/dev/null
done
echo "build_libzpool.sh: built $dir/src/lib/libzpool/.libs/libzpool.so.5"
