#!/bin/sh
# Builds DiskSim 4.0 (CMU) as the project's oracle: the disksim binary with a
# per-request CSV of validate runs and of other traces, and dsmap (LBN -> physical location).
#   usage: scripts/disksim-oracle/rebuild.sh DEST [fixed]
#   DEST/cmu: pristine DiskSim 4.0 + 64-bit + build patches; "fixed" also applies
#   sectpercyl_wrap_fix.patch (sparing scheme 2). Needs build-essential bison flex and
#   two public repositories, as git dirs: DISKSIM_GIT (github benh/disksim, commit
#   1141f8d = CMU's disksim-4.0 tarball) and WD_GIT (github westerndigitalcorporation/
#   DiskSim, commit dc21ab0, which carries the Sandia 64-bit patch).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DEST=$1
: "${DISKSIM_GIT:?set DISKSIM_GIT to a clone of github.com/benh/disksim}"
: "${WD_GIT:?set WD_GIT to a clone of github.com/westerndigitalcorporation/DiskSim}"
rm -rf "$DEST" && mkdir -p "$DEST"
git -C "$DISKSIM_GIT" archive 1141f8d | tar -x -C "$DEST"
cd "$DEST"
git -C "$WD_GIT" show dc21ab0:STABLE/DiskSim_Linux_Generic_2.01.016/disksim_4.0_64bit.patch | patch -p1
patch -p1 < "$HERE/build_gcc12_O2.patch"            # -O2, -fcommon, -fgnu89-inline, -lm (gcc 12)
patch -p1 < "$HERE/validate_per_request_csv.patch"  # DISKSIM_VALIDATE_CSV=FILE: measured_ms,disksim_ms
patch -p1 < "$HERE/request_csv.patch"               # DISKSIM_REQUEST_CSV=FILE: other traces' completions
if [ "${2:-}" = fixed ]; then patch -p1 < "$HERE/sectpercyl_wrap_fix.patch"; fi
nice -n 10 make -j1
make -C "$HERE" DS="$DEST" -B && mv "$HERE/dsmap" "$DEST/dsmap"
