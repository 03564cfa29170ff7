#!/usr/bin/env python3
"""Run scenario files with `ziosim run FILE --json` and print one Markdown table.

One row per (file, reader count). The tables in the scenario READMEs are the
output of the command line shown above each of them, regenerated and checked by
scenarios/tables.py.

    python3 scenarios/summarize.py [--ziosim BIN] [--cols a,b,c] [--base SPEC]... FILE.toml ...

Columns (--cols, comma separated; default: file,readers,mb_s,disk_app,cpu,time_s,busy):
  file        the file name without .toml
  readers     reader count of the run
  mb_s        throughput, MB/s (10^6 B/s) of all readers together
  per_reader  mean MB/s of one reader
  disk_app    bytes the disks read / bytes the application received
  cpu         host CPU busy, % of all cores
  time_s      simulated seconds until the last reader finished
  busy        per-disk busy %, d0/d1/...
  disk_mb     per-disk MB/s, d0/d1/...
  chosen      per-disk reads a mirror assigned to that child, d0/d1/...
  active      per-disk mean I/Os issued to the device, d0/d1/...
  queued      per-disk mean I/Os waiting in the ZFS queue, d0/d1/...
  svc         per-disk mean device time per command, ms, d0/d1/...
  cmds_mb     device commands per MB read (all disks)
  ms_mb       disk busy time per MB the disk read, ms (mean over the disks that read anything)
  seeks_mb    commands that moved the head >= 2 cylinders, per MB read (all disks)
  agg_pct     % of the zios that reached the leaves which went out inside an aggregate
  split_pct   % of the zios the platform cut into several commands (MAXPHYS / max_sectors_kb)
  gap_mb      MB read only to bridge aggregation gaps (all disks)
  disk_gb     GB the disks read
  holes       hole blocks handed to read calls (each allocated and zeroed)
  zeroed_gib  holes x recordsize, GiB memset
  arc_hits    ARC hits / misses / L2ARC hits
  prefetch    DMU prefetch reads issued
  waited      block reads that found the block already in flight (waited on it)
  vs_base     mb_s / the base row's mb_s (same reader count; --base)
  change_pct  the same as a change: +43 %

--base SPEC (repeatable) names each row's base: NAME (every row: the file NAME.toml
among the files given) or FROM=TO (a row whose file name contains FROM: that name
with FROM replaced by TO). A row without a base shows "-".
"""
import argparse
import os
from concurrent.futures import ThreadPoolExecutor

from ziosim_bin import find_ziosim, run_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_COLS = "file,readers,mb_s,disk_app,cpu,time_s,busy"


def per_disk(run, key, fmt):
    return "/".join(fmt.format(d[key]) for d in run["disks"])


def seeks(d):
    return sum(d.get("seek_log2_cylinders", [])[1:])


def cell(col, path, top, run):
    disks = run["disks"]
    disk_bytes = run["disk_bytes_read"]
    disk_mb = disk_bytes / 1e6
    zios = sum(d["zios"] for d in disks)
    if col == "file":
        return os.path.splitext(os.path.basename(path))[0]
    if col == "readers":
        return str(run["readers"])
    if col == "mb_s":
        return "{:.1f}".format(run["throughput_mb_s"])
    if col == "per_reader":
        pr = run["per_reader_mb_s"]
        return "{:.1f}".format(sum(pr) / len(pr))
    if col == "disk_app":
        return "{:.2f}".format(disk_bytes / run["app_bytes_read"]) if run["app_bytes_read"] else "-"
    if col == "cpu":
        return "{:.1f}".format(run["cpu_busy_pct"])
    if col == "time_s":
        return "{:.2f}".format(run["elapsed_s"])
    if col == "busy":
        return per_disk(run, "busy_pct", "{:.0f}")
    if col == "disk_mb":
        return per_disk(run, "read_mb_s", "{:.0f}")
    if col == "chosen":
        return per_disk(run, "mirror_chosen", "{}")
    if col == "active":
        return per_disk(run, "mean_active", "{:.1f}")
    if col == "queued":
        return per_disk(run, "mean_queued", "{:.1f}")
    if col == "svc":
        return per_disk(run, "mean_service_ms", "{:.2f}")
    if col == "cmds_mb":
        return "{:.2f}".format(sum(d["reads"] for d in disks) / disk_mb) if disk_mb else "-"
    if col == "ms_mb":
        v = [10.0 * d["busy_pct"] / d["read_mb_s"] for d in disks if d["read_mb_s"] > 0]
        return "{:.1f}".format(sum(v) / len(v)) if v else "-"
    if col == "seeks_mb":
        return "{:.2f}".format(sum(seeks(d) for d in disks) / disk_mb) if disk_mb else "-"
    if col == "agg_pct":
        return "{:.0f}".format(100.0 * sum(d["aggregated_zios"] for d in disks) / zios) if zios else "-"
    if col == "split_pct":
        return "{:.0f}".format(100.0 * sum(d["split"] for d in disks) / zios) if zios else "-"
    if col == "gap_mb":
        return "{:.0f}".format(sum(d["gap_bytes"] for d in disks) / 1e6)
    if col == "disk_gb":
        return "{:.2f}".format(disk_bytes / 1e9)
    if col == "holes":
        return str(run["dmu"]["hole_blocks"])
    if col == "zeroed_gib":
        return "{:.2f}".format(run["dmu"]["hole_blocks"] * top["recordsize_bytes"] / 2**30)
    if col == "arc_hits":
        a = run["arc"]
        return "{}/{}/{}".format(a["hits"], a["misses"], a["l2_hits"])
    if col == "prefetch":
        return str(run["dmu"]["prefetch_reads"])
    if col == "waited":
        return str(run["dmu"]["waited_on_inflight"])
    raise SystemExit("summarize.py: unknown column '{}'".format(col))


def stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def base_of(name, specs):
    """The file name a row of file `name` is compared with (--base), or None."""
    for spec in specs:
        frm, eq, to = spec.partition("=")
        if not eq:
            return spec
        if frm in name:
            return name.replace(frm, to)
    return None


def relative(col, run, base):
    if base is None:
        return "-"
    ratio = run["throughput_mb_s"] / base["throughput_mb_s"]
    return "{:.2f}".format(ratio) if col == "vs_base" else "{:+.0f} %".format(100.0 * (ratio - 1.0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ziosim", default=find_ziosim())
    ap.add_argument("--cols", default=DEFAULT_COLS)
    ap.add_argument("--base", action="append", default=[], metavar="SPEC")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    cols = [c.strip() for c in a.cols.split(",") if c.strip()]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # one ziosim per core, rows in file order
        results = list(zip(a.files, pool.map(lambda path: run_json(a.ziosim, path), a.files)))
    runs = {(stem(path), run["readers"]): run for path, top in results for run in top["runs"]}
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for path, top in results:
        for run in top["runs"]:
            base_name = base_of(stem(path), a.base)
            if base_name is not None and (base_name, run["readers"]) not in runs:
                raise SystemExit("summarize.py: --base: no file {}.toml with {} readers among the files".format(
                    base_name, run["readers"]))
            base = runs.get((base_name, run["readers"]))
            print("| " + " | ".join(relative(c, run, base) if c in ("vs_base", "change_pct")
                                    else cell(c, path, top, run) for c in cols) + " |")


if __name__ == "__main__":
    main()
