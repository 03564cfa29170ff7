#!/usr/bin/env python3
"""Check that a change meant only to make ziosim faster leaves its results bit for bit.

Runs a fixed set of commands that cover the HDD model (DiskSim validation on
the six shared drives, NCQ reordering in disk-bench, a block-trace replay) and
the whole read path (readers and a scrub on mirror and RAID-Z2 pools, two eras)
with one `ziosim` binary, and saves each output under DIR. Run it once with the
old binary (`--save DIR`) and once with the new one (`--against DIR`): the
second run names every output that differs or is missing, and exits 1.

Host timing fields (wall_seconds, requests_per_sec, ...) are removed from JSON
output before the comparison: they are measurements of the host, not results.

    python3 scripts/same_results.py --ziosim OLD/ziosim --save /tmp/before
    python3 scripts/same_results.py --ziosim build/ziosim --against /tmp/before
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
VALID = ROOT.parent / "shared" / "data" / "disksim-valid"
DRIVES = ["atlas_III", "barracuda", "cheetah4LP", "cheetah9LP", "hp_c2247a", "hp_c2490a"]
HOST_FIELDS = {"wall_seconds", "requests_per_sec", "host_seconds", "elapsed_s", "wall_s"}


def commands(scratch):
    """(name, argv, extra output file or None): every run whose results must not move."""
    runs = []
    if VALID.is_dir():
        for d in DRIVES:
            csv = scratch / f"{d}.csv"
            runs.append((f"validate-{d}", ["validate-disksim", "--json", "--per-request", str(csv),
                                          str(VALID / f"{d}.parv"), str(VALID / f"{d}.trace")], csv))
        for mode in ["closed:8", "validate"]:
            runs.append((f"replay-cheetah9LP-{mode.replace(':', '')}",
                         ["replay", "--json", "--target", f"disksim:{VALID / 'cheetah9LP.parv'}", "--format",
                          "validate", "--mode", mode, str(VALID / "cheetah9LP.trace")], None))
    for drive in ["hgst-nas-4tb", "wd-re4-1tb"]:
        for qd in ["1", "32"]:
            runs.append((f"disk-bench-{drive}-qd{qd}", ["disk-bench", "--json", "--drive", drive, "--pattern", "rand",
                                                        "--qd", qd, "--count", "20000"], None))
    for profile in ["freebsd-11", "openzfs-2.1"]:
        runs.append((f"readers-raidz2-{profile}", ["readers", "--json", "--pool", "raidz2 5xhgst-nas-4tb",
                                                    "--readers", "1,4", "--file-size", "2G", "--recordsize", "1M",
                                                    "--profile", profile], None))
        runs.append((f"readers-mirror-{profile}", ["readers", "--json", "--pool", "mirror 2xwd-re4-1tb",
                                                    "--readers", "1,10", "--file-size", "512M",
                                                    "--profile", profile], None))
    runs.append(("scrub-raidz2", ["scrub", "--json", "--pool", "raidz2 6xhgst-nas-4tb", "--files", "2",
                                  "--file-size", "1G", "--readers", "2"], None))
    return runs


def strip_host(value):
    if isinstance(value, dict):
        return {k: strip_host(v) for k, v in value.items() if k not in HOST_FIELDS}
    if isinstance(value, list):
        return [strip_host(v) for v in value]
    return value


def normalise(text):
    """JSON documents (one or one per line) without their host timings; other text as is."""
    try:
        return json.dumps(strip_host(json.loads(text)), sort_keys=True, indent=1) + "\n"
    except json.JSONDecodeError:
        pass
    lines = text.splitlines()
    try:
        return "".join(json.dumps(strip_host(json.loads(l)), sort_keys=True) + "\n" for l in lines if l.strip())
    except json.JSONDecodeError:
        return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ziosim", default=str(ROOT / "build" / "ziosim"), help="the binary to run")
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--save", type=pathlib.Path, help="write the outputs into this folder")
    mode.add_argument("--against", type=pathlib.Path, help="compare the outputs with this folder's")
    args = ap.parse_args()
    if not VALID.is_dir():
        print(f"same_results: {VALID} absent: the DiskSim validation runs are left out", file=sys.stderr)
    differ = 0
    produced = set()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = pathlib.Path(tmp)
        for name, argv, extra in commands(scratch):
            run = subprocess.run([args.ziosim, *argv], capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"same_results: {name}: exit {run.returncode}: {run.stderr.strip()}")
            outputs = {f"{name}.out": normalise(run.stdout)}
            if extra is not None:
                outputs[f"{name}.{extra.suffix[1:]}"] = extra.read_text()
            for file, text in outputs.items():
                produced.add(file)
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / file).write_text(text)
                    continue
                old = args.against / file
                same = old.exists() and old.read_text() == text
                differ += not same
                print(f"{'same' if same else 'DIFFERS'}  {file}")
    if args.against:
        # An output saved before but not made now (data absent, a run dropped) is not "the same".
        for missing in sorted(p.name for p in args.against.iterdir() if p.name not in produced):
            print(f"MISSING  {missing}")
            differ += 1
        print(f"same_results: {differ} output(s) differ")
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
