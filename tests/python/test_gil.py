"""Simulations release the GIL: Python keeps running while a block_read runs in a thread."""

from __future__ import annotations

import threading
import time

import ziosim

from conftest import MIRROR


def test_block_read_releases_the_gil():
    run = dict(pool=MIRROR, pattern="rand", depth=8, count=300_000)
    thread = threading.Thread(target=ziosim.block_read, kwargs=run)
    stamps = []
    start = time.perf_counter()
    thread.start()
    while thread.is_alive():
        stamps.append(time.perf_counter())
        sum(range(200))  # some Python work
    thread.join()
    elapsed = time.perf_counter() - start
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    # Holding the GIL in C++ would freeze this loop for (nearly) the whole run.
    assert elapsed > 0.05, "the run is too short to tell"
    assert len(stamps) > 100
    assert max(gaps) < 0.5 * elapsed, f"main thread stalled {max(gaps):.3f} s of a {elapsed:.3f} s run"


def test_two_threads_run_concurrently():
    results = {}

    def work(key, pool):
        results[key] = ziosim.block_read(pool, pattern="rand", depth=4, count=20_000)

    threads = [threading.Thread(target=work, args=(k, p)) for k, p in (("a", MIRROR), ("b", "mirror 3xwd-re4-1tb"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert set(results) == {"a", "b"}
    serial = ziosim.block_read(MIRROR, pattern="rand", depth=4, count=20_000)
    assert results["a"].equals(serial)
