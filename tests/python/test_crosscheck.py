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
# (era, scenario, metric) -> (bound, why): where ziosim misses a target, the bound it is held to.
STARTUP = ("b134 is timed around dd, open included: the FUSE lookup, the file's dnode and the objset's "
           "indirect blocks, 5-10 dependent small reads (20-40 ms) that ziosim's readers, timed from the first "
           "read as dd's own figure is, do not make; they weigh on a 16 MiB read (the 2.1 harness opens the "
           "object before its clock)")
RUN_AHEAD = ("a 16 MiB range read on RAID-Z2: ziosim's prefetch runs 14.5 MiB past the range where the real "
             "code's runs 10.3-12.9 MiB (when its prefetch I/O is issued against when the reader stops), so "
             "10 % more leaf bytes and the reader shares the disks with more run-ahead")
ISSUE_SPACING = ("ziosim issues a dmu_read's blocks at one instant (26-48 % of its consecutive leaf reads arrive "
                 "within 20 us of each other), the real code spends CPU per zio (0-9 %): on a drive that answers "
                 "in under a millisecond (drive cache hits, an SSD) the first reads complete before the last "
                 "arrive, so the real code keeps 5-7 in one device where ziosim has 8-9, and aggregates less. "
                 "The spacing alone does not account for the MB/s: 20-80 us of the issuing thread's CPU per block "
                 "read (tried December 2026, not kept) left RAID-Z1 and the HDD mirror as far off")
FUSE_CPU = ("b134 is read through FUSE, 128K per request, each crossing the kernel twice and run by the "
            "zfs-fuse daemon on this 2-core host: on a drive faster than the reference device that CPU time, "
            "which ziosim does not model, bounds the real MB/s (leaf reads and queue depth match exactly)")
KNOWN_GAPS: dict[tuple[str, str, str], tuple[float, str]] = {
    ("onnv-134", "mirror2-range", "mb_s"): (0.15, STARTUP),
    ("openzfs-2.1", "raidz2-5-range", "mb_s"): (0.20, RUN_AHEAD),
    ("openzfs-2.1", "raidz2-5-range", "leaf_bytes"): (0.12, RUN_AHEAD),
    ("openzfs-2.1", "raidz2-5-range", "amplification"): (0.12, RUN_AHEAD),
    ("onnv-134", "raidz2-5-range", "mb_s"): (0.35, STARTUP),
    ("openzfs-2.1", "mirror2", "mb_s"): (0.25, "the real 2.1 mirror's MB/s moves by 15 % between regenerations on "
                                               "this 2-core machine (2 readers: 161.5 then 135.2 MB/s); ziosim 165"),
    ("openzfs-2.1", "mirror2-nonrot", "max_in_flight"): (0, "one reader on SSD-like children: the real code "
                                                            "keeps 10-11 reads in one device, ziosim 8"),
    ("openzfs-2.1", "raidz1-5", "mb_s"): (0.20, ISSUE_SPACING + "; on RAID-Z1 a child's data columns of "
                                                "consecutive blocks are contiguous (the parity column between them is "
                                                "within the read gap limit), so aggregation follows arrival timing: "
                                                "ziosim reads 403 leaf reads where the real code makes 431-500 "
                                                "across regenerations, and up to 18 % faster"),
    ("openzfs-2.1", "draid1-5", "mb_s"): (0.25, ISSUE_SPACING + "; draid1:5 is RAID-Z1's layout in dRAID's full "
                                                "stripes (4 data + 1 parity over the 5 disks), and 4 readers there are "
                                                "20 % faster in ziosim for raidz1-5's reason: 814 leaf reads where the "
                                                "real code makes 928; the map itself is exact (draid_map_check.py)"),
    ("openzfs-2.1", "mirror2-nonrot", "mb_s"): (0.30, "on non-rotating children the real code alternates more "
                                                      "(run length 2.1 vs 3.0); its MB/s moved from 41-51 to 52-53 "
                                                      "between regenerations"),
    ("openzfs-2.1", "mirror4", "max_in_flight"): (0, "4 readers: 12 in one device in both real runs, ziosim 11"),
    ("openzfs-2.1", "raidz2-7-1m", "mb_s"): (0.20, "1 reader: the real code read 363-393 MB/s across "
                                                   "regenerations, ziosim 426"),
    ("openzfs-2.1", "mirror2-hdd", "max_in_flight"): (0, ISSUE_SPACING),
    ("openzfs-2.1", "raidz2-5-hdd", "max_in_flight"): (0, ISSUE_SPACING),
    ("openzfs-2.1", "mirror2-hdd", "mb_s"): (0.30, ISSUE_SPACING + "; 4 and 10 readers: the real code reads "
                                                   "172-178 MB/s, ziosim 203-211 (+14-23 %). Both sides run the "
                                                   "same HDD model; since queued commands have their overhead done "
                                                   "while they wait (December 2026) ziosim's bursts of queued reads "
                                                   "no longer lose revolutions, the real code's spaced ones gained "
                                                   "nothing (-1 to +7 %): before, ziosim's SPTF chose sectors the "
                                                   "overhead then missed, which hid this gap"),
    ("openzfs-2.1", "raidz2-5-hdd", "mb_s"): (0.65, ISSUE_SPACING + "; the real 1-reader runs span 224-368 MB/s "
                                                    "with their aggregation (0.51-0.91: the committed runs "
                                                    "and six more), ziosim 358 at 0.91, as the fastest real run"),
    ("openzfs-2.1", "mirror2-ssd", "max_in_flight"): (0, ISSUE_SPACING),
    ("openzfs-2.1", "mirror2-ssd", "mb_s"): (0.80, ISSUE_SPACING + "; at 440-570 MB/s the real runs are also "
                                                   "bound by this 2-core host's CPU (checksums, copies)"),
    ("onnv-134", "mirror2-hdd", "mb_s"): (0.20, FUSE_CPU),
    ("onnv-134", "raidz2-5-hdd", "mb_s"): (0.35, FUSE_CPU + "; 1 reader aggregates less (0.80 vs 0.89)"),
    ("onnv-134", "mirror2-ssd", "mb_s"): (1.10, FUSE_CPU),
}


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
    if scn["read"] == "holes":
        # No data I/O for holes; the real code reads a few indirect blocks and the last record.
        assert sim["leaf_bytes"] <= min(r["leaf_bytes"] for r in reals)
        assert all(r["leaf_bytes"] <= 4 * scn["recordsize"] for r in reals)
        return
    # Structure, exactly: the queue's limits show as the most I/Os in one device.
    lo = min(r["max_in_flight"] for r in reals)
    hi = max(r["max_in_flight"] for r in reals)
    if (era, scn["name"], "max_in_flight") not in KNOWN_GAPS:
        assert lo <= sim["max_in_flight"] <= hi, (sim["max_in_flight"], lo, hi)
    if scn["kind"] == "mirror":
        # A byte range is read from one child only, unless the ARC dropped it in between
        # (10 readers of 128 MiB overflow the 1 GiB ARC: the real code then re-reads a few).
        assert sim["read_from_two_children"] <= max(r["read_from_two_children"] for r in reals)
    if "sizes" in reals[0] and scn["tunables"].get("zfs_vdev_aggregation_limit") == 0:
        # Every data read is one RAID-Z column: the same sizes, the same number of each
        # (metadata reads of at most 16K aside).
        for size, count in sim["sizes"].items():
            if int(size) <= 16 << 10:
                continue
            real = statistics.fmean([r["sizes"].get(size, 0) for r in reals])
            assert abs(count - real) <= max(2, 0.01 * real), (size, count, real)
    cmp = xc.compare(reals, sim)
    for metric, target in TARGET.items():
        if metric not in cmp:
            continue
        bound, _why = KNOWN_GAPS.get((era, scn["name"], metric), (target, ""))
        c = cmp[metric]
        # Within the target of the real runs' mean, or of the range the real repeats spanned.
        within_mean = c["error"] is not None and abs(c["error"]) <= bound
        within_range = c["real_min"] * (1 - bound) <= c["ziosim"] <= c["real_max"] * (1 + bound)
        assert within_mean or within_range, f"{metric}: {c}"


# A patched OpenZFS (scripts/crosscheck/libzpool/build_libzpool.sh) against the same patch as a plug-in.
PATCHED = sorted((REPO / "traces" / "crosscheck-patched").glob("*/*/*.json"))
PLUGINS = {"count-queued": ("patched_load_locality.so", "patched_load_locality")}


@pytest.mark.parametrize("path", PATCHED, ids=[p.parts[-3] for p in PATCHED])
def test_a_patch_as_plugin_predicts_the_patched_real_code(path, workdir, monkeypatch):
    library, policy = PLUGINS[path.parts[-3]]
    plugin = REPO / "build" / library
    if not plugin.exists():
        pytest.skip(f"build/{library} is not built (cmake -DZIOSIM_BUILD_TESTS=ON): patched comparison skipped")
    ref = json.loads(path.read_text())
    stock = json.loads((REPO / "traces" / "crosscheck" / ref["era"] / path.name).read_text())
    monkeypatch.setattr(xc, "ZIOSIM_PLUGINS", [str(plugin)])
    monkeypatch.setattr(xc, "ZIOSIM_SETTINGS", [f"mirror_policy={policy}"])
    for n, reals in ref["runs"].items():
        sim = xc.run_ziosim(ref["scenario"], ref["era"], int(n), workdir)
        real_mb_s = statistics.fmean(r["mb_s"] for r in reals)
        real_reads = statistics.fmean(r["leaf_reads"] for r in reals)
        stock_reads = statistics.fmean(r["leaf_reads"] for r in stock["runs"][n])
        # The patch's effect, as the real code shows it: several times the leaf reads, MB/s at most 60 %.
        assert real_reads > 3 * stock_reads and sim["leaf_reads"] > 3 * stock_reads
        # ziosim overstates it (each dmu_read's blocks are queued at one instant): the bounds of that gap.
        assert 0.70 * real_mb_s <= sim["mb_s"] <= 1.10 * real_mb_s, (n, sim["mb_s"], real_mb_s)
        assert 0.90 * real_reads <= sim["leaf_reads"] <= 1.50 * real_reads, (n, sim["leaf_reads"], real_reads)


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


def test_real_draid_map_is_ziosims():
    """Every data column ziosim maps a block of a real dRAID pool to was read by the real code
    from that leaf at that offset, no parity was, and the allocated sizes agree (the full matrix:
    scripts/crosscheck/draid_map_check.py)."""
    libzpool_or_skip()
    import draid_map_check as dm
    # 1 MiB records over 5-wide groups wrapping across 7 disks: some blocks run into the next group.
    res = dm.check("wrap", "draid2:3d:2s:9", 12, 1 << 20, 100 << 20)
    assert res["blocks"] == 100 and res["asize_mismatches"] == 0
    assert res["two_row_blocks"] > 0
    assert res["data_bytes_read"] == res["data_bytes"] > 0
    assert res["parity_bytes_read"] == 0 and res["parity_bytes"] > 0
    # The same check of a wrong map (each column one child further on) fails.
    wrong = dm.check("wrong", "draid2:3d:2s:9", 12, 128 << 10, 8 << 20, rotate_children=1)
    assert wrong["data_bytes_read"] < 0.9 * wrong["data_bytes"]


def test_real_scrub_is_ziosims():
    """A scrub of a RAID-Z2 holding one file, real and simulated: the same bytes from each leaf
    (every column, parity included), and the data reads take as long (scrub_check.py)."""
    libzpool_or_skip()
    import scrub_check as sc
    res = sc.check("raidz2-5", "raidz2:5", 32 << 20)
    assert res["leaf_bytes_error"] < 0.05, res
    assert abs(res["time_error"]) < 0.25, res
    # The real code also scrubs the MOS, dnode and objset blocks (about 1.4 MB here), which ziosim does not model.
    assert 0 < res["real"]["issued_bytes"] - res["ziosim"]["issued_bytes"] < 2 << 20


def test_real_holes_read_no_data_and_mirror_limits_hold(workdir):
    libzpool_or_skip()
    holes = xc.run_real(small("holes", read="holes", bs=4096, file_size=16 << 20), "openzfs-2.1", 1, workdir)
    assert holes["leaf_bytes"] <= 4 * (128 << 10)  # a few indirect blocks, no hole data
    whole = xc.run_real(small("mirror", readers=[4]), "openzfs-2.1", 4, workdir)
    # class scheduler: 10 sync + 3 async reads at most in one leaf (zfs_vdev_*_max_active)
    assert whole["max_in_flight"] <= 13
    assert whole["read_from_two_children"] == 0
    assert abs(whole["amplification"] - 1) < 0.02


def test_real_code_on_ziosims_own_hdd_model(workdir):
    libzpool_or_skip()
    scn = small("hdd", device="wd-re4-1tb")
    xc.apply_drive(scn, {}, "test")
    assert scn["rotational"] and scn["leaf_size"] > 10**12  # each leaf the whole 1 TB drive, an HDD
    sim = xc.run_ziosim(scn, "openzfs-2.1", 1, workdir)
    # Real code runs in real time, so how many reads the queue aggregates depends on when this
    # machine's threads run: 76 to 105 leaf reads, 110 to 153 MB/s, over runs here with and without
    # the other core busy. The simulator is compared with three runs' spread, not with one run.
    real = [xc.run_real(scn, "openzfs-2.1", 1, workdir) for _ in range(3)]
    for run in real:
        # The drive model served every leaf read in real time: the same structure as in the simulator.
        assert run["read_from_two_children"] == sim["read_from_two_children"] == 0
        assert abs(run["amplification"] - 1) < 0.02
        assert run["max_in_flight"] <= 13
    reads = sorted(run["leaf_reads"] for run in real)
    assert 0.75 * reads[0] <= sim["leaf_reads"] <= 1.25 * reads[-1], (reads, sim["leaf_reads"])
    mb_s = sorted(run["mb_s"] for run in real)[1]
    assert abs(mb_s - sim["mb_s"]) <= 0.25 * sim["mb_s"], (mb_s, sim["mb_s"])


def test_a_catalog_device_is_checked_against_its_drive():
    with pytest.raises(xc.UsageError, match="neither fixed:... nor a catalog drive"):
        xc.apply_drive(small("x", device="no-such-drive"), {}, "m.toml: scenario 1")
    with pytest.raises(xc.UsageError, match="rotational: comes from the drive"):
        xc.apply_drive(small("x", device="generic-ssd"), {"rotational": True}, "m.toml: scenario 1")
    ssd = small("x", device="generic-ssd")
    xc.apply_drive(ssd, {}, "m.toml: scenario 1")
    assert ssd["rotational"] is False and "rotational" not in xc.ziosim_pool(ssd)


def zfs_fuse_or_skip(workdir):
    import os
    import shutil

    if os.geteuid() != 0 or not os.path.exists("/dev/fuse") or shutil.which("unshare") is None:
        pytest.skip("zfs-fuse needs root, /dev/fuse and unshare: real ONNV b134 runs skipped")
    sys.path.insert(0, str(REPO / "scripts" / "crosscheck" / "zfsfuse"))
    import run_b134

    try:
        run_b134.ensure_packages("/var/tmp/zfsfuse-b134")
    except RuntimeError as e:
        pytest.skip(f"zfs-fuse could not be had from the Debian archive ({str(e).splitlines()[0]}): "
                    "real ONNV b134 runs skipped")


def test_real_b134_queue_limit_and_vdev_cache_are_ziosims(workdir):
    zfs_fuse_or_skip(workdir)
    scn = small("b134", file_size=64 << 20, eras=["onnv-134"], device="fixed:latency=2ms,bandwidth=150MB/s,lanes=1")
    real = xc.run_real(scn, "onnv-134", 1, workdir)
    sim = xc.run_ziosim(scn, "onnv-134", 1, workdir)
    # b134's deadline queue: zfs_vdev_max_pending 10 reads in one device.
    assert real["max_in_flight"] == sim["max_in_flight"] == 10
    # The vdev cache turns each 16K indirect block read into one 64K-aligned 64K read: 4 L1s for 64 MiB.
    assert real["sizes"].get(str(64 << 10), 0) == sim["sizes"].get(str(64 << 10), 0) == 4
    assert real["sizes"].get(str(128 << 10)) == sim["sizes"].get(str(128 << 10)) == 512
