"""ziosim.calibrate(): the same fit as `ziosim calibrate --json`, and errors that name the Python keyword."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import ziosim

from conftest import SHARED_DATA

FIO = SHARED_DATA / "fio-vm"
FIO_FILES = [FIO / f"{name}.json" for name in ("randread_4k_libaio_qd1_rep1", "randread_4k_libaio_qd4_rep1",
                                                "randread_4k_libaio_qd16_rep1", "seqread_1M_libaio_qd1",
                                                "seqread_1M_libaio_qd4")]


def _cli(ziosim_cli: str, *args: str) -> dict:
    out = subprocess.run([ziosim_cli, "calibrate", *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _figures(df) -> dict:
    return {r.figure: (r.value, r.estimated, r.provenance) for r in df.itertuples()}


def _json_figures(result: dict) -> dict:
    return {k: (f["value"], "estimated" in f, f.get("estimated", f.get("source"))) for k, f in result["figures"].items()}


def test_trace_fit_is_the_clis(disksim_dir: Path, ziosim_cli: str, tmp_path: Path) -> None:
    trace, spec = disksim_dir / "barracuda.trace", disksim_dir / "barracuda.parv"
    (tmp_path / "py").mkdir()
    (tmp_path / "cli").mkdir()
    df = ziosim.calibrate(tmp_path / "py" / "fit.toml", kind="hdd", trace=trace, spec=spec)
    cli = _cli(ziosim_cli, "--kind", "hdd", "--trace", str(trace), "--spec", str(spec),
               "-o", str(tmp_path / "cli" / "fit.toml"))
    assert _figures(df) == _json_figures(cli)
    run = df.attrs["run"]
    assert run["fitted_requests"] == cli["fitted_requests"] == 5000
    assert run["held_out_fitted_demerit_ms"] == cli["held_out"]["fitted"]["demerit_ms"]
    assert run["held_out_spec_mean_error_pct"] == cli["held_out"]["spec"]["mean_error_pct"]
    assert (tmp_path / "py" / "fit.toml").read_bytes() == (tmp_path / "cli" / "fit.toml").read_bytes()
    with pytest.raises(ValueError, match="per_run"):
        ziosim.calibrate(tmp_path / "py" / "fit.toml", kind="hdd", trace=trace, spec=spec, per_run=True)


def test_fio_fit_is_the_clis(ziosim_cli: str, tmp_path: Path) -> None:
    if not all(f.exists() for f in FIO_FILES):
        pytest.skip(f"fio results not found in {FIO}")
    out = tmp_path / "vm.toml"
    args = dict(kind="ssd", holdout=["qd16", "seqread_1M_libaio_qd4"], ios=500)
    figures = ziosim.calibrate(out, fio_json=FIO_FILES, **args)
    runs = ziosim.calibrate(out, fio_json=[str(f) for f in FIO_FILES], per_run=True, **args)
    cli = _cli(ziosim_cli, "--kind", "ssd", *map(str, FIO_FILES), "--holdout", "qd16", "--holdout",
               "seqread_1M_libaio_qd4", "--ios", "500", "-o", str(out))
    assert _figures(figures) == _json_figures(cli)
    assert figures.attrs["run"]["fitted_keys"] == ",".join(cli["fitted_keys"])
    assert runs["simulated_mb_s"].tolist() == [r["simulated_mb_s"] for r in cli["runs"]]
    assert runs["held_out"].tolist() == [r["held_out"] for r in cli["runs"]] == [False, False, True, False, True]


def test_bad_arguments_name_the_keyword(tmp_path: Path) -> None:
    trace = tmp_path / "t.trace"
    trace.write_text("R Hit 0 8 1000.0 100.0\n")
    out = tmp_path / "never.toml"
    with pytest.raises(ValueError, match=r"^calibrate: rpm must be positive$"):
        ziosim.calibrate(out, kind="hdd", trace=trace, rpm=-5, capacity="1M")
    with pytest.raises(ValueError, match=r"^capacity: "):
        ziosim.calibrate(out, kind="hdd", trace=trace, rpm=7200, capacity="0")
    with pytest.raises(ValueError, match=r"ios"):
        ziosim.calibrate(out, kind="ssd", fio_json=[trace], ios="many")
    with pytest.raises(TypeError, match=r"did you mean trace\?"):
        ziosim.calibrate(out, kind="hdd", trac=trace)
    assert not out.exists()
