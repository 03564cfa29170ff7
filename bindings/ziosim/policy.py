"""Mirror read policies written in Python.

A policy is a function ``fn(children, io) -> int`` that picks which child of a
mirror serves a read. It runs inside the C++ simulation: the mirror vdev calls
it for every read that has a choice (two or more readable children), holding
the GIL for the call. ::

    @ziosim.mirror_policy("always_d1")
    def always_d1(children, io):
        return 1

    ziosim.block_read("mirror 2xwd-re4-1tb", tunables={"mirror_policy": "always_d1"})

``children`` is a list of :class:`MirrorChild` (``rotational``, ``readable``,
``in_device``, ``queued``, ``last_offset``), one per child in pool order;
``io`` a :class:`MirrorRead` (``offset``, ``size``, ``mirror_offset``,
``priority``, ``now_ns``). Both are read-only copies made for the call. The
return value must be the index of a readable child; anything else, or an
exception raised by the function, aborts the run with a RuntimeError (the
policy's exception is its ``__cause__``).

Policies live in the process that registered them. :func:`ziosim.sweep`
re-registers every policy of this process in its worker processes and Dask
workers (the functions are shipped with cloudpickle), so policies defined in
a notebook or script work there too.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Optional, Protocol

from . import _ziosim

MirrorChild = _ziosim.MirrorChild
MirrorRead = _ziosim.MirrorRead

__all__ = ["MirrorChild", "MirrorPolicyFunction", "MirrorRead", "mirror_policy", "registered_policies",
           "register_mirror_policy"]


class MirrorPolicyFunction(Protocol):
    def __call__(self, children: list[MirrorChild], io: MirrorRead) -> int: ...


_lock = threading.Lock()
_registered: dict[str, tuple[Callable[..., int], str]] = {}


def register_mirror_policy(name: str, fn: MirrorPolicyFunction, doc: Optional[str] = None) -> None:
    """Registers ``fn`` as mirror policy ``name`` (replacing a policy of that name,
    built-in ones included); ``tunables={"mirror_policy": name}`` selects it."""
    if not isinstance(name, str) or not name:
        raise ValueError("mirror policy: the name must be a non-empty string")
    if not callable(fn):
        raise TypeError(f"mirror policy '{name}': {fn!r} is not callable")
    text = doc if doc is not None else (fn.__doc__ or "").strip().split("\n")[0]
    text = text or f"Python policy {getattr(fn, '__qualname__', repr(fn))}"
    with _lock:
        _ziosim.register_mirror_policy(name, fn, text)
        _registered[name] = (fn, text)


def mirror_policy(name: str, doc: Optional[str] = None) -> Callable[[MirrorPolicyFunction], MirrorPolicyFunction]:
    """Decorator: registers the function as mirror policy ``name`` and returns it unchanged.

    ``doc`` defaults to the first line of the function's docstring.
    """

    def decorate(fn: MirrorPolicyFunction) -> MirrorPolicyFunction:
        register_mirror_policy(name, fn, doc)
        return fn

    return decorate


def registered_policies() -> dict[str, tuple[Callable[..., int], str]]:
    """The policies registered from Python in this process: name -> (function, doc)."""
    with _lock:
        return dict(_registered)


_plugins: list[str] = []


def load_mirror_policy_plugin(path: str) -> str:
    """Loads a mirror policy plug-in, a C shared library built against
    ``sim/zfs/vdev/mirror_policy/plugin/ziosim_mirror_plugin.h``, and returns the name it registered
    (select it with ``tunables={"mirror_policy": name}``). Loading the same file again
    is a no-op. :func:`ziosim.sweep` loads the plug-ins of this process in its workers too.
    """
    name = _ziosim.load_mirror_policy_plugin(str(path))
    with _lock:
        if str(path) not in _plugins:
            _plugins.append(str(path))
    return name


def plugin_include_dir() -> str:
    """The folder holding ``ziosim_mirror_plugin.h``, for ``cc -I`` when building a plug-in."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    for d in (here / "include", here.parents[2] / "sim" / "zfs" / "vdev" / "mirror_policy" / "plugin"):  # wheel, build/python
        if (d / "ziosim_mirror_plugin.h").exists():
            return str(d)
    raise FileNotFoundError("ziosim_mirror_plugin.h is not installed with this package")


def loaded_plugins() -> list[str]:
    """Paths of the mirror policy plug-ins loaded from Python in this process, in load order."""
    with _lock:
        return list(_plugins)


def _install(policies: dict[str, tuple[Callable[..., int], str]]) -> None:
    """Registers `policies` (as from registered_policies()) in this process: used by sweep's workers."""
    for name, (fn, doc) in policies.items():
        with _lock:
            current = _registered.get(name)
        if current is None or current[0] is not fn:
            register_mirror_policy(name, fn, doc)
