"""The notebooks in notebooks/ run top to bottom, and every notebook in the repository is stored without outputs.

Each notebook runs with nbclient in a kernel of *this* interpreter (a kernelspec written to a
temporary folder, so a ``python3`` kernelspec installed elsewhere on the machine cannot pick
another Python), with the ``ziosim`` this process imported and ``MPLBACKEND=Agg``. A cell that
raises fails the test. Needs nbformat, nbclient and ipykernel (the ``notebook``/``test`` extras).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

import ziosim

from conftest import REPO

NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
KERNEL_NAME = "ziosim-test-python"
# Each notebook is meant to run in well under a minute on 2 cores; this is the alarm.
NOTEBOOK_BUDGET_S = 90
CELL_TIMEOUT_S = 120

# Folders that hold other people's or generated notebooks, not the project's.
_SKIP_DIRS = {".git", ".venv", "venv", "node_modules", ".ipynb_checkpoints", "__pycache__", ".ruff_cache"}


def _repo_notebooks() -> list[Path]:
    found = []
    for root, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.startswith("build") and not d.startswith(".")]
        found += [Path(root) / f for f in files if f.endswith(".ipynb")]
    return sorted(found)


def test_notebooks_exist():
    names = {p.name for p in NOTEBOOKS}
    assert {"mirror-policies.ipynb", "mirror-patch-comparison.ipynb", "raidz-teaching.ipynb",
            "prefetch-and-arc.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_prose_of_every_notebook_is_checked(path):
    """A sentence that states a result ("X is faster than Y", "falls to one disk's speed") has
    assertions in a hidden cell below it (tag ``claims``), which the run below executes, so a model
    change that falsifies the prose fails the suite."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    claims = [c for c in cells if "claims" in c.get("metadata", {}).get("tags", [])]
    assert claims, f"{path.name}: no claims cell"
    for c in claims:
        source = "".join(c["source"])
        assert c["cell_type"] == "code" and "assert " in source, source[:200]
        assert c["metadata"].get("jupyter", {}).get("source_hidden"), f"{path.name}: a claims cell is not hidden"


@pytest.mark.parametrize("path", _repo_notebooks(), ids=lambda p: str(p.relative_to(REPO)))
def test_stored_without_outputs(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    dirty = [i for i, cell in enumerate(nb.get("cells", []))
             if cell.get("cell_type") == "code" and (cell.get("outputs") or cell.get("execution_count") is not None)]
    assert not dirty, (f"{path.relative_to(REPO)}: cells {dirty} have outputs or execution counts; clear them "
                       "(jupyter nbconvert --clear-output --inplace FILE)")


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory) -> Path:
    """A kernelspec that starts this very interpreter."""
    pytest.importorskip("ipykernel")
    root = tmp_path_factory.mktemp("kernels")
    spec = root / KERNEL_NAME
    spec.mkdir()
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"Python {sys.version_info.major}.{sys.version_info.minor} (ziosim tests)",
        "language": "python",
    }))
    return root


def _kernel_env(tmp: Path) -> dict[str, str]:
    env = dict(os.environ)
    # The kernel imports the same ziosim as this process (a build tree on PYTHONPATH or an install).
    package_parent = str(Path(ziosim.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([package_parent, *filter(None, [env.get("PYTHONPATH")])])
    env["MPLBACKEND"] = "Agg"
    env["MPLCONFIGDIR"] = str(tmp / "mpl")      # no font-cache writes outside the test's folder
    env["IPYTHONDIR"] = str(tmp / "ipython")    # no user profile, no startup files
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env.pop("PYDEVD_LOAD_VALUES_ASYNC", None)
    return env


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, kernel_dir, tmp_path, record_property):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager

    nb = nbformat.read(path, as_version=4)
    ksm = KernelSpecManager(kernel_dirs=[str(kernel_dir)], ensure_native_kernel=False)
    km = AsyncKernelManager(kernel_name=KERNEL_NAME, kernel_spec_manager=ksm)
    client = nbclient.NotebookClient(nb, km=km, timeout=CELL_TIMEOUT_S, kernel_name=KERNEL_NAME,
                                     resources={"metadata": {"path": str(tmp_path)}})
    start = time.perf_counter()
    client.execute(env=_kernel_env(tmp_path))  # cwd: the resources path, a fresh folder
    elapsed = time.perf_counter() - start
    record_property("notebook_wall_s", round(elapsed, 1))
    errors = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors, errors
    assert elapsed < NOTEBOOK_BUDGET_S, f"{path.name} took {elapsed:.0f} s (budget: well under a minute)"
