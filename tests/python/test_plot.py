"""Plots return matplotlib Figures with labelled axes that carry units."""

from __future__ import annotations

import matplotlib
import pytest
from matplotlib.figure import Figure

import ziosim
import ziosim.plot

from conftest import MIRROR


def _labels(fig: Figure) -> tuple[str, str]:
    ax = fig.axes[0]
    return ax.get_xlabel(), ax.get_ylabel()


def _renders(fig: Figure, tmp_path, name: str) -> None:
    path = tmp_path / f"{name}.png"
    fig.savefig(path)
    assert path.stat().st_size > 1000


def test_no_gui_backend_needed():
    import ziosim.plot as p

    assert "matplotlib.pyplot" not in p.__dict__
    assert matplotlib.get_backend() is not None


def test_throughput_vs_readers_generic(tmp_path):
    # Any frame with readers / throughput / policy columns (readers land later).
    frames = []
    for policy in ("rotor", "load_locality"):
        for depth in (1, 2, 4):
            f = ziosim.block_read(MIRROR, pattern="rand", depth=depth, count=300,
                                  tunables={"mirror_policy": policy})
            frames.append(f.assign(readers=depth, policy=policy))
    import pandas as pd

    fig = ziosim.plot.throughput(pd.concat(frames))
    assert isinstance(fig, Figure)
    x, y = _labels(fig)
    assert "readers" in x and "MB/s" in y
    assert {t.get_text() for t in fig.axes[0].get_legend().get_texts()} == {"rotor", "load_locality"}
    _renders(fig, tmp_path, "throughput")
    fig = ziosim.plot.throughput(pd.concat(frames), x="depth")
    assert "(I/Os)" in _labels(fig)[0]


def test_disk_busy(tmp_path):
    df = ziosim.block_read("mirror 3xwd-re4-1tb", pattern="rand", depth=4, count=300, per_disk=True)
    fig = ziosim.plot.disk_busy(df)
    x, y = _labels(fig)
    assert "disk" in x and "%" in y
    assert len(fig.axes[0].patches) == 3
    _renders(fig, tmp_path, "busy")
    import pandas as pd

    both = pd.concat([df, ziosim.block_read("mirror 3xwd-re4-1tb", pattern="rand", depth=4, count=300,
                                            per_disk=True, tunables={"mirror_policy": "rotor"})])
    fig = ziosim.plot.disk_busy(both, hue="mirror_policy")
    assert len(fig.axes[0].patches) == 6


def test_raidz_map_picture(tmp_path):
    df = ziosim.raidz_map(width=6, parity=2, ashift=12, psize="8K", blocks=6)  # 2 data + 2 parity + 2 skip
    fig = ziosim.plot.raidz_map(df)
    x, y = _labels(fig)
    assert "child" in x and "KiB" in y
    legend = {t.get_text() for t in fig.axes[0].get_legend().get_texts()}
    assert {"P parity", "Q parity"} <= legend and any("data" in t for t in legend)
    assert "skip (pad) sector" in legend
    _renders(fig, tmp_path, "raidz")


def test_io_timeline(tmp_path):
    log = tmp_path / "io.csv"
    ziosim.block_read(MIRROR, pattern="rand", depth=4, count=200, io_log=log)
    fig = ziosim.plot.io_timeline(log)
    x, y = _labels(fig)
    assert "(ms)" in x and "disk" in y
    assert len(fig.axes[0].patches) >= 200
    _renders(fig, tmp_path, "timeline")
    zoom = ziosim.plot.io_timeline(ziosim.plot.read_io_log(log), start_ms=0, end_ms=50)
    assert zoom.axes[0].get_xlim() == (0, 50)


def test_draws_into_given_axes():
    fig = Figure()
    ax = fig.add_subplot()
    df = ziosim.block_read(MIRROR, count=50, per_disk=True)
    assert ziosim.plot.disk_busy(df, ax=ax) is fig


def test_label_units():
    assert ziosim.plot.label("sim_p90_ms") == "sim p90 (ms)"
    assert ziosim.plot.label("throughput_mb_s") == "throughput (MB/s, MB = 10^6 B)"
    assert ziosim.plot.label("read_bytes") == "read (bytes)"
    with pytest.raises(ValueError):
        ziosim.plot.throughput(ziosim.drives())


@pytest.mark.parametrize("sweep", ["readers", "writers"])
def test_cli_plot_option_draws_a_png(tmp_path, sweep):
    """`ziosim readers|writers ... --plot F.png` (the CLI installed beside this interpreter) draws through ziosim.plot."""
    import os
    import shutil
    import subprocess
    import sys

    cli = os.path.join(os.path.dirname(sys.executable), "ziosim")
    if not os.path.exists(cli):
        cli = shutil.which("ziosim")
    if cli is None:
        import pytest

        pytest.skip("the ziosim command is not installed beside this interpreter")
    out = tmp_path / f"{sweep}.png"
    env = dict(os.environ, ZIOSIM_PYTHON=sys.executable)
    run = subprocess.run([cli, sweep, "--pool", "mirror 2xwd-re4-1tb", f"--{sweep}", "1,2", "--file-size", "64M",
                          "--plot", str(out)], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert out.stat().st_size > 10_000
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
