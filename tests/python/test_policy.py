"""Mirror policies written in Python run inside the C++ simulation."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import ziosim

from conftest import MIRROR, REPO

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "examples"))
from policy_overhead import make_load_locality  # noqa: E402


@ziosim.mirror_policy("test_always_d1")
def always_d1(children, io):
    """Every read to child 1."""
    assert len(children) == 2 and io.size > 0
    return 1


def test_always_child_1_puts_every_read_on_d1():
    df = ziosim.block_read(MIRROR, pattern="rand", depth=4, count=400,
                           tunables={"mirror_policy": "test_always_d1"}, per_disk=True)
    disks = df.set_index("disk")
    assert disks.loc["d0", "reads"] == 0 and disks.loc["d0", "mirror_chosen"] == 0
    assert disks.loc["d1", "mirror_chosen"] == 400 and disks.loc["d1", "reads"] >= 400
    assert (df["mirror_policy"] == "test_always_d1").all()


def test_policy_sees_child_state_and_io():
    seen = []

    def spy(children, io):
        seen.append((list(children), io))
        return 0

    ziosim.register_mirror_policy("test_spy", spy)
    ziosim.block_read(MIRROR, pattern="seq", depth=2, count=20, tunables={"mirror_policy": "test_spy"})
    assert len(seen) == 20
    children, io = seen[-1]
    c = children[0]
    assert isinstance(c, ziosim.MirrorChild) and isinstance(io, ziosim.MirrorRead)
    assert c.rotational is True and c.readable is True
    assert c.in_device >= 0 and c.queued >= 0 and c.last_offset >= -1
    assert io.size == 128 * 1024 and io.priority == "sync_read" and io.now_ns > 0
    assert io.mirror_offset == 19 * 128 * 1024
    assert "MirrorChild(rotational=True" in repr(c) and "MirrorRead(offset=" in repr(io)


def test_policy_exception_becomes_runtime_error():
    @ziosim.mirror_policy("test_raises")
    def raises(children, io):
        raise KeyError("no such child")

    with pytest.raises(RuntimeError, match=r"mirror policy 'test_raises' raised KeyError: 'no such child'") as info:
        ziosim.block_read(MIRROR, count=10, tunables={"mirror_policy": "test_raises"})
    assert isinstance(info.value.__cause__, KeyError)


@pytest.mark.parametrize("result, fragment", [
    (5, "returned child 5, but the mirror has 2 children"),
    (-1, "returned child -1"),
    ("0", "returned '0', not a child index"),
    (True, "returned True, not a child index"),
])
def test_bad_index_becomes_runtime_error(result, fragment):
    ziosim.register_mirror_policy("test_bad", lambda children, io: result)
    with pytest.raises(RuntimeError, match=fragment):
        ziosim.block_read(MIRROR, count=10, tunables={"mirror_policy": "test_bad"})


def test_faulted_child_not_offered_as_choice():
    ziosim.register_mirror_policy("test_d0", lambda children, io: 0)
    # Three-way mirror, d0 faulted: returning 0 is refused.
    with pytest.raises(RuntimeError, match="not readable"):
        ziosim.block_read("mirror 3xwd-re4-1tb", count=10, faulted=["d0"], tunables={"mirror_policy": "test_d0"})


def test_python_load_locality_matches_builtin():
    ziosim.register_mirror_policy("test_py_load_locality", make_load_locality())
    for pattern in ("seq", "rand"):
        run = dict(pool="mirror 2xwd-re4-1tb generic-ssd", pattern=pattern, depth=8, count=2000, per_disk=True)
        cpp = ziosim.block_read(**run)
        py = ziosim.block_read(**run, tunables={"mirror_policy": "test_py_load_locality"})
        cols = [c for c in cpp.columns if c != "mirror_policy"]
        assert cpp[cols].equals(py[cols])


def test_listed_in_mirror_policies():
    p = ziosim.mirror_policies().set_index("name")
    assert bool(p.loc["test_always_d1", "python"]) and p.loc["test_always_d1", "doc"] == "Every read to child 1."
    assert not bool(p.loc["load_locality", "python"])


# ---- C plug-ins (sim/zfs/vdev/mirror_policy/plugin/ziosim_mirror_plugin.h) ----

PORT_PLUGIN = REPO / "build" / "port_load_locality.so"


def test_c_plugin_chooses_as_the_builtin_and_travels_to_sweep_workers():
    if not PORT_PLUGIN.exists():
        pytest.skip(f"{PORT_PLUGIN} not built (cmake --build build builds the example plug-in with the tests)")
    name = ziosim.load_mirror_policy_plugin(str(PORT_PLUGIN))
    assert name == "port_load_locality"
    assert name in set(ziosim.mirror_policies()["name"])
    kw = dict(profile="openzfs-2.1", readers=[1, 4], file_size="32M")
    builtin = ziosim.readers("mirror 2xwd-re4-1tb", tunables={"mirror_policy": "load_locality"}, **kw)
    port = ziosim.readers("mirror 2xwd-re4-1tb", tunables={"mirror_policy": name}, **kw)
    assert list(port["throughput_mb_s"]) == list(builtin["throughput_mb_s"])
    grid = {"tunables": [{"mirror_policy": p} for p in ("load_locality", name)]}
    swept = ziosim.sweep(lambda **k: ziosim.readers("mirror 2xwd-re4-1tb", **kw, **k), grid, workers=2,
                         progress=False)
    by_policy = {p: list(f["throughput_mb_s"]) for p, f in swept.groupby("policy", observed=True)}
    assert by_policy[name] == by_policy["load_locality"]


def test_c_plugin_errors_name_the_file():
    with pytest.raises(ValueError, match="/nonexistent/x.so: cannot load the mirror policy plug-in"):
        ziosim.load_mirror_policy_plugin("/nonexistent/x.so")


def test_plugin_header_ships_with_the_package():
    from pathlib import Path

    assert (Path(ziosim.plugin_include_dir()) / "ziosim_mirror_plugin.h").exists()
