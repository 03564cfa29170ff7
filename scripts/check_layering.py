#!/usr/bin/env python3
"""Checks that the code's dependencies run one way (the brief's layering):

    sim/core <- models <- sim/trace <- sim/zfs <- sim/stats <- sim/workload <- sim/calibration
             <- sim/front <- sim/cli, bindings

A file may include the project's headers of its own layer or of a lower one, never of a higher one,
and every source folder must have a layer. Run by ctest (test `layering`); prints each violation as
FILE:LINE: includes HEADER (LAYER above LAYER) and exits 1, or exits 0 silently.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Layer of each top folder, lowest first; folders on one rank may not include each other.
LAYERS = [
    ("sim/core",),
    ("models",),
    ("sim/trace",),
    ("sim/zfs",),
    ("sim/stats",),
    ("sim/workload",),
    ("sim/calibration",),
    ("sim/front",),
    ("sim/cli", "bindings"),
]
SOURCES = ("sim", "models", "bindings")
SUFFIXES = {".h", ".cc", ".c"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of(path: str):
    """(rank, folder) of a repository-relative path, or None if it is not in a layer."""
    for rank, folders in enumerate(LAYERS):
        for folder in folders:
            if path == folder or path.startswith(folder + "/"):
                return rank, folder
    return None


def violations(root: Path = ROOT):
    out = []
    for top in SOURCES:
        for f in sorted((root / top).rglob("*")):
            if f.suffix not in SUFFIXES or not f.is_file():
                continue
            rel = f.relative_to(root).as_posix()
            own = layer_of(rel)
            if own is None:
                out.append(f"{rel}:1: in no layer (add its folder to LAYERS in scripts/check_layering.py)")
                continue
            for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if not m or not m.group(1).startswith(tuple(s + "/" for s in SOURCES)):
                    continue
                dep = layer_of(m.group(1))
                if dep is None:
                    continue
                if dep[0] > own[0] or (dep[0] == own[0] and dep[1] != own[1]):
                    out.append(f"{rel}:{n}: includes {m.group(1)} ({dep[1]} is not below {own[1]})")
    return sorted(out)


def main():
    bad = violations()
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
