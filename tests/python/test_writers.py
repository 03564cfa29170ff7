"""ziosim.writers: N concurrent dd writers through the write path, as a DataFrame."""

from __future__ import annotations

import json
import math
import subprocess

import pandas as pd
import pytest

import ziosim

from conftest import MIRROR

SMALL = {"file_size": "32M", "bs": "1M"}


def test_one_row_per_writer_count_same_as_cli_json(ziosim_cli):
    df = ziosim.writers(MIRROR, writers=[1, 2], read_back=True, **SMALL)
    assert list(df["writers"]) == [1, 2]
    assert list(df["app_bytes_written"]) == [32 << 20, 64 << 20]
    assert (df["read_back_mb_s"] > 0).all() and (df["txgs"] >= 1).all()
    cli = subprocess.run([ziosim_cli, "writers", "--pool", MIRROR, "--writers", "1,2", "--file-size", "32M",
                          "--read-back", "--json"], capture_output=True, text=True, check=True)
    for run, (_, row) in zip(json.loads(cli.stdout)["runs"], df.iterrows()):
        assert row["throughput_mb_s"] == pytest.approx(run["throughput_mb_s"], rel=1e-12)
        assert row["disk_bytes_written"] == run["disk_bytes_written"]
        assert row["read_back_mb_s"] == pytest.approx(run["read_back_mb_s"], rel=1e-12)


def test_per_disk_and_no_read_back():
    df = ziosim.writers(MIRROR, writers=1, per_disk=True, **SMALL)
    assert list(df["disk"]) == ["d0", "d1"]
    summary = ziosim.writers(MIRROR, writers=1, **SMALL)
    assert math.isnan(summary["read_back_mb_s"][0])


def test_deterministic_and_bad_input():
    a = ziosim.writers(MIRROR, writers=[2], tunables={"zfs_dirty_data_max": "16M"}, **SMALL)
    b = ziosim.writers(MIRROR, writers=[2], tunables={"zfs_dirty_data_max": "16M"}, **SMALL)
    pd.testing.assert_frame_equal(a, b)
    with pytest.raises(ValueError, match="writers"):
        ziosim.writers(MIRROR, writers=[0], **SMALL)
