"""Figures of ziosim results, with matplotlib.

Every function returns a :class:`matplotlib.figure.Figure` built without
pyplot (no GUI backend needed, nothing kept in pyplot's figure list: safe in
loops, on servers, with Agg), or draws into ``ax=`` when given one and returns
its figure. Axis labels carry units. Save with ``fig.savefig("x.png")``. In
Jupyter a returned figure shows as a picture when it is a cell's last
expression, with or without ``%matplotlib inline`` (it is a :class:`ZiosimFigure`,
which renders itself as PNG).

:func:`throughput` and :func:`disk_busy` never average rows silently. Each point
(a marker, a bar) must stand for one row of the frame: rows that share the point's
x, ``hue``, ``col`` and ``row`` values but differ in another identifying column
(two profiles, two file sizes, two pools) raise a ValueError that names the
column, to be put on ``hue=``/``col=``/``row=`` or filtered out. Rows that differ
only by seed or repetition (or by nothing the frame records) are averaged only
with ``aggregate="mean"`` or ``"median"``, drawn with error bars and said so on the
axis. Identifying columns are ziosim's run settings (pool, profile,
mirror_policy, bs_bytes, file_size_bytes, ...), every text, boolean or categorical
column, and the grid columns of a :func:`ziosim.sweep` frame.
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Optional

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import MaxNLocator

from . import _front
from .sweep import GRID_ATTR

__all__ = ["IO_LOG_COLUMNS", "ZiosimFigure", "disk_busy", "io_timeline", "label", "raidz_map", "read_io_log",
           "throughput"]

# Labels (with units) of the columns ziosim frames carry.
_LABELS = {
    "readers": "readers (concurrent streams)",
    "writers": "writers (concurrent streams)",
    "depth": "block reads outstanding (I/Os)",
    "qd": "queue depth (I/Os per job)",
    "jobs": "jobs (streams)",
    "throughput_mb_s": "throughput (MB/s, MB = 10^6 B)",
    "read_mb_s": "read throughput (MB/s, MB = 10^6 B)",
    "iops": "IOPS (I/Os per second)",
    "busy_pct": "busy (% of the run)",
    "lat_mean_ms": "mean latency (ms)",
    "lat_p99_ms": "p99 latency (ms)",
    "bs_bytes": "block size (bytes)",
}

# The settings that lead ziosim's frames and tell their runs apart, numeric ones included
# (a numeric column is otherwise taken for a measurement).
_RUN_COLUMNS = frozenset({
    "pool", "profile", "mirror_policy", "layout", "primarycache", "bs_bytes", "file_size_bytes",
    "recordsize_bytes", "compression", "compressratio", "sparse", "same_file", "random", "read_offset_bytes",
    "read_length_bytes", "arc_max_bytes", "l2arc", "warm", "readers", "writers", "reader", "fsync_at_end",
    "read_back", "pattern", "priority", "depth", "span_bytes", "faulted", "spared", "qd", "jobs", "span", "policy", "drive",
    "disk", "vdev", "interval", "t_start_s", "t_end_s",
})
# Columns that tell repeated runs of one configuration apart: rows differing only in these
# (or in no identifying column at all) are replicates, which aggregate= may average.
_REPLICATE_COLUMNS = frozenset({"seed", "rep", "repeat", "repetition", "trial"})

Aggregate = Literal["mean", "median"]
_AGGREGATE_NOTES = {"mean": "mean of {n} runs, bars ± 1 sd", "median": "median of {n} runs, bars min to max"}

_MAX_FIGSIZE = (16.0, 12.0)  # inches: a faceted figure shrinks its panels rather than grow past this
_LEGEND_WIDTH = 1.8          # inches kept for a legend right of the axes


class ZiosimFigure(Figure):
    """A matplotlib Figure that Jupyter displays as a PNG picture.

    Jupyter shows a cell's value through its ``_repr_png_``; a plain Figure made
    without pyplot has none until ``%matplotlib inline`` registers a formatter
    for Figures (which then takes precedence, so the picture is never shown twice).
    """

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", bbox_inches="tight")
        return buffer.getvalue()


def label(column: str) -> str:
    """An axis label with its unit for a ziosim column name ("lat_p99_ms" -> "lat p99 (ms)")."""
    if column in _LABELS:
        return _LABELS[column]
    suffix, unit = _front.unit_suffix(column)
    if unit:
        return f"{column[: -len(suffix)].replace('_', ' ')} ({unit})"
    return f"{column.replace('_', ' ')} (count)"


def _capped(width: float, height: float) -> tuple[float, float]:
    return min(width, _MAX_FIGSIZE[0]), min(height, _MAX_FIGSIZE[1])


def _axes(ax: Optional[Axes], figsize: tuple[float, float]) -> tuple[Figure, Axes]:
    if ax is not None:
        return ax.figure, ax
    fig = ZiosimFigure(figsize=_capped(*figsize), layout="constrained")
    return fig, fig.add_subplot()


def _first_present(frame: pd.DataFrame, names: Sequence[str], what: str) -> str:
    for n in names:
        if n in frame.columns:
            return n
    raise ValueError(f"{what}: the frame has none of the columns {', '.join(names)}")


def _require(frame: pd.DataFrame, columns: Iterable[Optional[str]], what: str) -> None:
    for c in columns:
        if c is not None and c not in frame.columns:
            raise ValueError(f"{what}: the frame has no column {c!r}")


# ---------------------------------------------------------------------------- one row per point


def _hashable(series: pd.Series) -> bool:
    try:
        series.nunique(dropna=False)
    except TypeError:  # lists or dicts (per_reader_mb_s, seek_log2_cylinders): measurements, not keys
        return False
    return True


def _identifying(frame: pd.DataFrame) -> list[str]:
    """The frame's columns that identify a run (see the module's doc), replicate columns included."""
    grid = set(frame.attrs.get(GRID_ATTR, ()))
    out = []
    for c in frame.columns:
        s = frame[c]
        keyish = (c in _RUN_COLUMNS or c in grid or c in _REPLICATE_COLUMNS or pd.api.types.is_bool_dtype(s)
                  or not pd.api.types.is_numeric_dtype(s))
        if keyish and _hashable(s):
            out.append(c)
    return out


def _shown(value: Any) -> str:
    """A cell as the user would type it (100, not np.int64(100))."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _some(values: pd.Series, most: int = 4) -> str:
    distinct = list(pd.unique(values))
    shown = ", ".join(_shown(v) for v in distinct[:most])
    return shown + (f", ... ({len(distinct)} values)" if len(distinct) > most else "")


def _check_points(frame: pd.DataFrame, keys: list[str], aggregate: Optional[str], what: str) -> tuple[int, int]:
    """Refuses to draw several rows as one point, unless they are replicates and ``aggregate`` says how.

    Returns the fewest and the most rows per point.
    """
    if aggregate is not None and aggregate not in _AGGREGATE_NOTES:
        raise ValueError(f"{what}: aggregate must be None, 'mean' or 'median' (got {aggregate!r})")
    groups = frame.groupby(keys, sort=False, dropna=False)
    sizes = groups.size()
    if sizes.max() == 1:
        return 1, 1
    dims = [c for c in _identifying(frame) if c not in keys]
    spread = groups[dims].nunique(dropna=False).max() if dims else pd.Series(dtype=int)
    mixed = [c for c in dims if spread[c] > 1 and c not in _REPLICATE_COLUMNS]
    point = f"({', '.join(keys)})"
    if mixed:
        first = mixed[0]
        raise ValueError(
            f"{what}: up to {sizes.max()} rows fall on one point of {point}, because the frame holds several "
            f"values of {'; '.join(f'{c} ({_some(frame[c])})' for c in mixed)}. Averaging them would mix "
            f"different runs: give them their own lines or panels with hue=, col= or row= (e.g. col={first!r}), "
            f"or filter the frame first (e.g. frame[frame[{first!r}] == {_shown(frame[first].iloc[0])}]).")
    if aggregate is None:
        replicates = [c for c in dims if spread[c] > 1]
        why = (f"differ only in {', '.join(replicates)} (repetitions)" if replicates
               else "no identifying column tells them apart (repetitions?)")
        raise ValueError(
            f"{what}: up to {sizes.max()} rows fall on one point of {point} and {why}. Pass "
            "aggregate='mean' (error bars: ± 1 standard deviation) or aggregate='median' (error bars: min to "
            "max) to draw their summary, or filter the frame to one run per point.")
    return int(sizes.min()), int(sizes.max())


def _value_label(y: str, aggregate: Optional[str], runs: tuple[int, int]) -> str:
    if aggregate is None:
        return label(y)
    fewest, most = runs
    n = str(most) if fewest == most else f"{fewest}-{most}"
    return f"{label(y)}\n{_AGGREGATE_NOTES[aggregate].format(n=n)}"


def _summary(values: pd.api.typing.SeriesGroupBy, aggregate: str) -> tuple[pd.Series, np.ndarray]:
    """Each group's centre and its error bars (2 x n: below, above) for ``aggregate``."""
    if aggregate == "mean":
        centre = values.mean()
        sd = values.std(ddof=1).fillna(0.0).to_numpy()  # one run: no spread to show
        return centre, np.vstack([sd, sd])
    centre = values.median()
    return centre, np.vstack([(centre - values.min()).to_numpy(), (values.max() - centre).to_numpy()])


# ---------------------------------------------------------------------------- small multiples


@dataclass
class _Panel:
    ax: Axes
    frame: pd.DataFrame
    bottom: bool  # carries the x label (the lowest panel of its column)
    left: bool    # carries the y label


def _as_text(frame: pd.DataFrame, columns: Iterable[Optional[str]]) -> pd.DataFrame:
    """``columns`` as their text (legend entries, panel titles), so None/NaN values stay a group of their own."""
    names = [c for c in dict.fromkeys(columns) if c is not None]
    return frame.assign(**{c: frame[c].map(str) for c in names}) if names else frame


def _panels(frame: pd.DataFrame, col: Optional[str], row: Optional[str], col_wrap: int, ax: Optional[Axes],
            panel: tuple[float, float], legend: bool, title: Optional[str], what: str) -> tuple[Figure, list[_Panel]]:
    """The figure and its panels: one axes (``ax`` or a new one) titled ``title``, or a grid of
    ``row`` x ``col`` panels with shared axes, titled ``"col = value"`` under the figure's ``title``;
    with ``col`` alone, ``col_wrap`` panels a row."""
    spare = _LEGEND_WIDTH if legend else 0.0
    if col is None and row is None:
        fig, ax = _axes(ax, (panel[0] + spare, panel[1]))
        if title:
            ax.set_title(title)
        return fig, [_Panel(ax, frame, True, True)]
    if ax is not None:
        raise ValueError(f"{what}: col= and row= draw a figure of their own panels; leave out ax=")
    if not isinstance(col_wrap, int) or col_wrap < 1:
        raise ValueError(f"{what}: col_wrap must be a positive int (got {col_wrap!r})")
    cols = list(pd.unique(frame[col])) if col else [None]
    rows = list(pd.unique(frame[row])) if row else [None]
    cells = [(r, c) for r in rows for c in cols]
    ncols = len(cols) if row else min(len(cols), col_wrap)
    nrows = math.ceil(len(cells) / ncols)
    fig = ZiosimFigure(figsize=_capped(ncols * panel[0] + spare, nrows * panel[1] + (0.4 if title else 0.0)),
                       layout="constrained")
    grid = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False).ravel()
    for unused in grid[len(cells):]:
        unused.remove()
    panels = []
    for k, (r, c) in enumerate(cells):
        mask = np.ones(len(frame), dtype=bool)
        titles = []
        for name, value in ((row, r), (col, c)):
            if name is not None:
                mask &= (frame[name] == value).to_numpy()
                titles.append(f"{name} = {value}")
        bottom = k + ncols >= len(cells)
        if bottom:  # shared x axes label only the lowest row; a short last row leaves panels above gaps
            grid[k].xaxis.set_tick_params(labelbottom=True)
        grid[k].set_title(" | ".join(titles), fontsize="medium")
        panels.append(_Panel(grid[k], frame[mask], bottom, k % ncols == 0))
    if title:
        fig.suptitle(title)
    return fig, panels


def _legend(fig: Figure, panels: list[_Panel], hue: str) -> None:
    """One legend right of the axes, outside the lines and bars."""
    handles: dict[str, Any] = {}
    for p in panels:
        for handle, text in zip(*p.ax.get_legend_handles_labels()):
            handles.setdefault(text, handle)
    if not handles:
        return
    if len(panels) == 1:
        panels[0].ax.legend(handles.values(), handles.keys(), title=hue, loc="upper left",
                            bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    else:
        fig.legend(handles.values(), handles.keys(), title=hue, loc="outside right upper")


def _integer_ticks(ax: Axes, values: pd.Series) -> None:
    if pd.api.types.is_integer_dtype(values):  # counts (readers, writers, depth): no 2.5 readers
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))


# ---------------------------------------------------------------------------- throughput vs readers


def throughput(
    frame: pd.DataFrame,
    x: Optional[str] = None,
    y: Optional[str] = None,
    hue: Optional[str] = None,
    *,
    col: Optional[str] = None,
    row: Optional[str] = None,
    col_wrap: int = 4,
    aggregate: Optional[Aggregate] = None,
    ax: Optional[Axes] = None,
    title: Optional[str] = None,
) -> Figure:
    """Throughput against ``x`` (readers by default), one line per ``hue`` (the mirror policy).

    Works on any frame with the columns ``x`` and ``y``. Each marker is one row
    of the frame: see the module's doc for what raises instead of averaging.

    Args:
        frame: e.g. a :func:`ziosim.readers` frame or a sweep of them.
        x: default ``readers``, else ``writers``.
        y: default ``throughput_mb_s``.
        hue: one line per value; default ``mirror_policy`` when the frame has it
            (and it is not ``col`` or ``row``), else a single line.
        col, row: one panel per value (small multiples with shared axes, titled
            ``"col = value"``); the figure stays within 16 x 12 inches.
        col_wrap: with ``col`` alone, panels per row.
        aggregate: ``"mean"`` or ``"median"`` to summarise rows that differ only by
            seed or repetition, with error bars (± 1 sd, or min to max).
        ax: draw into these axes (not with ``col``/``row``).
        title: the axes' title, or the figure's above the panels.

    Example::

        frame = ziosim.sweep(run, {"profile": ["freebsd-10", "openzfs-2.2"], "policy": [...], "readers": [1, 2, 5]})
        ziosim.plot.throughput(frame, hue="policy", col="profile")
    """
    what = "throughput"
    x = x or _first_present(frame, ["readers", "writers"], "x")
    y = y or _first_present(frame, ["throughput_mb_s"], "y")
    if hue is None:
        hue = "mirror_policy" if "mirror_policy" in frame.columns and "mirror_policy" not in (col, row) else None
    _require(frame, [x, y, hue, col, row], what)
    if frame.empty:
        raise ValueError(f"{what}: the frame has no rows")
    runs = _check_points(frame, [c for c in dict.fromkeys([x, hue, col, row]) if c is not None], aggregate, what)
    data = _as_text(frame, [hue, col, row])
    hues = list(pd.unique(data[hue])) if hue else [None]
    colours = {h: f"C{i % 10}" for i, h in enumerate(hues)}
    fig, panels = _panels(data, col, row, col_wrap, ax, (6.4, 4.2) if col is row is None else (4.2, 3.2),
                          hue is not None, title, what)
    for p in panels:
        for h in hues:
            part = p.frame if h is None else p.frame[p.frame[hue] == h]
            if part.empty:
                continue
            values = part.groupby(x, sort=True)[y]
            style = dict(marker="o", color=colours[h], label=h)
            if aggregate is None:
                line = values.first()  # one row per point, checked above
                p.ax.plot(line.index, line.to_numpy(), **style)
            else:
                centre, bars = _summary(values, aggregate)
                p.ax.errorbar(centre.index, centre.to_numpy(), yerr=bars, capsize=3, **style)
        if p.bottom:
            p.ax.set_xlabel(label(x))
        if p.left:
            p.ax.set_ylabel(_value_label(y, aggregate, runs))
        p.ax.grid(True, alpha=0.3)
        _integer_ticks(p.ax, frame[x])
    for p in panels:  # once every panel has its lines: shared axes then scale to all of them
        p.ax.set_ylim(bottom=0)
    if hue is not None:
        _legend(fig, panels, hue)
    return fig


# ---------------------------------------------------------------------------- per-disk busy


def disk_busy(
    frame: pd.DataFrame,
    hue: Optional[str] = None,
    *,
    value: str = "busy_pct",
    col: Optional[str] = None,
    row: Optional[str] = None,
    col_wrap: int = 4,
    aggregate: Optional[Aggregate] = None,
    ax: Optional[Axes] = None,
    title: Optional[str] = None,
) -> Figure:
    """Bars of each disk's busy time from a per-disk frame (``block_read(..., per_disk=True)``).

    Each bar is one row of the frame (see the module's doc for what raises
    instead of averaging).

    Args:
        frame: a per-disk frame (``disk`` column), e.g. of a sweep.
        hue: one group of bars per disk, one bar per value (e.g. ``"mirror_policy"``).
        value: the per-disk column drawn: ``busy_pct``, or ``read_mb_s``, ``reads``, ...
        col, row, col_wrap, aggregate, ax, title: as :func:`throughput`.
    """
    what = "disk_busy"
    if "disk" not in frame.columns or value not in frame.columns:
        missing = "disk" if "disk" not in frame.columns else value
        raise ValueError(f"{what}: the frame has no column {missing!r} (use block_read(..., per_disk=True))")
    _require(frame, [hue, col, row], what)
    if frame.empty:
        raise ValueError(f"{what}: the frame has no rows")
    runs = _check_points(frame, [c for c in dict.fromkeys(["disk", hue, col, row]) if c is not None], aggregate,
                         what)
    data = _as_text(frame, [hue, col, row])
    disks = list(pd.unique(data["disk"]))  # pool order, the same slots in every panel
    hues = list(pd.unique(data[hue])) if hue else [None]
    bar_width = 0.8 / len(hues)
    panel_width = max(4.8, 0.45 * len(disks) * len(hues) + 1.5)
    fig, panels = _panels(data, col, row, col_wrap, ax, (panel_width, 4.0 if col is row is None else 3.2),
                          hue is not None, title, what)
    slots = np.arange(len(disks))
    for p in panels:
        for j, h in enumerate(hues):
            part = p.frame if h is None else p.frame[p.frame[hue] == h]
            if part.empty:
                continue
            values = part.groupby("disk", sort=False)[value]
            if aggregate is None:
                heights, bars = values.first().reindex(disks), None  # one row per bar, checked above
            else:
                heights, bars = _summary(values, aggregate)
                order = heights.index.get_indexer(disks)
                heights, bars = heights.reindex(disks), np.where(order >= 0, bars[:, order], np.nan)
            p.ax.bar(slots - 0.4 + bar_width * (j + 0.5), heights.to_numpy(dtype=float), width=bar_width,
                     yerr=bars, capsize=2 if bars is not None else 0, color=f"C{j % 10}", label=h)
        p.ax.set_xticks(slots, disks)
        if p.bottom:
            p.ax.set_xlabel("disk (pool order)")
        if p.left:
            p.ax.set_ylabel(_value_label(value, aggregate, runs))
        if value == "busy_pct":
            p.ax.set_ylim(0, 105)
        p.ax.grid(True, axis="y", alpha=0.3)
    if hue is not None:
        _legend(fig, panels, hue)
    return fig


# ---------------------------------------------------------------------------- RAID-Z map

_ROLE_COLOURS = {"P": "#d62728", "Q": "#ff7f0e", "R": "#9467bd", "S": "#bbbbbb"}
_DATA_COLOURS = ("#1f77b4", "#7fb2e0")  # alternate by block, so neighbours are told apart


def scan_progress(frame: pd.DataFrame, value: str = "read_mb_s", *, ax: Optional[Axes] = None,
                  title: Optional[str] = None) -> Figure:
    """Each disk's MB/s over a scrub, resilver or rebuild: one line per disk, a point per txg
    (a :func:`ziosim.scrub` or :func:`ziosim.resilver` frame with ``per_disk_progress=True``).

    Args:
        value: ``read_mb_s`` or ``write_mb_s`` (a resilver writes to the new disk or the spare space).
    """
    need = {"t_end_s", "disk", value}
    missing = need - set(frame.columns)
    if missing:
        raise ValueError(f"scan_progress: the frame lacks {sorted(missing)} (use per_disk_progress=True)")
    fig, ax = _axes(ax, (7.0, 4.0))
    for disk, rows in frame.groupby("disk", sort=False, observed=True):
        ax.step(rows["t_end_s"] / 3600 if rows["t_end_s"].max() > 7200 else rows["t_end_s"], rows[value],
                where="pre", label=str(disk), linewidth=1)
    hours = frame["t_end_s"].max() > 7200
    ax.set_xlabel("time since the scan started (h)" if hours else "time since the scan started (s)")
    ax.set_ylabel(("read" if value == "read_mb_s" else "written") + " (MB/s, per txg; MB = 10^6 B)")
    ax.set_ylim(bottom=0)
    ax.legend(ncol=min(6, frame["disk"].nunique()), fontsize=7, frameon=False)
    ax.set_title(title or f"{frame['workload'].iloc[0] if 'workload' in frame.columns else 'scan'}: each disk")
    return fig


def raidz_map(frame: pd.DataFrame, *, ax: Optional[Axes] = None, annotate: Optional[bool] = None,
              title: Optional[str] = None) -> Figure:
    """The picture of a :func:`ziosim.raidz_map` or :func:`ziosim.draid_map`
    frame: children as columns, offsets on the child growing downwards, so
    consecutive blocks stack as rows.

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
    layout = str(frame["layout"].iloc[0]) if "layout" in frame.columns else f"raidz{parity or ''}"
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
        pad = "padding sector (zero-filled)" if layout.startswith("draid") else "skip (pad) sector"
        handles.append(Patch(facecolor=_ROLE_COLOURS["S"], label=pad))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=min(3, len(handles)),
              fontsize=8, frameon=False)
    name = f"dRAID {layout}" if layout.startswith("draid") else f"RAID-Z{parity or ''}"
    ax.set_title(title or f"{name}, {width} children: {blocks} block{'s' if blocks != 1 else ''}")
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

