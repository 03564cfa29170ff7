#!/usr/bin/env python3
"""Predicted vs published: the fio table of openzfs/zfs commit 556011dbec.

Runs the 32 TOML files next to this script (4 pool rows x pristine/patched x 4
fio columns) with `ziosim run FILE --json` and sets each prediction beside the
matching row of ../shared/reference/measurements.csv, with the error
(predicted / published - 1) of each absolute figure and of the patched/pristine
ratio. Sequential columns compare MB/s; random columns compare IO/s (the
commit's own unit: MB/s x 10^6 / bs for the prediction, the "source reports N
IO/s" note for the measurement).

    python3 scenarios/mirror-balancing/556011dbec/compare.py [--ziosim BIN] [--csv PATH]
"""
import argparse
import csv
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "scenarios"))
from ziosim_bin import find_ziosim, need, run_json  # noqa: E402

ROWS = [("stripe2", "stripe of 2 disks", "2 striped"), ("2x2way", "2 x 2-way mirror", "2 x 2-way mirror"),
        ("2x3way", "2 x 3-way mirror", "2 x 3-way mirror"), ("2x4way", "2 x 4-way mirror", "2 x 4-way mirror")]
COLS = [("seq1m", "fio 1MB sequential read", 1 << 20, False), ("seq4k", "fio 4KB sequential read", 4096, False),
        ("rand1m", "fio 1MB random read", 1 << 20, True), ("rand4k", "fio 4KB random read", 4096, True)]


def published(csv_path):
    out = {}
    with open(csv_path, newline="") as f:
        for r in csv.DictReader(f):
            if "556011dbec" not in r["source"]:
                continue
            state = "pristine" if r["policy_or_version"].startswith("pristine") else "patched"
            m = re.search(r"source reports (\d+) IO/s", r["notes"])
            value = float(m.group(1)) if m else float(r["mb_per_s"])
            out[(r["layout"], r["workload"].split(",")[0], state)] = value
    return out


def predict(ziosim, name, bs, random):
    run = run_json(ziosim, os.path.join(HERE, name + ".toml"))["runs"][0]
    mb_s = run["throughput_mb_s"]
    return mb_s * 1e6 / bs if random else mb_s


def err(pred, pub):
    return "{:+.0f} %".format(100.0 * (pred / pub - 1.0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ziosim", default=find_ziosim())
    ap.add_argument("--csv", default=os.path.join(ROOT, "..", "shared", "reference", "measurements.csv"))
    a = ap.parse_args()
    pub = published(need(a.csv, "compare.py"))
    # Every prediction at once (one ziosim per core): the 32 runs take minutes one after another.
    jobs = [("{}-{}-{}".format(short, state, col), bs, random) for short, _, _ in ROWS
            for col, _, bs, random in COLS for state in ("pristine", "patched")]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        predicted = dict(zip((name for name, _, _ in jobs), pool.map(lambda j: predict(a.ziosim, *j), jobs)))
    print("| pool | fio column | unit | published pristine -> patched (ratio) | predicted pristine -> patched (ratio) "
          "| error pristine | error patched | error of ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for short, layout, label in ROWS:
        for col, workload, bs, random in COLS:
            unit = "IO/s" if random else "MB/s"
            p0 = pub[(layout, workload, "pristine")]
            p1 = pub[(layout, workload, "patched")]
            m0 = predicted["{}-pristine-{}".format(short, col)]
            m1 = predicted["{}-patched-{}".format(short, col)]
            print("| {} | {} | {} | {:.0f} -> {:.0f} ({:.2f}) | {:.0f} -> {:.0f} ({:.2f}) | {} | {} | {} |".format(
                label, col, unit, p0, p1, p1 / p0, m0, m1, m1 / m0, err(m0, p0), err(m1, p1),
                err(m1 / m0, p1 / p0)))


if __name__ == "__main__":
    main()
