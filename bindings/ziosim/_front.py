"""Python functions made from the C++ option tables (sim/core/option.h).

A workload's options are declared once, in C++; this module turns a table into
a function with the same keyword arguments, defaults and documentation as the
``ziosim`` subcommand (``--file-size`` is ``file_size=``), and the workload's
result, the JSON value ``--json`` prints, into DataFrames. Values are checked
by the simulator, and its errors name the argument as Python spells it.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import json
import math
import operator
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from . import _convert, _ziosim

#: How each kind of option is annotated in signatures and documented.
_KIND_TYPES = {"flag": "bool", "int": "int", "number": "float", "size": "int | str", "text": "str",
               "int list": "int | Sequence[int]", "text list": "str | Sequence[str]",
               "tunables": "Mapping[str, Any]", "duration": "str"}


@functools.cache
def options(workload: str) -> tuple[dict[str, Any], ...]:
    """The option table of ``workload``: one dict per option (name, kind, unit, doc, default, ...)."""
    return tuple(json.loads(_ziosim.options(workload))["options"])


def _default(option: Mapping[str, Any]) -> Any:
    if option["required"]:
        return inspect.Parameter.empty
    value = option["default"]
    if isinstance(value, (dict, list)) and not value:
        return None  # no mutable defaults: None is "none given"
    return tuple(value) if isinstance(value, list) else value


def _json_value(option: Mapping[str, Any], value: Any) -> Any:
    """A Python argument as the JSON the simulator parses (it checks the value itself)."""
    if option["kind"] == "tunables":
        if isinstance(value, Mapping):
            return [f"{name}={_convert.tunable_text(v)}" if isinstance(name, str) else _bad_name(name)
                    for name, v in value.items()]
        raise TypeError(f"{option['name']}: expected a dict of name -> value, got {type(value).__name__}")
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        return _scalar(value)
    return [_scalar(v) for v in value]


def _bad_name(name: Any) -> str:
    raise TypeError(f"tunables: names must be str, got {name!r}")


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)  # JSON has no NaN: the simulator names it
    try:
        return operator.index(value)  # numpy integers
    except TypeError:
        pass
    if hasattr(value, "item"):  # numpy floats and bools
        return _scalar(value.item())
    return str(value)


def _doc(workload: str, summary: str, returns: str, extra: Sequence[tuple[str, str]]) -> str:
    lines = [f"{summary} (``ziosim {workload}``).", "", "Args:"]
    for o in options(workload):
        unit = f" [{o['unit']}]" if o["unit"] and o["unit"] not in o["doc"] else ""
        default = "" if o["required"] else f" Default: ``{o['default']!r}``." if o["default"] not in (None, {}, []) \
            else ""
        lines.append(f"    {o['name']}: {o['doc']}{unit}.{default}")
    lines += [f"    {name}: {doc}" for name, doc in extra]
    return "\n".join(lines + ["", "Returns:", *("    " + line for line in returns.strip().splitlines())])


def _suggest(workload: str, name: str) -> str:
    """ "; did you mean x?" for an unknown keyword: a close name, or the option a command-line
    alias spells so (``blocksize`` for ``bs``, from ``--blocksize``)."""
    by_alias = {f.lstrip("-").replace("-", "_"): o["name"] for o in options(workload) for f in o["flags"]}
    close = [by_alias[name]] if name in by_alias else difflib.get_close_matches(
        name, [o["name"] for o in options(workload)], n=1)
    return f"; did you mean {close[0]}?" if close else ""


def run(workload: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Runs ``workload`` with ``arguments`` (option name -> Python value) and returns its JSON result."""
    table = {o["name"]: o for o in options(workload)}
    args = []
    for name, value in arguments.items():
        option = table.get(name)
        args.append([name, value if option is None else _json_value(option, value)])
    return json.loads(_ziosim.run(workload, json.dumps(args)))


#: Each workload's shape: its result (JSON) -> its DataFrame, as its function returns it.
SHAPES: dict[str, Callable[..., pd.DataFrame]] = {}


def function(workload: str, shape: Callable[..., pd.DataFrame], summary: str, returns: str,
             shape_args: Sequence[tuple[str, Any, str]] = ()) -> Callable[..., pd.DataFrame]:
    """The Python function of ``workload``: its options as keyword arguments (the required ones
    may also be positional), plus ``shape_args`` (name, default, doc) that ``shape(result, **those)``
    takes to make the frame."""
    params = []
    for o in options(workload):
        kind = (inspect.Parameter.POSITIONAL_OR_KEYWORD if o["required"] else inspect.Parameter.KEYWORD_ONLY)
        params.append(inspect.Parameter(o["name"], kind, default=_default(o), annotation=_KIND_TYPES[o["kind"]]))
    shaping = [name for name, _, _ in shape_args]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
               for name, default, _ in shape_args]
    signature = inspect.Signature(params, return_annotation="pd.DataFrame")

    def call(*args: Any, **kwargs: Any) -> pd.DataFrame:
        unknown = [k for k in kwargs if k not in signature.parameters]
        if unknown:
            raise TypeError(f"{unknown[0]}: {call.__name__}() has no such argument{_suggest(workload, unknown[0])}")
        bound = signature.bind(*args, **kwargs)
        given = {k: v for k, v in bound.arguments.items() if k not in shaping}
        result = run(workload, given)
        return shape(result, **{k: bound.arguments.get(k, d) for k, d, _ in shape_args})

    SHAPES[workload] = shape
    call.__name__ = call.__qualname__ = workload.replace("-", "_")
    call.__signature__ = signature  # type: ignore[attr-defined]
    call.__doc__ = _doc(workload, summary, returns, [(n, doc) for n, _, doc in shape_args])
    return call


# ---------------------------------------------------------------------------- result -> frames


def flatten(record: Mapping[str, Any], skip: Sequence[str] = ()) -> dict[str, Any]:
    """``{"arc": {"hits": 1}}`` as ``{"arc_hits": 1}``: nested objects of a result become prefixed columns."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        if key in skip:
            continue
        if isinstance(value, Mapping):
            out.update({f"{key}_{k}": v for k, v in flatten(value).items()})
        else:
            out[key] = value
    return out


#: Identifying columns that hold one of a few names: categoricals in every frame.
CATEGORICAL = ("pool", "profile", "mirror_policy", "layout", "primarycache", "compression", "drive", "vdev")


def identity(result: Mapping[str, Any]) -> dict[str, Any]:
    """What identifies a result's runs: its top-level fields but ``workload`` and ``runs``."""
    return {k: v for k, v in result.items() if k not in ("workload", "runs")}


def frame(rows: Sequence[Mapping[str, Any]], identity: Mapping[str, Any], workload: str) -> pd.DataFrame:
    """A tidy frame: the run's identifying columns first, then ``rows``' columns; the run's
    identification and the units of the columns in ``attrs``."""
    # A list in the identification (faulted disks) is one value of it: "d0,d1".
    identity = {k: ",".join(map(str, v)) if isinstance(v, list) else v for k, v in identity.items()}
    clash = set(identity) & set(rows[0]) if rows else set()
    if clash:  # a schema bug: the frame would lose one of the two
        raise RuntimeError(f"internal error: {workload}: {sorted(clash)} both identify the run and are a result")
    df = pd.DataFrame([{**identity, **r} for r in rows])
    for column in df.columns:  # a figure the run did not measure (null) is NaN, not None
        values = df[column].dropna()
        if df[column].dtype == object and len(values) < len(df) and values.map(_is_number).all() and (
                len(values) or unit(column)):
            df[column] = df[column].astype(float)
    for column in CATEGORICAL:
        if column in df.columns and df[column].notna().any():
            df[column] = df[column].astype("category")
    df.attrs["workload"] = workload
    df.attrs["run"] = dict(identity)
    df.attrs["units"] = {c: u for c in df.columns if (u := unit(c))}
    return df


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_SUFFIX_UNITS = (("_mb_s", "MB/s, MB = 10^6 B"), ("_ops_s", "ops/s"), ("_pct", "%"), ("_bytes", "bytes"),
                 ("_ms", "ms"), ("_us", "µs"), ("_ns", "ns"), ("_s", "s"))


def unit_suffix(column: str) -> tuple[str, str]:
    """The unit suffix a column's name ends with and its unit (``read_mb_s`` -> ("_mb_s", "MB/s ...")),
    or ("", "")."""
    return next(((suffix, u) for suffix, u in _SUFFIX_UNITS if column.endswith(suffix)), ("", ""))


def unit(column: str) -> str:
    """The unit a column's name carries (``read_mb_s`` -> MB/s), or ""."""
    return unit_suffix(column)[1]
