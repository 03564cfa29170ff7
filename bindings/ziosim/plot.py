"""Figures of ziosim results, with matplotlib.

Every function returns a :class:`matplotlib.figure.Figure` built without
pyplot (no GUI backend needed, nothing kept in pyplot's figure list: safe in
loops, on servers, with Agg), or draws into ``ax=`` when given one and returns
its figure. Axis labels carry units. Save with ``fig.savefig("x.png")``; in
Jupyter, after ``%matplotlib inline``, a returned figure is displayed (without it, a
Figure made without pyplot shows only its text repr).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Optional

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

__all__ = ["disk_busy", "io_timeline", "label", "raidz_map", "read_io_log", "throughput"]

# Labels (with units) of the columns ziosim frames carry.
_LABELS = {
    "readers": "readers (concurrent streams)",
    "depth": "block reads outstanding (I/Os)",
    "qd": "queue depth (I/Os per job)",
    "jobs": "jobs (streams)",
    "throughput_mb_s": "throughput (MB/s, MB = 10^6 B)",
    "mb_s": "throughput (MB/s, MB = 10^6 B)",
    "read_mb_s": "read throughput (MB/s, MB = 10^6 B)",
    "iops": "IOPS (I/Os per second)",
    "busy_pct": "busy (% of the run)",
    "lat_mean_ms": "mean latency (ms)",
    "lat_p99_ms": "p99 latency (ms)",
    "blocksize_bytes": "block size (bytes)",
    "bs_bytes": "block size (bytes)",
}
_SUFFIX_UNITS = [("_mb_s", "MB/s"), ("_pct", "%"), ("_bytes", "bytes"), ("_ms", "ms"), ("_us", "µs"),
                 ("_ns", "ns"), ("_s", "s")]


def label(column: str) -> str:
    """An axis label with its unit for a ziosim column name ("lat_p99_ms" -> "lat p99 (ms)")."""
    if column in _LABELS:
        return _LABELS[column]
    for suffix, unit in _SUFFIX_UNITS:
        if column.endswith(suffix):
            return f"{column[: -len(suffix)].replace('_', ' ')} ({unit})"
    return f"{column.replace('_', ' ')} (count)"


def _axes(ax: Optional[Axes], figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    if ax is not None:
        return ax.figure, ax
    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def _first_present(frame: pd.DataFrame, names: Sequence[str], what: str) -> str:
    for n in names:
        if n in frame.columns:
            return n
    raise ValueError(f"{what}: the frame has none of the columns {', '.join(names)}")


# ---------------------------------------------------------------------------- throughput vs readers


def throughput(
    frame: pd.DataFrame,
    x: str = "readers",
    y: Optional[str] = None,
    hue: Optional[str] = None,
    *,
    ax: Optional[Axes] = None,
    title: Optional[str] = None,
) -> Figure:
    """Throughput against ``x`` (readers by default), one line per ``hue`` (the policy).

    Works on any frame with the columns: ``x``; ``y`` (default
    ``throughput_mb_s``, else ``mb_s``); ``hue`` (default ``policy``, else
    ``mirror_policy``, else one line). Rows sharing (hue, x), as when a sweep
    varies something else too, are averaged.
    """
    if x not in frame.columns:
        raise ValueError(f"x: the frame has no column {x!r}")
    y = y or _first_present(frame, ["throughput_mb_s", "mb_s"], "y")
    if hue is None:
        hue = next((h for h in ("policy", "mirror_policy") if h in frame.columns), None)
    fig, ax = _axes(ax, (6.4, 4.2))
    groups = [(None, frame)] if hue is None else frame.groupby(hue, sort=False)
    for key, part in groups:
        line = part.groupby(x, sort=True)[y].mean()
        ax.plot(line.index, line.to_numpy(), marker="o", label=None if key is None else str(key))
    ax.set_xlabel(label(x))
    ax.set_ylabel(label(y))
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    if hue is not None:
        ax.legend(title=hue)
    if title:
        ax.set_title(title)
    return fig


# ---------------------------------------------------------------------------- per-disk busy


def disk_busy(
    frame: pd.DataFrame,
    hue: Optional[str] = None,
    *,
    value: str = "busy_pct",
    ax: Optional[Axes] = None,
    title: Optional[str] = None,
) -> Figure:
    """Bars of each disk's busy time from a per-disk frame (``block_read(..., per_disk=True)``).

    With ``hue`` (e.g. ``"mirror_policy"`` on a sweep's per-disk frame), one
    group of bars per disk, one bar per hue value. ``value`` may name another
    per-disk column (``read_mb_s``, ``reads``).
    """
    for col in ("disk", value):
        if col not in frame.columns:
            raise ValueError(f"disk_busy: the frame has no column {col!r} (use block_read(..., per_disk=True))")
    disks = list(dict.fromkeys(frame["disk"]))
    hues = [None] if hue is None else list(dict.fromkeys(frame[hue]))
    fig, ax = _axes(ax, (max(4.8, 0.9 * len(disks) * max(1, len(hues)) + 2), 4.0))
    width = 0.8 / len(hues)
    xs = np.arange(len(disks))
    for j, h in enumerate(hues):
        part = frame if h is None else frame[frame[hue] == h]
        means = part.groupby("disk", sort=False)[value].mean().reindex(disks)
        ax.bar(xs - 0.4 + width * (j + 0.5), means.to_numpy(dtype=float), width=width,
               label=None if h is None else str(h))
    ax.set_xticks(xs, disks)
    ax.set_xlabel("disk (pool order)")
    ax.set_ylabel(label(value))
    if value == "busy_pct":
        ax.set_ylim(0, 105)
    ax.grid(True, axis="y", alpha=0.3)
    if hue is not None:
        ax.legend(title=hue)
    if title:
        ax.set_title(title)
    return fig


# ---------------------------------------------------------------------------- RAID-Z map

_ROLE_COLOURS = {"P": "#d62728", "Q": "#ff7f0e", "R": "#9467bd", "S": "#bbbbbb"}
_DATA_COLOURS = ("#1f77b4", "#7fb2e0")  # alternate by block, so neighbours are told apart


def raidz_map(frame: pd.DataFrame, *, ax: Optional[Axes] = None, annotate: Optional[bool] = None,
              title: Optional[str] = None) -> Figure:
    """The picture of a :func:`ziosim.raidz_map` frame: children as columns, vdev
    space growing downwards, so consecutive blocks stack as rows.

    Each cell is a sector range of one column on one child, coloured by role:
    parity P/Q/R, data (two alternating blues, one per block), skip sectors
    grey. Cells carry their block number when there are few enough of them
    (``annotate``).
    """
    need = {"block", "child", "offset", "size", "role", "width", "ashift"}
    missing = need - set(frame.columns)
    if missing:
        raise ValueError(f"raidz_map: the frame lacks {sorted(missing)} (pass a ziosim.raidz_map() frame)")
    cells = frame[frame["size"] > 0]
    width = int(frame["width"].iloc[0])
    sector = 1 << int(frame["ashift"].iloc[0])
    parity = int(frame["parity"].iloc[0]) if "parity" in frame.columns else 0
    unit = 1024.0  # KiB on the y axis
    fig, ax = _axes(ax, (max(4.0, 0.55 * width + 2.0), 6.0))
    annotate = len(cells) <= 300 if annotate is None else annotate
    for row in cells.itertuples(index=False):
        colour = _ROLE_COLOURS.get(row.role) or _DATA_COLOURS[int(row.block) % 2]
        y0, h = row.offset / unit, row.size / unit
        ax.add_patch(Rectangle((row.child - 0.45, y0), 0.9, h, facecolor=colour, edgecolor="white", linewidth=0.6))
        if annotate:
            text = f"{row.block}{row.role}" if row.role != "S" else f"{row.block}s"
            ax.text(row.child, y0 + h / 2, text, ha="center", va="center", fontsize=7, color="black")
    lo = cells["offset"].min() / unit
    hi = (cells["offset"] + cells["size"]).max() / unit
    ax.set_xlim(-0.6, width - 0.4)
    ax.set_ylim(hi, lo)  # vdev offsets grow downwards
    ax.set_xticks(range(width))
    ax.set_xlabel("child disk (index)")
    ax.set_ylabel(f"offset on the child (KiB; sector = {sector} B)")
    blocks = frame["block"].nunique()
    roles = [("P", "P parity"), ("Q", "Q parity"), ("R", "R parity")][:parity] if parity else []
    handles = [Patch(facecolor=_ROLE_COLOURS[r], label=text) for r, text in roles]
    handles.append(Patch(facecolor=_DATA_COLOURS[0], label="data (blocks alternate shades)"))
    if (frame["role"] == "S").any():
        handles.append(Patch(facecolor=_ROLE_COLOURS["S"], label="skip (pad) sector"))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=min(3, len(handles)),
              fontsize=8, frameon=False)
    ax.set_title(title or f"RAID-Z{parity or ''}, {width} children: {blocks} block{'s' if blocks != 1 else ''}")
    return fig


# ---------------------------------------------------------------------------- per-I/O timeline

IO_LOG_COLUMNS = ["queued_ns", "issued_ns", "done_ns", "disk", "offset", "size", "class", "issued_offset",
                  "issued_size", "mirror_child", "mirror_reason"]


def read_io_log(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Reads a per-I/O log written by ``block_read(..., io_log=PATH)``: one row per
    ZFS I/O completed on a leaf (the CSV's columns; times in ns, sizes and offsets in bytes)."""
    frame = pd.read_csv(path, keep_default_na=False, na_values=[""],
                        dtype={"disk": str, "class": str, "mirror_reason": str})
    missing = set(IO_LOG_COLUMNS) - set(frame.columns)
    if missing:
        raise ValueError(f"{os.fspath(path)}: not a ziosim I/O log (missing columns {sorted(missing)})")
    return frame


def _lanes(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Greedy slot per interval (sorted by start) so that overlapping ones do not share a slot."""
    slot_end: list[int] = []
    out = np.empty(len(starts), dtype=int)
    for i, (s, e) in enumerate(zip(starts, ends)):
        for k, end in enumerate(slot_end):
            if end <= s:
                slot_end[k] = e
                out[i] = k
                break
        else:
            slot_end.append(e)
            out[i] = len(slot_end) - 1
    return out


def io_timeline(
    log: pd.DataFrame | str | os.PathLike[str],
    *,
    disks: Optional[Sequence[str]] = None,
    start_ms: Optional[float] = None,
    end_ms: Optional[float] = None,
    ax: Optional[Axes] = None,
    title: Optional[str] = None,
) -> Figure:
    """Per-disk timeline of device I/Os from a block-read I/O log (a path or :func:`read_io_log`'s frame).

    One bar per device I/O from issue to completion, one lane per disk; I/Os
    that overlap on a disk (several in the device at once) are stacked inside
    its lane. ZFS I/Os aggregated into one device I/O share its bar. Colour:
    I/O class (sync_read, async_read, ...). ``start_ms``/``end_ms`` zoom on a
    window of simulated time.
    """
    frame = log if isinstance(log, pd.DataFrame) else read_io_log(log)
    ios = frame.drop_duplicates(subset=["disk", "issued_ns", "issued_offset", "issued_size"])
    if start_ms is not None:
        ios = ios[ios["done_ns"] >= start_ms * 1e6]
    if end_ms is not None:
        ios = ios[ios["issued_ns"] <= end_ms * 1e6]
    lanes = list(disks) if disks is not None else sorted(dict.fromkeys(frame["disk"]),
                                                         key=lambda d: (len(d), d))
    classes = list(dict.fromkeys(ios["class"]))
    colours = {c: f"C{i}" for i, c in enumerate(classes)}
    fig, ax = _axes(ax, (9.0, 0.8 * len(lanes) + 2.0))
    for row, disk in enumerate(lanes):
        part = ios[ios["disk"] == disk].sort_values("issued_ns")
        if part.empty:
            continue
        starts = part["issued_ns"].to_numpy()
        ends = part["done_ns"].to_numpy()
        slot = _lanes(starts, ends)
        depth = int(slot.max()) + 1
        h = 0.8 / depth
        for cls in classes:
            sel = (part["class"] == cls).to_numpy()
            if not sel.any():
                continue
            bars = [((s / 1e6), (e - s) / 1e6) for s, e in zip(starts[sel], ends[sel])]
            for (x, w), k in zip(bars, slot[sel]):
                ax.add_patch(Rectangle((x, row - 0.4 + k * h), max(w, 1e-6), h * 0.9,
                                       facecolor=colours[cls], edgecolor="white", linewidth=0.5))
    t0 = (ios["issued_ns"].min() / 1e6) if len(ios) else 0.0
    t1 = (ios["done_ns"].max() / 1e6) if len(ios) else 1.0
    ax.set_xlim(start_ms if start_ms is not None else t0, end_ms if end_ms is not None else t1)
    ax.set_ylim(len(lanes) - 0.5, -0.5)
    ax.set_yticks(range(len(lanes)), lanes)
    ax.set_xlabel("simulated time (ms)")
    ax.set_ylabel("disk")
    ax.legend(handles=[Patch(facecolor=colours[c], label=c) for c in classes], title="I/O class",
              loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=max(1, len(classes)), fontsize=8,
              frameon=False)
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_title(title or "device I/Os per disk, from issue to completion")
    return fig

