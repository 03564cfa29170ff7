"""Wall time of a 100-point sweep of block_read, serial vs local processes (vs Dask with --dask).

    python bindings/examples/sweep_timing.py [--count N] [--dask]
"""

from __future__ import annotations

import argparse
import os
import time

import pandas as pd

import ziosim

GRID = {
    "pool": ["mirror 2xwd-re4-1tb", "mirror 3xwd-re4-1tb", "mirror 2xhgst-nas-4tb", "mirror 2xwd-re4-1tb generic-ssd",
             "raidz1 5xwd-re4-1tb"],
    "pattern": ["seq", "rand"],
    "depth": [1, 2, 4, 8, 16],
    "tunables": [{"mirror_policy": "rotor"}, {"mirror_policy": "load_locality"}],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=5000, help="blocks per point")
    ap.add_argument("--dask", action="store_true", help="also on a LocalCluster of 2 worker processes")
    args = ap.parse_args()

    def point(**kw):
        return ziosim.block_read(count=args.count, **kw)

    n = len(ziosim.grid_points(GRID))
    t = time.perf_counter()
    serial = ziosim.sweep(point, GRID, workers=1, progress=False)
    t_serial = time.perf_counter() - t
    print(f"{n} points x {args.count} blocks: serial {t_serial:.2f} s")
    cpus = len(os.sched_getaffinity(0))
    t = time.perf_counter()
    par = ziosim.sweep(point, GRID, progress=False)
    t_par = time.perf_counter() - t
    pd.testing.assert_frame_equal(par, serial)
    print(f"  {cpus} local processes: {t_par:.2f} s (same frame)")
    if args.dask:
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c, \
                Client(c) as client:
            t = time.perf_counter()
            frame = ziosim.sweep(point, GRID, client=client, progress=False)
            t_dask = time.perf_counter() - t
        pd.testing.assert_frame_equal(frame, serial)
        print(f"  dask LocalCluster, 2 workers: {t_dask:.2f} s (same frame; cluster start not counted)")


if __name__ == "__main__":
    main()
