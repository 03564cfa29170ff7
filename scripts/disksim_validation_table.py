#!/usr/bin/env python3
"""The DiskSim validation table of README.md: ziosim and DiskSim 4.0 against the service
times measured on each real drive of a DiskSim `valid/` folder.

    python3 scripts/disksim_validation_table.py                 # the six drives of ../shared/data
    python3 scripts/disksim_validation_table.py --valid DIR --disksim DIR2 --drives a,b   # others

For ../shared/data/disksim-valid, DiskSim's per-request times come from its oracle/
folder (column cmu_sim_ms). For another folder, --disksim names a folder of DiskSim's
per-request CSVs, NAME.csv with `measured_ms,disksim_ms` (scripts/disksim-oracle/); a
drive without one shows ziosim only. The demerit is computed on exact samples (quantiles
0.0001 .. 1 in steps of 0.0001, linear interpolation), for both simulators alike. Exits
77 ("skipped") when the folder is absent. Runs build/ziosim (or $ZIOSIM).
"""
from __future__ import annotations

import argparse
import csv
import gzip
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data" / "disksim-valid"
sys.path.insert(0, str(ROOT / "scenarios"))
from ziosim_bin import find_ziosim, need  # noqa: E402

QUANTILES = np.linspace(0.0001, 1.0, 10000)


def demerit_ms(sim: np.ndarray, measured: np.ndarray) -> float:
    return float(np.sqrt(np.mean((np.quantile(sim, QUANTILES) - np.quantile(measured, QUANTILES)) ** 2)))


def ziosim_run(parv: Path, trace: Path, per_request: Path) -> tuple[dict, np.ndarray]:
    p = subprocess.run([find_ziosim(), "validate-disksim", str(parv), str(trace), "--json", "--per-request",
                        str(per_request)], capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"disksim_validation_table.py: ziosim validate-disksim {parv} failed (exit {p.returncode})")
    with per_request.open() as f:
        sim = np.array([float(r["sim_ms"]) for r in csv.DictReader(f)])
    return json.loads(p.stdout), sim


def disksim_times(drive: str, valid: Path, disksim_dir: Path | None) -> np.ndarray | None:
    oracle = valid / "oracle" / f"{drive}.csv.gz"
    if oracle.is_file():
        with gzip.open(oracle, "rt") as f:
            return np.array([float(r["cmu_sim_ms"]) for r in csv.DictReader(f)])
    own = disksim_dir / f"{drive}.csv" if disksim_dir else None
    if own and own.is_file():
        with own.open() as f:
            return np.array([float(r["disksim_ms"]) for r in csv.DictReader(f)])
    return None


def trace_of(parv: Path) -> Path | None:
    trace = parv.with_suffix(".trace")
    return trace if trace.is_file() else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--valid", type=Path, default=SHARED, help="a DiskSim valid/ folder (.parv + .trace per drive)")
    parser.add_argument("--disksim", type=Path, help="DiskSim's per-request CSVs (NAME.csv: measured_ms,disksim_ms)")
    parser.add_argument("--drives", help="comma-separated drive names (default: every NAME.parv with a NAME.trace)")
    args = parser.parse_args()
    valid = Path(need(args.valid, "disksim_validation_table.py"))
    print("| drive | requests | measured mean ms | ziosim mean error | **ziosim demerit ms** "
          "| DiskSim mean error | DiskSim demerit ms | requests equal to DiskSim's (±1 µs) "
          "| mean abs. error per request, ms: ziosim / DiskSim |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        names = args.drives.split(",") if args.drives else [p.stem for p in sorted(valid.glob("*.parv"))]
        for name in names:
            parv = valid / f"{name}.parv"
            trace = trace_of(parv)
            if trace is None:
                if args.drives:
                    raise SystemExit(f"disksim_validation_table.py: --drives: no {parv} with a .trace beside it")
                continue
            j, sim = ziosim_run(parv, trace, Path(tmp) / "per_request.csv")
            measured_mean = j["measured_mean_ms"]
            row = (f"| {parv.stem} | {j['requests']} | {measured_mean:.3f} | {j['mean_error_pct']:+.2f} % "
                   f"| **{j['demerit_ms']:.4f}** |")
            ds = disksim_times(parv.stem, valid, args.disksim)
            with (Path(tmp) / "per_request.csv").open() as f:
                measured = np.array([float(r["measured_ms"]) for r in csv.DictReader(f)])
            ours = np.mean(np.abs(sim - measured))
            if ds is None or len(ds) != len(sim):
                print(row + f" | | | {ours:.3f} / |")
                continue
            ds_error = 100 * (ds.mean() - measured.mean()) / measured.mean()
            equal = 100 * np.mean(np.abs(sim - ds) < 1e-3)
            print(row + f" {ds_error:+.2f} % | {demerit_ms(ds, measured):.4f} | {equal:.1f} % "
                  f"| {ours:.3f} / {np.mean(np.abs(ds - measured)):.3f} |")


if __name__ == "__main__":
    main()
