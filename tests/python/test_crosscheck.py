"""ziosim against real ZFS code (scripts/crosscheck/): the committed summaries of
OpenZFS 2.1.11 (libzpool) and ONNV b134 (zfs-fuse) runs on the reference device,
and, where Debian's libzpool is installed, a few real runs made now.

Real runs are not deterministic (allocation timing, mirror tie-breaks), so each
committed point holds several repeats and ziosim is compared with their range or
mean. Structural figures are compared exactly; statistics within the issue's
targets, except the gaps listed in KNOWN_GAPS, each with its reason, which are
held to a looser bound so that a change that widens them still fails.
"""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "crosscheck"))
import crosscheck as xc  # noqa: E402

REFS = sorted((REPO / "traces" / "crosscheck").glob("*/*.json"))

# Targets of the issue: per-leaf statistics within 5 %, MB/s within 10 %.
TARGET = {"mb_s": 0.10, "leaf_bytes": 0.05, "amplification": 0.05}
# (era, scenario, metric) -> (bound, why). Filled from the closing note's table.
KNOWN_GAPS: dict[tuple[str, str, str], tuple[float, str]] = {}


def points():
    for path in REFS:
        ref = json.loads(path.read_text())
        for n in ref["runs"]:
            yield pytest.param(ref, int(n), id=f"{ref['era']}-{ref['scenario']['name']}-{n}")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("crosscheck")


def test_references_are_committed():
    eras = {p.parent.name for p in REFS}
    assert "openzfs-2.1" in eras, "traces/crosscheck/openzfs-2.1/ has no reference (crosscheck.py run)"


@pytest.mark.parametrize("ref,n", list(points()))
def test_ziosim_matches_the_real_code(ref, n, workdir):
    scn, era = ref["scenario"], ref["era"]
    reals = ref["runs"][str(n)]
    sim = xc.run_ziosim(scn, era, n, workdir)
    # Structure, exactly: the queue's limits show as the most I/Os in one device.
    lo = min(r["max_in_flight"] for r in reals)
    hi = max(r["max_in_flight"] for r in reals)
    assert lo <= sim["max_in_flight"] <= hi, (sim["max_in_flight"], lo, hi)
    if scn["kind"] == "mirror":
        assert sim["read_from_two_children"] == 0
        assert all(r["read_from_two_children"] == 0 for r in reals)
    if scn["read"] == "holes":
        # No data I/O for holes; the real code reads a few indirect blocks and the last record.
        assert sim["leaf_bytes"] <= min(r["leaf_bytes"] for r in reals)
        assert all(r["leaf_bytes"] <= 4 * scn["recordsize"] for r in reals)
        return
    if "sizes" in reals[0] and scn["tunables"].get("zfs_vdev_aggregation_limit") == 0:
        # Every leaf read is one RAID-Z column: the same sizes, the same number of each
        # (the real runs add a few metadata reads).
        for size, count in sim["sizes"].items():
            real = statistics.fmean([r["sizes"].get(size, 0) for r in reals])
            assert abs(count - real) <= max(2, 0.01 * real), (size, count, real)
    cmp = xc.compare(reals, sim)
    for metric, target in TARGET.items():
        if metric not in cmp:
            continue
        bound, _why = KNOWN_GAPS.get((era, scn["name"], metric), (target, ""))
        err = cmp[metric]["error"]
        assert err is not None and abs(err) <= bound, f"{metric}: {cmp[metric]}"


# ---------------------------------------------------------------------------------- real code now

def libzpool_or_skip():
    if xc.libzpool_tools() is None:
        pytest.skip("the libzpool harness is not built (Debian's libzpool5linux and libzfslinux-dev are not "
                    "installed): real OpenZFS 2.1.11 runs skipped")


def small(name, **kw):
    base = {"name": name, "vdev": "mirror:2", "ashift": 12, "recordsize": 128 << 10, "file_size": 32 << 20,
            "readers": [1], "bs": 1 << 20, "read": "whole", "primarycache": "all", "rotational": True,
            "device": "fixed:latency=1ms,bandwidth=300MB/s,lanes=1", "eras": ["openzfs-2.1"], "repeats": 1,
            "tunables": {}, "arc_max": 256 << 20, "leaf_size": 1 << 30, "note": ""}
    base.update(kw)
    kind, _, leaves = base["vdev"].partition(":")
    base["kind"], base["leaves"] = kind, int(leaves)
    return base


def test_real_raidz_columns_are_ziosims(workdir):
    libzpool_or_skip()
    scn = small("columns", vdev="raidz2:5", tunables={"zfs_vdev_aggregation_limit": 0})
    real = xc.run_real(scn, "openzfs-2.1", 1, workdir)
    sim = xc.run_ziosim(scn, "openzfs-2.1", 1, workdir)
    # 256 records of 128K on 3 data columns: 44K, 44K, 40K at ashift 12, parity not read.
    data = {k: v for k, v in real["sizes"].items() if int(k) in (40 << 10, 44 << 10)}
    assert data == {k: v for k, v in sim["sizes"].items() if int(k) in (40 << 10, 44 << 10)}
    assert sum(data.values()) == 3 * 256


def test_real_holes_read_no_data_and_mirror_limits_hold(workdir):
    libzpool_or_skip()
    holes = xc.run_real(small("holes", read="holes", bs=4096, file_size=16 << 20), "openzfs-2.1", 1, workdir)
    assert holes["leaf_bytes"] <= 4 * (128 << 10)  # a few indirect blocks, no hole data
    whole = xc.run_real(small("mirror", readers=[4]), "openzfs-2.1", 4, workdir)
    # class scheduler: 10 sync + 3 async reads at most in one leaf (zfs_vdev_*_max_active)
    assert whole["max_in_flight"] <= 13
    assert whole["read_from_two_children"] == 0
    assert abs(whole["amplification"] - 1) < 0.02
