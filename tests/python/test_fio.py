"""ziosim.fio: fio job files on a simulated drive or pool, fio's JSON as a DataFrame."""

from __future__ import annotations

import json
import math

import pytest

import ziosim

JOB = """
[global]
rw=randread
bs=4k
direct=1
runtime=500ms
time_based
[psync]
ioengine=psync
[qd16]
stonewall
ioengine=libaio
iodepth=16
"""


def test_rows_per_job_and_ncq_on_a_raw_drive(tmp_path):
    path = tmp_path / "ncq.fio"
    path.write_text(JOB)
    df = ziosim.fio(path, "wd-re4-1tb")
    assert list(df["jobname"]) == ["psync", "qd16"]
    assert list(df["effective_iodepth"]) == [1, 16]
    assert list(df["groupid"]) == [0, 1]
    assert (df["bs_bytes"] == 4096).all()
    # NCQ reorders 16 queued random reads: more IOPS than one at a time.
    assert df["iops"][1] > 1.5 * df["iops"][0]
    assert df["clat_p99_us"][0] >= df["clat_p50_us"][0] > 0
    assert math.isclose(df["throughput_mb_s"][0], df["iops"][0] * 4096 / 1e6, rel_tol=1e-3)
    doc = df.attrs["fio_json"]
    assert doc["jobs"][0]["read"]["clat_ns"]["percentile"]["99.000000"] > 0
    # The same text gives the same run.
    again = ziosim.fio(JOB, "wd-re4-1tb")
    assert again.attrs["fio_json"] == doc


def test_pool_target_and_errors():
    job = "[j]\nrw=randread\nbs=16k\nioengine=libaio\niodepth=8\ndirect=1\nsize=32m\n"
    df = ziosim.fio(job, "mirror 2xwd-re4-1tb", profile="zol-0.7", recordsize="16K")
    assert df["effective_iodepth"][0] == 1
    assert "ZFS before 2.3 ignores O_DIRECT" in df.attrs["notes"][0]
    assert df["read_ios"][0] == 32 * 1024 // 16
    with pytest.raises(ValueError, match="profile: applies to a pool target"):
        ziosim.fio(job, "wd-re4-1tb", profile="zol-0.7")
    with pytest.raises(ValueError, match=r"<job>:2: unknown fio option 'bogus'"):
        ziosim.fio("[j]\nbogus=1\n", "wd-re4-1tb")
    assert ziosim.fio("[j]\nrw=write\nsize=1m\n", "1xwd-re4-1tb")["write_ios"][0] == 256  # the pool's write path


def test_arguments_are_the_cli_options(tmp_path):
    job = "[j]\nrw=randread\nbs=4k\nsize=1m\n"
    with pytest.raises(ValueError, match=r"^profile: applies to a pool target, and target wd-re4-1tb is a raw drive "
                                         r"\(write 1xwd-re4-1tb for a one-disk pool\)$"):
        ziosim.fio(job, "wd-re4-1tb", profile="zol-0.7")
    with pytest.raises(TypeError, match="^job: fio\\(\\) has no such argument; did you mean jobfile\\?"):
        ziosim.fio(job="x.fio", target="wd-re4-1tb")
    with pytest.raises(ValueError, match=r"^output_format: \"xml\" is not json or normal$"):
        ziosim.fio(job, "wd-re4-1tb", output_format="xml")
    # output= writes fio's report, as --output does; the frame is the same run.
    out = tmp_path / "report.json"
    df = ziosim.fio(job, "wd-re4-1tb", output=str(out), output_format="json")
    assert json.loads(out.read_text()) == df.attrs["fio_json"]
    assert df["target_kind"][0] == "drive" and df["rw"][0] == "randread" and df["read_ios"][0] == 256
