"""ziosim.sweep: same frame, row for row, serially, in processes and on Dask."""

from __future__ import annotations

import sys

import cloudpickle
import pandas as pd
import pytest

import ziosim

from conftest import MIRROR

# Ship this module's functions by value, as for a notebook's.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


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


def test_dask_local_cluster_equals_serial(serial):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        frame = ziosim.sweep(point, GRID, client=client)
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
