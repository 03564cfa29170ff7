"""``ziosim readers|writers|block-read ... --plot FILE.png``: the C++ CLI hands its
JSON result to this module, which draws it with :mod:`ziosim.plot`.

    python -m ziosim.plot_cli readers RESULT.json OUT.png
"""

from __future__ import annotations

import json
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from . import plot  # noqa: E402


def _disks(rows: list[dict], extra: dict) -> pd.DataFrame:
    frame = pd.DataFrame(rows).rename(columns={"name": "disk"})
    for key, value in extra.items():
        frame[key] = value
    return frame


def sweep_figure(result: dict, count: str) -> plt.Figure:
    """MB/s vs the number of `count` ("readers" or "writers"), and the per-disk busy time of the largest run."""
    runs = pd.DataFrame([{count: r[count], "throughput_mb_s": r["throughput_mb_s"]} for r in result["runs"]])
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    plot.throughput(runs, x=count, ax=left, title=f"{result['pool']} ({result['profile']})")
    last = result["runs"][-1]
    plot.disk_busy(_disks(last["disks"], {}), ax=right, title=f"{last[count]} {count}: disk busy")
    fig.tight_layout()
    return fig


def block_read_figure(result: dict) -> plt.Figure:
    """Per-disk busy time and read MB/s of one block-read run."""
    disks = _disks(result["disks"], {})
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    plot.disk_busy(disks, ax=left, title=f"{result['pool']}: {result['throughput_mb_s']:.1f} MB/s")
    plot.disk_busy(disks, value="read_mb_s", ax=right, title="read MB/s per disk")
    fig.tight_layout()
    return fig


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in ("readers", "writers", "block-read"):
        print("usage: python -m ziosim.plot_cli readers|writers|block-read RESULT.json OUT.png", file=sys.stderr)
        return 2
    kind, source, out = argv
    with open(source, encoding="utf-8") as f:
        result = json.load(f)
    fig = block_read_figure(result) if kind == "block-read" else sweep_figure(result, kind)
    fig.savefig(out, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
