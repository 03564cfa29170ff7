"""The API returns DataFrames with the documented columns; errors keep the C++ messages."""

from __future__ import annotations

import json
import subprocess

import pandas as pd
import pytest

import ziosim

from conftest import MIRROR

#: The schema of a block-read result (sim/workload/block_read_front.cc), as the frames show it.
RUN_COLUMNS = ["pool", "profile", "mirror_policy", "pattern", "priority", "bs_bytes", "depth", "span_bytes",
               "faulted", "spared", "seed"]
SUMMARY_COLUMNS = RUN_COLUMNS + ["blocks", "bytes", "elapsed_s", "throughput_mb_s", "lat_mean_ms", "lat_p99_ms"]
#: The per-disk columns every pool workload shares (sim/zfs/pool_report.cc DisksToJson).
DISK_COLUMNS = ["disk", "drive", "vdev", "busy_pct", "reads", "read_bytes", "read_mb_s", "zios", "aggregated",
                "aggregated_zios", "gap_bytes", "split", "mean_active", "mean_queued", "mean_service_ms",
                "mirror_chosen", "vdev_cache_hits", "vdev_cache_delegations", "vdev_cache_misses"]
INTERVAL_COLUMNS = ["interval", "t_start_s", "t_end_s", "disk", "reads", "read_bytes", "read_ops_s", "read_mb_s"]


def test_drives():
    d = ziosim.drives()
    assert list(d.columns) == ["name", "kind", "description", "capacity_bytes", "rpm", "outer_mb_s", "inner_mb_s",
                               "avg_seek_ms", "cylinders", "zones", "read_mb_s", "figures_sourced", "figures_estimated",
                               "file"]
    assert "wd-re4-1tb" in set(d["name"])
    assert set(d["kind"]) == {"hdd", "ssd"}
    row = d.set_index("name").loc["wd-re4-1tb"]
    assert row["rpm"] == 7200 and row["capacity_bytes"] > 0.9e12


def test_drive_values():
    v = ziosim.drive_values("wd-re4-1tb")
    assert list(v.columns) == ["drive", "key", "value", "estimated", "provenance"]
    assert "rpm" in set(v["key"]) and v["provenance"].str.len().gt(0).all()


def test_tunables_and_profiles():
    t = ziosim.tunables()
    assert list(t.columns) == ["name", "kind", "unit", "fallback", "values", "doc"]
    assert "mirror_policy" in set(t["name"])
    p = ziosim.profiles()
    assert list(p.columns) == ["name", "description", "changes", "settings"]
    assert {"freebsd-10", "openzfs-2.2"} <= set(p["name"])
    resolved = ziosim.tunables(profile="freebsd-10", overrides={"zfs_vdev_mirror_rotating_seek_inc": 7})
    assert list(resolved.columns) == list(t.columns) + ["value", "changed"]
    row = resolved.set_index("name").loc["zfs_vdev_mirror_rotating_seek_inc"]
    assert row["value"] == "7" and bool(row["changed"])


def test_block_read_summary():
    df = ziosim.block_read(pool=MIRROR, pattern="seq", bs="128K", depth=4, count=1000, profile="freebsd-10",
                           tunables={"zfs_vdev_mirror_rotating_seek_inc": 5})
    assert isinstance(df, pd.DataFrame) and len(df) == 1
    assert list(df.columns) == SUMMARY_COLUMNS
    r = df.iloc[0]
    assert r["pool"] == MIRROR and r["profile"] == "freebsd-10" and r["mirror_policy"] == "load_locality"
    assert r["blocks"] == 1000 and r["bytes"] == 1000 * 128 * 1024 and r["bs_bytes"] == 131072
    assert r["throughput_mb_s"] > 0 and r["lat_p99_ms"] >= r["lat_mean_ms"] * 0.5


def test_sizes_accept_int_or_text():
    a = ziosim.block_read(MIRROR, bs="128K", count=200)
    b = ziosim.block_read(MIRROR, bs=131072, count=200)
    pd.testing.assert_frame_equal(a, b)


def test_block_read_per_disk():
    df = ziosim.block_read(MIRROR, pattern="rand", depth=4, count=500, per_disk=True)
    assert list(df.columns) == RUN_COLUMNS + DISK_COLUMNS
    assert list(df["disk"]) == ["d0", "d1"]
    assert df["reads"].sum() >= 500 and df["mirror_chosen"].sum() == 500


def test_block_read_per_seek():
    kw = dict(pattern="rand", depth=4, count=500)
    seeks = ziosim.block_read(MIRROR, per_seek=True, **kw)
    assert list(seeks.columns) == RUN_COLUMNS + ["disk", "seek_min_cylinders", "seek_max_cylinders", "seeks"]
    disks = ziosim.block_read(MIRROR, per_disk=True, **kw).set_index("disk")
    for disk, buckets in seeks.groupby("disk", observed=True):
        # log2 buckets, contiguous from 0: [0, 2), [2, 4), [4, 8), ...
        assert list(buckets["seek_min_cylinders"])[0] == 0
        assert list(buckets["seek_min_cylinders"])[1:] == list(buckets["seek_max_cylinders"])[:-1]
        # one seek per media access: at most one per read, fewer where the drive's cache served it
        assert 0 < buckets["seeks"].sum() <= disks.loc[disk, "reads"]
        # random 4K reads over a 1 TB drive travel far: most seeks cross thousands of cylinders
        far = buckets.loc[buckets["seek_min_cylinders"] >= 1024, "seeks"].sum()
        assert far >= 0.8 * buckets["seeks"].sum()
    with pytest.raises(ValueError, match="per_disk, per_seek: one shape at a time"):
        ziosim.block_read(MIRROR, count=10, per_disk=True, per_seek=True)


def test_block_read_intervals():
    df = ziosim.block_read(MIRROR, count=500, per_disk=True, interval_ms=50)
    assert list(df.columns) == RUN_COLUMNS + INTERVAL_COLUMNS
    assert df["interval"].nunique() >= 2 and set(df["disk"]) == {"d0", "d1"}
    # without per_disk, the interval report is in the result and the frame is the run's one row
    assert len(ziosim.block_read(MIRROR, count=10, interval_ms=50)) == 1


def test_block_read_io_log(tmp_path):
    log = tmp_path / "io.csv"
    ziosim.block_read(MIRROR, count=100, io_log=log)
    frame = ziosim.plot.read_io_log(log)
    assert len(frame) >= 100 and set(frame["disk"]) <= {"d0", "d1"}


def test_block_read_faulted():
    df = ziosim.block_read(MIRROR, pattern="rand", count=200, faulted=["d0"], per_disk=True)
    assert df.set_index("disk").loc["d0", "reads"] == 0


def test_disk_bench():
    df = ziosim.disk_bench("wd-re4-1tb", pattern="rand", bs="4K", qd=4, count=500)
    assert list(df.columns) == ["drive", "pattern", "bs_bytes", "qd", "jobs", "span", "policy", "seed",
                                "effective_qd", "effective_jobs", "note", "ios", "bytes", "elapsed_s",
                                "throughput_mb_s", "iops", "lat_mean_us", "lat_p50_us", "lat_p99_us", "lat_p999_us",
                                "busy_pct"]
    r = df.iloc[0]
    assert r["ios"] == 500 and 50 < r["iops"] < 1000 and r["bs_bytes"] == 4096
    with pytest.raises(ValueError, match="count: exclusive with runtime_s"):
        ziosim.disk_bench("wd-re4-1tb", count=10, runtime_s=1)


def test_raidz_map():
    df = ziosim.raidz_map(width=5, parity=1, ashift=12, psize="128K", blocks=3)
    assert list(df.columns) == ["layout", "width", "parity", "block", "block_offset", "asize", "skip_sectors", "row",
                                "column", "child", "offset", "size", "role", "data_start", "ashift"]
    assert set(df["layout"]) == {"raidz1"} and set(df["width"]) == {5} and set(df["row"]) <= {0, -1}
    assert set(df["block"]) == {0, 1, 2}
    first = df[df["block"] == 0]
    assert first["role"].iloc[0] == "P"
    data = first[first["role"] == "D"]
    assert data["size"].sum() == 128 * 1024
    assert list(data["data_start"]) == list(data["size"].cumsum().shift(fill_value=0))
    # asize: 32 data sectors + 8 parity, rounded up to a multiple of parity+1 = 40 sectors
    assert first["asize"].iloc[0] == 40 * 4096
    # RAID-Z2, 8K: 2 data + 2 parity sectors, rounded up to a multiple of 3: 2 skip sectors
    small = ziosim.raidz_map(5, 2, 12, 8192)
    assert small["skip_sectors"].iloc[0] == 2 and (small["role"] == "S").sum() == 2
    assert small["asize"].iloc[0] == 6 * 4096


def test_scrub_frames_and_eras():
    kw = dict(files=2, file_size="32M", layout="writers:2")
    pool = "mirror 2xfixed:latency=4ms,bandwidth=150MB/s,rotational=yes,capacity=4G"
    one = ziosim.scrub(pool, profile="openzfs-2.1", **kw)
    assert len(one) == 1 and one["scan"].iloc[0] == "sorted" and bool(one["complete"].iloc[0])
    # A scrub reads both copies: the disks read twice what it issues (one DVA, two children),
    # and the walk's own reads of the indirect blocks (one child each).
    disks = ziosim.scrub(pool, profile="openzfs-2.1", per_disk=True, **kw)
    walk = disks["read_bytes"].sum() - 2 * one["issued_bytes"].iloc[0]
    assert 0 < walk <= one["indirect_reads"].iloc[0] * 128 * 1024
    assert one["issued_bytes"].iloc[0] == one["to_examine_bytes"].iloc[0] > 64 * 2**20
    assert ziosim.scrub(pool, profile="zol-0.7", **kw)["scan"].iloc[0] == "legacy"
    progress = ziosim.scrub(pool, profile="openzfs-2.1", progress=True, **kw)
    assert list(progress["phase"][:1]) == ["scanning"] and progress["issued_bytes"].is_monotonic_increasing
    part = ziosim.scrub(pool, profile="openzfs-2.1", stop_after="16M", **kw)
    assert not bool(part["complete"].iloc[0]) and part["predicted_s"].iloc[0] > part["elapsed_s"].iloc[0]


def test_scrub_and_readers_share_the_disks():
    pool = "raidz2 5xfixed:latency=4ms,bandwidth=150MB/s,rotational=yes,capacity=4G"
    kw = dict(files=2, file_size="64M", profile="openzfs-2.1")
    alone = ziosim.scrub(pool, **kw)
    both = ziosim.scrub(pool, readers=2, **kw)
    readers = ziosim.readers(pool, readers=[2], file_size="64M", profile="openzfs-2.1")
    # What the scrub costs the readers, and the readers the scrub.
    assert both["readers_mb_s"].iloc[0] < readers["throughput_mb_s"].iloc[0]
    assert both["elapsed_s"].iloc[0] > alone["elapsed_s"].iloc[0]
    assert alone["readers_mb_s"].iloc[0] == 0 and both["readers"].iloc[0] == 2
    with pytest.raises(ValueError, match="^readers: 3 readers need as many files"):
        ziosim.scrub(pool, readers=3, **kw)


def test_scrub_of_a_degraded_pool_reads_around_the_failed_disk():
    pool = "raidz2 6xfixed:latency=4ms,bandwidth=150MB/s,rotational=yes,capacity=4G"
    disks = ziosim.scrub(pool, faulted=["d2"], files=1, file_size="32M", per_disk=True).set_index("disk")
    assert disks.loc["d2", "reads"] == 0 and (disks.drop("d2")["reads"] > 0).all()
    with pytest.raises(ValueError, match="^faulted: the pool cannot lose that many disks"):
        ziosim.scrub(pool, faulted=["d0", "d1", "d2"], files=1, file_size="32M")
    # The spelling: --fail for the disk a resilver replaces.
    assert ziosim.resilver(pool, replaced=["d2"], files=1, file_size="32M")["replaced"].iloc[0] == "d2"


def test_resilver_writes_the_replaced_disks_part():
    pool = "raidz2 6xfixed:latency=4ms,bandwidth=150MB/s,rotational=yes,capacity=4G"
    disks = ziosim.resilver(pool, replaced=["d1"], files=2, file_size="32M", per_disk=True).set_index("disk")
    assert disks.loc["d1", "reads"] == 0 and (disks.drop("d1")["reads"] > 0).all()
    one = ziosim.resilver(pool, replaced=["d1"], files=2, file_size="32M")
    # d1 held a sixth of the columns: a quarter of the 64 MiB of data (4 data + 2 parity columns).
    assert one["replaced"].iloc[0] == "d1"
    assert 15 * 2**20 < one["repair_bytes"].iloc[0] < 23 * 2**20
    with pytest.raises(ValueError, match="^replaced: no disk named 'd9'"):
        ziosim.resilver(pool, replaced=["d9"], files=1)


def test_draid_map():
    # zpool create's defaults: draid2 over 12 disks with one spare is 8 data + 2 parity per group.
    df = ziosim.draid_map("draid2:1s", ashift=12, psize="20K", children=12)
    assert set(df["layout"]) == {"draid2:8d:12c:1s"} and set(df["width"]) == {12} and set(df["parity"]) == {2}
    cols = df[df["role"] != "S"]
    assert len(cols) == 10 and list(cols["role"][:3]) == ["P", "Q", "D"]
    assert cols.loc[cols["role"] == "D", "size"].sum() == 20 * 1024
    # 5 data sectors + 2 parity fill 7 of the 10 columns: 3 zero-filled padding sectors make the full stripe.
    assert (df["role"] == "S").sum() == 3 and df["asize"].iloc[0] == 10 * 4096
    assert df["child"].between(0, 11).all() and cols["child"].nunique() == 10
    # A block past the end of its group continues in the next one: row 1.
    group = 9 * 16 * 2**20
    span = ziosim.draid_map("draid1:8d:14c:2s", ashift=12, psize="128K", offset=group - 2 * 9 * 4096)
    assert set(span["row"]) == {0, 1} and span.loc[span["role"] == "D", "size"].sum() == 128 * 1024
    # The same frame as the CLI's JSON.
    fig = ziosim.plot.raidz_map(df)
    assert fig.axes[0].get_title().startswith("dRAID draid2:8d:12c:1s, 12 children")


def test_block_read_on_draid_degraded_and_spared():
    pool = "draid2:4d:1s 7xgeneric-ssd"
    kw = dict(pattern="rand", count=400, depth=4, per_disk=True)
    normal = ziosim.block_read(pool, **kw).set_index("disk")
    degraded = ziosim.block_read(pool, faulted=["d2"], **kw).set_index("disk")
    spared = ziosim.block_read(pool, spared=["d2"], **kw).set_index("disk")
    assert normal.loc["d2", "reads"] > 0
    assert degraded.loc["d2", "reads"] == 0 and spared.loc["d2", "reads"] == 0
    # Reconstruction reads parity: more child reads in all than with every disk there.
    assert degraded["reads"].sum() > normal["reads"].sum()
    # A rebuilt disk is read from the spare space on the others: as many reads as a healthy pool.
    assert spared["reads"].sum() == normal["reads"].sum()
    assert set(spared["spared"]) == {"d2"}


def test_validate_disksim(disksim_dir, tmp_path):
    trace = tmp_path / "short.trace"
    lines = (disksim_dir / "hp_c2247a.trace").read_text().splitlines()[:300]
    trace.write_text("\n".join(lines) + "\n")
    s = ziosim.validate_disksim(disksim_dir / "hp_c2247a.parv", trace)
    assert isinstance(s, pd.Series)
    for key in ("drive", "requests", "measured_mean_ms", "sim_mean_ms", "mean_error_pct", "demerit_ms",
                "ignored_keys"):
        assert key in s.index
    assert s["requests"] == 300
    rows = ziosim.validate_disksim(disksim_dir / "hp_c2247a.parv", trace, per_request=True)
    assert len(rows) == 300 and {"i", "op", "measured_ms", "sim_ms", "cache", "seek_ms"} <= set(rows.columns)
    assert rows.attrs["summary"]["requests"] == 300


def test_validate_disksim_is_the_cli_s_replay(disksim_dir, ziosim_cli, tmp_path):
    """The trace streams through the replay as in the CLI (three of the reader's 4,096-record
    batches and a part): the same figures as --json and the same rows as --per-request."""
    lines = (disksim_dir / "hp_c2247a.trace").read_text().splitlines()[:3 * 4096 + 100]
    trace = tmp_path / "batches.trace"
    trace.write_text("\n".join(lines) + "\n")
    parv = disksim_dir / "hp_c2247a.parv"
    rows = ziosim.validate_disksim(parv, trace, per_request=True)
    csv = tmp_path / "rows.csv"
    out = subprocess.run([ziosim_cli, "validate-disksim", str(parv), str(trace), "--json", "--per-request", str(csv)],
                         check=True, capture_output=True, text=True).stdout
    host_speed = {"wall_seconds", "requests_per_sec"}
    cli = {k: v for k, v in json.loads(out).items() if k not in host_speed}
    assert {k: v for k, v in rows.attrs["summary"].items() if k in cli} == cli
    assert cli["requests"] == len(lines)
    cli_rows = pd.read_csv(csv, keep_default_na=False, na_values=[""])
    pd.testing.assert_frame_equal(rows, cli_rows, check_dtype=False, check_exact=True)


def test_validate_disksim_full_matches_readme(disksim_dir):
    s = ziosim.validate_disksim(disksim_dir / "hp_c2247a.parv", disksim_dir / "hp_c2247a.trace")
    assert s["requests"] == 9999
    assert s["demerit_ms"] == pytest.approx(0.0925, abs=5e-4)


# ---------------------------------------------------------------------------- errors


@pytest.mark.parametrize("pool, fragment", [
    ("mirror 2xnope", 'unknown drive "nope"'),
    ("mirrr 2xwd-re4-1tb", 'unknown drive or keyword "mirrr"'),
])
def test_bad_pool_is_value_error(pool, fragment):
    with pytest.raises(ValueError, match=fragment):
        ziosim.block_read(pool, count=10)


def test_unknown_drive_is_value_error():
    with pytest.raises(ValueError, match='unknown drive "nope"; known drives: .*wd-re4-1tb'):
        ziosim.disk_bench("nope")


def test_same_message_as_cli(ziosim_cli):
    """The Python message is the C++ one the CLI prints after "ziosim: ", naming the argument as
    Python spells it where the CLI names its flag."""
    for args, call, python, flag in [
        (["block-read", "--pool", "mirror 2xnope"], lambda: ziosim.block_read("mirror 2xnope"), "", ""),
        (["disk-bench", "--drive", "nope"], lambda: ziosim.disk_bench("nope"), "", ""),
        (["block-read", "--pool", MIRROR, "--set", "nope=1"],
         lambda: ziosim.block_read(MIRROR, tunables={"nope": 1}), "tunables", "--set"),
        (["block-read", "--pool", MIRROR, "--count", "0"], lambda: ziosim.block_read(MIRROR, count=0),
         "count", "--count"),
    ]:
        cli = subprocess.run([ziosim_cli, *args], capture_output=True, text=True)
        assert cli.returncode == 2, cli.stderr
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value).startswith(python)
        assert cli.stderr.strip() == f"ziosim: {flag}{str(info.value)[len(python):]}"


def test_other_user_errors():
    with pytest.raises(ValueError, match="unknown tunable"):
        ziosim.block_read(MIRROR, tunables={"no_such_tunable": 1})
    with pytest.raises(ValueError, match="unknown mirror policy 'nope'"):
        ziosim.block_read(MIRROR, tunables={"mirror_policy": "nope"})
    with pytest.raises(ValueError, match="^bs: "):
        ziosim.block_read(MIRROR, bs="12Q")
    with pytest.raises(ValueError, match="too many faulted"):
        ziosim.block_read(MIRROR, faulted=["d0", "d1"])
    # A psize that is not a whole number of sectors is padded to one, as zio_vdev_io_start does.
    assert ziosim.raidz_map(5, 1, 12, 1000).equals(ziosim.raidz_map(5, 1, 12, 4096))
    with pytest.raises(ValueError, match="parity"):
        ziosim.raidz_map(3, 3, 12, 4096)
    with pytest.raises(ValueError, match="unknown profile|profile"):
        ziosim.block_read(MIRROR, profile="solaris-1")
    with pytest.raises(ValueError, match="bs: 4096.5 is not a whole number of bytes"):
        ziosim.block_read(MIRROR, bs=4096.5)
    with pytest.raises(TypeError, match="bs: expected a size"):
        ziosim.block_read(MIRROR, bs=True)
    with pytest.raises(TypeError, match="blocksize: block_read\\(\\) has no such argument; did you mean bs"):
        ziosim.block_read(MIRROR, blocksize=4096)


def test_cli_installed(ziosim_cli):
    out = subprocess.run([ziosim_cli, "drives"], capture_output=True, text=True, check=True).stdout
    assert "wd-re4-1tb" in out


def test_frames_carry_units_and_the_run():
    df = ziosim.block_read(MIRROR, count=50)
    assert df.attrs["workload"] == "block-read" and df.attrs["run"]["bs_bytes"] == 128 << 10
    assert df.attrs["units"]["throughput_mb_s"].startswith("MB/s") and df.attrs["units"]["lat_p99_ms"] == "ms"
    assert df["pool"].dtype == "category" and df["mirror_policy"].dtype == "category"
