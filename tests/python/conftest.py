"""Shared fixtures for the Python tests (run: pytest tests/python, after `pip install .[test]`)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED_DATA = REPO.parent / "shared" / "data"

MIRROR = "mirror 2xwd-re4-1tb"


@pytest.fixture(scope="session")
def disksim_dir() -> Path:
    d = SHARED_DATA / "disksim-valid"
    if not (d / "hp_c2247a.parv").exists():
        pytest.skip(f"DiskSim validation data not found in {d}")
    return d


@pytest.fixture(scope="session")
def ziosim_cli() -> str:
    """The `ziosim` command installed with the package (next to the interpreter), else on PATH."""
    here = Path(sys.executable).parent / "ziosim"
    if here.exists():
        return str(here)
    found = shutil.which("ziosim")
    if found is None:
        pytest.skip("the ziosim command is not installed")
    return found


def pytest_report_header(config):
    import ziosim

    return f"ziosim {ziosim.__version__} from {os.path.dirname(ziosim.__file__)}"


# ---------------------------------------------------------------------------- notebook timings

_NOTEBOOK_TIMES: list[tuple[str, float]] = []


def pytest_runtest_logreport(report):
    if report.when == "call":
        for name, value in report.user_properties:
            if name == "notebook_wall_s":
                _NOTEBOOK_TIMES.append((report.nodeid.rsplit("[", 1)[-1].rstrip("]"), value))


def pytest_terminal_summary(terminalreporter):
    if _NOTEBOOK_TIMES:
        terminalreporter.write_sep("-", "notebook wall times")
        for name, seconds in _NOTEBOOK_TIMES:
            terminalreporter.write_line(f"{name}: {seconds:.1f} s")
