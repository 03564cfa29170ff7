"""Cost of a mirror read policy written in Python.

Runs the same block_read with the built-in `load_locality` policy and with a
Python port of it (same choices: the runs must give identical results), and
prints the extra wall time per policy call. Usage:

    python bindings/examples/policy_overhead.py [--count N] [--repeat R]
"""

from __future__ import annotations

import argparse
import time

import ziosim


def make_load_locality(rotating_inc=0, rotating_seek_inc=5, rotating_seek_offset=1 << 20, non_rotating_inc=0,
                       non_rotating_seek_inc=1, shift=21):
    """load_locality (OpenZFS 2.x, mirror_last_offset=issue) in Python, at the given tunables."""

    def load(c, off):
        exact = c.last_offset != -1 and c.last_offset == off
        if not c.rotational:
            penalty = non_rotating_inc if exact else non_rotating_seek_inc
        elif exact:
            penalty = rotating_inc
        elif c.last_offset != -1 and abs(c.last_offset - off) < rotating_seek_offset:
            penalty = rotating_seek_inc // 2
        else:
            penalty = rotating_seek_inc
        return c.in_device + penalty

    def choose(children, io):
        loads = [load(c, io.offset) if c.readable else None for c in children]
        lowest = min(x for x in loads if x is not None)
        tied = [i for i, x in enumerate(loads) if x == lowest]
        return tied[0] if len(tied) == 1 else tied[(io.mirror_offset >> shift) % len(tied)]

    return choose


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pool", default="mirror 2xwd-re4-1tb")
    args = ap.parse_args()

    ziosim.register_mirror_policy("py_load_locality", make_load_locality())
    calls = {"n": 0}
    inner = make_load_locality()

    def counting(children, io):
        calls["n"] += 1
        return inner(children, io)

    ziosim.register_mirror_policy("py_counting", counting)
    run = dict(pool=args.pool, pattern="rand", blocksize="4K", depth=8, count=args.count, per_disk=True)
    ziosim.block_read(**run, tunables={"mirror_policy": "py_counting"})
    n_calls = calls["n"]

    def best(policy: str) -> tuple[float, object]:
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            frame = ziosim.block_read(**run, tunables={"mirror_policy": policy})
            times.append(time.perf_counter() - t)
        return min(times), frame

    t_cpp, f_cpp = best("load_locality")
    t_py, f_py = best("py_load_locality")
    same = f_cpp.drop(columns="mirror_policy").equals(f_py.drop(columns="mirror_policy"))
    print(f"pool {args.pool!r}, {args.count} random 4K reads, depth 8: {n_calls} policy calls")
    print(f"built-in load_locality : {t_cpp * 1e3:8.1f} ms  ({t_cpp / args.count * 1e6:.2f} us per block)")
    print(f"Python load_locality   : {t_py * 1e3:8.1f} ms  ({t_py / args.count * 1e6:.2f} us per block)")
    print(f"overhead per policy call: {(t_py - t_cpp) / n_calls * 1e6:.2f} us; identical results: {same}")


if __name__ == "__main__":
    main()
