"""ziosim.readers: the product's main workload (N concurrent dd readers) as a DataFrame."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time

import cloudpickle
import pandas as pd
import pytest
from matplotlib.figure import Figure

import ziosim
import ziosim.plot

from conftest import MIRROR
from test_api import DISK_COLUMNS

#: The schema of a readers result (sim/workload/readers_front.cc), as the frames show it.
READERS_RUN_COLUMNS = ["pool", "profile", "mirror_policy", "layout", "pool_state", "primarycache", "bs_bytes", "file_size_bytes",
                       "recordsize_bytes", "compression", "compressratio", "sparse", "same_file", "random",
                       "read_offset_bytes", "read_length_bytes", "arc_max_bytes", "l2arc", "warm", "seed", "readers"]
READERS_COLUMNS = ["throughput_mb_s", "per_reader_min_mb_s", "per_reader_mean_mb_s", "per_reader_max_mb_s",
                   "app_bytes_read", "disk_bytes_read", "amplification", "cpu_busy_pct", "elapsed_s", "arc_hits",
                   "arc_misses", "arc_prefetch_hits", "arc_l2_hits", "arc_l2_misses", "arc_evictions",
                   "arc_dropped_on_release", "arc_decompressions", "arc_size_bytes", "arc_l2_size_bytes",
                   "dmu_calls", "dmu_demand_blocks", "dmu_demand_misses", "dmu_prefetch_reads", "dmu_indirect_reads",
                   "dmu_hole_blocks", "dmu_waited_on_inflight", "dmu_promoted", "dmu_l2_reads", "dmu_l2_read_bytes",
                   "placement_pool_cap_pct", "placement_pool_frag_pct", "placement_data_blocks",
                   "placement_extents", "placement_first_pct", "placement_median_pct", "placement_last_pct"]

# Ship this module's functions by value to sweep workers, as for a notebook's.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

SMALL = dict(file_size="64M")  # a few thousand disk I/Os per run: milliseconds
POLICIES = ["rotor", "least_pending", "load_locality"]


def test_columns_one_row_per_reader_count():
    df = ziosim.readers(MIRROR, readers=[1, 2, 5], profile="freebsd-10", **SMALL)
    assert list(df.columns) == READERS_RUN_COLUMNS + READERS_COLUMNS
    assert list(df["readers"]) == [1, 2, 5]
    first = df.iloc[0]
    assert first["pool"] == MIRROR and first["profile"] == "freebsd-10" and first["mirror_policy"] == "load_locality"
    assert first["bs_bytes"] == 1 << 20 and first["file_size_bytes"] == 64 << 20
    assert first["recordsize_bytes"] == 128 << 10 and first["arc_max_bytes"] == 4 << 30
    assert first["layout"] == "sequential" and first["primarycache"] == "all" and first["l2arc"] is None
    assert list(df["app_bytes_read"]) == [n * (64 << 20) for n in (1, 2, 5)]
    per_reader = ziosim.readers(MIRROR, readers=[1, 2, 5], profile="freebsd-10", per_reader=True, **SMALL)
    assert list(per_reader.groupby("readers")["reader"].count()) == [1, 2, 5]
    assert list(per_reader.groupby("readers")["throughput_mb_s"].min()) == list(df["per_reader_min_mb_s"])
    assert (df["per_reader_min_mb_s"] <= df["per_reader_mean_mb_s"]).all()
    assert (df["per_reader_mean_mb_s"] <= df["per_reader_max_mb_s"]).all()
    assert (df["throughput_mb_s"] > 0).all() and (df["elapsed_s"] > 0).all()
    # dd's arithmetic: all bytes over the time until the last reader finished
    assert df["throughput_mb_s"].to_list() == pytest.approx(list(df["app_bytes_read"] / df["elapsed_s"] / 1e6))
    assert df["amplification"].to_list() == pytest.approx(list(df["disk_bytes_read"] / df["app_bytes_read"]))
    # the default is the CLI's sweep, one int is one run
    assert list(ziosim.readers(MIRROR, **SMALL)["readers"]) == [1, 2, 5, 10]
    assert list(ziosim.readers(MIRROR, readers=3, **SMALL)["readers"]) == [3]


def test_per_disk_frame():
    df = ziosim.readers("mirror 3xwd-re4-1tb", readers=[1, 4], per_disk=True, **SMALL)
    assert list(df.columns) == READERS_RUN_COLUMNS + DISK_COLUMNS
    assert list(df["readers"]) == [1, 1, 1, 4, 4, 4] and list(df["disk"]) == ["d0", "d1", "d2"] * 2
    summary = ziosim.readers("mirror 3xwd-re4-1tb", readers=[1, 4], **SMALL)
    by_run = df.groupby("readers")["read_bytes"].sum()
    assert list(by_run) == list(summary["disk_bytes_read"])
    fig = ziosim.plot.disk_busy(df[df["readers"] == 4])
    assert len(fig.axes[0].patches) == 3


def test_same_as_cli_json(ziosim_cli):
    cli = subprocess.run([ziosim_cli, "readers", "--pool", MIRROR, "--readers", "1,3", "--file-size", "64M",
                          "--profile", "freebsd-10", "--json"], capture_output=True, text=True, check=True)
    runs = json.loads(cli.stdout)["runs"]
    df = ziosim.readers(MIRROR, readers=[1, 3], profile="freebsd-10", per_disk=False, **SMALL)
    for run, (_, row) in zip(runs, df.iterrows()):
        assert row["readers"] == run["readers"]
        assert row["throughput_mb_s"] == pytest.approx(run["throughput_mb_s"], rel=1e-12)
        assert row["per_reader_mean_mb_s"] == pytest.approx(run["per_reader_mean_mb_s"], rel=1e-12)
        assert row["disk_bytes_read"] == run["disk_bytes_read"] and row["arc_hits"] == run["arc"]["hits"]
        assert row["dmu_prefetch_reads"] == run["dmu"]["prefetch_reads"]


def test_deterministic():
    a = ziosim.readers(MIRROR, readers=[2], random=True, seed=7, **SMALL)
    b = ziosim.readers(MIRROR, readers=[2], random=True, seed=7, **SMALL)
    pd.testing.assert_frame_equal(a, b)


def test_mirror_policies_differ():
    frames = {p: ziosim.readers(MIRROR, readers=[1, 2, 5, 10], profile="freebsd-10", per_disk=True,
                                tunables={"mirror_policy": p}, **SMALL) for p in ("rotor", "load_locality")}
    assert set(frames["rotor"]["mirror_policy"]) == {"rotor"}
    assert set(frames["load_locality"]["mirror_policy"]) == {"load_locality"}
    # rotor: 2 MiB stripes alternate between the children whatever the load, so one reader
    # keeps both disks busy.
    one = {p: f[f["readers"] == 1].set_index("disk")["mirror_chosen"] for p, f in frames.items()}
    assert abs(one["rotor"]["d0"] - one["rotor"]["d1"]) <= 0.1 * one["rotor"].sum()
    # load_locality keeps one sequential stream on one disk while its blocks are contiguous:
    # within one L1's span (16 MiB of 128K records under FreeBSD 10's 16K indirect blocks). The
    # L1 written behind each span is a forward gap, which the selection-era "near" test
    # (unsigned) charges the full seek increment, so there the stream may change disks.
    span = ziosim.readers(MIRROR, readers=[1], profile="freebsd-10", per_disk=True,
                          tunables={"mirror_policy": "load_locality"}, file_size="16M")
    chosen = span.set_index("disk")["mirror_chosen"]
    assert min(chosen) <= 0.05 * chosen.sum()
    summary = {p: ziosim.readers(MIRROR, readers=[1, 2, 5, 10], profile="freebsd-10",
                                 tunables={"mirror_policy": p}, **SMALL) for p in ("rotor", "load_locality")}
    assert not summary["rotor"]["throughput_mb_s"].equals(summary["load_locality"]["throughput_mb_s"])


def test_primarycache_metadata_amplification():
    # 64K reads of 1M records with primarycache=metadata: every read() fetches its whole
    # record from disk and the ARC drops it on release, so disk bytes ≈ recordsize / bs × app.
    kw = dict(readers=[1, 2], bs="64K", recordsize="1M", file_size="32M")
    meta = ziosim.readers(MIRROR, primarycache="metadata", **kw)
    assert meta["amplification"].to_list() == pytest.approx([16, 16], rel=0.01)
    assert (meta["arc_dropped_on_release"] > 0).all()
    cached = ziosim.readers(MIRROR, primarycache="all", **kw)
    assert cached["amplification"].to_list() == pytest.approx([1, 1], rel=0.01)


def test_sparse_reads_no_disk():
    df = ziosim.readers(MIRROR, readers=[1, 2], sparse=True, **SMALL)
    assert (df["disk_bytes_read"] == 0).all() and (df["amplification"] == 0).all()
    assert (df["dmu_hole_blocks"] > 0).all()
    assert list(df["app_bytes_read"]) == [64 << 20, 128 << 20]


def test_arc_max_and_l2arc_columns():
    df = ziosim.readers(MIRROR, readers=[1], file_size="128M", arc_max="64M", l2arc="generic-ssd")
    row = df.iloc[0]
    assert row["arc_max_bytes"] == 64 << 20 and row["l2arc"] == "generic-ssd"
    assert row["arc_size_bytes"] <= 64 << 20
    # None or 0: the tunable (zfs_arc_max, or what tunables= sets), as the CLI's --arc-max 0
    for arc_max in (None, 0):
        df = ziosim.readers(MIRROR, readers=[1], file_size="1M", arc_max=arc_max, l2arc="",
                            tunables={"zfs_arc_max": "1G"})
        assert df["arc_max_bytes"].iloc[0] == 1 << 30 and df["l2arc"].iloc[0] is None


def test_python_policy_in_readers():
    @ziosim.mirror_policy("test_readers_d1")
    def always_d1(children, io):
        return 1

    df = ziosim.readers(MIRROR, readers=[2], per_disk=True, tunables={"mirror_policy": "test_readers_d1"}, **SMALL)
    assert set(df["mirror_policy"]) == {"test_readers_d1"}
    chosen = df.set_index("disk")["mirror_chosen"]
    assert chosen["d0"] == 0 and chosen["d1"] > 0


# ---------------------------------------------------------------------------- errors


BASE = ["--pool", MIRROR, "--readers", "1", "--file-size", "1M"]


@pytest.mark.parametrize("kwargs, fragment, cli, flag", [
    (dict(pool="mirror 2xnope"), 'unknown drive "nope"', ["--pool", "mirror 2xnope", "--file-size", "1M"], None),
    (dict(readers=[0]), "readers: 0 is not between 1 and 1024", ["--pool", MIRROR, "--readers", "0"], "--readers"),
    (dict(readers=[]), "readers: give at least one", None, None),
    (dict(recordsize=1000), "recordsize: must be a power of two", BASE + ["--recordsize", "1000"], "--recordsize"),
    (dict(compressratio=0.5), "compressratio: must be from 1 to 100", BASE + ["--compressratio", "0.5"],
     "--compressratio"),
    (dict(compression="gzip-9"), 'compression: "gzip-9" is not modelled', BASE + ["-o", "compression=gzip-9"],
     "--compression"),
    (dict(compression="off", compressratio=2), "compressratio: must be 1 with compression off",
     BASE + ["-o", "compression=off", "--compressratio", "2"], "--compressratio"),
    (dict(primarycache="most"), 'primarycache: "most" is not all, metadata or none',
     BASE + ["--primarycache", "most"], "--primarycache"),
    (dict(layout="zigzag"), "zigzag", BASE + ["--layout", "zigzag"], None),
    (dict(l2arc="nope"), 'unknown drive "nope"', BASE + ["--l2arc", "nope"], None),
    (dict(tunables={"nope": 1}), "tunables: nope: unknown tunable", BASE + ["--set", "nope=1"], "--set"),
    # (the message lists the known policies: in this process, the tests' Python ones too)
    (dict(tunables={"mirror_policy": "nope"}), "unknown mirror policy 'nope'", None, None),
    (dict(profile="solaris-1"), "profile", BASE + ["--profile", "solaris-1"], None),
    (dict(pool_state="cap=x"), "pool_state: 'cap=x': 'x' is not a whole percent",
     BASE + ["--pool-state", "cap=x"], "--pool-state"),
    (dict(pool_state="cap=0,frag=5"), "pool_state: 'cap=0,frag=5': frag=5 needs old data",
     BASE + ["--pool-state", "cap=0,frag=5"], "--pool-state"),
    # An ashift-12 mirror's smallest free segment, 4 KiB, weighs 95 in zfs_frag_table.
    (dict(pool_state="cap=5,frag=100"), "pool_state: frag=100 at cap=5 is out of reach on this pool",
     BASE + ["--pool-state", "cap=5,frag=100"], "--pool-state"),
])
def test_bad_input_names_the_argument_in_the_callers_language(kwargs, fragment, cli, flag, request):
    """A user error is a ValueError with the simulator's message, naming the keyword argument;
    the CLI prints the same message naming the flag."""
    kwargs = {"pool": MIRROR, "readers": [1], "file_size": "1M", **kwargs}
    with pytest.raises(ValueError, match=re.escape(fragment)) as info:
        ziosim.readers(**kwargs)
    assert "--" not in str(info.value).split(":")[0]
    if cli is None:
        return
    run = subprocess.run([request.getfixturevalue("ziosim_cli"), "readers", *cli], capture_output=True, text=True)
    assert run.returncode == 2, run.stderr
    python_name = str(info.value).split(":")[0]
    expected = str(info.value) if flag is None else flag + str(info.value)[len(python_name):]
    assert run.stderr.strip() == f"ziosim: {expected}"


def test_pool_state_keyword(ziosim_cli, tmp_path):
    """pool_state= lays old data out before the files: cap=0 is the empty pool; a fuller pool puts
    the file further in, a more fragmented one splits it into more extents; CAP and FRAG computed
    back are the ask. Bad input is refused in each front's language."""
    kw = dict(readers=[1], file_size="64M")
    empty = ziosim.readers(MIRROR, **kw)
    zero = ziosim.readers(MIRROR, pool_state="cap=0", **kw)
    mid = ziosim.readers(MIRROR, pool_state="frag=10,cap=30", **kw)
    full = ziosim.readers(MIRROR, pool_state="cap=80,frag=50", **kw)
    assert empty["pool_state"].isna().all()
    assert zero["pool_state"][0] == "cap=0,frag=0" and mid["pool_state"][0] == "cap=30,frag=10"
    same = [c for c in READERS_COLUMNS]
    pd.testing.assert_frame_equal(zero[same], empty[same])
    assert empty["placement_median_pct"][0] < 1 < 30 < mid["placement_median_pct"][0] < 40
    assert (mid["placement_pool_cap_pct"][0], mid["placement_pool_frag_pct"][0]) == (30, 10)
    assert (full["placement_pool_cap_pct"][0], full["placement_pool_frag_pct"][0]) == (80, 50)
    assert full["placement_extents"][0] > 10 * mid["placement_extents"][0]
    assert full["throughput_mb_s"][0] < mid["throughput_mb_s"][0]
    assert ziosim.readers(MIRROR, pool_state="cap=80,frag=50", **kw).equals(full)  # same seed, same result
    with pytest.raises(ValueError, match=re.escape("pool_state cap=30,frag=0 and layout fragmented:30 both")):
        ziosim.readers(MIRROR, pool_state="cap=30", layout="fragmented:30", **kw)
    # A scenario file names its file, line and key.
    scenario = tmp_path / "s.toml"
    scenario.write_text(f'[pool]\nspec = "{MIRROR}"\npool_state = "cap=200"\n[workload]\nkind = "readers"\n')
    run = subprocess.run([ziosim_cli, "run", str(scenario)], capture_output=True, text=True)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith(f"ziosim: {scenario}:3: pool.pool_state: 'cap=200': cap must be 0..95"), run.stderr
    assert run.stderr.count("\n") == 1


def test_dataset_properties_as_zfs_create_takes_them(ziosim_cli):
    """-o NAME=VALUE sets the same options as their flags, and a property the workload lacks is named."""
    flags = subprocess.run([ziosim_cli, "readers", *BASE, "--recordsize", "1M", "--primarycache", "metadata",
                            "--json"], capture_output=True, text=True, check=True)
    props = subprocess.run([ziosim_cli, "readers", *BASE, "-o", "recordsize=1M", "-o", "primarycache=metadata",
                            "--json"], capture_output=True, text=True, check=True)
    assert json.loads(flags.stdout) == json.loads(props.stdout)
    assert json.loads(props.stdout)["recordsize_bytes"] == 1 << 20
    bad = subprocess.run([ziosim_cli, "readers", *BASE, "-o", "checksum=sha256"], capture_output=True, text=True)
    assert bad.returncode == 2 and "-o: checksum is not a dataset property readers takes" in bad.stderr


def test_bad_types_and_the_size_grammar():
    with pytest.raises(TypeError, match="readers: expected an integer or a list of integers"):
        ziosim.readers(MIRROR, readers=5.0)
    with pytest.raises(TypeError, match="sparse: expected true or false"):
        ziosim.readers(MIRROR, sparse=[1])
    with pytest.raises(TypeError, match="readrs: readers\\(\\) has no such argument; did you mean readers"):
        ziosim.readers(MIRROR, readrs=[1])
    with pytest.raises(ValueError, match="bs"):
        ziosim.readers(MIRROR, bs="12Q")
    # One size grammar: a float byte count, decimal and binary units, a space before the unit.
    one = dict(readers=[1], file_size="1M", bs="64K")
    base = ziosim.readers(MIRROR, **one)
    assert ziosim.readers(MIRROR, **{**one, "file_size": 1048576.0}).equals(base)
    assert ziosim.readers(MIRROR, **{**one, "file_size": "1 MiB"}).equals(base)
    assert ziosim.readers(MIRROR, **{**one, "file_size": "1MB"})["file_size_bytes"][0] == 10**6
    assert ziosim.readers(MIRROR, **{**one, "file_size": 1e6})["file_size_bytes"][0] == 10**6


# ---------------------------------------------------------------------------- GIL, sweeps, plots


def test_readers_release_the_gil():
    thread = threading.Thread(target=ziosim.readers, args=(MIRROR,),
                              kwargs=dict(readers=[10, 10, 10], file_size="1G", bs="128K"))
    stamps = []
    start = time.perf_counter()
    thread.start()
    while thread.is_alive():
        stamps.append(time.perf_counter())
        sum(range(200))
    thread.join()
    elapsed = time.perf_counter() - start
    gaps = [b - a for a, b in zip(stamps, stamps[1:])]
    assert elapsed > 0.05, "the run is too short to tell"
    assert max(gaps) < 0.5 * elapsed, f"main thread stalled {max(gaps):.3f} s of a {elapsed:.3f} s run"


def sweep_point(**kw):
    return ziosim.readers(MIRROR, profile="freebsd-10", **SMALL, **kw)


GRID = {"readers": [1, 2, 5, 10], "tunables": [{"mirror_policy": p} for p in POLICIES]}


@pytest.fixture(scope="module")
def serial_sweep():
    frame = ziosim.sweep(sweep_point, GRID, workers=1)
    assert len(frame) == 4 * 3
    assert list(frame.columns[:2]) == ["readers", "tunables"]
    return frame


def test_sweep_equals_direct_calls(serial_sweep):
    """A readers × policies sweep gives the rows of one readers() call per policy."""
    for p in POLICIES:
        direct = sweep_point(readers=[1, 2, 5, 10], tunables={"mirror_policy": p})
        part = serial_sweep[serial_sweep["tunables"] == f"mirror_policy={p}"]
        part = part.drop(columns="tunables")[direct.columns].reset_index(drop=True)
        # (the sweep's categoricals hold every point's values, a direct call's its own)
        pd.testing.assert_frame_equal(part, direct, check_categorical=False)


def test_sweep_processes_equal_serial(serial_sweep):
    parallel = ziosim.sweep(sweep_point, GRID, workers=2)
    pd.testing.assert_frame_equal(parallel, serial_sweep)


def test_throughput_plot_on_readers_frame(serial_sweep, tmp_path):
    fig = ziosim.plot.throughput(serial_sweep)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert "readers" in ax.get_xlabel() and "MB/s" in ax.get_ylabel()
    assert {t.get_text() for t in ax.get_legend().get_texts()} == set(POLICIES)
    assert ax.get_legend().get_title().get_text() == "mirror_policy"
    assert all(list(line.get_xdata()) == [1, 2, 5, 10] for line in ax.get_lines())
    fig.savefig(tmp_path / "readers.png")
    assert (tmp_path / "readers.png").stat().st_size > 1000
