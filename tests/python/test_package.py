"""The package's face: its public names, the lazy ziosim.plot, show_versions()."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from importlib import metadata
from pathlib import Path

import ziosim

from conftest import REPO


def _submodule(name: str) -> bool:
    return isinstance(getattr(ziosim, name), types.ModuleType)


def test_all_is_sorted_complete_and_exists():
    assert ziosim.__all__ == sorted(ziosim.__all__)
    assert len(set(ziosim.__all__)) == len(ziosim.__all__)
    public = {n for n in dir(ziosim) if not n.startswith("_") and not _submodule(n)}
    assert public - set(ziosim.__all__) == set()
    assert [n for n in ziosim.__all__ if not hasattr(ziosim, n)] == []
    assert {"show_versions", "check_mirror_policy", "plot", "sweep", "readers"} <= set(ziosim.__all__)


def test_plot_is_listed_before_its_first_use_and_imported_lazily():
    # A fresh interpreter: this one imported ziosim.plot (and matplotlib) already.
    code = ("import sys, ziosim; names = dir(ziosim); "
            "assert 'plot' in names, names; assert 'matplotlib' not in sys.modules; "
            "import ziosim.plot; assert 'matplotlib' in sys.modules; print('ok')")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


def test_show_versions_prints_and_returns(capsys):
    info = ziosim.show_versions()
    for key in ("ziosim", "extension", "data_dir", "data_dir_source", "python", "platform", "numpy", "pandas",
                "matplotlib", "tqdm", "dask"):
        assert key in info
    assert info["ziosim"] == ziosim.__version__
    assert Path(info["extension"]) == Path(ziosim._ziosim.__file__) and Path(info["extension"]).is_file()
    assert info["pandas"] == metadata.version("pandas")
    assert (Path(info["data_dir"]) / "catalog").is_dir() and (Path(info["data_dir"]) / "profiles").is_dir()
    assert sys.executable in info["python"]
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == len(info)
    assert any(line.startswith("extension") and line.endswith(info["extension"]) for line in printed)


def test_show_versions_names_the_data_directory_in_use(monkeypatch, capsys):
    monkeypatch.setenv("ZIOSIM_DATA_DIR", str(REPO / "models"))
    info = ziosim.show_versions()
    assert info["data_dir"] == str(REPO / "models") and info["data_dir_source"] == "ZIOSIM_DATA_DIR"
    # as an installed package sets it (ziosim/data)
    monkeypatch.setattr(ziosim, "_DATA", str(REPO / "models"))
    assert ziosim.show_versions()["data_dir_source"] == "ZIOSIM_DATA_DIR: the data installed with the package"
    monkeypatch.delenv("ZIOSIM_DATA_DIR")
    info = ziosim.show_versions()
    assert info["data_dir_source"].startswith("the extension's built-in default")
    assert info["data_dir"] == os.path.dirname(ziosim._ziosim.catalog_dir())


def test_show_versions_says_not_installed(monkeypatch, capsys):
    version = metadata.version

    def without_dask(dist):
        if dist == "dask":
            raise metadata.PackageNotFoundError(dist)
        return version(dist)

    monkeypatch.setattr(metadata, "version", without_dask)
    info = ziosim.show_versions()
    assert info["dask"] == "not installed" and info["numpy"] == version("numpy")
    assert "not installed" in capsys.readouterr().out


def test_extension_stubs_name_exactly_the_modules_functions():
    """bindings/ziosim/_ziosim.pyi (for type checkers and editors) matches the compiled module."""
    import ast

    stub = ast.parse((REPO / "bindings" / "ziosim" / "_ziosim.pyi").read_text())
    declared = {n.name for n in stub.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    declared |= {n.target.id for n in stub.body if isinstance(n, ast.AnnAssign)}
    compiled = {n for n in dir(ziosim._ziosim) if not n.startswith("__") or n == "__version__"}
    assert declared == compiled


def test_one_version_everywhere(ziosim_cli):
    """CMakeLists.txt's project() version is the CLI's --version, the module's and the package's."""
    import re

    declared = re.search(r"project\(ziosim VERSION ([0-9.]+)", (REPO / "CMakeLists.txt").read_text()).group(1)
    cli = subprocess.run([ziosim_cli, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    assert cli == f"ziosim {declared}"
    assert ziosim.__version__ == declared == metadata.version("ziosim")


def test_the_extension_needs_no_system_toml_library():
    """toml++ is compiled into the core (sim/core/toml_impl.cc): a wheel loads without Debian's toml++."""
    import shutil

    if shutil.which("ldd") is None:
        import pytest

        pytest.skip("ldd is not installed")
    libs = subprocess.run(["ldd", ziosim._ziosim.__file__], capture_output=True, text=True, check=True).stdout
    assert "tomlplusplus" not in libs, libs
