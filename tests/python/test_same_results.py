"""scripts/same_results.py: the check that a change made for speed moves no result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "same_results.py"


def run(ziosim_cli, *args):
    return subprocess.run([sys.executable, str(SCRIPT), "--ziosim", ziosim_cli, *map(str, args)],
                          capture_output=True, text=True, timeout=600)


def test_a_binary_agrees_with_itself_and_a_moved_result_is_named(ziosim_cli, tmp_path):
    saved = tmp_path / "before"
    first = run(ziosim_cli, "--save", saved)
    assert first.returncode == 0, first.stderr
    outputs = sorted(p.name for p in saved.iterdir())
    assert "readers-raidz2-freebsd-11.out" in outputs and "scrub-raidz2.out" in outputs

    # The same binary again: every output the same, host timings left out.
    again = run(ziosim_cli, "--against", saved)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "0 output(s) differ" in again.stdout

    # One figure moved: that output, and only that one, is named, and the exit status says so.
    target = saved / "disk-bench-wd-re4-1tb-qd32.out"
    doc = json.loads(target.read_text())
    numeric = next(k for k, v in doc.items() if isinstance(v, float) and v > 0)
    doc[numeric] *= 1.000001
    target.write_text(json.dumps(doc, sort_keys=True, indent=1) + "\n")
    moved = run(ziosim_cli, "--against", saved)
    assert moved.returncode == 1
    assert [l for l in moved.stdout.splitlines() if l.startswith("DIFFERS")] == [
        "DIFFERS  disk-bench-wd-re4-1tb-qd32.out"]

    # An output saved before that the run no longer makes is not "the same" either.
    (saved / "a-run-since-dropped.out").write_text("{}\n")
    target.unlink()
    gone = run(ziosim_cli, "--against", saved)
    assert gone.returncode == 1
    assert "MISSING  a-run-since-dropped.out" in gone.stdout


def test_host_timings_are_not_results():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import same_results
    finally:
        sys.path.pop(0)
    a = same_results.normalise(json.dumps({"mb_s": 1.5, "wall_seconds": 0.2, "runs": [{"requests_per_sec": 9}]}))
    b = same_results.normalise(json.dumps({"mb_s": 1.5, "wall_seconds": 0.7, "runs": [{"requests_per_sec": 3}]}))
    assert a == b
    assert same_results.normalise(json.dumps({"mb_s": 1.5})) != same_results.normalise(json.dumps({"mb_s": 1.6}))
