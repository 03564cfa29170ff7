#!/usr/bin/env python3
"""Runs `ziosim workload MIX --json` for every row and mix and prints one Markdown table.

    python3 scenarios/workload_table.py [--ziosim BIN] --pool SPEC --duration T [--long|--wide] \
        --row 'LABEL :: ARGS' ... [--mixes fileserver,webserver,...]

Each --row is a label (printed as is) and the extra `ziosim workload` arguments of that row
(shell words). --long (default): one line per row and mix with ops/s, read and write MB/s, the p50
read latency, the p50 latency of the writes that waited for the log and their number. --wide: one
line per row, the ops/s of each mix, then the last mix's sync-write p50.
"""
import argparse
import json
import shlex
import subprocess
import sys

from ziosim_bin import find_ziosim

MIXES = "fileserver,webserver,workstation,database"


def run(ziosim, mix, pool, duration, args):
    own_pool = [] if "--pool" in args else ["--pool", pool]  # a row may name its own pool
    cmd = [ziosim, "workload", mix, *own_pool, "--duration", duration, "--json", *args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("workload_table.py: {} failed (exit {})".format(shlex.join(cmd), p.returncode))
    return json.loads(p.stdout)["runs"][0]


def sync_p50(r):
    return "{:.1f}".format(r["sync_p50_ms"]) if r["sync_writes"] else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ziosim", default=find_ziosim())
    ap.add_argument("--pool", required=True)
    ap.add_argument("--duration", required=True)
    ap.add_argument("--mixes", default=MIXES)
    ap.add_argument("--row", action="append", required=True, metavar="'LABEL :: ARGS'")
    shape = ap.add_mutually_exclusive_group()
    shape.add_argument("--long", dest="wide", action="store_false")
    shape.add_argument("--wide", action="store_true")
    a = ap.parse_args()
    mixes = a.mixes.split(",")
    rows = []
    for spec in a.row:
        label, sep, args = spec.partition(" :: ")
        if not sep:
            raise SystemExit("workload_table.py: --row {!r}: expected 'LABEL :: ARGS'".format(spec))
        rows.append((label, [run(a.ziosim, m, a.pool, a.duration, shlex.split(args)) for m in mixes]))
    if a.wide:
        print("| ARGS added | " + " | ".join([mixes[0] + " ops/s", *mixes[1:], mixes[-1] + " sync-write p50 ms"]) + " |")
        print("|" + "---|" * (len(mixes) + 2))
        for label, runs in rows:
            print("| " + " | ".join([label, *("{:.1f}".format(r["ops_per_s"]) for r in runs), sync_p50(runs[-1])])
                  + " |")
        return
    print("| setup | mix | ops/s | read MB/s | write MB/s | read p50 ms | sync-write p50 ms | sync writes |")
    print("|---|---|---|---|---|---|---|---|")
    for label, runs in rows:
        for i, (mix, r) in enumerate(zip(mixes, runs)):
            print("| {} | {} | {:.1f} | {:.2f} | {:.2f} | {:.1f} | {} | {} |".format(
                label if i == 0 else "", mix, r["ops_per_s"], r["read_mb_s"], r["write_mb_s"], r["read_p50_ms"],
                sync_p50(r), r["sync_writes"]))


if __name__ == "__main__":
    main()
