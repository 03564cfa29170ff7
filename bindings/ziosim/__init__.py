"""ziosim: a discrete-event simulator of ZFS read I/O, from Python.

Workloads return pandas DataFrames::

    import ziosim
    ziosim.readers("mirror 2xwd-re4-1tb", readers=[1, 2, 5, 10], bs="1M", file_size="1G",
                   profile="freebsd-10")
    ziosim.block_read("mirror 2xwd-re4-1tb", pattern="seq", blocksize="128K", depth=4, count=1000,
                      profile="freebsd-10", tunables={"zfs_vdev_mirror_rotating_seek_inc": 5})

* catalog and settings: :func:`drives`, :func:`drive_values`, :func:`profiles`,
  :func:`tunables`, :func:`mirror_policies`
* workloads: :func:`readers`, :func:`writers`, :func:`disk_bench`, :func:`block_read`, :func:`scrub`, :func:`resilver`, :func:`raidz_map`, :func:`draid_map`,
  :func:`validate_disksim`, :func:`fio` (fio job files), :func:`replay` (block traces)
* calibration against measurements: :func:`calibrate`
* mirror policies in Python: :func:`mirror_policy`, :func:`check_mirror_policy`
* parameter sweeps: :func:`sweep`; figures: :mod:`ziosim.plot`
* bug reports: :func:`show_versions`

User errors raise ValueError with the simulator's message; other failures
inside the simulator raise RuntimeError. Simulations release the GIL.
"""

import os as _os

# An installed package carries the drive catalog and era profiles in ziosim/data;
# a build-tree copy (build/python) finds them in the source tree instead.
_DATA = _os.path.join(_os.path.dirname(__file__), "data")
if _os.path.isdir(_DATA):
    _os.environ.setdefault("ZIOSIM_DATA_DIR", _DATA)

from . import _ziosim  # noqa: E402,F401  (the C++ core: fail early if it does not load)
from .api import (
    block_read,
    calibrate,
    demo,
    disk_bench,
    draid_map,
    drive_values,
    drives,
    fio,
    mirror_policies,
    profiles,
    raidz_map,
    readers,
    replay,
    resilver,
    run_scenario,
    scrub,
    tunables,
    validate_disksim,
    workload,
    writers,
)
from .policy import (
    MirrorChild,
    MirrorRead,
    check_mirror_policy,
    load_mirror_policy_plugin,
    mirror_policy,
    plugin_include_dir,
    register_mirror_policy,
    registered_policies,
)
from .sweep import grid_points, sweep

__version__ = _ziosim.__version__

__all__ = [
    "MirrorChild",
    "MirrorRead",
    "block_read",
    "calibrate",
    "check_mirror_policy",
    "demo",
    "disk_bench",
    "draid_map",
    "drive_values",
    "drives",
    "fio",
    "grid_points",
    "load_mirror_policy_plugin",
    "mirror_policies",
    "mirror_policy",
    "plot",
    "plugin_include_dir",
    "profiles",
    "raidz_map",
    "readers",
    "register_mirror_policy",
    "registered_policies",
    "replay",
    "resilver",
    "run_scenario",
    "scrub",
    "show_versions",
    "sweep",
    "tunables",
    "validate_disksim",
    "workload",
    "writers",
]


def show_versions() -> dict[str, str]:
    """Prints, and returns, what a bug report needs to say about this installation.

    Returns:
        ``{"ziosim": version, "extension": path of the C++ module, "data_dir": the
        folder the drive catalog and profiles are read from, "data_dir_source":
        why that one, "python", "platform", and the version of each library ziosim
        uses (numpy, pandas, matplotlib, tqdm, cloudpickle, dask, distributed,
        ipywidgets) or "not installed"}``.
    """
    import platform
    import sys
    from importlib import metadata

    def version(dist: str) -> str:
        # From the installed metadata: asking does not import the library (matplotlib takes a while).
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    env = _os.environ.get("ZIOSIM_DATA_DIR")
    if not env:
        source = "the extension's built-in default (ZIOSIM_DATA_DIR not set)"
    elif _os.path.isdir(_DATA) and _os.path.samefile(env, _DATA):
        source = "ZIOSIM_DATA_DIR: the data installed with the package"
    else:
        source = "ZIOSIM_DATA_DIR"
    info = {
        "ziosim": __version__,
        "extension": _ziosim.__file__,
        "data_dir": _os.path.dirname(_ziosim.catalog_dir()),
        "data_dir_source": source,
        "python": f"{platform.python_version()} ({sys.executable})",
        "platform": platform.platform(),
        **{dist: version(dist) for dist in ("numpy", "pandas", "matplotlib", "tqdm", "cloudpickle", "dask",
                                            "distributed", "ipywidgets")},
    }
    width = max(map(len, info))
    for key, value in info.items():
        print(f"{key:<{width}}  {value}")
    return info


def __getattr__(name: str):
    # matplotlib is imported on first use of ziosim.plot, not by `import ziosim`.
    if name == "plot":
        import importlib

        return importlib.import_module(".plot", __name__)
    raise AttributeError(f"module 'ziosim' has no attribute {name!r}")


def __dir__() -> list[str]:
    # ziosim.plot is there before its first use, too (for dir() and completion).
    return sorted({*globals(), "plot"})
