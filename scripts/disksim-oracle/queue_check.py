#!/usr/bin/env python3
"""Compares ziosim with DiskSim on requests that queue in the drive.

DiskSim's validation traces issue one request at a time. This replays instead an open
trace (DiskSim's "ascii" format, Poisson arrivals, seeded) on a validation drive whose
"Max queue length" is set, through DiskSim 4.0 (built by rebuild.sh, with the
per-request completion patch, request_csv.patch) and through `ziosim replay` (the drive's own
queue order: fifo for the validation drives' FCFS schedulers, the address-ordered and positioning-time
policies for the DiskSim schedulers ziosim has, set with --set 'Scheduling policy=N', or --policy) on the
same .parv, and prints the share of requests completing at the same time.

    python3 scripts/disksim-oracle/queue_check.py --disksim DEST/src/disksim \\
        --valid DISKSIM/valid --queue 8 --mean-ms 8 cheetah9LP atlas_III

Requests are compared by their own times (arrival, or the completion before if later, to
completion), not by when they complete: DiskSim advances the platter's angle by sums of
truncated steps (dm_rotate_g1 keeps 24 of an angle's 32 bits), so its rotation falls
behind true time by a few ns per millisecond of busy drive, which a validation trace
(each request timed from its own issue) never accumulates but a backlog carries from
request to request. Within 1 us, as option_check.py. Drive-side
options are set as in option_check.py (--set on the .diskspecs). Works in a scratch copy
of the validation folder; nothing is written elsewhere.
"""
import argparse
import collections
import csv
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from option_check import add_oracle_arguments, edit, pairs

TOLERANCE_MS = 0.001


def write_trace(path, seed, count, mean_ms, read_share, sequential_share, blocks, async_share=0.0,
                reread_share=0.0):
    """An open trace: exponential gaps (the first request at 0), 4-32 KiB, some sequential runs, some
    flagged asynchronous (DiskSim's 0x100: a read then time-limited), and some reading again what one
    of the last six random requests read (hits in the drive's buffer, often while others wait),
    each drawn apart from the rest: a share of 0 leaves the other draws as they were."""
    rng = random.Random(seed)
    flags_rng = random.Random(seed + 1)
    reread_rng = random.Random(seed + 2)
    t, next_block, recent = 0.0, 0, []
    with open(path, "w") as f:
        for i in range(count):
            if i:
                t += rng.expovariate(1.0 / mean_ms)
            if recent and reread_share and reread_rng.random() < reread_share:
                block, size = reread_rng.choice(recent)
                f.write(f"{t:.6f}\t0\t{block}\t{size}\t1\n")
                continue
            size = rng.choice([8, 16, 32, 64])
            sequential = rng.random() < sequential_share and next_block + size <= blocks
            block = next_block if sequential else rng.randrange(0, blocks - size)
            read = 1 if rng.random() < read_share else 0
            flags = read | (0x100 if flags_rng.random() < async_share else 0)
            f.write(f"{t:.6f}\t0\t{block}\t{size}\t{flags:x}\n")
            next_block = block + size
            if not sequential:
                recent = (recent + [(block, size)])[-6:]


def traced_blocks(folder, drive):
    """The end of the highest request of the drive's validation trace: within its capacity."""
    end = 0
    with open(os.path.join(folder, drive + ".trace")) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 4 and fields[0] in ("R", "W"):
                end = max(end, int(fields[2]) + int(fields[3]))
    return end


def own_times(done, arrival):
    """Each request's time of its own: from its arrival, or from the completion before it
    if that came later (the drive was busy), to its completion."""
    times, previous = {}, 0.0
    for i in sorted(done, key=lambda i: (done[i], i)):
        times[i] = done[i] - max(arrival[i], previous)
        previous = done[i]
    return times


def equal_requests(folder, trace, show=0):
    """(equal, compared): how many of DiskSim's completed requests (folder/disksim.csv) ziosim
    (folder/ziosim.csv) completes in the same own time within 1 us, of how many; (0, 0) if none."""
    rows = [line.split() for line in open(trace)]
    arrival = [float(fields[0]) for fields in rows]
    key = [(int(fields[2]), int(fields[3]), int(fields[4], 16) & 1) for fields in rows]
    with open(os.path.join(folder, "ziosim.csv"), newline="") as f:
        ours = {int(r["i"]): float(r["done_ms"]) for r in csv.DictReader(f)}
    # DiskSim names a completion by its blocks only: of the requests for the same blocks, the
    # k-th it completes is taken as the k-th ziosim completes (a drive may send a later one
    # out of turn, from its buffer), those ziosim does not complete last.
    waiting = collections.defaultdict(collections.deque)  # key -> trace indexes, in ziosim's order
    for i in sorted(range(len(rows)), key=lambda i: (ours.get(i, float("inf")), i)):
        waiting[key[i]].append(i)
    theirs = {}
    with open(os.path.join(folder, "disksim.csv"), newline="") as f:
        for r in csv.DictReader(f):  # in completion order
            theirs[waiting[(int(r["blkno"]), int(r["bcount"]), int(r["read"]))].popleft()] = float(r["done_ms"])
    if not theirs:
        return 0, 0
    # DiskSim stops at the trace's end with requests still queued: compare the ones it completed.
    ours = {i: ours[i] for i in theirs}
    theirs, ours = own_times(theirs, arrival), own_times(ours, arrival)
    equal = sum(abs(theirs[i] - ours[i]) <= TOLERANCE_MS for i in theirs)
    differing = sorted(i for i in theirs if abs(theirs[i] - ours[i]) > TOLERANCE_MS)
    for i in differing[:show]:
        print(f"  line {i + 1}: {' '.join(rows[i])}: DiskSim {theirs[i]:.6f} ms, ziosim {ours[i]:.6f} ms")
    return equal, len(theirs)


def trace_kind(args):
    """What sets the trace apart from random reads, for a reference's name ("" for none)."""
    shares = [("reads", args.read_share, 1.0), ("seq", args.sequential_share, 0.0), ("reread", args.reread_share, 0.0)]
    return "-".join(f"{name}{round(100 * v)}" for name, v, default in shares if v != default)


def save_ref(folder, trace, drive, settings, equal, compared, into, kind=""):
    """The run as a test reference (tests/python/test_disksim_queue.py): the trace, DiskSim's
    completions, and the settings with ziosim's share, which the test requires at least. `kind`
    names a trace other than random reads (trace_kind)."""
    name = drive + (f"-{kind}" if kind else "") + "-" + "-".join(
        re.sub(r"[^a-z0-9]+", "", f"{k}{v}".lower()) for k, v in settings)
    os.makedirs(into, exist_ok=True)
    with open(trace, "rb") as f:
        trace_name = f"{drive}-{hashlib.sha1(f.read()).hexdigest()[:10]}.trace"  # runs of one trace share it
    shutil.copy(trace, os.path.join(into, trace_name))
    shutil.copy(os.path.join(folder, "disksim.csv"), os.path.join(into, name + ".disksim.csv"))
    with open(os.path.join(into, name + ".json"), "w") as f:
        json.dump({"drive": drive, "trace": trace_name, "settings": settings, "equal": equal, "compared": compared},
                  f, indent=1)
        f.write("\n")


def run(args, drive, settings, save=False):
    with tempfile.TemporaryDirectory(prefix="queue-check-") as scratch:
        folder = os.path.join(scratch, "valid")
        shutil.copytree(args.valid, folder)
        spec = os.path.join(folder, drive + ".diskspecs")
        with open(spec) as f:
            text = f.read()
        with open(spec, "w") as f:
            f.write(edit(text, 0, settings, spec))
        trace = os.path.join(folder, "queued.trace")
        write_trace(trace, args.seed, args.requests, args.mean_ms, args.read_share, args.sequential_share,
                    traced_blocks(folder, drive), args.async_share, args.reread_share)
        env = dict(os.environ, DISKSIM_REQUEST_CSV=os.path.join(folder, "disksim.csv"))
        d = subprocess.run([args.disksim, drive + ".parv", "out.outv", "ascii", trace, "0"], cwd=folder, env=env,
                           capture_output=True, text=True, check=False)
        if d.returncode != 0:
            return "DiskSim fails: " + (d.stderr.strip() or d.stdout.strip() or f"exit {d.returncode}").splitlines()[-1]
        if not os.path.exists(os.path.join(folder, "disksim.csv")):
            return "DiskSim stops before any request completes"
        policy = ["--policy", args.policy] if args.policy else []
        z = subprocess.run([args.ziosim, "replay", trace, "--format", "ascii", "--target", "disksim:" + drive + ".parv",
                            "--per-request", "ziosim.csv"] + policy, cwd=folder, capture_output=True, text=True,
                           check=False)
        if z.returncode != 0:
            return "ziosim refuses: " + z.stderr.strip().splitlines()[-1]
        equal, compared = equal_requests(folder, trace, args.show)
        if not compared:
            return "DiskSim completes no request"
        if save:
            save_ref(folder, trace, drive, settings, equal, compared, args.save_ref, trace_kind(args))
        return f"{100.0 * equal / compared:.2f} % of {compared}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_oracle_arguments(ap, "NAME.parv, NAME.diskspecs")
    ap.add_argument("--queue", type=int, default=8, help="the drive's 'Max queue length'")
    ap.add_argument("--requests", type=int, default=1500)
    ap.add_argument("--mean-ms", type=float, default=8.0, help="mean gap between arrivals")
    ap.add_argument("--read-share", type=float, default=1.0)
    ap.add_argument("--sequential-share", type=float, default=0.0, help="share continuing the previous request")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--async-share", type=float, default=0.0,
                    help="share flagged asynchronous (time-limited reads, for the PRI schedulers)")
    ap.add_argument("--reread-share", type=float, default=0.0,
                    help="share reading again one of the last six random requests (buffer hits)")
    ap.add_argument("--policy", help="ziosim's queue order (default: the drive's own, as its disk scheduler says "
                                     "where ziosim has it; set DiskSim's with --set 'Scheduling policy=N')")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print the first N requests that differ")
    ap.add_argument("--save-ref", metavar="DIR", help="keep each queued run as a test reference in DIR")
    a = ap.parse_args()
    a.ziosim, a.disksim, a.valid = (os.path.abspath(x) for x in (a.ziosim, a.disksim, a.valid))
    if a.queue < 1:
        sys.exit("queue_check.py: --queue must be at least 1")
    settings = pairs(a.set)
    options = ", ".join(f"{k} = {v}" for k, v in settings)
    print(f"| drive | equal within 1 us, queue 1 | queue {a.queue}{', ' + options if options else ''} |")
    print("|---|---|---|")
    for drive in a.drives:
        one = run(a, drive, settings + [("Max queue length", "1")])
        queued = run(a, drive, settings + [("Max queue length", str(a.queue))], save=a.save_ref is not None)
        print(f"| {drive} | {one} | {queued} |", flush=True)


if __name__ == "__main__":
    main()
