"""The bad-input catalogue for the Python API (tests/sim/cli/bad_input_catalogue_test.cc for the CLI):
one case per class of bad input, each a ValueError with the exact one-line message the CLI prints
(fields are spelled as the Python keyword, ``bs`` where the CLI says ``--bs``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ziosim

REPO = Path(__file__).resolve().parents[2]
GENERIC_HDD = (REPO / "models" / "catalog" / "generic-7200-hdd.toml").read_text()
ONE_DISK = "wd-re4-1tb"
MIRROR = "mirror 2xwd-re4-1tb"
# A one-file DiskSim spec with a dm_layout_g4 layout (the importer's fuzz seed); written as drive.toml,
# a name the importer does not mind.
G4_SPEC = (REPO / "fuzz" / "corpus" / "disksim_import" / "one_file_g4.disksim").read_text()


def drive_file(tmp_path: Path, text: str | bytes) -> str:
    path = tmp_path / "drive.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return str(path)


def edited_hdd(old: str, new: str) -> str:
    """The generic HDD's drive file with its first `old` replaced by `new`."""
    assert old in GENERIC_HDD
    return GENERIC_HDD.replace(old, new, 1)


def line_of(text: str, needle: str) -> int:
    return text[:text.index(needle)].count("\n") + 1


# (class of bad input, call(tmp_path) -> None, expected message with {path} for the file).
CASES = [
    ("malformed number", lambda t: ziosim.readers(ONE_DISK, readers=1, bs="12x"),
     'bs: "12x" is not a size: expected a number and an optional unit: K, M, G, T or KiB ... TiB (2^10 steps), KB ... TB (10^3 steps)'),
    ("malformed number in a file",
     lambda t: ziosim.drive_values(drive_file(t, edited_hdd("surfaces = { value = 4,", "surfaces = { value = 4x,"))),
     "{path}:" + str(line_of(GENERIC_HDD, "surfaces =")) + ": Error while parsing decimal integer: expected digit, saw 'x'"),
    ("truncated line", lambda t: ziosim.drive_values(drive_file(t, 'name = "x"\nkind = "hdd"\n[hdd]\ncapacity_bytes = { value = 1')),
     "{path}:4: Error while parsing inline table: encountered end-of-file"),
    ("unknown key", lambda t: ziosim.drive_values(drive_file(t, edited_hdd("\nrpm = {", "\nrmp = {"))),
     "{path}:" + str(line_of(GENERIC_HDD, "\nrpm = {") + 1) + ": hdd.rmp: unknown key"),
    ("unknown drive", lambda t: ziosim.disk_bench("nosuch-drive", count=10),
     'unknown drive "nosuch-drive"; known drives: {drives} (or a .toml drive file, or disksim:FILE.parv)'),
    ("impossible topology", lambda t: ziosim.readers("raidz2 wd-re4-1tb wd-re4-1tb", readers=1),
     'pool spec "raidz2 wd-re4-1tb wd-re4-1tb": token 1 "raidz2": a raidz2 needs at least 3 disks (got 2)'),
    ("impossible dRAID", lambda t: ziosim.readers("draid2:9d 10xwd-re4-1tb", readers=1),
     'pool spec "draid2:9d 10xwd-re4-1tb": token 1 "draid2:9d": requested number of dRAID data disks per group 9 '
     'is too high, at most 8 disks are available for data'),
    ("malformed dRAID keyword", lambda t: ziosim.draid_map("draid2:8q", ashift=12, psize="4K", children=12),
     "draid: invalid dRAID syntax; expected [:<number><c|d|s>] not ':8q' (children)"),
    ("nothing to scrub", lambda t: ziosim.scrub(MIRROR, files=0),
     "files: the pool holds no data to scrub (give files or pool_state)"),
    ("spare outside a dRAID", lambda t: ziosim.block_read(MIRROR, spared=["d0"]),
     "spared: d0 is not in a dRAID vdev (no distributed spares)"),
    ("zero size", lambda t: ziosim.readers(ONE_DISK, readers=1, file_size="0"), 'file_size: "0" is not a positive size'),
    ("negative size", lambda t: ziosim.readers(ONE_DISK, readers=1, file_size="-4K"),
     'file_size: "-4K" is not a positive size'),
    ("overflowing size", lambda t: ziosim.readers(ONE_DISK, readers=1, file_size="99999999999999999999G"),
     'file_size: "99999999999999999999G" is too large (more than 2^63-1 bytes)'),
    ("NaN", lambda t: ziosim.disk_bench(ONE_DISK, span=float("nan"), count=10),
     "span: not a finite number"),
    ("NaN in a file",
     lambda t: ziosim.drive_values(drive_file(t, edited_hdd("seek_average_ms = { value = 8.5,", "seek_average_ms = { value = nan,"))),
     "{path}:" + str(line_of(GENERIC_HDD, "seek_average_ms =")) + ": hdd.seek_average_ms: not a finite number"),
    ("non-ASCII outside a string",
     lambda t: ziosim.drive_values(drive_file(t, edited_hdd("\nrpm = {", "\n# caf\u00e9\nrpm \u00b5= {"))),
     "{path}:" + str(line_of(GENERIC_HDD, "\nrpm = {") + 2)
     + ": a non-ASCII character outside a string or a comment (TOML allows it only there)"),
    ("empty file", lambda t: ziosim.drive_values(drive_file(t, "")), "{path}:1: name: missing"),
    ("binary garbage", lambda t: ziosim.drive_values(drive_file(t, b"\x7fELF\x02\x01\x01\x00\x00\x00")),
     "{path}:1: Error while parsing root table: expected keys, tables, whitespace or comments, saw '\\u007F'"),
    # Tunables are named by the argument that set them: tunables= here, --set on the command line.
    ("unknown tunable", lambda t: ziosim.readers(ONE_DISK, readers=1, tunables={"zfs_nosuch": 1}),
     "tunables: zfs_nosuch: unknown tunable (`ziosim tunables` lists them all)"),
    ("unknown profile", lambda t: ziosim.readers(ONE_DISK, readers=1, profile="no-such-era"),
     'unknown profile "no-such-era"; known profiles: {profiles} (or a path to a .toml profile file)'),
    ("unknown policy", lambda t: ziosim.readers(MIRROR, readers=1, tunables={"mirror_policy": "nosuch"}),
     "unknown mirror policy 'nosuch' (known: {policies})"),
    ("bad tunable value", lambda t: ziosim.readers(ONE_DISK, readers=1, tunables={"zfs_arc_max": "12q"}),
     'tunables: zfs_arc_max: "12q" is not a size: expected a number and an optional unit: K, M, G, T or KiB ... TiB (2^10 steps), KB ... TB (10^3 steps)'),
    ("missing file", lambda t: ziosim.drive_values(str(t / "absent.toml")), "{dir}/absent.toml: cannot open drive file"),
    ("DiskSim g4 table of the wrong shape",
     lambda t: ziosim.disk_bench("disksim:" + drive_file(t, G4_SPEC.replace("Slips = [ 100, 1, 250, 2 ]",
                                                                             "Slips = [ 100, 1, 250 ]")), count=10),
     "{path}:" + str(line_of(G4_SPEC, "Slips =")) + ": 'Slips' must list entries of 2 numbers"),
    ("DiskSim disk not in the spec", lambda t: ziosim.disk_bench("disksim:" + drive_file(t, G4_SPEC) + "#disk7", count=10),
     "{path}: no disk 'disk7' in its topology; its disks: disk0 (D)"),
]


@pytest.mark.parametrize("name,call,message", CASES, ids=[c[0].replace(" ", "_") for c in CASES])
def test_bad_input_is_a_value_error_with_the_cli_message(tmp_path, name, call, message):
    with pytest.raises(ValueError) as info:
        call(tmp_path)
    text = str(info.value)
    assert "\n" not in text and text.isprintable(), text
    # The lists of known names grow with the project: taken from the package itself.
    expected = message.format(path=tmp_path / "drive.toml", dir=tmp_path, drives=", ".join(ziosim.drives()["name"]),
                              profiles=", ".join(ziosim.profiles()["name"]),
                              policies=", ".join(ziosim.mirror_policies()["name"]))
    assert text == expected, text


def test_trace_time_going_backwards(tmp_path, disksim_dir):
    trace = tmp_path / "backwards.trace"
    trace.write_text("R Miss 100 8 10.5 1.0\nR Miss 200 8 10.5 -3.0\n")
    with pytest.raises(ValueError, match=re.escape(f"{trace}:2: field next_interarrival_us: must not be negative, got -3.0")):
        ziosim.validate_disksim(disksim_dir / "hp_c2247a.parv", trace)


def test_disksim_spec_whose_slips_outnumber_their_spares(tmp_path):
    """Sparing scheme 3 keeps a track's slips in that track's spares: three slips on one
    track with two spares leave an LBN without a sector, and the layout block says so."""
    layouts = REPO / "tests" / "data" / "disksim-layouts"
    for name in ("drive.parv", "drive.diskspecs", "layouts.seek"):
        (tmp_path / name).write_text((layouts / name).read_text())
    model = (layouts / "m0_s3.model").read_text().replace("slips = [209, 344]", "slips = [201, 202, 203]")
    (tmp_path / "layout.model").write_text(model)
    with pytest.raises(ValueError) as info:
        ziosim.disk_bench(f"disksim:{tmp_path / 'drive.parv'}", count=10)
    assert str(info.value) == (f"{tmp_path / 'layout.model'}:{line_of(model, 'Layout Model')}: HDD layout: zone 0: "
                               "3 slips from sector 201 on exceed the 2 spares that hold them")
