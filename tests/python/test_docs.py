"""Documents that are generated from, or checked against, the one declaration of each option."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_options_md_is_what_the_tables_say(ziosim_cli):
    """docs/options.md is `ziosim options --markdown`: regenerate it with that command."""
    printed = subprocess.run([ziosim_cli, "options", "--markdown"], capture_output=True, text=True, check=True).stdout
    assert (REPO / "docs" / "options.md").read_text() == printed, \
        "docs/options.md is stale: run `build/ziosim options --markdown > docs/options.md`"


def test_run_config_example_is_a_valid_scenario(ziosim_cli, tmp_path):
    """The example scenario of docs/run-config.md uses only keys the readers table knows."""
    text = (REPO / "docs" / "run-config.md").read_text()
    example = re.search(r"```toml\n(.*?)```", text, flags=re.S).group(1)
    scenario = tmp_path / "example.toml"
    scenario.write_text(example)
    run = subprocess.run([ziosim_cli, "run", str(scenario), "--check"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_every_front_has_a_python_function_with_its_options():
    import inspect

    import ziosim
    from ziosim import _front

    for workload in ziosim._ziosim.workloads():
        function = getattr(ziosim, workload.replace("-", "_"))
        names = [o["name"] for o in _front.options(workload)]
        assert [p for p in inspect.signature(function).parameters][:len(names)] == names, workload
        assert all(f"    {n}: " in function.__doc__ for n in names), workload


def test_run_scenario_is_the_workloads_function(tmp_path):
    """A scenario file in Python gives the frame of the same call; an error names the file and line."""
    import pandas as pd

    import ziosim

    scenario = tmp_path / "w.toml"
    scenario.write_text('[pool]\nspec = "mirror 2xwd-re4-1tb"\n[workload]\nkind = "writers"\nwriters = [1, 2]\n'
                        'file_size = "16M"\n[tunables]\nzfs_dirty_data_max = "16M"\n')
    direct = ziosim.writers("mirror 2xwd-re4-1tb", writers=[1, 2], file_size="16M",
                            tunables={"zfs_dirty_data_max": "16M"})
    pd.testing.assert_frame_equal(ziosim.run_scenario(scenario), direct)
    assert len(ziosim.run_scenario(scenario, per_disk=True)) == 4
    scenario.write_text('[pool]\nspec = "mirror 2xwd-re4-1tb"\n[workload]\nkind = "writers"\nwriters = [0]\n')
    import pytest

    with pytest.raises(ValueError, match=rf"^{re.escape(str(scenario))}:5: workload.writers: 0 is not between"):
        ziosim.run_scenario(scenario)


def test_demo_in_python_is_the_cli_demo(ziosim_cli):
    """ziosim.demo() is the frame of the result `ziosim demo` prints: the same figures."""
    import ziosim

    frame = ziosim.demo()
    assert list(frame["readers"].unique()) == [1, 2, 5, 10] and frame["profile"].nunique() == 4
    text = subprocess.run([ziosim_cli, "demo"], capture_output=True, text=True, check=True).stdout
    first = frame[frame["readers"] == 1]
    row = "       1" + "".join(f" {f'{r.throughput_mb_s:.0f} ({r.d0_busy_pct:.0f}/{r.d1_busy_pct:.0f})':>28}"
                                for r in first.itertuples())
    assert row in text.splitlines()
    assert set(ziosim.demo(drives=True)["drive"]) == set(ziosim.drives()["name"])
