"""Mirror policies written in Python run inside the C++ simulation."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
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
    ziosim.register_mirror_policy("test_bad", lambda children, io: result, replace=True)
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


# ---- names: taken names need replace=True; unknown ones get a did-you-mean ----


def _reads_on(policy: str) -> list[int]:
    df = ziosim.block_read(MIRROR, pattern="rand", depth=2, count=50, per_disk=True,
                           tunables={"mirror_policy": policy})
    return list(df["mirror_chosen"])


def test_a_python_policy_name_is_taken_until_replace():
    ziosim.register_mirror_policy("test_taken", lambda children, io: 0, "first")
    with pytest.raises(ValueError, match=r"already registered as 'test_taken'; pass replace=True"):
        ziosim.register_mirror_policy("test_taken", lambda children, io: 1)
    with pytest.raises(ValueError, match="pass replace=True"):
        ziosim.mirror_policy("test_taken")(lambda children, io: 1)
    assert _reads_on("test_taken") == [50, 0]  # the refused ones changed nothing
    assert ziosim.registered_policies()["test_taken"][1] == "first"

    @ziosim.mirror_policy("test_taken", "second", replace=True)
    def to_d1(children, io):
        return 1

    assert _reads_on("test_taken") == [0, 50]
    assert ziosim.registered_policies()["test_taken"] == (to_d1, "second")
    p = ziosim.mirror_policies().set_index("name")
    assert p.loc["test_taken", "doc"] == "second" and list(p.index).count("test_taken") == 1


def test_a_builtin_name_is_taken():
    before = ziosim.mirror_policies()
    for name in ("rotor", "load_locality", "least_pending"):
        with pytest.raises(ValueError, match=f"'{name}' is a built-in mirror policy; pass replace=True"):
            ziosim.register_mirror_policy(name, lambda children, io: 0)
    pd.testing.assert_frame_equal(ziosim.mirror_policies(), before)


def test_replace_a_builtin_here_and_in_spawned_sweep_workers(tmp_path):
    """replace=True on a built-in's name: the Python policy serves it, in this process and in the
    sweep's workers. In a child interpreter, not to change the built-in for the other tests."""
    script = tmp_path / "replace_rotor.py"
    script.write_text(textwrap.dedent(f"""
        import multiprocessing
        import ziosim

        def run(policy):
            df = ziosim.block_read({MIRROR!r}, pattern="rand", depth=2, count=50, per_disk=True,
                                   tunables={{"mirror_policy": policy}})
            return df[["disk", "mirror_chosen"]]

        if __name__ == "__main__":
            @ziosim.mirror_policy("rotor", "every read to d1", replace=True)
            def rotor(children, io):
                return 1

            assert list(run("rotor")["mirror_chosen"]) == [0, 50]
            listed = ziosim.mirror_policies().set_index("name").loc["rotor"]
            assert bool(listed["python"]) and listed["doc"] == "every read to d1"
            swept = ziosim.sweep(run, {{"policy": ["rotor", "load_locality"]}}, workers=2, progress=False,
                                 mp_context=multiprocessing.get_context("spawn"))
            assert list(swept[swept["policy"] == "rotor"]["mirror_chosen"]) == [0, 50], swept
            print("ok")
    """))
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stdout + run.stderr


@pytest.mark.parametrize("typo, suggestion", [
    ("rotr", "'rotor'"),
    ("load-locality", "'load_locality'"),
    ("least_pendng", "'least_pending'"),
    ("test_alway_d1", "'test_always_d1'"),  # Python policies are names too
])
def test_unknown_policy_name_gets_a_did_you_mean(typo, suggestion):
    with pytest.raises(ValueError, match=f"unknown mirror policy '{typo}'; did you mean {suggestion}") as info:
        ziosim.check_mirror_policy(typo)
    assert "known: least_pending, load_locality" in str(info.value)


def test_check_mirror_policy_passes_known_names():
    assert ziosim.check_mirror_policy("rotor") == "rotor"
    assert ziosim.check_mirror_policy("test_always_d1") == "test_always_d1"
    with pytest.raises(ValueError) as info:
        ziosim.check_mirror_policy("xyzzy")
    assert "did you mean" not in str(info.value) and "(known: " in str(info.value)


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
    by_policy = {p: list(f["throughput_mb_s"]) for p, f in swept.groupby("mirror_policy", observed=True)}
    assert by_policy[name] == by_policy["load_locality"]


def test_c_plugin_errors_name_the_file():
    with pytest.raises(ValueError, match="/nonexistent/x.so: cannot load the mirror policy plug-in"):
        ziosim.load_mirror_policy_plugin("/nonexistent/x.so")


def test_plugin_header_ships_with_the_package():
    from pathlib import Path

    assert (Path(ziosim.plugin_include_dir()) / "ziosim_mirror_plugin.h").exists()
