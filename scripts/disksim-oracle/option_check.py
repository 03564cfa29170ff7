#!/usr/bin/env python3
"""Turns disk options on in DiskSim's validation drives and compares ziosim with DiskSim.

For each drive, runs DiskSim's validation trace through DiskSim 4.0 (built by rebuild.sh,
with the per-request CSV patch) and through `ziosim validate-disksim`, once with the spec
as it is and once with the options set, and prints the share of requests whose times
agree within 1 us. An option the model gets right leaves the share as it was. Works in
a scratch copy of the validation folder; nothing is written elsewhere.

    python3 scripts/disksim-oracle/option_check.py --disksim DEST/src/disksim \\
        --valid DISKSIM/valid --set "Never disconnect=1" --bus-set "Arbitration time=0.1" \\
        hp_c2247a dec_rz26

--set edits the drive's .diskspecs (the disk block); --bus-set the block BUS1 of its .parv,
the bus the disk sits on in every validation spec.
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def edit(text, block_start, settings, where):
    """`text` with each KEY = VALUE of `settings` set, from `block_start` on (once each)."""
    head, body = text[:block_start], text[block_start:]
    for key, value in settings:
        body, n = re.subn(rf"({re.escape(key)}\s*=\s*)[^,\n]*", rf"\g<1>{value}", body, count=1)
        if n == 0:
            sys.exit(f"option_check.py: {where} has no '{key}'")
    return head + body


def share_equal(folder, drive, disksim, ziosim):
    """Share of requests whose DiskSim and ziosim times agree within 1 us, or why none."""
    env = dict(os.environ, DISKSIM_VALIDATE_CSV=os.path.join(folder, "disksim.csv"))
    d = subprocess.run([disksim, drive + ".parv", "out.outv", "validate", drive + ".trace", "0"], cwd=folder,
                       env=env, capture_output=True, text=True, check=False)
    if not os.path.exists(os.path.join(folder, "disksim.csv")):
        said = (d.stderr.strip() or d.stdout.strip() or f"exit {d.returncode}").splitlines()[-1]
        return "DiskSim fails: " + said
    z = subprocess.run([ziosim, "validate-disksim", drive + ".parv", drive + ".trace", "--per-request", "ziosim.csv"],
                       cwd=folder, capture_output=True, text=True, check=False)
    if z.returncode != 0:
        return "ziosim refuses: " + z.stderr.strip().splitlines()[-1]
    with open(os.path.join(folder, "disksim.csv"), newline="") as f:
        theirs = [float(r["disksim_ms"]) for r in csv.DictReader(f)]
    with open(os.path.join(folder, "ziosim.csv"), newline="") as f:
        ours = [float(r["sim_ms"]) for r in csv.DictReader(f)]
    if len(theirs) != len(ours):
        return f"DiskSim stops after {len(theirs)} of {len(ours)} requests"
    equal = sum(abs(a - b) <= 0.001 for a, b in zip(theirs, ours))
    return f"{100.0 * equal / len(ours):.2f} % of {len(ours)}"


def run(valid, drive, disk_settings, bus_settings, disksim, ziosim):
    with tempfile.TemporaryDirectory(prefix="option-check-") as scratch:
        folder = os.path.join(scratch, "valid")
        shutil.copytree(valid, folder)
        spec = os.path.join(folder, drive + ".diskspecs")
        with open(spec) as f:
            text = f.read()
        with open(spec, "w") as f:
            f.write(edit(text, 0, disk_settings, spec))
        parv = os.path.join(folder, drive + ".parv")
        with open(parv) as f:
            text = f.read()
        bus = text.find("disksim_bus BUS1")
        if bus_settings and bus < 0:
            sys.exit(f"option_check.py: {parv} has no block BUS1")
        with open(parv, "w") as f:
            f.write(edit(text, bus, bus_settings, parv + " (BUS1)") if bus_settings else text)
        return share_equal(folder, drive, disksim, ziosim)


def pairs(items):
    out = []
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            sys.exit(f"option_check.py: '{item}' is not KEY=VALUE")
        out.append((key.strip(), value.strip()))
    return out


def add_oracle_arguments(ap, drive_files):
    """The arguments every check takes: drives, the two simulators, the folder, disk options."""
    ap.add_argument("drives", nargs="+", help=f"drive names in the validation folder ({drive_files})")
    ap.add_argument("--disksim", required=True, help="DiskSim 4.0 built by rebuild.sh (DEST/src/disksim)")
    ap.add_argument("--valid", required=True, help="DiskSim's valid/ folder")
    ap.add_argument("--ziosim", default=os.path.join(ROOT, "build", "ziosim"))
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a disk option (.diskspecs)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_oracle_arguments(ap, "NAME.parv, NAME.trace")
    ap.add_argument("--bus-set", action="append", default=[], metavar="KEY=VALUE", help="an option of bus BUS1")
    a = ap.parse_args()
    disk_settings, bus_settings = pairs(a.set), pairs(a.bus_set)
    options = ", ".join(f"{k} = {v}" for k, v in disk_settings + bus_settings)
    print(f"| drive | equal within 1 us, as given | with {options} |")
    print("|---|---|---|")
    for drive in a.drives:
        given = run(a.valid, drive, [], [], a.disksim, a.ziosim)
        changed = run(a.valid, drive, disk_settings, bus_settings, a.disksim, a.ziosim)
        print(f"| {drive} | {given} | {changed} |", flush=True)


if __name__ == "__main__":
    main()
