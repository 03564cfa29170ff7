#!/usr/bin/env python3
"""The figures of docs/calibration.md, as Markdown tables, from `ziosim calibrate --json` runs.

    python3 scripts/calibration_tables.py disksim    # the six DiskSim drives: fit half, hold out half
    python3 scripts/calibration_tables.py fio-vm     # fio results of a VM disk, rep2 and libaio held out
    python3 scripts/calibration_tables.py pool       # a known drive (wd-re4-1tb, rates x 0.8) recovered

Reads ../shared/data (disksim-valid/, fio-vm/); exits 77 ("skipped", as scenarios/tables.py takes
it) with a message when that data is absent. Runs build/ziosim (or $ZIOSIM).
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "scenarios"))
from ziosim_bin import find_ziosim, need  # noqa: E402


def ziosim(*args: str) -> dict:
    p = subprocess.run([find_ziosim(), *args, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit(f"calibration_tables.py: ziosim {' '.join(args)} failed (exit {p.returncode})")
    return json.loads(p.stdout)


def disksim(tmp: Path) -> None:
    folder = Path(need(DATA / "disksim-valid", "calibration_tables.py"))
    print("| drive | held-out mean error, fitted | held-out demerit, fitted | spec model: mean error "
          "| spec model: demerit | fit residuals (hit / miss / write, ms rms) | hits |")
    print("|---|---|---|---|---|---|---|")
    for spec in sorted(folder.glob("*.parv")):
        d = spec.stem
        j = ziosim("calibrate", "--kind", "hdd", "--trace", str(folder / f"{d}.trace"), "--spec", str(spec),
                   "-o", str(tmp / f"{d}-fit.toml"))
        fit, model, r = j["held_out"]["fitted"], j["held_out"]["spec"], j["residual_rms_ms"]
        print(f"| {d} | {fit['mean_error_pct']:+.2f} % | {fit['demerit_ms']:.4f} ms | {model['mean_error_pct']:+.2f} % "
              f"| {model['demerit_ms']:.4f} ms | {r['hit']:.3f} / {r['miss']:.3f} / {r['write']:.3f} "
              f"| {100 * j['hit_share']:.0f} % |")


def fio_vm(tmp: Path) -> None:
    folder = Path(need(DATA / "fio-vm", "calibration_tables.py"))
    files = sorted(str(f) for f in [*folder.glob("randread*.json"), *folder.glob("seqread*.json")])
    j = ziosim("calibrate", "--kind", "ssd", *files, "--holdout", "rep2", "--holdout", "1M_libaio",
               "-o", str(tmp / "vm.toml"))
    print("| | runs | mean abs. error of MB/s | largest |")
    print("|---|---|---|---|")
    for label, held in (("fitted", False), ("held out", True)):
        runs = [r for r in j["runs"] if r["held_out"] == held]
        worst = max(runs, key=lambda r: abs(r["error_pct"]))
        mean = sum(abs(r["error_pct"]) for r in runs) / len(runs)
        print(f"| {label} | {len(runs)} | {mean:.1f} % | {abs(worst['error_pct']):.1f} %: {worst['run']} |")


def pool(tmp: Path) -> None:
    drive = (ROOT / "models" / "catalog" / "wd-re4-1tb.toml").read_text()
    slower = drive
    for key in ("outer_mb_s", "inner_mb_s"):
        m = re.search(rf"^{key} = {{ value = (\d+(?:\.\d+)?)", slower, re.M)
        slower = slower.replace(m.group(0), f"{key} = {{ value = {float(m.group(1)) * 0.8:g}", 1)
    slower = re.sub(r'^name = "wd-re4-1tb"', 'name = "truth"', slower, count=1, flags=re.M)
    (tmp / "truth.toml").write_text(slower)
    # "Measured" as a real pool's figures would be: the mean of four runs, each with
    # its own spindle angles (seeds 11-14); the fit simulates each point over 8 seeds.
    repeats = [ziosim("readers", "--pool", f"mirror 2x{tmp / 'truth.toml'}", "--readers", "1,2,4,8",
                      "--file-size", "128M", "--seed", str(seed))["runs"] for seed in range(11, 15)]
    csv = tmp / "measured.csv"
    csv.write_text("readers,mb_s\n" + "".join(f"{runs[0]['readers']},{sum(r['throughput_mb_s'] for r in runs) / 4}\n"
                                              for runs in zip(*repeats)))
    j = ziosim("calibrate", "--pool", "mirror 2xwd-re4-1tb", "--measured", str(csv), "--fit-readers", "1,4",
               "--file-size", "128M", "--seeds", "8", "-o", str(tmp / "fit.toml"))
    print("| readers | measured MB/s | simulated with the fit | error |")
    print("|---|---|---|---|")
    for p in j["points"]:
        kind = "held out" if p["held_out"] else "fitted"
        print(f"| {p['readers']} ({kind}) | {p['measured_mb_s']:.1f} | {p['simulated_mb_s']:.1f} "
              f"| {p['error_pct']:+.1f} % |")
    print()
    print(f"Rate scale found: {j['rate_scale']:.4f} (truth 0.8), overhead {j['overhead_delta_us']:+.1f} us "
          f"(truth 0), {j['simulations']} simulations.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table", choices=("disksim", "fio-vm", "pool"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        {"disksim": disksim, "fio-vm": fio_vm, "pool": pool}[a.table](Path(tmp))


if __name__ == "__main__":
    main()
