#!/usr/bin/env python3
"""A patch, real and simulated: docs/mirror-policy-plugins.md's table.

    python3 scripts/crosscheck/plugin_table.py [--patch count-queued] [--scenario mirror2]

Real figures: the committed summaries of the stock library (traces/crosscheck/ERA/SCENARIO.json)
and of the patched one (traces/crosscheck-patched/PATCH/ERA/SCENARIO.json), mean of their runs.
ziosim figures: the same scenario run now with the C plug-ins built from
scenarios/mirror-balancing/plugin/load_locality_port.c (the port of the stock policy, and the patch).
Exits 77 (skipped, for scenarios/tables.py) when the plug-ins are not built.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import crosscheck as xc  # noqa: E402

PATCHES = {"count-queued": "patched_load_locality"}


def mean(runs, key):
    return statistics.fmean(r[key] for r in runs)


def simulated(scn, era, n, plugin, policy, workdir):
    xc.ZIOSIM_PLUGINS[:] = [str(plugin)]
    xc.ZIOSIM_SETTINGS[:] = [f"mirror_policy={policy}"]
    return xc.run_ziosim(scn, era, n, workdir)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--patch", default="count-queued", choices=sorted(PATCHES))
    ap.add_argument("--scenario", default="mirror2")
    ap.add_argument("--era", default="openzfs-2.1")
    a = ap.parse_args()
    plugins = {"port": ROOT / "build" / "port_load_locality.so", "patched": ROOT / "build" / "patched_load_locality.so"}
    for p in plugins.values():
        if not p.exists():
            print(f"plugin_table.py: {p} is not built (cmake -DZIOSIM_BUILD_TESTS=ON): skipped", file=sys.stderr)
            return 77
    stock = json.loads((ROOT / "traces" / "crosscheck" / a.era / f"{a.scenario}.json").read_text())
    patched = json.loads((ROOT / "traces" / "crosscheck-patched" / a.patch / a.era / f"{a.scenario}.json").read_text())
    print("| readers | real MB/s stock / patched | ziosim MB/s port / patched plug-in "
          "| real leaf reads stock / patched | ziosim leaf reads port / patched |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as workdir:
        for n in sorted(patched["runs"], key=int):
            real = (stock["runs"][n], patched["runs"][n])
            sim = (simulated(stock["scenario"], a.era, int(n), plugins["port"], "port_load_locality", workdir),
                   simulated(patched["scenario"], a.era, int(n), plugins["patched"], PATCHES[a.patch], workdir))
            print(f"| {n} | {mean(real[0], 'mb_s'):.1f} / {mean(real[1], 'mb_s'):.1f} "
                  f"| {sim[0]['mb_s']:.1f} / {sim[1]['mb_s']:.1f} "
                  f"| {mean(real[0], 'leaf_reads'):.0f} / {mean(real[1], 'leaf_reads'):.0f} "
                  f"| {sim[0]['leaf_reads']} / {sim[1]['leaf_reads']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
