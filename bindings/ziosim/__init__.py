"""ziosim: a discrete-event simulator of ZFS read I/O, from Python.

Workloads return pandas DataFrames::

    import ziosim
    ziosim.readers("mirror 2xwd-re4-1tb", readers=[1, 2, 5, 10], bs="1M", file_size="1G",
                   profile="freebsd-10")
    ziosim.block_read("mirror 2xwd-re4-1tb", pattern="seq", blocksize="128K", depth=4, count=1000,
                      profile="freebsd-10", tunables={"zfs_vdev_mirror_rotating_seek_inc": 5})

* catalog and settings: :func:`drives`, :func:`drive_values`, :func:`profiles`,
  :func:`tunables`, :func:`mirror_policies`
* workloads: :func:`readers`, :func:`writers`, :func:`disk_bench`, :func:`block_read`, :func:`raidz_map`,
  :func:`validate_disksim`, :func:`fio` (fio job files), :func:`replay` (block traces)
* mirror policies in Python: :func:`mirror_policy`, :func:`check_mirror_policy`
* parameter sweeps: :func:`sweep`; figures: :mod:`ziosim.plot`

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
    disk_bench,
    drive_values,
    fio,
    drives,
    mirror_policies,
    profiles,
    raidz_map,
    readers,
    replay,
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

__version__ = "0.1.0"

__all__ = [
    "MirrorChild",
    "MirrorRead",
    "block_read",
    "check_mirror_policy",
    "disk_bench",
    "drive_values",
    "fio",
    "drives",
    "grid_points",
    "load_mirror_policy_plugin",
    "plugin_include_dir",
    "mirror_policies",
    "mirror_policy",
    "plot",
    "profiles",
    "raidz_map",
    "readers",
    "register_mirror_policy",
    "registered_policies",
    "replay",
    "sweep",
    "tunables",
    "validate_disksim",
    "workload",
    "writers",
]


def __getattr__(name: str):
    # matplotlib is imported on first use of ziosim.plot, not by `import ziosim`.
    if name == "plot":
        import importlib

        return importlib.import_module(".plot", __name__)
    raise AttributeError(f"module 'ziosim' has no attribute {name!r}")
