#!/usr/bin/env python3
"""ziosim's dRAID map against OpenZFS 2.1.11's, block by block.

For each configuration the libzpool harness (libzpool/) writes a file on a real
dRAID pool, reads it back with one reader and dumps every block pointer
(--dump-blocks); leafemu logs every leaf read. Then, for every data block of the
file, `ziosim raidz-map --draid` maps its DVA:

  * asize: the DVA's allocated size must be ziosim's (vdev_draid_asize);
  * data columns: every sector ziosim puts a data column on must have been
    read by the real code from that leaf at that offset (it read the whole file);
  * parity columns: the real code, reading with every leaf healthy, reads no
    parity; the share of ziosim's parity sectors it read anyway is reported
    (aggregation may read one as a gap between two data columns of a leaf).

usage: draid_map_check.py [--only NAME ...] [--json] [--out FILE]
Prints a table (or JSON); --out writes the JSON (traces/crosscheck/draid-map.json
is the committed one). Needs the harness built (cmake --build build, with
libzpool5linux and libzfslinux-dev installed)."""
from __future__ import annotations

import bisect
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import crosscheck as xc  # noqa: E402

LABEL_START = 4 << 20  # a leaf's front labels and boot area (VDEV_LABEL_START_SIZE)

# name, harness --vdev (draidP[:<D>d][:<S>s]:N), ashift, recordsize, file size. Between them: the
# default group (4+1 over 5), a spare, groups that wrap onto the next row (5 wide over 7 disks),
# 512-byte sectors, and 1 MiB records, some of which run past the end of their group into the next.
CONFIGS = [
    ("draid1-5", "draid1:5", 12, 128 << 10, 32 << 20),
    ("draid2-4d-1s-7", "draid2:4d:1s:7", 12, 128 << 10, 32 << 20),
    ("draid2-3d-2s-9-1m", "draid2:3d:2s:9", 12, 1 << 20, 160 << 20),
    ("draid3-5d-1s-10-ashift9", "draid3:5d:1s:10", 9, 128 << 10, 32 << 20),
]


class Coverage:
    """Byte ranges read per leaf (merged), and how much of a range they cover."""

    def __init__(self, reads):
        self.ranges = {}
        for leaf, off, size in sorted(reads):
            r = self.ranges.setdefault(leaf, [])
            if r and off <= r[-1][1]:
                r[-1][1] = max(r[-1][1], off + size)
            else:
                r.append([off, off + size])
        self.starts = {leaf: [s for s, _ in r] for leaf, r in self.ranges.items()}

    def covered(self, leaf, start, end):
        r, covered = self.ranges.get(leaf, []), 0
        i = max(bisect.bisect_right(self.starts.get(leaf, []), start) - 1, 0)
        while i < len(r) and r[i][0] < end:
            covered += max(0, min(end, r[i][1]) - max(start, r[i][0]))
            i += 1
        return covered


def run_real(vdev, ashift, recordsize, file_size, workdir):
    tools = xc.libzpool_tools()
    if tools is None:
        raise xc.UsageError("the libzpool harness is not built (needs libzpool5linux and libzfslinux-dev)")
    log = Path(workdir) / "leaf.csv"
    env = dict(os.environ, LD_PRELOAD=str(tools[1]), LEAFEMU_DEVICE="fixed:latency=4ms,bandwidth=150MB/s,lanes=1",
               LEAFEMU_LOG=str(log))
    cmd = [str(tools[0]), "--dir", str(Path(workdir) / "pool"), "--vdev", vdev, "--ashift", str(ashift),
           "--recordsize", str(recordsize), "--file-size", str(file_size), "--readers", "1", "--bs", "1048576",
           "--leaf-size", str(2 << 30), "--dump-blocks"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"harness failed: {' '.join(cmd)}\n{out.stderr[-2000:]}")
    return json.loads(out.stdout), [(leaf, off, size) for leaf, off, size, _a, _e in xc.real_ios(log)]


def ziosim_map(kind, children, ashift, psize, offset):
    out = subprocess.run([xc.ziosim_bin(), "raidz-map", "--draid", kind, "--width", str(children), "--ashift",
                          str(ashift), "--psize", str(psize), "--offset", str(offset), "--json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"ziosim raidz-map failed: {out.stderr}")
    return json.loads(out.stdout)


def check(name, vdev, ashift, recordsize, file_size, *, rotate_children=0):
    """The figures of one configuration. `rotate_children` moves every predicted column that many
    children on: a deliberately wrong map, to show that the check can fail."""
    kind, _, children = vdev.rpartition(":")
    with tempfile.TemporaryDirectory(prefix="draid-map-") as workdir:
        harness, reads = run_real(vdev, ashift, recordsize, file_size, workdir)
    cover = Coverage(reads)
    files = set(harness["objects"])
    blocks = [b for b in harness["blocks"] if b["level"] == 0 and b["object"] in files and not b["embedded"]]
    res = {"name": name, "vdev": vdev, "ashift": ashift, "recordsize": recordsize, "blocks": len(blocks),
           "asize_mismatches": 0, "two_row_blocks": 0, "data_bytes": 0, "data_bytes_read": 0,
           "parity_bytes": 0, "parity_bytes_read": 0}
    for b in blocks:
        _vdev, offset, asize = b["dvas"][0]
        m = ziosim_map(kind, int(children), ashift, b["psize"], offset)
        res["asize_mismatches"] += m["asize"] != asize
        res["two_row_blocks"] += any(c.get("row") == 1 for c in m["columns"])
        for c in m["columns"]:
            if c["size"] == 0:
                continue
            start = c["offset"] + LABEL_START
            got = cover.covered((c["child"] + rotate_children) % int(children), start, start + c["size"])
            which = "data" if c["role"] == "D" else "parity"
            res[f"{which}_bytes"] += c["size"]
            res[f"{which}_bytes_read"] += got
    return res


def print_table(results):
    print("| configuration | blocks | asize = real | blocks over two groups | data sectors the real code read "
          "| parity sectors the real code read |")
    print("|---|---|---|---|---|---|")
    for r in results:
        data = r["data_bytes_read"] / r["data_bytes"] if r["data_bytes"] else 0
        parity = r["parity_bytes_read"] / r["parity_bytes"] if r["parity_bytes"] else 0
        print(f"| {r['name']} (ashift {r['ashift']}, {r['recordsize'] >> 10}K) | {r['blocks']} "
              f"| {r['blocks'] - r['asize_mismatches']} / {r['blocks']} | {r['two_row_blocks']} "
              f"| {data:.2%} | {parity:.2%} |")


if __name__ == "__main__":
    sys.exit(xc.run_configs("draid_map_check", __doc__.splitlines()[0], CONFIGS, check, print_table))
