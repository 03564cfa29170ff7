#!/usr/bin/env python3
"""Scale checks (issue 7): memory and speed at sizes no unit test reaches.

1. replay: a DiskSim-ascii trace of --requests random 4 KiB reads, generated
   here into a temporary directory (deleted afterwards), replayed by
   ``BUILD/ziosim replay`` in closed mode on a catalog HDD; reports
   requests/s (end to end: parsing included) and the peak RSS of the
   process, which must stay under --rss-limit-mb (the trace is streamed and
   latencies beyond the exact-sample limit go into a fixed histogram, so
   memory must not grow with the trace).
2. sweep: ``ziosim.sweep`` over --runs small ``ziosim.readers`` points (mirror
   policy x reader count x file size x seed), from BUILD/python; reports the
   total time and runs/s.
3. bench: ``BUILD/ziosim_bench`` on the event core, the HDD replay of the DiskSim validation
   traces and the 5-disk RAID-Z2 100 GiB readers scenario (or --bench-filter); with
   --prev-build, the same on that build of an earlier commit, run at the same time on
   the other CPU (swapped every round), and a ratio table.

Usage (after a Release build with -DZIOSIM_BUILD_PYTHON=ON):
    scripts/scale_check.py --build build
    scripts/scale_check.py --build build --quick     # small sizes, < 20 s: for CI
A previous landing to compare with:
    git worktree add /tmp/prev COMMIT && cmake -S /tmp/prev -B /tmp/prev/build && \
        cmake --build /tmp/prev/build --target ziosim_bench
    scripts/scale_check.py --build build --prev-build /tmp/prev/build
Exit status 1 when a limit is broken.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The event core (the clock check), the HDD replay of the DiskSim traces and the
# field-report readers scenario (bench/).
BENCH_FILTER = "BM_EventCore|BM_HddReplay|BM_Readers_Raidz2_100GiB"
TARGET = "wd-re4-1tb"
# Reads fall in the first 900 GB of the 1 TB target, 4 KiB-aligned (8 sectors).
SPAN_SECTORS = 900 * 10**9 // 512 // 8


def write_trace(path: Path, requests: int, seed: int) -> None:
    """DiskSim ascii: time_ms devno blkno nsectors flags; one read every 10 us (closed mode ignores the times)."""
    rng = random.Random(seed)
    chunk = 100_000
    with open(path, "w") as f:
        for start in range(0, requests, chunk):
            lines = [f"{i * 0.01:.2f} 0 {rng.randrange(SPAN_SECTORS) * 8} 8 1\n"
                     for i in range(start, min(start + chunk, requests))]
            f.write("".join(lines))


def run_measured(cmd: list[str]) -> tuple[str, float, float]:
    """Runs `cmd`; returns its stdout, wall seconds and peak RSS in MB (of that process alone)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            sys.exit(f"{' '.join(cmd)}: exit {code}: {err.read().decode().strip()}")
        out.seek(0)
        return out.read().decode(), wall, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def check_replay(build: Path, requests: int, rss_limit_mb: float) -> bool:
    with tempfile.TemporaryDirectory(prefix="ziosim-scale-") as tmp:
        trace = Path(tmp) / "random-reads.disksim"
        t0 = time.perf_counter()
        write_trace(trace, requests, seed=1)
        gen_s = time.perf_counter() - t0
        out, wall, rss_mb = run_measured([str(build / "ziosim"), "replay", str(trace), "--target", TARGET,
                                          "--format", "disksim-ascii", "--mode", "closed:4", "--json"])
    result = json.loads(out)["runs"][0]  # the replay's one run (docs/options.md: identity, then runs)
    if result["requests"] != requests:
        sys.exit(f"replay: {result['requests']} requests replayed, expected {requests}")
    ok = rss_mb < rss_limit_mb
    print(f"replay   {requests:,} requests on {TARGET}, closed:4 (trace generated in {gen_s:.1f} s)")
    print(f"         {wall:.1f} s wall, {requests / wall:,.0f} requests/s, peak RSS {rss_mb:.1f} MB "
          f"(limit {rss_limit_mb:g} MB): {'ok' if ok else 'OVER THE LIMIT'}")
    return ok


def check_sweep(build: Path, runs: int) -> None:
    sys.path.insert(0, str(build / "python"))
    import ziosim  # the build's copy

    # mirror policy x readers x file size x seed, as many seeds as needed, cut to `runs` points.
    policies = [{"mirror_policy": p} for p in ziosim.mirror_policies()["name"]]
    readers, sizes = [1, 2, 3, 4, 5], ["1M", "2M", "4M", "8M", "16M"]
    seeds = list(range(1, runs // (len(policies) * len(readers) * len(sizes)) + 2))
    grid = {"seed": seeds, "tunables": policies, "readers": readers, "file_size": sizes}
    points = ziosim.grid_points(grid)[:runs]
    t0 = time.perf_counter()
    frame = ziosim.sweep(lambda point: ziosim.readers("mirror 2xwd-re4-1tb", **points[point]),
                         {"point": list(range(runs))})
    wall = time.perf_counter() - t0
    if len(frame) != runs:
        sys.exit(f"sweep: {len(frame)} rows, expected {runs}")
    print(f"sweep    {runs} runs of ziosim.readers (mirror policy x readers x file size x seed) "
          f"in {wall:.1f} s on {os.cpu_count()} CPUs: {runs / wall:.1f} runs/s")


def start_bench(build: Path, bench_filter: str, cpu: int | None = None) -> subprocess.Popen:
    """Starts one run of BUILD/ziosim_bench on the benchmarks, pinned to `cpu` if given."""
    pin = (lambda: os.sched_setaffinity(0, {cpu})) if cpu is not None else None
    return subprocess.Popen([str(build / "ziosim_bench"), f"--benchmark_filter={bench_filter}",
                             "--benchmark_format=json"], stdout=subprocess.PIPE, text=True, preexec_fn=pin)


def collect(proc: subprocess.Popen, rates: dict[str, list[float]]) -> None:
    """Adds the items_per_second of a finished run to `rates`."""
    out, _ = proc.communicate()
    if proc.returncode != 0:
        sys.exit(f"ziosim_bench: exit {proc.returncode}")
    for b in json.loads(out)["benchmarks"]:
        if "items_per_second" in b:
            rates.setdefault(b["run_name"], []).append(b["items_per_second"])


def run_bench(build: Path, prev: Path | None, bench_filter: str, rounds: int) -> tuple[dict, dict, str]:
    """items_per_second of each benchmark, of this build and `prev`, each a list over runs.

    Wall-clock rates on a shared VM drift by tens of percent from minute to minute.
    With two CPUs the two builds therefore run at the same time, one on each CPU,
    and swap CPUs every round: a drift then slows both alike, and the ratio holds.
    """
    now: dict[str, list[float]] = {}
    before: dict[str, list[float]] = {}
    cpus = sorted(os.sched_getaffinity(0))
    if prev is None or len(cpus) < 2:
        for _ in range(rounds):
            collect(start_bench(build, bench_filter), now)
            if prev is not None:
                collect(start_bench(prev, bench_filter), before)
        return now, before, "one after the other"
    for _ in range(rounds):
        for a, b in ((cpus[0], cpus[1]), (cpus[1], cpus[0])):
            this, that = start_bench(build, bench_filter, a), start_bench(prev, bench_filter, b)
            collect(this, now)
            collect(that, before)
    return now, before, f"at the same time on CPUs {cpus[0]} and {cpus[1]}, swapped each round"


def check_bench(build: Path, prev: Path | None, bench_filter: str, rounds: int) -> None:
    """Prints each benchmark's mean rate and its best run, and their ratios to `prev`'s.

    Noise on a shared VM only ever slows a run, so the best of several runs is the
    steadier figure of what a build can do; a change smaller than the spread of the
    means shows in the best runs first, or not at all.
    """
    now, before, how = run_bench(build, prev, bench_filter, rounds)
    runs = len(next(iter(now.values()), []))
    print(f"bench    items/s, mean and best of {runs} runs each ({how}); "
          "HddReplay: requests, Readers: device commands")
    print(f"         {'benchmark':<34} {'this tree':>12} {'previous':>12} {'ratio':>6}"
          f" {'best':>12} {'previous':>12} {'ratio':>6}")
    for name, rates in now.items():
        old_rates = before.get(name)
        cells = []
        for pick in (statistics.fmean, max):
            rate, old = pick(rates), pick(old_rates) if old_rates else None
            ratio = f"{rate / old:6.2f}" if old else "     -"
            cells.append(f"{rate:12,.0f} {old or 0:12,.0f} {ratio}")
        print(f"         {name:<34} {' '.join(cells)}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", type=Path, default=Path("build"))
    p.add_argument("--prev-build", type=Path, help="build directory of the landing to compare the benchmarks with")
    p.add_argument("--requests", type=int, default=10_000_000)
    p.add_argument("--rss-limit-mb", type=float, default=100)
    p.add_argument("--runs", type=int, default=1000)
    p.add_argument("--repetitions", type=int, default=3, help="benchmark rounds (each runs both builds twice)")
    p.add_argument("--bench-filter", default=BENCH_FILTER, help="the benchmarks to run (a regular expression)")
    p.add_argument("--quick", action="store_true", help="200k requests, 100 runs, no benchmarks (CI)")
    p.add_argument("--skip", action="append", default=[], choices=["replay", "sweep", "bench"])
    a = p.parse_args()
    if a.quick:
        a.requests, a.runs, a.skip = 200_000, 100, a.skip + ["bench"]
    ok = True
    if "replay" not in a.skip:
        ok = check_replay(a.build, a.requests, a.rss_limit_mb)
    if "sweep" not in a.skip:
        check_sweep(a.build, a.runs)
    if "bench" not in a.skip:
        check_bench(a.build, a.prev_build, a.bench_filter, a.repetitions)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
