"""Parameter sweeps: a function over the cartesian product of a grid, in parallel.

::

    frame = ziosim.sweep(ziosim.block_read,
                         {"pool": ["mirror 2xwd-re4-1tb"], "depth": [1, 2, 4, 8],
                          "tunables": [{"mirror_policy": p} for p in ("rotor", "load_locality")]})

The result is the same, row for row, whether the points run serially
(``workers=1``), in local worker processes (default) or on a Dask cluster
(``client=``): every point is a deterministic simulation and the rows are
assembled in grid order. A progress bar advances as each point finishes, in
every mode.
"""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import os
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Optional

import pandas as pd

from . import policy as _policy

__all__ = ["GRID_ATTR", "grid_points", "sweep"]

#: The key of a sweep frame's ``attrs`` that lists the grid's columns: :mod:`ziosim.plot`
#: counts them among the columns that identify a run, numeric ones included.
GRID_ATTR = "ziosim_grid"


def grid_points(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """The cartesian product of ``grid`` as keyword dicts, in order: the last key varies fastest."""
    if not isinstance(grid, Mapping):
        raise TypeError(f"grid: expected a dict of name -> list of values, got {type(grid).__name__}")
    keys = list(grid)
    values = []
    for k in keys:
        v = grid[k]
        if isinstance(v, (str, bytes, Mapping)) or not hasattr(v, "__iter__"):
            raise TypeError(f"grid[{k!r}]: expected a list of values, got {v!r}")
        values.append(list(v))
    return [dict(zip(keys, combo)) for combo in itertools.product(*values)]


def _label(value: Any) -> Any:
    """A grid value as a frame cell: dicts and lists become their text, so columns stay hashable."""
    if isinstance(value, Mapping):
        return ",".join(f"{k}={v}" for k, v in value.items())
    if isinstance(value, (list, tuple, set)):
        return ",".join(str(v) for v in value)
    return value


def _as_frame(result: Any, params: Mapping[str, Any]) -> pd.DataFrame:
    """One point's result as rows, led by the grid's columns (these win over same-named result columns)."""
    if isinstance(result, pd.DataFrame):
        frame = result.reset_index(drop=True)
    elif isinstance(result, pd.Series):
        frame = pd.DataFrame([result.to_dict()])
    elif isinstance(result, Mapping):
        frame = pd.DataFrame([dict(result)])
    else:
        frame = pd.DataFrame({"result": [result]})
    frame = frame.drop(columns=[k for k in params if k in frame.columns])
    for i, (k, v) in enumerate(params.items()):
        frame.insert(i, k, [_label(v)] * len(frame))
    return frame


# ---------------------------------------------------------------------------- worker side

_loaded: dict[bytes, Callable[..., Any]] = {}


def _load(payload: bytes) -> Callable[..., Any]:
    """The sweep's function, with this process's copy of the caller's Python policies registered."""
    key = hashlib.sha256(payload).digest()
    fn = _loaded.get(key)
    if fn is None:
        import cloudpickle

        fn, policies, plugins = cloudpickle.loads(payload)
        for path in plugins:
            _policy.load_mirror_policy_plugin(path)
        _policy._install({name: cloudpickle.loads(blob) for name, blob in policies.items()})
        _loaded[key] = fn
    return fn


def _run_point(payload: bytes, params: dict[str, Any]) -> pd.DataFrame:
    return _as_frame(_load(payload)(**params), params)


# ---------------------------------------------------------------------------- driver side


def _in_jupyter_kernel() -> bool:
    """Whether this process is a Jupyter kernel: IPython is running with a kernel attached."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return getattr(shell, "kernel", None) is not None


def _bar_class(widget: bool) -> type:
    """tqdm's notebook widget when asked for and ipywidgets is there, else the text bar
    (which a notebook shows too). Not tqdm.auto: it warns in a kernel without ipywidgets."""
    if widget and importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.notebook import tqdm
    else:
        from tqdm.std import tqdm
    return tqdm


def _progress(total: int, progress: Optional[bool], desc: str):
    """The sweep's bar; by default shown on a terminal and in a Jupyter kernel (whose stderr is no terminal)."""
    in_kernel = _in_jupyter_kernel()
    show = (sys.stderr.isatty() or in_kernel) if progress is None else bool(progress)
    tqdm = _bar_class(in_kernel and show)
    return tqdm(total=total, disable=not show, desc=desc, unit="run", file=sys.stderr)


def _default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _with_point(error: BaseException, params: Mapping[str, Any]) -> BaseException:
    if hasattr(error, "add_note"):
        error.add_note(f"ziosim.sweep: raised by the point {dict(params)!r}")
    return error


def sweep(
    fn: Callable[..., Any],
    grid: Mapping[str, Sequence[Any]],
    *,
    workers: Optional[int] = None,
    client: Any = None,
    progress: Optional[bool] = None,
    mp_context: Any = None,
) -> pd.DataFrame:
    """Runs ``fn(**point)`` for every point of the cartesian ``grid`` and stacks the results.

    Args:
        fn: any function of keyword arguments, usually a ziosim workload
            (``ziosim.block_read``) or a small function around one. It may
            return a DataFrame (all its rows are kept), a Series or dict (one
            row) or a scalar (a ``result`` column).
        grid: ``{"name": [values...]}``; points are taken in order with the last
            name varying fastest. Dict and list values (``tunables``) appear in
            the frame as ``"name=value,..."`` text.
        workers: local worker processes (default: the CPUs this process may use);
            ``1`` runs serially in this process.
        client: a ``dask.distributed.Client``: run the points on its cluster
            instead (``workers`` is then ignored).
        progress: show a tqdm progress bar, advanced as each point finishes
            (a widget in Jupyter when ipywidgets is installed, else text); default:
            when stderr is a terminal or in a Jupyter kernel.
        mp_context: multiprocessing context for the local processes (default: the
            platform's, ``fork`` on Linux).

    Returns:
        The points' rows in grid order, each led by the grid's columns: the same
        frame, row for row, for any ``workers`` or ``client``. Its
        ``attrs[GRID_ATTR]`` lists the grid's columns.

    Raises:
        Exception: the first exception a point raised (the first to fail, in
            time, when points run in parallel), with a note naming the point.

    Python mirror policies registered in this process (:func:`ziosim.mirror_policy`)
    are registered in every worker before its first point; ``fn`` and the policies
    travel with cloudpickle, so they may be defined in ``__main__`` or a notebook.
    """
    points = grid_points(grid)
    if not points:
        return _with_grid(pd.DataFrame(columns=list(grid)), grid)
    if client is None and workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers: must be a positive int or None (got {workers!r})")

    results: list[Optional[pd.DataFrame]] = [None] * len(points)
    n_workers = 1 if client is None and (workers == 1 or len(points) == 1) else workers
    if client is None and n_workers == 1:
        with _progress(len(points), progress, "ziosim sweep") as bar:
            for i, params in enumerate(points):
                try:
                    results[i] = _as_frame(fn(**params), params)
                except Exception as e:
                    _with_point(e, params)
                    raise
                bar.update(1)
        return _with_grid(_concat(results), grid)

    import cloudpickle

    payload = cloudpickle.dumps((fn, _shippable_policies(), _policy.loaded_plugins()))
    if client is not None:
        _sweep_dask(client, payload, points, results, progress)
    else:
        _sweep_processes(payload, points, results, n_workers or _default_workers(), progress, mp_context)
    return _with_grid(_concat(results), grid)


def _concat(frames: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The points' frames as one; a column categorical in every point stays categorical (with
    the union of their categories), which pd.concat alone would turn into plain values."""
    frame = pd.concat(frames, ignore_index=True)
    for column in frame.columns:
        if all(column in f.columns and isinstance(f[column].dtype, pd.CategoricalDtype) for f in frames):
            frame[column] = frame[column].astype("category")
    return frame


def _with_grid(frame: pd.DataFrame, grid: Mapping[str, Sequence[Any]]) -> pd.DataFrame:
    frame.attrs[GRID_ATTR] = list(grid)
    return frame


def _shippable_policies() -> dict[str, bytes]:
    """This process's Python mirror policies, each pickled on its own: one that
    cannot be pickled is left out (with a warning), not the whole sweep."""
    import cloudpickle

    out = {}
    for name, entry in _policy.registered_policies().items():
        try:
            out[name] = cloudpickle.dumps(entry)
        except Exception as e:  # noqa: BLE001 - anything pickle raises
            warnings.warn(f"ziosim.sweep: mirror policy '{name}' cannot be sent to the workers ({e}); "
                          "points that select it there fail with 'unknown mirror policy'", stacklevel=3)
    return out


def _sweep_processes(payload: bytes, points: list[dict[str, Any]], results: list, workers: int,
                     progress: Optional[bool], mp_context: Any) -> None:
    workers = max(1, min(workers, len(points)))
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp_context) as pool, \
            _progress(len(points), progress, f"ziosim sweep ({workers} processes)") as bar:
        futures = {pool.submit(_run_point, payload, params): i for i, params in enumerate(points)}
        for f in as_completed(futures):
            i = futures[f]
            error = f.exception()
            if error is not None:
                pool.shutdown(wait=False, cancel_futures=True)  # the points not started yet
                raise _with_point(error, points[i])
            results[i] = f.result()
            bar.update(1)


def _sweep_dask(client: Any, payload: bytes, points: list[dict[str, Any]], results: list,
                progress: Optional[bool]) -> None:
    from distributed import as_completed

    # One copy of the function and policies on the cluster, not one per point.
    [shared] = client.scatter([payload], broadcast=True, hash=True)
    futures = [client.submit(_run_point, shared, params, pure=False) for params in points]
    index = {f.key: i for i, f in enumerate(futures)}
    try:
        with _progress(len(points), progress, "ziosim sweep (dask)") as bar:
            for f in as_completed(futures):
                i = index[f.key]
                if f.status == "error":
                    raise _with_point(f.exception(), points[i])
                results[i] = f.result()
                bar.update(1)
    finally:
        client.cancel([f for f in futures if not f.done()])
