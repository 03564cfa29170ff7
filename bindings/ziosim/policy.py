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

A name is registered once: registering under a built-in policy's name
(:func:`ziosim.mirror_policies` lists them) or a Python policy's already
registered name raises ValueError, unless ``replace=True`` (as when re-running a
notebook cell that defines a policy).

Policies live in the process that registered them. :func:`ziosim.sweep`
re-registers every policy of this process in its worker processes and Dask
workers (the functions are shipped with cloudpickle), so policies defined in
a notebook or script work there too.
"""

from __future__ import annotations

import difflib
import threading
from collections.abc import Callable
from typing import Optional, Protocol

from . import _ziosim

MirrorChild = _ziosim.MirrorChild
MirrorRead = _ziosim.MirrorRead

__all__ = ["MirrorChild", "MirrorPolicyFunction", "MirrorRead", "check_mirror_policy", "load_mirror_policy_plugin",
           "loaded_plugins", "mirror_policy", "plugin_include_dir", "register_mirror_policy", "registered_policies"]


class MirrorPolicyFunction(Protocol):
    def __call__(self, children: list[MirrorChild], io: MirrorRead) -> int: ...


_lock = threading.Lock()
_registered: dict[str, tuple[Callable[..., int], str]] = {}


def _known_names() -> list[str]:
    """Every registered mirror policy: built-in, C plug-in and Python ones."""
    return list(_ziosim.mirror_policies()["name"])


def _describe(name: str) -> str:
    """What the policy ``name`` already registered is, for an error message (call with _lock held)."""
    if name in _registered:
        fn = _registered[name][0]
        return f"a Python mirror policy ({getattr(fn, '__qualname__', repr(fn))}) is already registered as '{name}'"
    if name in _plugin_policies:
        return f"'{name}' is the mirror policy of the plug-in {_plugin_policies[name]}"
    return f"'{name}' is a built-in mirror policy"


def register_mirror_policy(name: str, fn: MirrorPolicyFunction, doc: Optional[str] = None, *,
                           replace: bool = False) -> None:
    """Registers ``fn`` as mirror policy ``name``; ``tunables={"mirror_policy": name}`` selects it.

    Args:
        name: the policy's name.
        fn: ``fn(children, io) -> int``, the index of the child that serves the read.
        doc: one line for :func:`ziosim.mirror_policies`; default: the first line
            of ``fn``'s docstring.
        replace: replace a policy registered under ``name``, a built-in one included
            (in this process only).

    Raises:
        ValueError: ``name`` is empty, or taken and ``replace`` is false.
        TypeError: ``fn`` is not callable.
    """
    if not isinstance(name, str) or not name:
        raise ValueError("mirror policy: the name must be a non-empty string")
    if not callable(fn):
        raise TypeError(f"mirror policy '{name}': {fn!r} is not callable")
    text = doc if doc is not None else (fn.__doc__ or "").strip().split("\n")[0]
    text = text or f"Python policy {getattr(fn, '__qualname__', repr(fn))}"
    with _lock:
        if not replace and (name in _registered or name in _known_names()):
            raise ValueError(f"mirror policy: {_describe(name)}; pass replace=True to replace it, "
                             "or choose another name")
        _ziosim.register_mirror_policy(name, fn, text)
        _registered[name] = (fn, text)


def mirror_policy(name: str, doc: Optional[str] = None, *,
                  replace: bool = False) -> Callable[[MirrorPolicyFunction], MirrorPolicyFunction]:
    """Decorator: registers the function as mirror policy ``name`` and returns it unchanged.

    ``doc`` and ``replace`` as :func:`register_mirror_policy`. ::

        @ziosim.mirror_policy("always_d1", replace=True)  # a cell that may run again
        def always_d1(children, io):
            return 1
    """

    def decorate(fn: MirrorPolicyFunction) -> MirrorPolicyFunction:
        register_mirror_policy(name, fn, doc, replace=replace)
        return fn

    return decorate


def check_mirror_policy(name: str) -> str:
    """Returns ``name`` if a mirror policy of that name is registered.

    Raises:
        ValueError: no such policy; the message suggests the closest names
            (``unknown mirror policy 'rotr'; did you mean 'rotor'?``) and lists
            the known ones.
    """
    known = _known_names()
    if name in known:
        return name
    close = difflib.get_close_matches(str(name), known, n=3)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    raise ValueError(f"unknown mirror policy {name!r}{hint} (known: {', '.join(sorted(known))})")


def registered_policies() -> dict[str, tuple[Callable[..., int], str]]:
    """The policies registered from Python in this process: name -> (function, doc)."""
    with _lock:
        return dict(_registered)


_plugins: list[str] = []
_plugin_policies: dict[str, str] = {}  # name -> the plug-in's path


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
        _plugin_policies[name] = str(path)
    return name


def plugin_include_dir() -> str:
    """The folder holding ``ziosim_mirror_plugin.h``, for ``cc -I`` when building a plug-in."""
    from pathlib import Path

    here = Path(__file__).resolve().parent
    header_dir = Path("sim") / "zfs" / "vdev" / "mirror_policy" / "plugin"
    # an installed wheel; build/python/ziosim; the source tree's bindings/ziosim
    for d in (here / "include", here.parents[2] / header_dir, here.parents[1] / header_dir):
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
            # A worker's copy of the caller's registration: in a forked worker, it replaces the
            # inherited one; a policy that replaced a built-in replaces it here as well.
            register_mirror_policy(name, fn, doc, replace=True)
