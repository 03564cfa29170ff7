"""Host profiles in Python: ``host=`` is the same as ``tunables=`` of the file's values, a bad file is a
ValueError naming its line, and ``calibrate(kind="host")`` writes a profile that a run takes."""

from __future__ import annotations

from pathlib import Path

import pytest

import ziosim

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "models" / "hosts" / "amd-epyc-2cpu-vm.toml"
HOLES = dict(readers=[1], sparse=True, bs="4K", file_size="4M")


def settings_of(path: Path) -> dict[str, int]:
    out = {}
    for line in path.read_text().splitlines():
        if line.startswith("ziosim_cpu_"):
            name, value = line.split(" = ")
            out[name] = int(value)
    return out


def test_host_is_its_tunables():
    by_host = ziosim.readers("wd-re4-1tb", host=SHIPPED, **HOLES)
    by_tunables = ziosim.readers("wd-re4-1tb", tunables=settings_of(SHIPPED), **HOLES)
    assert by_host.equals(by_tunables)
    assert not by_host.equals(ziosim.readers("wd-re4-1tb", **HOLES))


def test_bad_host_file_names_its_line(tmp_path):
    bad = tmp_path / "host.toml"
    bad.write_text('description = "x"\n[tunables]\nziosim_cpu_cores = 2\nzfs_arc_max = "1G"\n')
    with pytest.raises(ValueError, match=rf"^{bad}:4: zfs_arc_max: not a host profile tunable"):
        ziosim.readers("wd-re4-1tb", host=str(bad), **HOLES)


def test_calibrate_host_writes_a_profile_a_run_takes(tmp_path):
    out = tmp_path / "here.toml"
    figures = ziosim.calibrate(out, kind="host")
    assert set(figures["figure"]) == set(settings_of(SHIPPED)) | {"ziosim_cpu_decompress_mb_s"}
    measured = figures[~figures["estimated"]]
    assert dict(zip(measured["figure"], measured["value"])) == settings_of(out)
    sizes = ziosim.calibrate(tmp_path / "again.toml", kind="host", per_run=True)
    assert list(sizes["bytes"]) == [4 << 10, 16 << 10, 64 << 10, 128 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20]
    assert ziosim.readers("wd-re4-1tb", host=out, **HOLES)["throughput_mb_s"].iloc[0] > 0
