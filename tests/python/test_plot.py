"""Plots return matplotlib Figures with labelled axes that carry units."""

from __future__ import annotations

import io

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.container import ErrorbarContainer
from matplotlib.figure import Figure

import ziosim
import ziosim.plot

from conftest import MIRROR
from test_notebooks import KERNEL_NAME, _kernel_env, kernel_dir  # noqa: F401 (a fixture)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


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

    fig = ziosim.plot.throughput(pd.concat(frames))
    assert isinstance(fig, ziosim.plot.ZiosimFigure)
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
    both = pd.concat([df, ziosim.block_read("mirror 3xwd-re4-1tb", pattern="rand", depth=4, count=300,
                                            per_disk=True, tunables={"mirror_policy": "rotor"})])
    fig = ziosim.plot.disk_busy(both, hue="mirror_policy")
    assert len(fig.axes[0].patches) == 6


def test_scan_progress_picture(tmp_path):
    pool = "draid2:3d:1s 8xfixed:latency=4ms,bandwidth=150MB/s,rotational=yes,capacity=4G"
    df = ziosim.resilver(pool, replaced=["d1"], sequential=True, files=2, file_size="256M", per_disk_progress=True)
    assert set(df["disk"]) == {f"d{i}" for i in range(8)}
    assert df.loc[df["disk"] == "d1", "read_mb_s"].max() == 0  # the failed disk is read around
    assert df["write_mb_s"].sum() > 0  # the spare space takes the rebuilt columns
    fig = ziosim.plot.scan_progress(df, "write_mb_s")
    x, y = _labels(fig)
    assert "time" in x and "MB/s" in y
    _renders(fig, tmp_path, "scan")


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
    assert out.read_bytes()[:8] == PNG_MAGIC


# ---- no silent averaging, small multiples ----

READERS = [1, 2, 5, 10]


def _runs(**dims) -> pd.DataFrame:
    """A synthetic readers-like frame: one row per combination of ``dims`` and reader count,
    throughput = a distinct number per row (so an average would show)."""
    dims = {"pool": ["mirror 2xwd-re4-1tb"], "profile": ["openzfs-2.2"], "mirror_policy": ["rotor", "load_locality"],
            "file_size_bytes": [1 << 24], **dims}
    points = ziosim.grid_points({**dims, "readers": READERS})
    return pd.DataFrame([{**p, "throughput_mb_s": 10.0 * i + 1} for i, p in enumerate(points)])


def _per_disk(**dims) -> pd.DataFrame:
    dims = {"pool": ["mirror 3xwd-re4-1tb"], "mirror_policy": ["load_locality"], **dims}
    points = ziosim.grid_points({**dims, "disk": ["d0", "d1", "d2"]})
    return pd.DataFrame([{**p, "drive": "wd-re4-1tb", "busy_pct": 5.0 + i} for i, p in enumerate(points)])


def _drawn(fig: Figure) -> Figure:
    FigureCanvasAgg(fig).draw()
    return fig


def test_throughput_refuses_to_average_two_profiles_of_real_runs():
    one = ziosim.readers(MIRROR, readers=[1, 2], file_size="16M", profile="freebsd-10")
    two = pd.concat([one, ziosim.readers(MIRROR, readers=[1, 2], file_size="16M", profile="openzfs-2.2")],
                    ignore_index=True)
    ziosim.plot.throughput(one)  # one profile: nothing to average
    with pytest.raises(ValueError, match=r"several values of profile \('freebsd-10', 'openzfs-2.2'\)") as info:
        ziosim.plot.throughput(two)
    assert "hue=, col= or row=" in str(info.value) and "filter the frame" in str(info.value)
    fig = ziosim.plot.throughput(two, hue="profile")
    assert len(fig.axes[0].get_lines()) == 2


def test_refusal_names_every_mixed_dimension():
    frame = _runs(profile=["freebsd-10", "openzfs-2.2"], file_size_bytes=[1 << 24, 1 << 26])
    with pytest.raises(ValueError) as info:
        ziosim.plot.throughput(frame)
    message = str(info.value)
    assert "profile ('freebsd-10', 'openzfs-2.2')" in message and "file_size_bytes (16777216, 67108864)" in message
    assert "(readers, mirror_policy)" in message
    ziosim.plot.throughput(frame, col="profile", row="file_size_bytes")


def test_numeric_grid_column_of_a_sweep_is_a_dimension():
    frame = ziosim.sweep(lambda count, readers: {"throughput_mb_s": count * readers},
                         {"count": [100, 200], "readers": [1, 2]}, workers=1)
    assert frame.attrs[ziosim.plot.GRID_ATTR] == ["count", "readers"]
    with pytest.raises(ValueError, match=r"several values of count \(100, 200\)"):
        ziosim.plot.throughput(frame)
    fig = ziosim.plot.throughput(frame, hue="count")
    assert sorted(list(line.get_ydata()) for line in fig.axes[0].get_lines()) == [[100, 200], [200, 400]]


def test_replicates_are_averaged_only_when_asked():
    frame = pd.concat([_runs().assign(seed=s, throughput_mb_s=lambda f, s=s: f["throughput_mb_s"] + s)
                       for s in (1, 2, 3)], ignore_index=True)
    with pytest.raises(ValueError, match=r"differ only in seed.*aggregate='mean'"):
        ziosim.plot.throughput(frame)
    fig = ziosim.plot.throughput(frame, aggregate="mean")
    ax = fig.axes[0]
    assert "mean of 3 runs" in ax.get_ylabel() and "sd" in ax.get_ylabel()
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == 2
    rotor = frame[frame["mirror_policy"] == "rotor"].groupby("readers")["throughput_mb_s"]
    line = bars[0].lines[0]
    assert list(line.get_xdata()) == READERS and np.allclose(line.get_ydata(), rotor.mean())
    fig = ziosim.plot.throughput(frame, aggregate="median")
    assert "median of 3 runs" in fig.axes[0].get_ylabel()
    # Rows that nothing tells apart are replicates too; aggregate= does not cover a real dimension.
    with pytest.raises(ValueError, match=r"no identifying column tells them apart \(repetitions\?\)"):
        ziosim.plot.throughput(pd.concat([_runs(), _runs()]))
    with pytest.raises(ValueError, match="several values of profile"):
        ziosim.plot.throughput(pd.concat([frame, frame.assign(profile="freebsd-10")]), aggregate="mean")
    with pytest.raises(ValueError, match="aggregate must be"):
        ziosim.plot.throughput(frame, aggregate="max")


def test_col_facets_share_axes_and_are_titled():
    frame = _runs(profile=["freebsd-10", "openzfs-2.2"])
    fig = ziosim.plot.throughput(frame, col="profile")
    assert [ax.get_title() for ax in fig.axes] == ["profile = freebsd-10", "profile = openzfs-2.2"]
    left, right = fig.axes
    assert left.get_shared_y_axes().joined(left, right) and left.get_shared_x_axes().joined(left, right)
    assert "readers" in left.get_xlabel() and "MB/s" in left.get_ylabel() and right.get_ylabel() == ""
    for ax, profile in zip(fig.axes, ["freebsd-10", "openzfs-2.2"]):
        part = frame[(frame["profile"] == profile) & (frame["mirror_policy"] == "rotor")]
        rotor = next(line for line in ax.get_lines() if line.get_label() == "rotor")
        assert list(rotor.get_ydata()) == list(part["throughput_mb_s"])
        assert ax.get_ylim()[0] == 0 and ax.get_ylim()[1] >= frame["throughput_mb_s"].max()  # every line in view
    # one legend for the figure, right of every panel
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in fig.axes)
    _drawn(fig)
    legend = fig.legends[0].get_window_extent()
    assert all(legend.x0 >= ax.get_window_extent().x1 for ax in fig.axes)
    assert {t.get_text() for t in fig.legends[0].get_texts()} == {"rotor", "load_locality"}


def test_row_and_col_facets():
    frame = _runs(profile=["freebsd-10", "openzfs-2.2"], pool=["mirror 2xa", "mirror 3xa", "mirror 4xa"])
    fig = ziosim.plot.throughput(frame, row="profile", col="pool", title="eras x widths")
    assert len(fig.axes) == 6 and fig.get_suptitle() == "eras x widths"
    assert fig.axes[4].get_title() == "profile = openzfs-2.2 | pool = mirror 3xa"
    assert [bool(ax.get_xlabel()) for ax in fig.axes] == [False] * 3 + [True] * 3
    assert [bool(ax.get_ylabel()) for ax in fig.axes] == [True, False, False] * 2


def test_col_wrap_labels_the_panels_above_a_gap():
    frame = _runs(pool=[f"mirror {w}xa" for w in range(2, 7)])
    fig = _drawn(ziosim.plot.throughput(frame, col="pool", col_wrap=2))
    assert len(fig.axes) == 5  # 3 rows of 2, the last slot removed
    # panels 3 and 4 (the last row, and the one above the gap) carry x labels and tick labels
    assert [bool(ax.get_xlabel()) for ax in fig.axes] == [False, False, False, True, True]
    assert any(t.get_text() for t in fig.axes[3].get_xticklabels())


def test_figure_size_is_capped():
    frame = _runs(pool=[f"p{i}" for i in range(9)], profile=[f"e{i}" for i in range(7)])
    width, height = ziosim.plot.throughput(frame, col="pool", row="profile").get_size_inches()
    assert width <= 16 and height <= 12
    width, height = ziosim.plot.disk_busy(_per_disk(pool=[f"p{i}" for i in range(12)]), col="pool",
                                          col_wrap=12).get_size_inches()
    assert width <= 16 and height <= 12


def test_single_axes_legend_is_outside_the_lines():
    fig = _drawn(ziosim.plot.throughput(_runs(), title="one panel"))
    ax = fig.axes[0]
    assert ax.get_title() == "one panel" and fig.get_suptitle() == ""
    assert ax.get_legend().get_window_extent().x0 >= ax.get_window_extent().x1
    assert ax.get_legend().get_title().get_text() == "mirror_policy"


def test_integer_ticks_for_counts():
    frame = ziosim.readers(MIRROR, readers=[1, 2], file_size="16M")
    ax = _drawn(ziosim.plot.throughput(frame)).axes[0]
    assert all(float(t).is_integer() for t in ax.get_xticks())
    writers = pd.DataFrame({"writers": [1, 2, 3], "throughput_mb_s": [50.0, 90.0, 120.0]})
    ax = _drawn(ziosim.plot.throughput(writers)).axes[0]  # x defaults to writers when there are no readers
    assert "writers" in ax.get_xlabel() and all(float(t).is_integer() for t in ax.get_xticks())


def test_disk_busy_refuses_two_policies_and_facets_them():
    frame = _per_disk(mirror_policy=["rotor", "load_locality"])
    with pytest.raises(ValueError, match=r"several values of mirror_policy \('rotor', 'load_locality'\)"):
        ziosim.plot.disk_busy(frame)
    assert len(ziosim.plot.disk_busy(frame, hue="mirror_policy").axes[0].patches) == 6
    fig = ziosim.plot.disk_busy(frame, col="mirror_policy")
    assert [ax.get_title() for ax in fig.axes] == ["mirror_policy = rotor", "mirror_policy = load_locality"]
    assert [[p.get_height() for p in ax.patches] for ax in fig.axes] == [[5.0, 6.0, 7.0], [8.0, 9.0, 10.0]]
    replicated = pd.concat([frame.assign(seed=1), frame.assign(seed=2, busy_pct=frame["busy_pct"] + 2)])
    fig = ziosim.plot.disk_busy(replicated, hue="mirror_policy", aggregate="mean")
    ax = fig.axes[0]
    assert [p.get_height() for p in ax.patches[:3]] == [6.0, 7.0, 8.0]
    assert "mean of 2 runs" in ax.get_ylabel()
    assert sum(isinstance(c, ErrorbarContainer) for c in ax.containers) == 2


def test_facets_and_given_axes_do_not_mix():
    ax = Figure().add_subplot()
    with pytest.raises(ValueError, match="leave out ax="):
        ziosim.plot.throughput(_runs(), col="mirror_policy", ax=ax)
    with pytest.raises(ValueError, match="no rows"):
        ziosim.plot.throughput(_runs().iloc[:0])


def test_figures_display_in_jupyter_without_matplotlib_inline():
    fig = ziosim.plot.throughput(_runs(), col="mirror_policy")
    assert fig._repr_png_()[:8] == PNG_MAGIC
    formatters = pytest.importorskip("IPython.core.formatters")
    data, _ = formatters.DisplayFormatter().format(fig)
    assert data["image/png"][:8] == PNG_MAGIC
    raidz = ziosim.plot.raidz_map(ziosim.raidz_map(width=5, parity=1, ashift=12, psize="8K"))
    assert isinstance(raidz, ziosim.plot.ZiosimFigure)
    # A caller's own Figure stays theirs.
    mine = Figure()
    assert type(ziosim.plot.disk_busy(_per_disk(), ax=mine.add_subplot())) is Figure


def test_savefig_to_a_buffer():
    buffer = io.BytesIO()
    ziosim.plot.disk_busy(_per_disk(), col="pool").savefig(buffer, format="png")
    assert buffer.getvalue()[:8] == PNG_MAGIC


def test_in_a_jupyter_kernel_figures_show_without_matplotlib_inline(kernel_dir, tmp_path):
    """A real kernel (no %matplotlib inline, MPLBACKEND=Agg): a returned figure is a PNG output, and the
    sweep's progress bar (shown by default there) is text on stderr without warnings."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import warnings\nwarnings.simplefilter('always')\nimport ziosim, ziosim.plot\n"
                                  f"frame = ziosim.sweep(lambda r: ziosim.readers({MIRROR!r}, readers=r, "
                                  "file_size='16M'), {'r': [1, 2]}, workers=2)"),
        nbformat.v4.new_code_cell("ziosim.plot.throughput(frame, x='r')"),
    ])
    ksm = KernelSpecManager(kernel_dirs=[str(kernel_dir)], ensure_native_kernel=False)
    km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=ksm)
    nbclient.NotebookClient(nb, km=km, timeout=120, kernel_name=KERNEL_NAME,
                            resources={"metadata": {"path": str(tmp_path)}}).execute(env=_kernel_env(tmp_path))
    sweep_out, plot_out = (cell.outputs for cell in nb.cells)
    stderr = "".join(o.get("text", "") for o in sweep_out if o.get("name") == "stderr")
    assert "ziosim sweep (2 processes): 100%" in stderr and "2/2" in stderr and "Warning" not in stderr
    [result] = [o for o in plot_out if o.output_type == "execute_result"]
    assert "image/png" in result.data
