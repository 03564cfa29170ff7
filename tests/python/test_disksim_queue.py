"""Requests queued in a DiskSim drive, against DiskSim itself.

tests/data/disksim-queue holds DiskSim 4.0's completions of open traces (Poisson arrivals of random
reads; some with re-reads, a sequential third or half writes, named so) on validation drives whose
"Max queue length", disk scheduler or preseeking level were set, saved by
`scripts/disksim-oracle/queue_check.py --save-ref` with the share of requests ziosim then
completed in the same own time (within 1 us). Each is replayed again here: the share may grow,
never shrink. The shares differ by scheduler and drive (README: "Max queue length" > 1).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
REFS = REPO / "tests" / "data" / "disksim-queue"
sys.path.insert(0, str(REPO / "scripts" / "disksim-oracle"))  # the oracle's own edit and comparison

import option_check  # noqa: E402
import queue_check  # noqa: E402


@pytest.mark.parametrize("ref", sorted(REFS.glob("*.json")), ids=lambda p: p.stem)
def test_queued_requests_complete_as_in_disksim(ref, disksim_dir, ziosim_cli, tmp_path):
    meta = json.loads(ref.read_text())
    drive = meta["drive"]
    for f in disksim_dir.glob(drive + "*"):
        shutil.copy(f, tmp_path / f.name)
    spec = tmp_path / f"{drive}.diskspecs"
    spec.write_text(option_check.edit(spec.read_text(), 0, [tuple(kv) for kv in meta["settings"]], str(spec)))
    trace = tmp_path / "queued.trace"
    shutil.copy(REFS / meta["trace"], trace)
    shutil.copy(ref.with_suffix(".disksim.csv"), tmp_path / "disksim.csv")
    run = subprocess.run([ziosim_cli, "replay", str(trace), "--format", "ascii", "--target",
                          f"disksim:{drive}.parv", "--per-request", "ziosim.csv"],
                         cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    equal, compared = queue_check.equal_requests(str(tmp_path), str(trace))
    assert compared == meta["compared"]
    assert equal >= meta["equal"], f"{equal} of {compared} equal DiskSim's, {meta['equal']} when saved"
