#!/usr/bin/env python3
"""Predicted vs published: issue #8560's single-stream prefetch on/off results.

Runs the six TOML files next to this script (ZoL 0.6 / 0.7 / 0.8 profiles,
prefetch on and off) and sets each beside the matching row of
../shared/reference/measurements.csv. The reporter's drives are not stated,
so the prefetch on/off ratio is the figure to compare; MB/s are shown with
their error for completeness only.

    python3 scenarios/prefetch-eras/issue8560/compare.py [--ziosim BIN] [--csv PATH]
"""
import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "scenarios"))
from ziosim_bin import find_ziosim, need, run_json  # noqa: E402
ERAS = [("0.6", "zol-0.6.5"), ("0.7", "zol-0.7"), ("0.8", "zol-0.8")]


def published(csv_path):
    out = {}
    with open(csv_path, newline="") as f:
        for r in csv.DictReader(f):
            if "issues/8560" in r["source"]:
                out[r["policy_or_version"]] = float(r["mb_per_s"])
    return out


def predict(ziosim, name):
    return run_json(ziosim, os.path.join(HERE, name + ".toml"))["runs"][0]["throughput_mb_s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ziosim", default=find_ziosim())
    ap.add_argument("--csv", default=os.path.join(ROOT, "..", "shared", "reference", "measurements.csv"))
    a = ap.parse_args()
    pub = published(need(a.csv, "compare.py"))
    print("| ZFS | profile | published on / off MB/s | ratio | predicted on / off MB/s | ratio | error on | error off "
          "| error of ratio |")
    print("|---|---|---|---|---|---|---|---|---|")
    for ver, prof in ERAS:
        p_on, p_off = pub["ZFS {}, prefetch".format(ver)], pub["ZFS {}, no prefetch".format(ver)]
        m_on, m_off = predict(a.ziosim, prof + "-prefetch"), predict(a.ziosim, prof + "-noprefetch")
        print("| {} | {} | {:.0f} / {:.0f} | {:.2f} | {:.0f} / {:.0f} | {:.2f} | {:+.0f} % | {:+.0f} % | {:+.0f} % |".format(
            ver, prof, p_on, p_off, p_on / p_off, m_on, m_off, m_on / m_off, 100 * (m_on / p_on - 1),
            100 * (m_off / p_off - 1), 100 * ((m_on / m_off) / (p_on / p_off) - 1)))


if __name__ == "__main__":
    main()
