"""Argument conversion shared by the API functions: sizes, tunables, paths."""

from __future__ import annotations

import math
import operator
import os
from collections.abc import Mapping
from typing import Any, Union

from . import _ziosim

#: A size in bytes: an int, or text with a binary suffix ("4096", "4K", "1M", "1.5G").
Size = Union[int, str]


def size(value: Size, field: str, *, positive: bool = True) -> int:
    """Bytes from an int or a "128K"-style string; ValueError names `field`."""
    if isinstance(value, str):
        return int(_ziosim.parse_size(value, field, positive))
    if isinstance(value, bool) or isinstance(value, float):
        raise TypeError(f"{field}: expected an int or a size string like '128K', got {value!r}")
    try:
        n = operator.index(value)
    except TypeError:
        raise TypeError(f"{field}: expected an int or a size string like '128K', got {value!r}") from None
    if n < 0 or (positive and n == 0):
        raise ValueError(f"{field}: must be {'positive' if positive else 'zero or more'} (got {n})")
    return n


def integer(value: Any, field: str) -> int:
    """An int argument (bools and floats refused: they are almost always mistakes)."""
    if isinstance(value, (bool, float)):
        raise TypeError(f"{field}: expected an int, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{field}: expected an int, got {value!r}") from None


def tunable_text(value: Any) -> str:
    """A tunable value as the text `--set NAME=VALUE` takes."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    if isinstance(value, (str, int, float)):
        return str(value)
    try:
        return str(operator.index(value))  # numpy integers
    except TypeError:
        raise TypeError(f"tunable value {value!r}: expected a str, int or bool") from None


def settings(tunables: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """`{"name": value}` as ordered (name, text) pairs, applied after the profile."""
    if tunables is None:
        return []
    if not isinstance(tunables, Mapping):
        raise TypeError(f"tunables: expected a dict of name -> value, got {type(tunables).__name__}")
    out = []
    for name, value in tunables.items():
        if not isinstance(name, str):
            raise TypeError(f"tunables: names must be str, got {name!r}")
        out.append((name, tunable_text(value)))
    return out


def path(value: str | os.PathLike[str] | None) -> str:
    return "" if value is None else os.fspath(value)
