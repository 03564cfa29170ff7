"""ziosim.sweep: same frame, row for row, serially, in processes and on Dask; a bar that moves."""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import time
import types
import warnings

import cloudpickle
import pandas as pd
import pytest

import ziosim

from conftest import MIRROR

# Ship this module's functions by value, as for a notebook's.
cloudpickle.register_pickle_by_value(sys.modules[__name__])

# The module (the package's attribute `sweep` is the function).
sweep_module = importlib.import_module("ziosim.sweep")


@ziosim.mirror_policy("test_sweep_d1")
def sweep_d1(children, io):
    return 1


GRID = {
    "pool": [MIRROR, "mirror 3xwd-re4-1tb"],
    "pattern": ["seq", "rand"],
    "depth": [1, 4],
    "tunables": [{"mirror_policy": "load_locality"}, {"mirror_policy": "test_sweep_d1"}],
}


def point(**kw):
    return ziosim.block_read(count=200, per_disk=True, **kw)


def test_grid_points_order():
    pts = ziosim.grid_points({"a": [1, 2], "b": ["x", "y", "z"]})
    assert pts[:3] == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 1, "b": "z"}] and len(pts) == 6
    with pytest.raises(TypeError):
        ziosim.grid_points({"a": "abc"})


@pytest.fixture(scope="module")
def serial():
    frame = ziosim.sweep(point, GRID, workers=1)
    # 16 points, per-disk rows: 8 points on 2 disks, 8 on 3
    assert len(frame) == 8 * 2 + 8 * 3
    assert list(frame.columns[:4]) == ["pool", "pattern", "depth", "tunables"]
    d1 = frame[(frame["tunables"] == "mirror_policy=test_sweep_d1") & (frame["disk"] == "d1")]
    assert (d1["mirror_chosen"] == 200).all()
    return frame


def test_processes_equal_serial(serial):
    parallel = ziosim.sweep(point, GRID, workers=2)
    pd.testing.assert_frame_equal(parallel, serial)


def test_spawned_processes_get_python_policies(serial):
    import multiprocessing

    parallel = ziosim.sweep(point, GRID, workers=2, mp_context=multiprocessing.get_context("spawn"))
    pd.testing.assert_frame_equal(parallel, serial)


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        yield client


def test_dask_local_cluster_equals_serial(serial, dask_client):
    frame = ziosim.sweep(point, GRID, client=dask_client)
    pd.testing.assert_frame_equal(frame, serial)


def test_scalar_and_dict_results():
    frame = ziosim.sweep(lambda a, b: a * b, {"a": [1, 2], "b": [3, 4]}, workers=2)
    assert list(frame.columns) == ["a", "b", "result"] and list(frame["result"]) == [3, 4, 6, 8]
    frame = ziosim.sweep(lambda a: {"twice": 2 * a}, {"a": [1, 2]}, workers=1)
    assert list(frame["twice"]) == [2, 4]


def test_error_names_the_point():
    with pytest.raises(ValueError, match="unknown drive") as info:
        ziosim.sweep(ziosim.block_read, {"pool": [MIRROR, "mirror 2xnope"], "count": [10]}, workers=2)
    assert any("mirror 2xnope" in note for note in getattr(info.value, "__notes__", []))


# ---- the progress bar ----

SLOW_S = 1.5


def timed(i):
    """Point 0 is slow, the others quick: with 2 workers, the quick ones all finish while point 0 runs."""
    time.sleep(SLOW_S if i == 0 else 0.02)
    return {"finished": time.time()}


@pytest.fixture
def bar_updates(monkeypatch):
    """(time, bar.n) at each update of the sweep's (real, shown) tqdm bar."""
    updates = []
    real = sweep_module._progress

    def recording(total, progress, desc):
        bar = real(total, True, desc)  # shown, so that tqdm counts (pytest captures its stderr)
        update = bar.update

        def record(n=1):
            update(n)
            updates.append((time.time(), bar.n))

        bar.update = record
        return bar

    monkeypatch.setattr(sweep_module, "_progress", recording)
    return updates


def _check_bar_advanced_while_running(frame, updates, early):
    """Every point counted once, and at least ``early`` of them before the slow one was done."""
    n = len(frame)
    assert list(frame["i"]) == list(range(n))  # point order, whatever the finishing order
    assert [count for _, count in updates] == list(range(1, n + 1))
    slow_done = frame.loc[0, "finished"]
    assert sum(t < slow_done for t, _ in updates) >= early


def test_bar_advances_per_finished_point_with_processes(bar_updates):
    frame = ziosim.sweep(timed, {"i": range(6)}, workers=2)
    # the pool hands a point to whichever process is free: the other one runs all the quick points
    _check_bar_advanced_while_running(frame, bar_updates, early=5)


def test_bar_advances_per_finished_point_on_dask(bar_updates, dask_client):
    frame = ziosim.sweep(timed, {"i": range(6)}, client=dask_client)
    # the scheduler assigns points ahead, so a quick one may wait behind the slow one
    _check_bar_advanced_while_running(frame, bar_updates, early=1)


def test_bar_counts_every_point_serially(bar_updates):
    ziosim.sweep(lambda i: i, {"i": range(4)}, workers=1)
    assert [count for _, count in bar_updates] == [1, 2, 3, 4]


def _fake_ipython(monkeypatch, kernel):
    shell = types.SimpleNamespace(kernel=kernel)
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))


def test_kernel_detection(monkeypatch):
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    assert not sweep_module._in_jupyter_kernel()
    _fake_ipython(monkeypatch, kernel=None)  # IPython in a terminal
    assert not sweep_module._in_jupyter_kernel()
    _fake_ipython(monkeypatch, kernel=object())
    assert sweep_module._in_jupyter_kernel()


def test_bar_in_a_notebook_without_ipywidgets_is_text_and_silent(monkeypatch):
    from tqdm.std import tqdm as text_bar

    monkeypatch.setattr(sweep_module, "_in_jupyter_kernel", lambda: True)
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # not installed
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bar = sweep_module._progress(3, None, "x")  # shown by default in a kernel: stderr is no terminal there
    try:
        assert type(bar) is text_bar and not bar.disable
    finally:
        bar.close()


def test_bar_in_a_notebook_with_ipywidgets_is_the_widget(monkeypatch):
    widgets = types.ModuleType("ipywidgets")
    widgets.__spec__ = importlib.machinery.ModuleSpec("ipywidgets", None)
    monkeypatch.setitem(sys.modules, "ipywidgets", widgets)
    from tqdm.notebook import tqdm as widget_bar
    from tqdm.std import tqdm as text_bar

    assert sweep_module._bar_class(True) is widget_bar
    assert sweep_module._bar_class(False) is text_bar


def test_no_bar_by_default_outside_a_terminal_or_kernel(monkeypatch):
    monkeypatch.setattr(sweep_module, "_in_jupyter_kernel", lambda: False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert sweep_module._progress(3, None, "x").disable
    assert not sweep_module._progress(3, True, "x").disable
