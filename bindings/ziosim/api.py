"""The simulator's capabilities as functions returning pandas DataFrames.

Every function here mirrors a ``ziosim`` CLI subcommand and takes the same
inputs under Python names. Conventions:

* Sizes are ints (bytes) or strings with binary suffixes: ``"128K"``, ``"1M"``.
* Rates are MB/s with MB = 10**6 bytes; times carry their unit in the column
  name (``_s``, ``_ms``, ``_us``, ``_ns``).
* A user error (unknown drive, bad pool spec, tunable out of range) raises
  ``ValueError`` with the simulator's own message; anything else that fails
  inside the simulator raises ``RuntimeError``.
* Simulations release the GIL, so threads run them in parallel.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any, Optional

import pandas as pd

from . import _convert, _front, _ziosim
from ._convert import Size

__all__ = [
    "block_read",
    "calibrate",
    "demo",
    "disk_bench",
    "draid_map",
    "drive_values",
    "drives",
    "fio",
    "mirror_policies",
    "profiles",
    "raidz_map",
    "readers",
    "replay",
    "resilver",
    "run_scenario",
    "scrub",
    "tunables",
    "validate_disksim",
    "workload",
    "writers",
]

# ---------------------------------------------------------------------------- catalog


def drives() -> pd.DataFrame:
    """The drive catalog, one row per drive (``ziosim drives``).

    Columns: ``name``, ``kind`` ("hdd"/"ssd"), ``description``, ``capacity_bytes``,
    ``rpm``, ``outer_mb_s``, ``inner_mb_s``, ``avg_seek_ms``, ``cylinders``,
    ``zones`` (HDD only, NaN for SSDs), ``read_mb_s`` (SSD peak, NaN for HDDs),
    ``figures_sourced`` and ``figures_estimated`` (how many of the drive's figures
    come from a reference or are estimates, as ``ziosim drives`` counts them),
    ``file``. Every figure with its provenance: :func:`drive_values`.
    """
    return pd.DataFrame(_ziosim.drives())


def drive_values(drive: str) -> pd.DataFrame:
    """Every figure of one drive file with its provenance (``ziosim drives --json``'s values).

    ``drive`` is a catalog name or a path to a ``.toml`` drive file. Columns:
    ``drive``, ``key``, ``value``, ``estimated`` (bool), ``provenance`` (the
    source, or why the value is an estimate). Empty for DiskSim drives.
    """
    return pd.DataFrame(_ziosim.drive_values(str(drive)))


# ---------------------------------------------------------------------------- tunables and profiles


def tunables(profile: Optional[str] = None, overrides: Optional[Mapping[str, Any]] = None) -> pd.DataFrame:
    """Every tunable ziosim knows, one row each (``ziosim tunables``).

    Columns: ``name``, ``kind`` (int/bytes/bool/choice), ``unit``, ``fallback``
    (the value when no profile sets it: the OpenZFS 2.2 default), ``values``
    (accepted values), ``doc``.

    With ``profile`` (a profile name or ``.toml`` path) and/or ``overrides``
    (``{"name": value}``, as ``tunables=`` of a run), two more columns give the
    resolved ``value`` as text and whether it ``changed`` from the fallback;
    every override is checked exactly as a run would check it.
    """
    frame = pd.DataFrame(_ziosim.tunables())
    if profile is None and overrides is None:
        return frame
    resolved = _ziosim.resolve_tunables(profile or _ziosim.default_profile(), _convert.settings(overrides))
    frame["value"] = frame["name"].map(resolved)
    frame["changed"] = frame["value"] != frame["name"].map(_ziosim.tunable_fallbacks())
    return frame


def profiles() -> pd.DataFrame:
    """The era profiles, one row each (``ziosim profiles``).

    Columns: ``name``, ``description``, ``changes`` (a dict of the tunables the
    profile sets to something other than the fallback, as text, the content of
    ``ziosim profiles --diff``), ``settings`` (the profile file's own settings,
    in file order, as (name, value) pairs). A profile's full set of values:
    ``tunables(profile=NAME)``.
    """
    fallbacks = _ziosim.tunable_fallbacks()
    rows = []
    for p in _ziosim.profiles():
        changes = {k: v for k, v in p["values"].items() if v != fallbacks[k]}
        rows.append({"name": p["name"], "description": p["description"], "changes": changes,
                     "settings": [tuple(s) for s in p["settings"]]})
    return pd.DataFrame(rows, columns=["name", "description", "changes", "settings"])


def mirror_policies() -> pd.DataFrame:
    """Registered mirror read policies: ``name``, ``doc``, ``tunables``, ``python``
    (True for policies registered with :func:`ziosim.mirror_policy`)."""
    from .policy import registered_policies

    frame = pd.DataFrame(_ziosim.mirror_policies())
    frame["python"] = frame["name"].isin(list(registered_policies()))
    return frame


# ---------------------------------------------------------------------------- disk-bench


def _one_run_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """A result of one run as one row: its identification, then its figures."""
    identity = _front.identity(result)
    return _front.frame([_front.flatten(result["runs"][0], skip=("disks", "intervals"))], identity, result["workload"])


disk_bench = _front.function(
    "disk-bench", _one_run_frame,
    summary="A fio-like microbenchmark of one simulated drive",
    returns="""
One row: the run's identification ``drive``, ``pattern``, ``bs_bytes``, ``qd``, ``jobs``,
``span``, ``policy``, ``seed``; then ``effective_qd`` and ``effective_jobs`` (after clamping to
the drive's queue depth), ``note`` (why they were clamped; empty if not), ``ios``, ``bytes``,
``elapsed_s``, ``throughput_mb_s``, ``iops``, ``lat_mean_us``, ``lat_p50_us``, ``lat_p99_us``,
``lat_p999_us``, ``busy_pct``.
""")


# ---------------------------------------------------------------------------- pool workloads


_SEEKS = "seek_log2_cylinders"  # a disk's seek distances, bucket k: [2**k, 2**(k+1)) cylinders (k = 0: [0, 2))
_PER_SEEK = ("per_seek", False, "one row per disk and seek distance: ``disk``, ``seek_min_cylinders``, "
                                "``seek_max_cylinders`` (log2 buckets: a seek of d cylinders counts where "
                                "min <= d < max), ``seeks``.")


def _disk_rows(disks: Sequence[Mapping[str, Any]], lead: Mapping[str, Any], per_seek: bool) -> list[dict[str, Any]]:
    """Per-disk rows, each led by ``lead`` (the run's reader or writer count): the disk's figures
    but its seek histogram, or with ``per_seek`` one row per disk and seek-distance bucket."""
    if not per_seek:
        return [{**lead, **{k: v for k, v in d.items() if k != _SEEKS}} for d in disks]
    return [{**lead, "disk": d["disk"], "seek_min_cylinders": 0 if k == 0 else 1 << k,
             "seek_max_cylinders": 1 << (k + 1), "seeks": n}
            for d in disks for k, n in enumerate(d.get(_SEEKS, []))]


def _one_shape(**shapes: bool) -> None:
    chosen = [name for name, on in shapes.items() if on]
    if len(chosen) > 1:
        raise ValueError(f"{', '.join(chosen)}: one shape at a time")


def _sweep_frame(result: Mapping[str, Any], count: str, per_disk: bool, per_seek: bool,
                 lists: Sequence[str]) -> pd.DataFrame:
    """A readers or writers result as a frame: one row per run (its ``count``), nested objects
    flattened (``arc.hits`` is ``arc_hits``) and list fields (``lists``) left out; or one row per
    run and disk (and seek-distance bucket)."""
    rows: list[dict[str, Any]] = []
    for run in result["runs"]:
        if per_disk or per_seek:
            rows += _disk_rows(run["disks"], {count: run[count]}, per_seek)
        else:
            rows.append(_front.flatten(run, skip=("disks", *lists)))
    return _front.frame(rows, _front.identity(result), result["workload"])


def _block_read_frame(result: Mapping[str, Any], per_disk: bool = False, per_seek: bool = False) -> pd.DataFrame:
    _one_shape(per_disk=per_disk, per_seek=per_seek)
    if not (per_disk or per_seek):
        return _one_run_frame(result)
    run = result["runs"][0]
    rows = run["intervals"] if per_disk and run["intervals"] else _disk_rows(run["disks"], {}, per_seek)
    return _front.frame(rows, _front.identity(result), "block-read")


block_read = _front.function(
    "block-read", _block_read_frame,
    summary="Block reads straight at the vdev layer of a pool",
    shape_args=[("per_disk", False, "one row per disk (with ``interval_ms``: per disk and interval) "
                                    "instead of one row for the run."), _PER_SEEK],
    returns="""
Every row is led by the run's identification: ``pool`` (normalised spec), ``profile``,
``mirror_policy``, ``pattern``, ``priority``, ``bs_bytes``, ``depth``, ``span_bytes``,
``faulted``, ``spared``, ``seed``.

Default: one row: ``blocks``, ``bytes``, ``elapsed_s``, ``throughput_mb_s``, ``lat_mean_ms``,
``lat_p99_ms``.

``per_disk=True``: one row per disk: ``disk`` (d0, d1, ...), ``drive``, ``vdev``, ``busy_pct``,
``reads``, ``read_bytes``, ``read_mb_s``, ``zios``, ``aggregated``, ``aggregated_zios``,
``gap_bytes``, ``split``, ``mean_active``, ``mean_queued``, ``mean_service_ms``,
``mirror_chosen`` (reads a mirror assigned to this child), ``vdev_cache_*``.

``per_seek=True``: one row per disk and seek distance (log2 buckets): ``disk``,
``seek_min_cylinders``, ``seek_max_cylinders``, ``seeks`` (seeks of at least min and less than
max cylinders; the first bucket, 0 to 2, holds the reads that did not move the heads).

``per_disk=True, interval_ms=T``: one row per disk per interval (``zpool iostat -v``):
``interval``, ``t_start_s``, ``t_end_s``, ``disk``, ``reads``, ``read_bytes``,
``read_ops_s``, ``read_mb_s``.
""")


_SCAN_SHAPES = [("per_disk", False, "one row per disk instead of one row for the scan."),
                ("progress", False, "one row per txg: what ``zpool status`` shows after it."),
                ("per_disk_progress", False, "one row per txg and disk: each disk's MB/s over the txg "
                                             "(:func:`ziosim.plot.scan_progress` draws it).")]


def _scrub_frame(result: Mapping[str, Any], per_disk: bool = False, progress: bool = False,
                 per_disk_progress: bool = False) -> pd.DataFrame:
    _one_shape(per_disk=per_disk, progress=progress, per_disk_progress=per_disk_progress)
    run = result["runs"][0]
    if progress:
        return _front.frame(run["progress"], _front.identity(result), result["workload"])
    if per_disk_progress:
        return _front.frame(run["disk_progress"], _front.identity(result), result["workload"])
    if per_disk:
        return _front.frame(_disk_rows(run["disks"], {}, False), _front.identity(result), result["workload"])
    return _front.frame([_front.flatten(run, skip=("disks", "progress", "disk_progress", "per_reader_mb_s"))],
                        _front.identity(result),
                        result["workload"])


scrub = _front.function(
    "scrub", _scrub_frame,
    summary="Scrub a pool: how long, how fast per disk, in the era's scan order",
    shape_args=_SCAN_SHAPES,
    returns="""
Every row is led by the scrub's identification: ``pool``, ``profile``, ``scan`` (``legacy`` or
``sorted``, from the profile's ``zfs_scan_legacy``), ``files``, ``file_size_bytes``,
``recordsize_bytes``, ``layout``, ``pool_state``, ``seed``, ``replaced``, ``readers``, ``bs_bytes``.

Default: one row: ``complete`` (False when ``stop_after`` stopped it), ``to_examine_bytes``,
``examined_bytes``, ``issued_bytes`` (every DVA's allocated size, as zpool status counts),
``elapsed_s``, ``predicted_s`` (the whole scrub; extrapolated from the issue rate when stopped),
``issued_mb_s``, ``skipped_bytes`` (a resilver's blocks without a part on the new disk),
``scan_reads``, ``indirect_reads``, ``repair_writes``, ``repair_bytes``, ``txgs``, ``clearing_txgs``
(sorted: txgs that issued because the queues' memory ran out), ``peak_queue_bytes``,
``queue_limit_bytes``, ``readers_mb_s`` (the ``readers`` beside the scan, each reading its own
file: their bytes over the time until the last one finished), ``size_bytes`` (zpool list's SIZE),
``usable_bytes`` (what files of the recordsize fit in it, parity and padding off),
``cap_pct_before``, ``frag_pct_before``.

``per_disk=True``: one row per disk (the per-disk columns of :func:`block_read`).

``progress=True``: one row per txg: ``t_s``, ``examined_bytes``, ``issued_bytes``, ``phase``
(``scanning``: the walk gathered; ``issuing``: the queues were read).

``per_disk_progress=True``: one row per txg and disk (a rebuild: every ``zfs_txg_timeout``
seconds): ``t_start_s``, ``t_end_s``, ``disk``, ``read_mb_s``, ``write_mb_s``.
""")


resilver = _front.function(
    "resilver", _scrub_frame,
    summary="Resilver replaced disks (the healing resilver): how long the pool runs without its redundancy",
    shape_args=_SCAN_SHAPES,
    returns="""
:func:`scrub`'s frames, for the healing resilver of the disks in ``replaced`` (each replaced by a
new disk of the same drive): only the blocks with a copy or column on them are read (a mirror
reads one other child, RAID-Z and dRAID every other column with parity) and that part is written
to the new disk. The identification adds ``replaced``; the default row adds ``repair_writes`` and
``repair_bytes`` (what the new disks received).
""")


def _readers_frame(result: Mapping[str, Any], per_disk: bool = False, per_reader: bool = False,
                   per_seek: bool = False) -> pd.DataFrame:
    _one_shape(per_disk=per_disk, per_reader=per_reader, per_seek=per_seek)
    if not per_reader:
        return _sweep_frame(result, "readers", per_disk, per_seek, lists=("per_reader_mb_s",))
    rows = [{"readers": run["readers"], "reader": i, "throughput_mb_s": v}
            for run in result["runs"] for i, v in enumerate(run["per_reader_mb_s"])]
    return _front.frame(rows, _front.identity(result), "readers")


readers = _front.function(
    "readers", _readers_frame,
    summary="N concurrent ``dd``-like readers through the whole read path: DMU chunks, prefetch, ARC and "
            "L2ARC, the vdev tree, the disks and the host CPU. Every reader count is a separate run on a "
            "fresh pool; throughput is measured as dd does: bytes / elapsed, MB = 10**6 bytes",
    shape_args=[("per_disk", False, "one row per reader count and disk instead of one per reader count."),
                ("per_reader", False, "one row per reader count and reader: ``reader``, ``throughput_mb_s``."),
                _PER_SEEK],
    returns="""
Every row is led by the run's identification (``df.attrs["run"]`` holds it too): ``pool``
(normalised spec), ``profile``, ``mirror_policy`` (effective), ``layout``, ``pool_state``
(normalised, e.g. ``cap=30,frag=10``; None: an empty pool), ``primarycache``, ``bs_bytes``, ``file_size_bytes``, ``recordsize_bytes``, ``compression``, ``compressratio``,
``sparse``, ``same_file``, ``random``, ``read_offset_bytes``, ``read_length_bytes``, ``arc_max_bytes``
(effective ``zfs_arc_max``), ``l2arc``, ``warm``, ``seed``, then ``readers``.

Default: one row per reader count with the run's figures as ``ziosim readers --json`` prints
them, nested objects flattened (``arc.hits`` is ``arc_hits``): ``throughput_mb_s``,
``per_reader_min_mb_s`` / ``_mean_mb_s`` / ``_max_mb_s``, ``app_bytes_read``,
``disk_bytes_read``, ``amplification`` (disk / app), ``cpu_busy_pct`` (of all cores),
``elapsed_s``, ``arc_*`` and ``dmu_*`` counters (of the measured pass; sizes at its end),
``placement_*``: where the files' data blocks landed, as a percent of each top-level vdev's size
(``placement_first_pct``, ``_median_pct``, ``_last_pct``), ``placement_data_blocks``,
``placement_extents`` (runs of blocks back to back), and the pool's ``zpool list`` CAP and FRAG
before the files were laid out (``placement_pool_cap_pct``, ``placement_pool_frag_pct``).

``per_disk=True``: one row per reader count and disk: ``disk`` (d0, d1, ...), ``drive``,
``vdev``, ``busy_pct``, ``reads``, ``read_bytes``, ``read_mb_s``, ``zios``, ``aggregated``, ...

``per_seek=True``: one row per reader count, disk and seek distance (as :func:`block_read`'s).
""")


def _writers_frame(result: Mapping[str, Any], per_disk: bool = False, per_seek: bool = False) -> pd.DataFrame:
    _one_shape(per_disk=per_disk, per_seek=per_seek)
    return _sweep_frame(result, "writers", per_disk, per_seek, lists=("per_writer_mb_s",))


writers = _front.function(
    "writers", _writers_frame,
    summary="N concurrent ``dd``-like writers through the whole write path: copy-in, the write "
            "throttle, dirty data and txg sync through the allocator, the vdev tree and the disks. Every "
            "writer count is a separate run on a fresh pool; throughput is bytes / time until the last "
            "``write()`` returned, MB = 10**6 bytes",
    shape_args=[("per_disk", False, "one row per writer count and disk instead of one per writer count."),
                _PER_SEEK],
    returns="""
Every row is led by the run's identification: ``pool``, ``profile``, ``mirror_policy``,
``bs_bytes``, ``file_size_bytes``, ``recordsize_bytes``, ``fsync_at_end``, ``read_back``, ``pool_state``,
``seed``, then ``writers``.

Default: one row per writer count with the figures of ``ziosim writers --json``, nested objects
flattened: ``throughput_mb_s``, ``elapsed_s``, ``final_sync_s``, ``app_bytes_written``,
``write_calls_per_s``, ``disk_bytes_written``, ``disk_write_iops``, ``txgs``,
``txg_sync_mean_ms``, ``txg_sync_max_ms``, ``throttle_pct``, ``dirty_data_max_bytes``
(``zfs_dirty_data_max``), ``dirty_peak_bytes`` (the most dirty data held), ``cpu_busy_pct``,
``read_back_mb_s`` (NaN without ``read_back``), ``txg_*``, ``dmu_*``, ``placement_*`` (where
the files' data blocks landed and the pool's CAP and FRAG before: as :func:`readers`').

``per_disk=True``: one row per writer count and disk (the per-disk columns of :func:`block_read`).
``per_seek=True``: one row per writer count, disk and seek distance (as :func:`block_read`'s).
""")


# ---------------------------------------------------------------------------- fio


def _fio_direction(d: Mapping[str, Any]) -> dict[str, Any]:
    """One direction of a fio jobs[] entry as columns: rate, IOPS, I/Os and completion latencies."""
    pct = d["clat_ns"].get("percentile", {})
    nan = math.nan
    return {"throughput_mb_s": d["bw_bytes"] / 1e6, "iops": d["iops"], "ios": d["total_ios"],
            "clat_mean_us": d["clat_ns"]["mean"] / 1e3 if d["clat_ns"]["N"] else nan,
            "clat_p50_us": pct["50.000000"] / 1e3 if pct else nan,
            "clat_p99_us": pct["99.000000"] / 1e3 if pct else nan}


def _fio_frame(result: Mapping[str, Any]) -> pd.DataFrame:
    """A fio result as one row per entry of fio's jobs[], fio's report and the notes in attrs."""
    report = result["fio"]
    rows = []
    for entry in report["jobs"]:
        z = entry["ziosim"]
        read, write = _fio_direction(entry["read"]), _fio_direction(entry["write"])
        only = read if write["ios"] == 0 else write if read["ios"] == 0 else None
        row = {"jobname": entry["jobname"], "groupid": entry["groupid"], "clones": z["clones"], "rw": z["rw"],
               "bs_bytes": z["bs_bytes"], "ioengine": z["ioengine"], "iodepth": z["iodepth"],
               "effective_iodepth": z["effective_iodepth"], "runtime_s": entry["job_runtime"] / 1e3,
               "throughput_mb_s": read["throughput_mb_s"] + write["throughput_mb_s"],
               "iops": read["iops"] + write["iops"]}
        for prefix, d in (("read_", read), ("write_", write)):
            row.update({prefix + k: v for k, v in d.items()})
        row.update({k: only[k] if only is not None else math.nan
                    for k in ("clat_mean_us", "clat_p50_us", "clat_p99_us")})
        rows.append(row)
    identity = {k: v for k, v in result.items() if k not in ("workload", "notes", "fio", "output", "output_format")}
    df = _front.frame(rows, identity, "fio")
    df.attrs["fio_json"] = report
    df.attrs["notes"] = list(result["notes"])
    return df


fio = _front.function(
    "fio", _fio_frame,
    summary="Runs a fio job file on a simulated drive or pool",
    returns="""
One row per entry of fio's ``jobs[]`` (one per clone, or one per group with ``group_reporting``):
the run's identification (``jobfile``, ``target``, ``target_kind``, for a pool its dataset, ``seed``),
then ``jobname``, ``groupid``, ``clones``, ``rw``, ``bs_bytes``, ``ioengine``, ``iodepth``,
``effective_iodepth`` (I/Os really in flight per clone), ``runtime_s``, ``throughput_mb_s`` and
``iops`` (both directions), then per direction ``read_throughput_mb_s``, ``read_iops``,
``read_ios``, ``read_clat_mean_us``, ``read_clat_p50_us``, ``read_clat_p99_us`` and the same for
``write_``, and ``clat_mean_us``, ``clat_p50_us``, ``clat_p99_us`` of the job's one direction
(NaN for a mixed job: use the ``read_``/``write_`` columns). ``df.attrs["fio_json"]`` holds fio's
JSON document (``--output-format json``) as a dict, and ``df.attrs["notes"]`` what the run noted
(e.g. an iodepth the engine cannot use there). ``jobfile`` is the job file's path or its text
(anything with a newline); the pool options are an error with a raw-drive target, and writes
run on a raw drive or through the pool's write path (docs/fio-jobs.md).
""")



# ---------------------------------------------------------------------------- workload


def _workload_frame(result: Mapping[str, Any], per_disk: bool = False, per_seek: bool = False) -> pd.DataFrame:
    _one_shape(per_disk=per_disk, per_seek=per_seek)
    if not (per_disk or per_seek):
        return _one_run_frame(result)
    return _front.frame(_disk_rows(result["runs"][0]["disks"], {}, per_seek), _front.identity(result), "workload")


workload = _front.function(
    "workload", _workload_frame,
    summary="A workload personality (fileserver, database, ...) for a fixed time through the pool, locally "
            "or behind an NFS front",
    shape_args=[("per_disk", False, "one row per disk instead of one for the run."), _PER_SEEK],
    returns="""
One row: the run's identification ``personality``, ``pool``, ``profile``, ``sync``, ``logbias``,
``seed``; then ``nfs`` (bool), ``threads``, ``duration_s``, ``reads``, ``writes``,
``ops_per_s``, ``read_iops``, ``write_iops``, ``read_mb_s``, ``write_mb_s``, ``read_p50_ms``,
``read_p99_ms``, ``sync_writes``, ``sync_p50_ms``, ``sync_p99_ms``, ``sync_p999_ms``, ``txgs``,
``txg_sync_mean_ms``, ``txg_sync_max_ms``, ``throttle_pct`` and the intent log's counters
``zil_commits``, ``zil_batches``, ``zil_lwbs``, ``zil_lwb_bytes``, ``zil_indirect_records``,
``zil_indirect_bytes``, ``zil_flushes``, ``zil_flush_wait_ms``.

``per_disk=True``: one row per disk (the per-disk columns of :func:`block_read`).
``per_seek=True``: one row per disk and seek distance (as :func:`block_read`'s).
""")


# ---------------------------------------------------------------------------- demo


def _demo_frame(result: Mapping[str, Any], drives: bool = False) -> pd.DataFrame:
    if drives:
        return _front.frame(result["drives"], {}, "demo")
    return _front.frame(result["runs"], {"pool": result["pool"]}, "demo")


demo = _front.function(
    "demo", _demo_frame,
    summary="The built-in example: 1 to 10 dd readers on a 2-way HDD mirror under four ZFS eras' mirror "
            "policy, then what the catalog's drives do raw",
    shape_args=[("drives", False, "the drive catalog's raw figures instead of the readers sweep.")],
    returns="""
Default: one row per era and reader count: ``pool``, ``profile``, ``mirror_policy`` (the era's
policy, labelled), ``readers``, ``throughput_mb_s``, ``d0_busy_pct``, ``d1_busy_pct``.

``drives=True``: one row per catalog drive: ``drive``, ``kind``, ``seq_1m_mb_s``,
``rand_4k_qd1_iops``, ``rand_4k_qd32_iops`` (fio-like, 2 s simulated each).
""")


# ---------------------------------------------------------------------------- calibration


def _calibrate_frame(result: Mapping[str, Any], per_run: bool = False) -> pd.DataFrame:
    """A calibrate result: one row per figure of the written drive file (or host profile), or per
    measured run/point (or buffer size); the fit's other fields (nested ones flattened) lead every
    row and are in ``attrs["run"]``."""
    listed = ("figures", "runs", "points", "sizes")
    identity = _front.flatten({k: v for k, v in result.items() if k not in listed})
    if per_run:
        if "trace" in result:
            raise ValueError("per_run: a trace fit has no runs (its held-out figures are columns of every row)")
        rows = next(result[k] for k in ("runs", "points", "sizes") if k in result)
        return _front.frame(rows, identity, "calibrate")
    rows = [{"figure": key, "value": f["value"], "estimated": "estimated" in f,
             "provenance": f["estimated"] if "estimated" in f else f["source"]}
            for key, f in result["figures"].items()]
    return _front.frame(rows, identity, "calibrate")


calibrate = _front.function(
    "calibrate", _calibrate_frame,
    summary="Fits a drive's catalog figures to measurements of the real device and writes the drive file "
            "``output``: from a DiskSim validate ``trace`` (``kind=\"hdd\"``), from ``fio_json`` result "
            "files (``kind=\"hdd\"`` or ``\"ssd\"``), or from a ``pool``'s ``measured`` readers,mb_s; "
            "or, with ``kind=\"host\"``, measures this machine's CPU costs and writes a host profile "
            "(``host=`` of a run); docs/calibration.md",
    shape_args=[("per_run", False, "one row per fio run (fio mode) or measured point (pool mode), with "
                                   "``held_out``, ``measured_mb_s``, ``simulated_mb_s``, ``error_pct``; "
                                   "host mode: one row per buffer size, ``bytes`` and each benchmark's "
                                   "``*_mb_s`` or ``*_ns`` with its ``*_spread_pct``.")],
    returns="""
Every row is led by the fit's fields of ``ziosim calibrate --json`` (nested ones flattened:
``held_out.fitted.demerit_ms`` is ``held_out_fitted_demerit_ms``): trace mode ``trace``, ``output``,
``fitted_requests``, ``read_hits``, ``read_misses``, ``writes``, ``hit_share``, ``write_back``,
``residual_rms_ms_*``, ``seek_curve_ms_*``, ``held_out_*``; fio mode ``base``, ``output``,
``fitted_keys``, ``residual_rms_us_*``, ``random_runs``, ``sequential_runs``; pool mode ``drive``,
``output``, ``rate_scale``, ``overhead_delta_us``, ``iterations``, ``simulations``, ``fit_rms_pct``;
host mode ``host``, ``cpu_model``, ``cores``, ``virtual_machine``, ``date``, ``output``, ``repeats``,
``syscall_ns_*``, ``page_alloc_fit_*``.

Default: one row per figure of the drive file written: ``figure`` (its catalog key), ``value``,
``estimated`` (bool), ``provenance`` (its source, or why it is an estimate).
""")


# ---------------------------------------------------------------------------- scenario files


def run_scenario(path: str | os.PathLike[str], **shape: Any) -> pd.DataFrame:
    """Runs the scenario a TOML file describes (``ziosim run FILE.toml``; docs/run-config.md).

    The file's ``[workload] kind`` names the workload; the result is the frame that workload's
    function returns for the same options, and ``shape`` takes that function's shape arguments
    (``per_disk=True``, ...). Errors name the file and the line of the key they are about.
    """
    workload, result = _ziosim.run_scenario(os.fspath(path))
    return _front.SHAPES[workload](json.loads(result), **shape)


# ---------------------------------------------------------------------------- raidz-map


def raidz_map(width: int, parity: int, ashift: int, psize: Size, offset: Size = 0, blocks: int = 1) -> pd.DataFrame:
    """Where RAID-Z blocks land on the children (``ziosim raidz-map --json``).

    ``blocks`` blocks of ``psize`` bytes are laid back to back from vdev
    ``offset``. One row per column of each block, then one per skip sector:

    ``layout`` ("raidz2"), ``block`` (0-based), ``block_offset`` (vdev offset
    of the block, bytes), ``asize`` (bytes allocated, data + parity + skip),
    ``skip_sectors``, ``row`` (0; -1 for a skip sector), ``column`` (index in
    the map; -1 for a skip sector), ``child`` (disk index), ``offset`` (byte
    offset on the child, vdev space: a leaf adds its 4 MiB label), ``size``
    (bytes; 0 for a column that only holds skip sectors and is never read),
    ``role`` ("P", "Q", "R" parity, "D" data, "S" skip sector),
    ``data_start`` (for data columns, the logical byte of the block the column
    starts at; else <NA>), and the geometry ``width``, ``parity``, ``ashift``
    (so that :func:`ziosim.plot.raidz_map` can draw the frame alone).
    """
    width, parity, ashift = (_convert.integer(width, "width"), _convert.integer(parity, "parity"),
                             _convert.integer(ashift, "ashift"))
    return _block_map_frame(width, parity, "", ashift, psize, offset, blocks)


def draid_map(draid: str, ashift: int, psize: Size, offset: Size = 0, blocks: int = 1, *,
              children: Optional[int] = None) -> pd.DataFrame:
    """Where dRAID blocks land on the children (``ziosim raidz-map --draid``),
    in :func:`raidz_map`'s frame, so :func:`ziosim.plot.raidz_map` draws it.

    ``draid`` is the vdev as ``zpool create`` spells it,
    ``draid[1-3][:<N>d][:<N>c][:<N>s]``, with zpool's defaults; ``children``
    gives the number of disks when the keyword has no ``:<N>c``. ``offset``
    must start a stripe row (a multiple of the group width's sectors). A block
    that runs past the end of its redundancy group continues at the start of
    the next one: its columns there have ``row`` 1. Role "S" rows are the
    zero-filled sectors that pad each row to a full stripe (written, and read
    by scrub, resilver and reconstruction). ``layout`` is the configuration
    in full ("draid2:8d:12c:1s") and ``width`` its number of children.
    """
    if not isinstance(draid, str) or not draid:
        raise TypeError(f"draid: expected a dRAID keyword such as 'draid2:8d:1s', got {draid!r}")
    count = 0 if children is None else _convert.integer(children, "children")
    return _block_map_frame(count, 0, draid, _convert.integer(ashift, "ashift"), psize, offset, blocks)


def _block_map_frame(width: int, parity: int, draid: str, ashift: int, psize: Size, offset: Size,
                     blocks: int) -> pd.DataFrame:
    frame = pd.DataFrame(_ziosim.raidz_map(width, parity, draid, ashift, _convert.size(psize, "psize"),
                                           _convert.size(offset, "offset", positive=False),
                                           _convert.integer(blocks, "blocks")))
    frame["data_start"] = frame["data_start"].astype("Int64")
    frame["ashift"] = ashift
    return frame


# ---------------------------------------------------------------------------- validate-disksim


def validate_disksim(parv: str | os.PathLike[str], trace: str | os.PathLike[str], *,
                     per_request: bool = False) -> pd.Series | pd.DataFrame:
    """Replays a DiskSim validation trace through the HDD model built from the
    drive's DiskSim specs (``ziosim validate-disksim``).

    Returns a Series with the fields of ``--json``: ``drive``, ``parv``,
    ``trace``, ``spec_keys_ignored``, ``requests``, ``reads``, ``writes``,
    ``measured_mean_ms``, ``sim_mean_ms``, ``mean_error_pct``, ``demerit_ms``,
    ``demerit_pct``, ``measured_p50/p90/p99_ms``, ``sim_p50/p90/p99_ms``,
    ``sim_end_ms``, ``wall_seconds``, ``requests_per_sec``, plus
    ``ignored_keys`` (the list of "file:line: key" the model does not use).

    ``per_request=True`` returns instead one row per request (the columns of
    ``--per-request``): ``i``, ``op``, ``lbn``, ``blocks``, ``measured_ms``,
    ``sim_ms``, ``cache``, ``seek_cyls``, ``seek_ms``, ``latency_ms``,
    ``xfer_ms``, ``cyl``, ``head``, ``sector``; the summary is in ``.attrs["summary"]``.

    The trace streams through the replay (read on a second thread a few
    thousand records ahead), so memory stays flat in its length but for the
    rows ``per_request=True`` keeps; a malformed line raises ``ValueError``
    naming the file and line when the replay reaches it.
    """
    raw = _ziosim.validate_disksim(os.fspath(parv), os.fspath(trace), bool(per_request))
    summary = pd.Series({**raw["summary"], "ignored_keys": list(raw["ignored"])}, dtype=object)
    if not per_request:
        return summary
    frame = pd.DataFrame(raw["requests"])
    frame.attrs["summary"] = summary.to_dict()
    return frame


# ---------------------------------------------------------------------------- replay


_PER_INSTANCE = ("per_instance_mb_s", "per_instance_sim_mean_ms", "per_instance_sim_p50_ms", "per_instance_sim_p99_ms")


def _replay_frame(result: Mapping[str, Any], per_instance: bool = False, per_disk: bool = False) -> pd.DataFrame:
    """A replay result as one row per reader count (its identification, then the run's figures),
    with ``per_instance=True`` one row per count and instance, with ``per_disk=True`` one per count
    and disk, or with ``per_request=True`` one row per request with the run's row as
    ``attrs["summary"]``."""
    _one_shape(per_instance=per_instance, per_disk=per_disk)
    identity = {k: v for k, v in result.items() if k not in ("workload", "runs", "notes", "requests")}
    runs = result["runs"]
    if per_instance:
        rows = [{"readers": run.get("readers", 1), "instance": i, "throughput_mb_s": mb_s,
                 "sim_mean_ms": run["per_instance_sim_mean_ms"][i], "sim_p50_ms": run["per_instance_sim_p50_ms"][i],
                 "sim_p99_ms": run["per_instance_sim_p99_ms"][i]}
                for run in runs for i, mb_s in enumerate(run.get("per_instance_mb_s", [run["throughput_mb_s"]]))]
        return _front.frame(rows, identity, "replay")
    if per_disk:
        if result["target_kind"] != "pool":
            raise ValueError("per_disk: a drive target has no pool disks")
        return _front.frame([r for run in runs for r in _disk_rows(run["disks"], {"readers": run["readers"]}, False)],
                            identity, "replay")
    summary = _front.frame([_front.flatten(run, skip=("disks", "devices", *_PER_INSTANCE)) for run in runs],
                           identity, "replay")
    summary.attrs["notes"] = list(result["notes"])
    for key in ("disks", "devices"):
        if key in runs[-1]:
            summary.attrs[key] = runs[-1][key]
    if "requests" not in result:
        return summary
    requests = pd.DataFrame(result["requests"])
    requests["measured_ms"] = requests["measured_ms"].astype(float)  # null where the trace measured nothing
    requests.attrs["summary"] = {k: v.item() if hasattr(v, "item") else v for k, v in summary.iloc[0].items()}
    return requests


replay = _front.function(
    "replay", _replay_frame,
    summary="Replays a captured trace on a drive, or 1 to 64 instances of it at once on a pool: a block "
            "trace on a zvol, a file-level trace (strace, DTrace, fio iolog) on files of the dataset",
    shape_args=[("per_instance", False, "one row per reader count and instance: ``instance``, "
                                        "``throughput_mb_s``, ``sim_mean_ms``, ``sim_p50_ms``, ``sim_p99_ms``."),
                ("per_disk", False, "one row per reader count and disk (a pool target).")],
    returns="""
One row per reader count (``readers=[1, 2, 5, 10]``: that many instances of the workload at once,
each on its own copy of the data, or one copy with ``same_data=True``; a drive target runs one):
the run's identification (``trace``, ``format``, ``target``, ``target_kind`` and the target's
figures, ``mode``, ``speed``, ...; for a pool ``profile``, ``data`` (``zvol`` or ``files``) with
``volblocksize_bytes`` and ``volsize_bytes``, or ``recordsize_bytes``, ``files`` and
``file_bytes``, then ``stagger_s``, ``same_data``, ``layout``, ``pool_state``, ``primarycache``,
``seed``), then
``readers``, ``requests``, ``reads``, ``writes``, ``bytes``, ``elapsed_s``, ``throughput_mb_s``
(all instances' bytes over the time to the last completion), ``iops``, ``sim_mean_ms``,
``measured_mean_ms``, ``mean_error_pct``, ``demerit_ms``, ... (every instance's requests
together; NaN where nothing was measured), the reads' and writes' comparisons as ``read_*`` and
``write_*`` columns, and for a pool ``per_instance_min_mb_s``, ``per_instance_mean_mb_s``,
``per_instance_max_mb_s``, ``arc_hit_pct``, ``disk_bytes_read``, ``amplification`` (disk bytes
per byte asked), ``cpu_busy_pct``, ``placement_*`` (where the data's blocks were laid out:
as :func:`readers`'), ...; ``.attrs["disks"]`` holds the last run's per-disk rows,
``.attrs["devices"]`` its per-device comparisons (``per_device=True``) and ``.attrs["notes"]``
what the run noted. ``per_request=True`` (one reader count) returns instead one row per request
(the columns of ``--per-request``: ``instance``, ``i``, ``line``, ``op``, ``trace_offset``,
``offset``, ``size``, ``arrival_ms``, ``issue_ms``, ``done_ms``, ``sim_ms``, ``measured_ms``), with
the run's row as a dict in ``.attrs["summary"]``; ``per_request="rows.csv"`` writes them to that
file.
""")

