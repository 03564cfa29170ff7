#!/usr/bin/env python3
"""Cross-check ziosim's ZFS layer against real ZFS code on the same emulated device.

Two real implementations run here in userspace (see ../shared/reference/real-zfs.md):
OpenZFS 2.1.11 through libzpool (libzpool/zpool_harness + libleafemu.so) and ONNV b134
through zfs-fuse (zfsfuse/run_b134.py). Both serve every leaf I/O from the reference
device `fixed:latency=...,bandwidth=...,lanes=...`, which ziosim implements identically
(models/device/fixed_device.h), so what differs is the ZFS layer. A scenario's device may
also be a catalog drive (`device = "wd-re4-1tb"`): ziosim's own HDD or SSD model then serves the
real code's leaf I/O in real time (build/libziosim_realtime.so), each leaf a whole drive.

    crosscheck.py run     [--matrix M] [--only NAME ...] [--era E] [--repeats N] [--refs DIR]
        runs each scenario on the real code and on ziosim, writes the real code's
        summaries to traces/crosscheck/ERA/NAME.json (or DIR/ERA/NAME.json), prints the table
    crosscheck.py compare [--matrix M] [--only NAME ...] [--era E] [--json] [--histograms] [--refs DIR]
                          [--set NAME=VALUE ...] [--plugin FILE.so ...]
        runs ziosim only, against the committed real summaries (--set: what-if tunables for ziosim)

The metrics (summarize()): MB/s as the readers saw it, leaf reads and bytes, reads and
bytes per leaf, disk/app amplification, share of leaf reads larger than one block's
column (aggregated), share of issued leaf reads in the async (prefetch) class (libzpool only:
from its vdev_stat_ex), mean run length of one mirror child in issue order, most I/Os in
one leaf's device at once, the size histogram, prefetch run-ahead past a range read,
and byte ranges read from two mirror children.
"""
from __future__ import annotations

import argparse
import csv
import functools
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DEFAULT_MATRIX = HERE / "matrix.toml"
REFS = ROOT / "traces" / "crosscheck"
ERAS = ("openzfs-2.1", "onnv-134")
LABEL_BYTES = 4 << 20
REALTIME_LIB = ROOT / "build" / "libziosim_realtime.so"  # ziosim drives in real time (bindings/realtime/)
READ_CLASSES = {"sync_read", "async_read", "scrub"}
# `compare --set NAME=VALUE`: tunables given to the ziosim side only (what-if against the real runs).
ZIOSIM_SETTINGS: list[str] = []
# `--plugin FILE.so`: mirror policy plug-ins the ziosim side loads (select one with --set mirror_policy=NAME).
ZIOSIM_PLUGINS: list[str] = []
SUFFIX = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


class UsageError(Exception):
    """Bad input: reported as one line, exit 2."""


def size(text, field):
    s = str(text).strip().upper().removesuffix("IB").removesuffix("B")
    unit = s[-1] if s and s[-1] in SUFFIX else ""
    try:
        value = int(s[: len(s) - len(unit)]) * SUFFIX[unit]
    except ValueError:
        raise UsageError(f"{field}: {text!r} is not a size (a whole number with K, M, G or T)") from None
    if value < 0:
        raise UsageError(f"{field}: {text!r} is negative")
    return value


# ---------------------------------------------------------------------------------- scenarios

KEYS = {"name", "vdev", "ashift", "recordsize", "file_size", "readers", "bs", "read", "primarycache",
        "rotational", "device", "eras", "repeats", "tunables", "arc_max", "leaf_size", "note"}


def load_matrix(path):
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise UsageError(f"{path}: {e}") from None
    out = []
    for i, s in enumerate(data.get("scenario", [])):
        where = f"{path}: scenario {i + 1}"
        unknown = set(s) - KEYS
        if unknown:
            raise UsageError(f"{where}: unknown key {sorted(unknown)[0]!r} (known: {', '.join(sorted(KEYS))})")
        if "name" not in s or "vdev" not in s:
            raise UsageError(f"{where}: name and vdev are required")
        kind, _, n = s["vdev"].rpartition(":")
        if (kind not in ("stripe", "mirror", "raidz1", "raidz2", "raidz3") and not DRAID_KIND.fullmatch(kind)) \
                or not n.isdigit():
            raise UsageError(f"{where}: vdev: {s['vdev']!r} is not KIND:N (KIND: stripe, mirror, raidz1-3, "
                             "draidP[:<D>d][:<S>s])")
        if kind.startswith("draid") and set(s.get("eras", ERAS)) != {"openzfs-2.1"}:
            raise UsageError(f"{where}: eras: dRAID exists from OpenZFS 2.1 on: give eras = [\"openzfs-2.1\"]")
        scn = {
            "name": s["name"], "vdev": s["vdev"], "kind": kind, "leaves": int(n),
            "ashift": int(s.get("ashift", 12)),
            "recordsize": size(s.get("recordsize", "128K"), f"{where}: recordsize"),
            "file_size": size(s.get("file_size", "256M"), f"{where}: file_size"),
            "readers": [int(r) for r in s.get("readers", [1, 2, 4, 10])],
            "bs": size(s.get("bs", "1M"), f"{where}: bs"),
            "read": s.get("read", "whole"),
            "primarycache": s.get("primarycache", "all"),
            "rotational": bool(s.get("rotational", True)),
            "device": s.get("device", "fixed:latency=4ms,bandwidth=150MB/s,lanes=1"),
            "eras": list(s.get("eras", ERAS)),
            "repeats": int(s.get("repeats", 3)),
            "tunables": dict(s.get("tunables", {})),
            "arc_max": size(s.get("arc_max", "1G"), f"{where}: arc_max"),
            "leaf_size": size(s.get("leaf_size", "4G"), f"{where}: leaf_size"),
            "note": s.get("note", ""),
        }
        for era in scn["eras"]:
            if era not in ERAS:
                raise UsageError(f"{where}: eras: {era!r} is not one of {', '.join(ERAS)}")
        if not scn["device"].startswith("fixed:"):
            apply_drive(scn, s, where)
        if scn["read"] not in ("whole", "holes") and not scn["read"].startswith("range:"):
            raise UsageError(f"{where}: read: {scn['read']!r} is not whole, holes or range:OFFSET:LENGTH")
        out.append(scn)
    return out


@functools.cache
def catalog():
    """The drive catalog by name, asked of the ziosim binary once per process."""
    out = subprocess.run([ziosim_bin(), "drives", "--json"], capture_output=True, text=True, check=True)
    return {d["name"]: d for d in json.loads(out.stdout)}


def apply_drive(scn, given, where):
    """A catalog drive as the device: each leaf is the whole drive, rotating if it is an HDD."""
    drives = catalog()
    drive = drives.get(scn["device"])
    if drive is None:
        raise UsageError(f"{where}: device: {scn['device']!r} is neither fixed:... nor a catalog drive "
                         f"({', '.join(sorted(drives))})")
    for key in ("rotational", "leaf_size"):
        if key in given:
            raise UsageError(f"{where}: {key}: comes from the drive {scn['device']!r}; leave it out")
    scn["rotational"] = drive["kind"] == "hdd"
    scn["leaf_size"] = drive["capacity_bytes"]


def read_range(scn):
    """(offset, bytes) each reader reads; holes read all but the last record (the one written)."""
    if scn["read"] == "whole":
        return 0, scn["file_size"]
    if scn["read"] == "holes":
        return 0, scn["file_size"] - scn["recordsize"]
    _, off, length = scn["read"].split(":")
    return size(off, "read offset"), size(length, "read length")


DRAID_KIND = re.compile(r"draid[1-3]?(:\d+[ds])*")


def draid_data_columns(kind, leaves):
    """Data columns per group of a dRAID KIND over `leaves` disks, zpool create's default when not given."""
    parity = int(kind[5]) if len(kind) > 5 and kind[5].isdigit() else 1
    fields = {f[-1]: int(f[:-1]) for f in kind.split(":")[1:]}
    return fields.get("d") or min(leaves - fields.get("s", 0) - parity, 8)


def column_bytes(scn):
    """The largest leaf read one block makes on its own (a mirror copy, a RAID-Z or dRAID column)."""
    sector = 1 << scn["ashift"]
    if scn["kind"].startswith("raidz"):
        data_cols = scn["leaves"] - int(scn["kind"][-1])
        return math.ceil(scn["recordsize"] / sector / data_cols) * sector
    if scn["kind"].startswith("draid"):
        return math.ceil(scn["recordsize"] / sector / draid_data_columns(scn["kind"], scn["leaves"])) * sector
    return scn["recordsize"]


# ---------------------------------------------------------------------------------- summaries

def summarize(ios, scn, app_bytes, elapsed_s, leaves, classes=None):
    """Metrics of one run from its leaf reads: (leaf, offset, size, arrival_ns, end_ns), and
    `classes`, issued leaf reads by ZFS priority class where the implementation reports them."""
    reads_per_leaf = [0] * leaves
    bytes_per_leaf = [0] * leaves
    hist = {}
    sizes = {}
    inflight = [[] for _ in range(leaves)]
    for leaf, _off, sz, arrive, end in ios:
        reads_per_leaf[leaf] += 1
        bytes_per_leaf[leaf] += sz
        bucket = 1 << max(0, sz.bit_length() - 1)
        hist[bucket] = hist.get(bucket, 0) + 1
        sizes[sz] = sizes.get(sz, 0) + 1
        inflight[leaf].append((arrive, 1))
        inflight[leaf].append((end, -1))
    max_in_flight = 0
    for events in inflight:
        depth = 0
        for _t, d in sorted(events, key=lambda e: (e[0], e[1])):  # a completion at t frees before an arrival at t
            depth += d
            max_in_flight = max(max_in_flight, depth)
    total = sum(bytes_per_leaf)
    col = column_bytes(scn)
    reads = len(ios)
    out = {
        "mb_s": app_bytes / elapsed_s / 1e6 if elapsed_s > 0 else 0.0,
        "app_bytes": app_bytes,
        "leaf_reads": reads,
        "leaf_bytes": total,
        "reads_per_leaf": reads_per_leaf,
        "bytes_per_leaf": bytes_per_leaf,
        "amplification": total / app_bytes if app_bytes else 0.0,
        "aggregated_share": sum(1 for io in ios if io[2] > col) / reads if reads else 0.0,
        "max_in_flight": max_in_flight,
        "size_histogram": {str(k): v for k, v in sorted(hist.items())},
        "sizes": {str(k): v for k, v in sorted(sizes.items())},
    }
    if classes:
        out["reads_by_class"] = dict(sorted(classes.items()))
        issued = sum(classes.values())
        out["async_share"] = classes.get("async_read", 0) / issued if issued else 0.0
    if scn["read"].startswith("range:"):
        out["run_ahead_mib"] = (total - app_bytes) / 2**20
    if scn["kind"] == "mirror":
        ordered = sorted(ios, key=lambda io: io[3])
        runs, prev = 0, None
        for io in ordered:
            if io[0] != prev:
                runs += 1
                prev = io[0]
        out["child_run_length"] = reads / runs if runs else 0.0
        seen = {}
        for leaf, off, sz, _a, _e in ios:
            seen.setdefault((off, sz), set()).add(leaf)
        out["read_from_two_children"] = sum(1 for s in seen.values() if len(s) > 1)
    return out


def real_ios(csv_path):
    ios = []
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["op"] == "R":
                ios.append((int(row["leaf"]), int(row["offset"]), int(row["size"]), int(row["arrival_ns"]),
                            int(row["end_ns"])))
    return ios


def ziosim_ios(csv_path):
    """Device reads from ziosim's --io-log (one line per zio, an aggregate's constituents share its
    issue), and issued reads by class (an aggregate's: its first constituent's, as OpenZFS's)."""
    seen = set()
    ios = []
    classes = {}
    with open(csv_path, newline="") as f:
        for row in csv.DictReader(f):
            if row["class"] not in READ_CLASSES:
                continue
            key = (row["disk"], row["issued_ns"], row["issued_offset"], row["issued_size"])
            if key in seen:
                continue
            seen.add(key)
            classes[row["class"]] = classes.get(row["class"], 0) + 1
            ios.append((int(row["disk"][1:]), int(row["issued_offset"]), int(row["issued_size"]),
                        int(row["issued_ns"]), int(row["done_ns"])))
    return ios, classes


def real_classes(res):
    """Issued leaf reads by class from the libzpool harness's vdev_stat_ex deltas (b134: none)."""
    out = {}
    for leaf in res.get("leaves", []):
        for cls, n in leaf.get("ops_by_class", {}).items():
            if cls in READ_CLASSES:
                out[cls] = out.get(cls, 0) + n
    return out


# ---------------------------------------------------------------------------------- runners

def ziosim_bin():
    for p in (ROOT / "build" / "ziosim", Path(shutil.which("ziosim") or "/nonexistent")):
        if p.exists():
            return str(p)
    raise UsageError("ziosim: not built (cmake -S . -B build && cmake --build build)")


def ziosim_pool(scn):
    device = scn["device"]
    if device.startswith("fixed:"):
        device += f",rotational={'yes' if scn['rotational'] else 'no'},capacity={scn['leaf_size']}"
    n = scn["leaves"]
    if scn["kind"] == "stripe":
        return " ".join([device] * n)
    return f"{scn['kind']} {n}x{device}"


def run_ziosim(scn, era, n, workdir):
    first, length = read_range(scn)
    log = Path(workdir) / f"ziosim-{era}-{scn['name']}-{n}.csv"
    bs = scn["bs"] if era == "openzfs-2.1" else min(scn["bs"], 128 << 10)  # FUSE hands b134 128K reads
    cmd = [ziosim_bin(), *[a for p in ZIOSIM_PLUGINS for a in ("--policy-plugin", p)], "readers",
           "--pool", ziosim_pool(scn), "--readers", str(n), "--profile", era,
           "--ashift", str(scn["ashift"]), "--recordsize", str(scn["recordsize"]), "--file-size",
           str(scn["file_size"]), "--bs", str(bs), "--primarycache", scn["primarycache"],
           "--read-offset", str(first), "--read-length", str(length), "--arc-max", str(scn["arc_max"]),
           "--io-log", str(log), "--json"]
    if scn["read"] == "holes":
        cmd.append("--sparse")
    for k, v in scn["tunables"].items():
        cmd += ["--set", f"{k}={v}"]
    for setting in ZIOSIM_SETTINGS:
        cmd += ["--set", setting]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"ziosim failed: {' '.join(cmd)}\n{out.stderr}")
    run = json.loads(out.stdout)["runs"][0]
    ios, classes = ziosim_ios(log)
    s = summarize(ios, scn, run["app_bytes_read"], run["elapsed_s"], scn["leaves"], classes)
    log.unlink()
    return s


def run_configs(prog, description, configs, check, table, argv=None):
    """The command line of a check over named configurations (draid_map_check.py, scrub_check.py):
    --only NAME..., --json, --out FILE; `check(*config)` gives one result, `table(results)` prints
    them. Returns the exit status (2 and a one-line message for a usage error)."""
    try:
        return _run_configs(description, configs, check, table, argv)
    except UsageError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 2


def _run_configs(description, configs, check, table, argv):
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--only", nargs="+", help="configurations to run (default: all)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--out", help="also write the JSON here")
    args = ap.parse_args(argv)
    known = [c[0] for c in configs]
    for name in args.only or []:
        if name not in known:
            ap.error(f"--only: unknown configuration {name!r} (known: {', '.join(known)})")
    results = [check(*c) for c in configs if not args.only or c[0] in args.only]
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    if args.json:
        print(json.dumps(results))
    else:
        table(results)
    return 0


def libzpool_tools():
    d = ROOT / "build" / "scripts" / "crosscheck" / "libzpool"
    harness, emu = d / "zpool_harness", d / "libleafemu.so"
    return (harness, emu) if harness.exists() and emu.exists() else None


def run_real(scn, era, n, workdir):
    first, length = read_range(scn)
    log = Path(workdir) / "leaf.csv"
    if not scn["device"].startswith("fixed:") and not REALTIME_LIB.exists():
        raise UsageError(f"device {scn['device']}: {REALTIME_LIB} is not built (cmake --build build)")
    read = f"range:{first}:{length}" if scn["read"].startswith("range:") else scn["read"]
    common = ["--vdev", scn["vdev"], "--ashift", str(scn["ashift"]), "--recordsize", str(scn["recordsize"]),
              "--file-size", str(scn["file_size"]), "--readers", str(n), "--read", read,
              "--primarycache", scn["primarycache"], "--leaf-size", str(scn["leaf_size"])]
    if era == "openzfs-2.1":
        tools = libzpool_tools()
        if tools is None:
            raise UsageError("the libzpool harness is not built (needs libzpool5linux and libzfslinux-dev)")
        env = dict(os.environ, LD_PRELOAD=str(tools[1]), LEAFEMU_DEVICE=scn["device"], LEAFEMU_LOG=str(log))
        cmd = [str(tools[0]), "--dir", str(Path(workdir) / "pool"), *common, "--bs", str(scn["bs"]),
               "--rotational", "1" if scn["rotational"] else "0", "--arc-max", str(scn["arc_max"])]
        for k, v in scn["tunables"].items():
            cmd += ["--tunable", f"{k}={v}"]
    else:
        if scn["tunables"]:
            raise UsageError(f"{scn['name']}: zfs-fuse takes no tunables; run this scenario on openzfs-2.1 only")
        env = dict(os.environ, LEAFEMU_ZIOSIM_LIB=str(REALTIME_LIB))
        cmd = [sys.executable, str(HERE / "zfsfuse" / "run_b134.py"), "--work", str(Path(workdir) / "b134"),
               *common, "--bs", str(scn["bs"]), "--device", scn["device"], "--log", str(log),
               "--max-arc-mb", str(scn["arc_max"] >> 20),
               # dd iflag=direct: without it the kernel's FUSE read-ahead sends 128K reads to
               # several daemon threads out of order and the old zfetch's streams vary run to run.
               "--direct"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise RuntimeError(f"real code failed ({era}): {' '.join(cmd)}\n{out.stderr[-2000:]}")
    res = json.loads(out.stdout)
    s = summarize(real_ios(log), scn, res["app_bytes"], res["elapsed_s"], scn["leaves"], real_classes(res))
    log.unlink()
    return s


# ---------------------------------------------------------------------------------- comparing

# metric -> target relative error (the targets); structural ones compared exactly.
TARGETS = {"mb_s": 0.10, "leaf_reads": 0.05, "leaf_bytes": 0.05, "amplification": 0.05,
           "aggregated_share": 0.05, "async_share": 0.05, "child_run_length": 0.05, "max_in_flight": 0.0,
           "run_ahead_mib": 0.05}


def mean_of(summaries, key):
    vals = [s[key] for s in summaries if key in s]
    return statistics.fmean(vals) if vals else None


def compare(real_runs, sim):
    """Per metric: (real mean, real min, real max, ziosim, error vs the mean or None)."""
    out = {}
    for key in TARGETS:
        real = mean_of(real_runs, key)
        if real is None or key not in sim:
            continue
        lo = min(s[key] for s in real_runs)
        hi = max(s[key] for s in real_runs)
        err = (sim[key] - real) / real if real else (0.0 if sim[key] == 0 else None)
        out[key] = {"real": real, "real_min": lo, "real_max": hi, "ziosim": sim[key], "error": err}
    return out


def fmt_row(name, n, cmp):
    def cell(key, f="{:.1f}"):
        c = cmp.get(key)
        if c is None:
            return "-"
        e = "" if c["error"] is None else f" ({c['error']:+.0%})"
        return f"{f.format(c['real'])} / {f.format(c['ziosim'])}{e}"
    return (f"| {name} | {n} | {cell('mb_s')} | {cell('leaf_reads', '{:.0f}')} | {cell('amplification', '{:.3f}')}"
            f" | {cell('aggregated_share', '{:.2f}')} | {cell('async_share', '{:.2f}')} | {cell('child_run_length')}"
            f" | {cell('max_in_flight', '{:.0f}')} | {cell('run_ahead_mib')} |")


HEADER = ("| scenario | readers | MB/s real / ziosim | leaf reads | disk/app | aggregated share | async share"
          " | mirror run length | max in flight | run-ahead MiB |\n|---|---|---|---|---|---|---|---|---|---|")


def histogram_rows(name, n, reals, sim):
    """Leaf read sizes, power-of-two buckets: the real runs' mean count per bucket / ziosim's."""
    buckets = sorted({int(b) for r in [*reals, sim] for b in r["size_histogram"]})
    cells = []
    for b in buckets:
        real = statistics.fmean(r["size_histogram"].get(str(b), 0) for r in reals)
        cells.append(f"{b >> 10}K: {real:.0f} / {sim['size_histogram'].get(str(b), 0)}")
    return f"| {name} | {n} | {', '.join(cells)} |"


def ref_path(refs, era, name):
    return Path(refs) / era / f"{name}.json"


def cmd_run(args, scenarios):
    rows = {}
    with tempfile.TemporaryDirectory(prefix="crosscheck-", dir="/var/tmp") as work:
        for scn in scenarios:
            for era in scn["eras"]:
                if args.era and era != args.era:
                    continue
                ref = {"scenario": {k: v for k, v in scn.items()}, "era": era, "runs": {}}
                for n in scn["readers"]:
                    reals = []
                    for r in range(scn["repeats"]):
                        print(f"crosscheck: {era} {scn['name']} readers={n} repeat {r + 1}", file=sys.stderr)
                        reals.append(run_real(scn, era, n, work))
                    ref["runs"][str(n)] = reals
                path = ref_path(args.refs, era, scn["name"])
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(ref, indent=1, sort_keys=True) + "\n")
                rows.setdefault(era, []).extend(table_rows(scn, era, ref, work))
    print_tables(rows, args)


def table_rows(scn, era, ref, work):
    out = []
    for n_text, reals in sorted(ref["runs"].items(), key=lambda kv: int(kv[0])):
        sim = run_ziosim(scn, era, int(n_text), work)
        out.append((scn["name"], int(n_text), compare(reals, sim), sim, reals))
    return out


def cmd_compare(args, scenarios):
    rows = {}
    with tempfile.TemporaryDirectory(prefix="crosscheck-") as work:
        for scn in scenarios:
            for era in scn["eras"]:
                if args.era and era != args.era:
                    continue
                path = ref_path(args.refs, era, scn["name"])
                if not path.exists():
                    print(f"crosscheck: no reference {path} (run `crosscheck.py run`)", file=sys.stderr)
                    continue
                rows.setdefault(era, []).extend(table_rows(scn, era, json.loads(path.read_text()), work))
    print_tables(rows, args)


def print_tables(rows, args):
    if args.json:
        print(json.dumps({era: [{"scenario": r[0], "readers": r[1], "metrics": r[2],
                                 "size_histogram": {"real": [x["size_histogram"] for x in r[4]],
                                                    "ziosim": r[3]["size_histogram"]}} for r in rs]
                          for era, rs in rows.items()}, indent=1))
        return
    for era, rs in rows.items():
        print(f"\n{era} (real code vs ziosim profile {era}; error of ziosim against the mean of the real runs)\n")
        print(HEADER)
        for name, n, cmp, _sim, _reals in rs:
            print(fmt_row(name, n, cmp))
        if args.histograms:
            print(f"\n{era}: leaf read sizes (bucket: real mean / ziosim reads)\n")
            print("| scenario | readers | sizes |\n|---|---|---|")
            for name, n, _cmp, sim, reals in rs:
                print(histogram_rows(name, n, reals, sim))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=("run", "compare"))
    ap.add_argument("--matrix", default=str(DEFAULT_MATRIX))
    ap.add_argument("--only", nargs="*", default=None, help="scenario names")
    ap.add_argument("--era", choices=ERAS, default=None)
    ap.add_argument("--repeats", type=int, default=None, help="real runs per point (default: the matrix's)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--histograms", action="store_true", help="also print the leaf read size histograms")
    ap.add_argument("--refs", default=str(REFS), metavar="DIR",
                    help="where the real code's summaries are written (run) and read (compare); default: "
                         "the committed ones (e.g. a scratch folder for a patched OpenZFS build)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="compare: a tunable for the ziosim side only (repeatable)")
    ap.add_argument("--plugin", action="append", default=[], metavar="FILE.so",
                    help="a mirror policy plug-in for the ziosim side (repeatable; select it with --set)")
    args = ap.parse_args(argv)
    try:
        scenarios = load_matrix(args.matrix)
        if args.only:
            unknown = set(args.only) - {s["name"] for s in scenarios}
            if unknown:
                raise UsageError(f"--only: no scenario {sorted(unknown)[0]!r} in {args.matrix}")
            scenarios = [s for s in scenarios if s["name"] in args.only]
        if args.set and args.command != "compare":
            raise UsageError("--set: only with compare (the references are the real code's)")
        ZIOSIM_SETTINGS[:] = args.set
        ZIOSIM_PLUGINS[:] = [str(Path(p).resolve()) for p in args.plugin]
        if args.repeats is not None:
            if args.repeats < 1:
                raise UsageError("--repeats: must be at least 1")
            for s in scenarios:
                s["repeats"] = args.repeats
        (cmd_run if args.command == "run" else cmd_compare)(args, scenarios)
    except UsageError as e:
        print(f"crosscheck: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
