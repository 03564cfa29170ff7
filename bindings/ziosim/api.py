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
import numbers
import os
from collections.abc import Mapping, Sequence
from typing import Any, Optional

import pandas as pd

from . import _convert, _front, _ziosim
from ._convert import Size

__all__ = [
    "block_read",
    "disk_bench",
    "drive_values",
    "drives",
    "fio",
    "mirror_policies",
    "profiles",
    "raidz_map",
    "readers",
    "replay",
    "run_scenario",
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
    ``sourced`` and ``estimated`` (how many of the drive's figures come from a
    reference or are estimates), ``file``. Every figure with its provenance:
    :func:`drive_values`.
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
    identity = {k: v for k, v in result.items() if k not in ("workload", "runs")}
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


def _sweep_frame(result: Mapping[str, Any], count: str, per_disk: bool, lists: Sequence[str]) -> pd.DataFrame:
    """A readers or writers result as a frame: one row per run (its ``count``), nested objects
    flattened (``arc.hits`` is ``arc_hits``) and list fields (``lists``) left out; or one row per
    run and disk."""
    identity = {k: v for k, v in result.items() if k not in ("workload", "runs")}
    rows: list[dict[str, Any]] = []
    for run in result["runs"]:
        if per_disk:
            rows += [{count: run[count], **disk} for disk in run["disks"]]
        else:
            rows.append(_front.flatten(run, skip=("disks", *lists)))
    return _front.frame(rows, identity, result["workload"])


def _block_read_frame(result: Mapping[str, Any], per_disk: bool = False) -> pd.DataFrame:
    if not per_disk:
        return _one_run_frame(result)
    identity = {k: v for k, v in result.items() if k not in ("workload", "runs")}
    run = result["runs"][0]
    return _front.frame(run["intervals"] or run["disks"], identity, "block-read")


block_read = _front.function(
    "block-read", _block_read_frame,
    summary="Block reads straight at the vdev layer of a pool",
    shape_args=[("per_disk", False, "one row per disk (with ``interval_ms``: per disk and interval) "
                                    "instead of one row for the run.")],
    returns="""
Every row is led by the run's identification: ``pool`` (normalised spec), ``profile``,
``mirror_policy``, ``pattern``, ``priority``, ``bs_bytes``, ``depth``, ``span_bytes``,
``faulted``, ``seed``.

Default: one row: ``blocks``, ``bytes``, ``elapsed_s``, ``throughput_mb_s``, ``lat_mean_ms``,
``lat_p99_ms``.

``per_disk=True``: one row per disk: ``disk`` (d0, d1, ...), ``drive``, ``vdev``, ``busy_pct``,
``reads``, ``read_bytes``, ``read_mb_s``, ``zios``, ``aggregated``, ``aggregated_zios``,
``gap_bytes``, ``split``, ``mean_active``, ``mean_queued``, ``mean_service_ms``,
``mirror_chosen`` (reads a mirror assigned to this child), ``vdev_cache_*``,
``seek_log2_cylinders`` (bucket k counts seeks of [2**k, 2**(k+1)) cylinders).

``per_disk=True, interval_ms=T``: one row per disk per interval (``zpool iostat -v``):
``interval``, ``t_start_s``, ``t_end_s``, ``disk``, ``reads``, ``read_bytes``,
``read_ops_s``, ``read_mb_s``.
""")


def _readers_frame(result: Mapping[str, Any], per_disk: bool = False, per_reader: bool = False) -> pd.DataFrame:
    if per_disk and per_reader:
        raise ValueError("per_disk, per_reader: one shape at a time")
    if not per_reader:
        return _sweep_frame(result, "readers", per_disk, lists=("per_reader_mb_s",))
    identity = {k: v for k, v in result.items() if k not in ("workload", "runs")}
    rows = [{"readers": run["readers"], "reader": i, "throughput_mb_s": v}
            for run in result["runs"] for i, v in enumerate(run["per_reader_mb_s"])]
    return _front.frame(rows, identity, "readers")


readers = _front.function(
    "readers", _readers_frame,
    summary="N concurrent ``dd``-like readers through the whole read path: DMU chunks, prefetch, ARC and "
            "L2ARC, the vdev tree, the disks and the host CPU. Every reader count is a separate run on a "
            "fresh pool; throughput is measured as dd does: bytes / elapsed, MB = 10**6 bytes",
    shape_args=[("per_disk", False, "one row per reader count and disk instead of one per reader count."),
                ("per_reader", False, "one row per reader count and reader: ``reader``, ``throughput_mb_s``.")],
    returns="""
Every row is led by the run's identification (``df.attrs["run"]`` holds it too): ``pool``
(normalised spec), ``profile``, ``mirror_policy`` (effective), ``layout``, ``primarycache``,
``bs_bytes``, ``file_size_bytes``, ``recordsize_bytes``, ``compression``, ``compressratio``,
``sparse``, ``same_file``, ``random``, ``read_offset_bytes``, ``read_length_bytes``, ``arc_max_bytes``
(effective ``zfs_arc_max``), ``l2arc``, ``warm``, ``seed``, then ``readers``.

Default: one row per reader count with the run's figures as ``ziosim readers --json`` prints
them, nested objects flattened (``arc.hits`` is ``arc_hits``): ``throughput_mb_s``,
``per_reader_min_mb_s`` / ``_mean_mb_s`` / ``_max_mb_s``, ``app_bytes_read``,
``disk_bytes_read``, ``amplification`` (disk / app), ``cpu_busy_pct`` (of all cores),
``elapsed_s``, ``arc_*`` and ``dmu_*`` counters (of the measured pass; sizes at its end).

``per_disk=True``: one row per reader count and disk: ``disk`` (d0, d1, ...), ``drive``,
``vdev``, ``busy_pct``, ``reads``, ``read_bytes``, ``read_mb_s``, ``zios``, ``aggregated``, ...
""")


def _writers_frame(result: Mapping[str, Any], per_disk: bool = False) -> pd.DataFrame:
    return _sweep_frame(result, "writers", per_disk, lists=("per_writer_mb_s",))


writers = _front.function(
    "writers", _writers_frame,
    summary="N concurrent ``dd``-like writers through the whole write path: copy-in, the write "
            "throttle, dirty data and txg sync through the allocator, the vdev tree and the disks. Every "
            "writer count is a separate run on a fresh pool; throughput is bytes / time until the last "
            "``write()`` returned, MB = 10**6 bytes",
    shape_args=[("per_disk", False, "one row per writer count and disk instead of one per writer count.")],
    returns="""
Every row is led by the run's identification: ``pool``, ``profile``, ``mirror_policy``,
``bs_bytes``, ``file_size_bytes``, ``recordsize_bytes``, ``fsync_at_end``, ``read_back``,
``seed``, then ``writers``.

Default: one row per writer count with the figures of ``ziosim writers --json``, nested objects
flattened: ``throughput_mb_s``, ``elapsed_s``, ``final_sync_s``, ``app_bytes_written``,
``write_calls_per_s``, ``disk_bytes_written``, ``disk_write_iops``, ``txgs``,
``txg_sync_mean_ms``, ``txg_sync_max_ms``, ``throttle_pct``, ``dirty_data_max_bytes``
(``zfs_dirty_data_max``), ``dirty_peak_bytes`` (the most dirty data held), ``cpu_busy_pct``,
``read_back_mb_s`` (NaN without ``read_back``), ``txg_*``, ``dmu_*``.

``per_disk=True``: one row per writer count and disk (the per-disk columns of :func:`block_read`).
""")


def _fio_direction(d: Mapping[str, Any]) -> dict[str, float]:
    """bw, IOPS and clat of one direction of a fio JSON job entry, as fio tools read them."""
    clat = d["clat_ns"]
    pct = clat.get("percentile", {})
    nan = float("nan")
    return {"bw_mb_s": d["bw_bytes"] / 1e6, "iops": d["iops"], "ios": d["total_ios"],
            "clat_mean_us": clat["mean"] / 1e3 if clat["N"] else nan,
            "clat_p50_us": pct["50.000000"] / 1e3 if pct else nan,
            "clat_p99_us": pct["99.000000"] / 1e3 if pct else nan}


def fio(
    job: str | os.PathLike[str],
    target: str,
    *,
    seed: int = 1,
    ashift: Optional[int] = None,
    profile: Optional[str] = None,
    tunables: Optional[Mapping[str, Any]] = None,
    recordsize: Optional[Size] = None,
    compression: Optional[float] = None,
    layout: Optional[str] = None,
    primarycache: Optional[str] = None,
    arc_max: Optional[Size] = None,
    l2arc: Optional[str] = None,
) -> pd.DataFrame:
    """Runs a fio job file on a simulated drive or pool (``ziosim fio JOBFILE --target ...``).

    The supported job-file subset and how each ioengine is modelled are in
    ``docs/fio-jobs.md``. On a raw drive (``target="wd-re4-1tb"``) the jobs
    address the device; on a pool (``target="mirror 2xwd-re4-1tb"``, or
    ``"1xwd-re4-1tb"`` for one disk) each job reads its own files through the
    ZFS read path. The pool options below are those of :func:`readers` and are
    an error with a raw-drive target. Writes run on a raw drive only.

    Args:
        job: the job file's path, or its text (anything containing a newline).
        target: a drive (catalog name, ``.toml``, ``disksim:FILE.parv``) or a pool in zpool syntax.
        seed: random seed (same seed, same result); jobs with ``randseed=`` use theirs.
        ashift, profile, tunables, recordsize, compression, layout, primarycache, arc_max, l2arc:
            the pool and dataset, as in :func:`readers` (defaults likewise).

    Returns:
        One row per entry of fio's ``jobs[]`` (one per clone, or one per group with
        ``group_reporting``): ``jobname``, ``groupid``, ``clones``, ``rw``, ``bs_bytes``,
        ``ioengine``, ``iodepth``, ``effective_iodepth`` (I/Os really in flight per clone),
        ``runtime_s``, ``bw_mb_s`` and ``iops`` (both directions), then per direction
        ``read_bw_mb_s``, ``read_iops``, ``read_ios``, ``read_clat_mean_us``,
        ``read_clat_p50_us``, ``read_clat_p99_us`` and the same for ``write_``, and
        ``clat_mean_us``, ``clat_p50_us``, ``clat_p99_us`` of the job's one direction
        (NaN for a mixed job: use the ``read_``/``write_`` columns). ``df.attrs["fio_json"]``
        holds fio's JSON document (``--output-format=json``) as a dict, and
        ``df.attrs["notes"]`` what the run noted (e.g. an iodepth the engine cannot use there).
    """
    if isinstance(job, os.PathLike) or ("\n" not in str(job) and os.path.isfile(str(job))):
        path = os.fspath(job)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise ValueError(f"{path}: cannot read the job file ({e.strerror})") from None
        name = str(path)
    elif "\n" in str(job):
        text, name = str(job), "<job>"
    else:
        raise ValueError(f"{job}: cannot read the job file (no such file; job text must contain a newline)")
    pool_options = {"ashift": ashift, "profile": profile, "tunables": tunables, "recordsize": recordsize,
                    "compression": compression, "layout": layout, "primarycache": primarycache,
                    "arc_max": arc_max, "l2arc": l2arc}
    given = [k for k, v in pool_options.items() if v is not None]
    if compression is not None and (isinstance(compression, bool) or not isinstance(compression, numbers.Real)):
        raise TypeError(f"compression: expected a number (logical / physical), got {compression!r}")
    raw = _ziosim.fio(
        text, name, str(target), given, _convert.integer(12 if ashift is None else ashift, "ashift"),
        str(profile) if profile is not None else _ziosim.default_profile(), _convert.settings(tunables),
        _convert.size("128K" if recordsize is None else recordsize, "recordsize"),
        1.0 if compression is None else float(compression), str(layout or "sequential"),
        str(primarycache or "all"), 0 if arc_max is None else _convert.size(arc_max, "arc_max", positive=False),
        str(l2arc or ""), _convert.integer(seed, "seed"))
    doc = json.loads(raw)
    rows = []
    for entry in doc["jobs"]:
        opts = {**doc.get("global options", {}), **entry["job options"]}
        read = _fio_direction(entry["read"])
        write = _fio_direction(entry["write"])
        only = read if write["ios"] == 0 else write if read["ios"] == 0 else None
        row = {"jobname": entry["jobname"], "groupid": entry["groupid"], "clones": entry["ziosim"]["clones"],
               "rw": opts.get("rw", opts.get("readwrite", "read")), "bs_bytes": None,
               "ioengine": opts.get("ioengine", "psync"), "iodepth": int(opts.get("iodepth", 1)),
               "effective_iodepth": entry["ziosim"]["effective_iodepth"],
               "runtime_s": entry["job_runtime"] / 1e3,
               "bw_mb_s": read["bw_mb_s"] + write["bw_mb_s"], "iops": read["iops"] + write["iops"]}
        row["bs_bytes"] = _convert.size(opts.get("bs", opts.get("blocksize", 4096)), "bs")
        for prefix, d in (("read_", read), ("write_", write)):
            row.update({prefix + k: v for k, v in d.items()})
        for k in ("clat_mean_us", "clat_p50_us", "clat_p99_us"):
            row[k] = only[k] if only is not None else float("nan")
        rows.append(row)
    df = pd.DataFrame(rows)
    df.attrs["fio_json"] = doc
    df.attrs["notes"] = doc["ziosim"]["notes"]
    return df


# ---------------------------------------------------------------------------- workload


def _workload_frame(result: Mapping[str, Any], per_disk: bool = False) -> pd.DataFrame:
    if not per_disk:
        return _one_run_frame(result)
    identity = {k: v for k, v in result.items() if k not in ("workload", "runs")}
    return _front.frame(result["runs"][0]["disks"], identity, "workload")


workload = _front.function(
    "workload", _workload_frame,
    summary="A workload personality (fileserver, database, ...) for a fixed time through the pool, locally "
            "or behind an NFS front",
    shape_args=[("per_disk", False, "one row per disk instead of one for the run.")],
    returns="""
One row: the run's identification ``personality``, ``pool``, ``profile``, ``sync``, ``logbias``,
``seed``; then ``nfs`` (bool), ``threads``, ``duration_s``, ``reads``, ``writes``,
``ops_per_s``, ``read_iops``, ``write_iops``, ``read_mb_s``, ``write_mb_s``, ``read_p50_ms``,
``read_p99_ms``, ``sync_writes``, ``sync_p50_ms``, ``sync_p99_ms``, ``sync_p999_ms``, ``txgs``,
``txg_sync_mean_ms``, ``txg_sync_max_ms``, ``throttle_pct`` and the intent log's counters
``zil_commits``, ``zil_batches``, ``zil_lwbs``, ``zil_lwb_bytes``, ``zil_indirect_records``,
``zil_indirect_bytes``, ``zil_flushes``, ``zil_flush_wait_ms``.

``per_disk=True``: one row per disk (the per-disk columns of :func:`block_read`).
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

    ``block`` (0-based), ``block_offset`` (vdev offset of the block, bytes),
    ``asize`` (bytes allocated, data + parity + skip), ``skip_sectors``,
    ``column`` (index in the map; -1 for a skip sector), ``child`` (disk index),
    ``offset`` (byte offset on the child, vdev space: a leaf adds its 4 MiB
    label), ``size`` (bytes; 0 for a column that only holds skip sectors and is
    never read), ``role`` ("P", "Q", "R" parity, "D" data, "S" skip sector),
    ``data_start`` (for data columns, the logical byte of the block the column
    starts at; else <NA>), and the geometry ``width``, ``parity``, ``ashift``
    (so that :func:`ziosim.plot.raidz_map` can draw the frame alone).
    """
    width, parity, ashift = (_convert.integer(width, "width"), _convert.integer(parity, "parity"),
                             _convert.integer(ashift, "ashift"))
    frame = pd.DataFrame(_ziosim.raidz_map(width, parity, ashift, _convert.size(psize, "psize"),
                                           _convert.size(offset, "offset", positive=False),
                                           _convert.integer(blocks, "blocks")))
    frame["data_start"] = frame["data_start"].astype("Int64")
    frame["width"], frame["parity"], frame["ashift"] = width, parity, ashift
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
    """
    raw = _ziosim.validate_disksim(os.fspath(parv), os.fspath(trace), bool(per_request))
    summary = pd.Series({**raw["summary"], "ignored_keys": list(raw["ignored"])}, dtype=object)
    if not per_request:
        return summary
    frame = pd.DataFrame(raw["requests"])
    frame.attrs["summary"] = summary.to_dict()
    return frame


# ---------------------------------------------------------------------------- replay


def replay(trace: str | os.PathLike[str], target: str, *, mode: str = "open", speed: Optional[float] = None,
           format: str = "auto", skip_bad: bool = False, limit: int = 0, wrap: bool = False,
           reads_only: bool = False, device: Optional[int | str] = None, per_device: bool = False,
           policy: str = "sptf", per_request: bool = False, ashift: Optional[int] = None,
           profile: Optional[str] = None, tunables: Optional[Mapping[str, Any]] = None,
           volblocksize: Optional[Size] = None, volsize: Optional[Size] = None, layout: Optional[str] = None,
           primarycache: Optional[str] = None, arc_max: Optional[Size] = None, l2arc: Optional[str] = None,
           seed: Optional[int] = None) -> pd.DataFrame:
    """Replays a block trace on a drive or on a zvol of a pool (``ziosim replay TRACE --target ...``).

    ``target`` is a drive (catalog name, ``.toml``, ``disksim:FILE.parv``) or a pool in
    zpool syntax (``"mirror 2xwd-re4-1tb"``, ``"1xwd-re4-1tb"`` for one disk); on a pool
    the trace's reads are ``read()`` calls of one zvol through the DMU read path, and
    the pool arguments (``ashift`` ... ``seed``) apply, as the CLI's pool flags.
    ``mode`` is ``"open"`` (recorded times, divided by ``speed``), ``"closed:N"`` or
    ``"validate"``; ``device`` replays one traced device (a number, or ``"8,16"``
    for blkparse); ``reads_only`` passes over writes (on a pool they otherwise are
    ``write()`` calls through the DMU write path).

    Returns a one-row DataFrame with the fields of ``--json``: ``requests``,
    ``reads``, ``writes``, ``sim_mean_ms``, ``measured_mean_ms``,
    ``mean_error_pct``, ``demerit_ms``, ... (NaN where nothing was measured),
    the reads' and writes' comparisons as ``read_*`` and ``write_*`` columns,
    and for a pool ``volblocksize``, ``volsize``, ``arc_hit_pct``,
    ``disk_bytes_read``; ``.attrs["disks"]`` holds the per-disk rows and
    ``.attrs["devices"]`` the per-device comparisons (``per_device=True``).
    ``per_request=True`` returns instead one row per request (the columns of
    ``--per-request``), with that summary in ``.attrs["summary"]``.
    """
    if speed is not None and mode != "open":
        raise ValueError("speed: only applies to mode 'open' (the other modes ignore the recorded times)")
    pool_options = {"ashift": ashift, "profile": profile, "tunables": tunables, "volblocksize": volblocksize,
                    "volsize": volsize, "layout": layout, "primarycache": primarycache, "arc_max": arc_max,
                    "l2arc": l2arc, "seed": seed}
    given = [k for k, v in pool_options.items() if v is not None]
    raw = _ziosim.replay(
        os.fspath(trace), str(target), str(mode), 1.0 if speed is None else float(speed), str(format),
        bool(skip_bad), _convert.integer(limit, "limit"), bool(wrap), bool(reads_only),
        "" if device is None else str(device), bool(per_device), str(policy), bool(per_request), given,
        _convert.integer(12 if ashift is None else ashift, "ashift"),
        str(profile) if profile is not None else _ziosim.default_profile(), _convert.settings(tunables),
        0 if volblocksize is None else _convert.size(volblocksize, "volblocksize"),
        0 if volsize is None else _convert.size(volsize, "volsize"), str(layout or "sequential"),
        str(primarycache or "all"), 0 if arc_max is None else _convert.size(arc_max, "arc_max", positive=False),
        str(l2arc or ""), _convert.integer(1 if seed is None else seed, "seed"))
    summary = dict(raw["summary"])
    disks = summary.pop("disks", None)
    devices = summary.pop("devices", None)
    for op in ("read", "write"):
        summary.update({f"{op}_{k}": v for k, v in summary.pop(op).items()})
    row = {k: (math.nan if v is None else v) for k, v in summary.items()}
    frame = pd.DataFrame([row])
    if disks is not None:
        frame.attrs["disks"] = disks
    if devices is not None:
        frame.attrs["devices"] = devices
    if not per_request:
        return frame
    requests = pd.DataFrame(raw["requests"])
    requests.attrs["summary"] = row
    return requests
