"""``ziosim readers|writers|block-read|replay ... --plot FILE.png``: the C++ CLI hands its
JSON result to this module, which turns it into the frames the Python API
returns for the same result and draws them with :mod:`ziosim.plot`.

    python -m ziosim.plot_cli readers RESULT.json OUT.png
"""

from __future__ import annotations

import json
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from . import api, plot  # noqa: E402,F401  (api registers the shapes)
from ._front import SHAPES  # noqa: E402

#: The workloads --plot draws.
FIGURES = ("readers", "writers", "block-read", "replay")


def sweep_figure(result: dict, count: str) -> plt.Figure:
    """MB/s vs the number of `count` ("readers" or "writers"), and the per-disk busy time of the largest run."""
    runs = SHAPES[count](result)
    disks = SHAPES[count](result, per_disk=True)
    last = int(runs[count].max())
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    plot.throughput(runs, x=count, hue=None, ax=left, title=f"{result['pool']} ({result['profile']})")
    plot.disk_busy(disks[disks[count] == last], ax=right, title=f"{last} {count}: disk busy")
    fig.tight_layout()
    return fig


def block_read_figure(result: dict) -> plt.Figure:
    """Per-disk busy time and read MB/s of one block-read run."""
    disks = SHAPES["block-read"]({**result, "runs": [{**result["runs"][0], "intervals": []}]}, per_disk=True)
    mb_s = result["runs"][0]["throughput_mb_s"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    plot.disk_busy(disks, ax=left, title=f"{result['pool']}: {mb_s:.1f} MB/s")
    plot.disk_busy(disks, value="read_mb_s", ax=right, title="read MB/s per disk")
    fig.tight_layout()
    return fig


def replay_figure(result: dict) -> plt.Figure:
    """A pool replay: MB/s vs the number of instances and the per-disk busy time of the largest run;
    a drive replay: its simulated latency quantiles beside the measured ones."""
    runs = SHAPES["replay"](result)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    title = f"{result['trace']} on {result['target']}"
    if result["target_kind"] == "pool":
        disks = SHAPES["replay"](result, per_disk=True)
        last = int(runs["readers"].max())
        plot.throughput(runs, x="readers", hue=None, ax=left, title=title)
        plot.disk_busy(disks[disks["readers"] == last], ax=right, title=f"{last} instances: disk busy")
    else:
        quantiles = ["mean", "p50", "p90", "p99"]
        row = runs.iloc[0]
        sim = [row[f"sim_{q}_ms"] for q in quantiles]
        left.bar(range(4), sim, color="C0", label="simulated")
        if row["measured_requests"] > 0:
            left.bar([i + 0.4 for i in range(4)], [row[f"measured_{q}_ms"] for q in quantiles], width=0.4,
                     color="C1", label="measured")
            left.legend()
        left.set_xticks(range(4), quantiles)
        left.set_ylabel("latency (ms)")
        left.set_title(title)
        right.axis("off")
        right.text(0, 0.5, f"{row['throughput_mb_s']:.1f} MB/s, {row['iops']:.0f} IOPS", fontsize=12)
    fig.tight_layout()
    return fig


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[0] not in FIGURES:
        print("usage: python -m ziosim.plot_cli readers|writers|block-read|replay RESULT.json OUT.png",
              file=sys.stderr)
        return 2
    kind, source, out = argv
    with open(source, encoding="utf-8") as f:
        result = json.load(f)
    if kind == "block-read":
        fig = block_read_figure(result)
    elif kind == "replay":
        fig = replay_figure(result)
    else:
        fig = sweep_figure(result, kind)
    fig.savefig(out, dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
