"""The capture kit (scripts/capture-kit/): the strace capture's output shape and refusals on a tiny
command, and the two converters (tracefs -> ftrace CSV, strace -> ziosim-dtrace) on fixed input,
compared exactly. The strace tests skip when strace is absent or cannot trace here (no ptrace)."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
KIT = REPO / "scripts" / "capture-kit"
FIXTURES = REPO / "traces" / "file-level"


@pytest.fixture(scope="module")
def strace_ok():
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (apt-get install strace): strace capture tests skipped")
    probe = subprocess.run(["strace", "-o", "/dev/null", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"strace cannot trace here ({probe.stderr.strip().splitlines()[-1:]}): strace capture tests skipped")


def capture(*args, cwd=None):
    return subprocess.run(["bash", str(KIT / "capture-linux-strace.sh"), *map(str, args)], capture_output=True,
                          text=True, cwd=cwd, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"})


def test_strace_capture_of_a_tiny_command_has_the_readers_shape(tmp_path, strace_ok):
    data = tmp_path / "data"
    data.mkdir()
    (data / "small.bin").write_bytes(bytes(range(256)) * 64)  # 16 KiB
    out = tmp_path / "out" / "cat.strace"
    out.parent.mkdir()
    r = capture("-o", out, "--data", data, "--rewrite-prefix", f"{data}=/data", "--", "dd", f"if={data}/small.bin",
                "of=/dev/null", "bs=4k")
    assert r.returncode == 0, r.stderr
    assert "calls: openat" in r.stderr and "read+pread64: " in r.stderr
    lines = out.read_text().splitlines()
    assert lines, "empty capture"
    # every line: PID, space(s), HH:MM:SS.micro, space, then a call or an exit/signal line
    lead = re.compile(r"^\d+ +\d\d:\d\d:\d\d\.\d{6} ")
    assert all(lead.match(line) for line in lines), [line for line in lines if not lead.match(line)][:3]
    calls = [line for line in lines if not re.search(r" (\+\+\+|---) ", line)]
    assert all(re.search(r" <\d+\.\d{6}>$", line) for line in calls if "<unfinished ...>" not in line)
    assert any(re.search(r' openat\(AT_FDCWD<[^>]*>, "/data/small\.bin", O_RDONLY\) = \d+</data/small\.bin> <', line)
               for line in lines)
    reads = [line for line in lines if re.search(r" read\(\d+</data/small\.bin>, \"\"\.\.\., 4096\) = 4096 <", line)]
    assert len(reads) == 4
    assert str(data) not in out.read_text()
    assert out.stat().st_mode & 0o777 != 0o600  # not left as mktemp made it
    assert list(data.iterdir()) == [data / "small.bin"] and list(out.parent.iterdir()) == [out]


def test_strace_capture_refuses_bad_outputs(tmp_path, strace_ok):
    data = tmp_path / "data"
    data.mkdir()
    inside = capture("-o", data / "t.strace", "--data", data, "--", "true")
    assert inside.returncode == 2 and "inside the traced data folder" in inside.stderr
    assert not (data / "t.strace").exists()
    out = tmp_path / "t.strace"
    out.write_text("keep\n")
    again = capture("-o", out, "--", "true")
    assert again.returncode == 2 and "exists (add -f" in again.stderr and out.read_text() == "keep\n"
    assert capture("-o", out, "-f", "--", "true").returncode == 0 and out.read_text() != "keep\n"
    assert capture("-o", out, "-p", "x").returncode == 2
    assert capture("-o", out).returncode == 2
    assert capture("--bogus").returncode == 2


TRACEFS = """\
# tracer: nop
              dd-31772   [000] ..... 12474.788845: block_rq_issue: 254,0 RS 131072 () 30284128 + 256 be,0,4 [dd]
         cc1plus-31577   [001] ..s.. 12474.789561: block_rq_complete: 254,0 RS () 30284128 + 256 be,0,4 [0]
    kworker/0:1H-58      [000] ..... 12474.816076: block_rq_issue: 254,0 WS 319488 () 173558096 + 624 be,0,4 [kworker/0:1H]
    kworker/1:1H-44      [001] ..... 12474.820271: block_rq_issue: 254,0 WS 319488 () 173558096 + 624 be,0,4 [kworker/1:1H]
              dd-31772   [000] ..... 12474.820300: block_rq_issue: 254,0 RA 4096 () 8 + 8 be,0,4 [dd]
          <idle>-0       [001] d.h1. 12474.821257: block_rq_complete: 254,0 WS () 173558096 + 624 be,0,4 [0]
    kworker/0:2H-61      [000] ..... 12474.821300: block_rq_issue: 254,0 FF 0 () 0 + 0 none,0,0 [kworker/0:2H]
          <idle>-0       [000] d.h1. 12474.821400: block_rq_complete: 254,0 FF () 0 + 0 none,0,0 [0]
              dd-31772   [000] ..... 12474.821500: block_rq_issue: 8,16 R 4096 () 64 + 8 be,0,4 [dd]
          <idle>-0       [001] d.h1. 12474.821600: block_rq_complete: 8,16 R () 64 + 8 be,0,4 [0]
              dd-31772   [000] ..... 12474.821700: block_rq_issue: 254,0 R 4096 () 96 + 8 be,0,4 [dd]
          <idle>-0       [001] d.h1. 12474.822700: block_rq_complete: 254,0 R () 96 + 8 be,0,4 [-5]
              fio-900    [001] d..3. 12474.823000: block_rq_issue: 254,0 R 8192 () 200 + 16 [fio]
          <idle>-0       [001] d.h3. 12474.823125: block_rq_complete: 254,0 R () 200 + 16 [0]
              fio-900    [001] d..3. 12474.823200: block_rq_issue: 254,0 W 8192 () 300 + 16 [fio]
              fio-900    [001] d..3. 12474.823210: block_rq_requeue: 254,0 W () 300 + 16 [0]
              fio-900    [001] d..3. 12474.823300: block_rq_issue: 254,0 W 8192 () 300 + 16 [fio]
          <idle>-0       [001] d.h3. 12474.824300: block_rq_complete: 254,0 W () 300 + 16 [0]
          <idle>-0       [001] d.h3. 12474.824400: block_rq_complete: 254,0 R () 999 + 8 [0]
              dd-31772   [000] ..... 12474.830000: block_rq_complete: 254,0 RA () 8 + 8 be,0,4 [0]
"""

TRACEFS_CSV_254_0 = """\
issue_s,complete_s,rwbs,sector,nsectors,latency_us
12474.788845,12474.789561,RS,30284128,256,716.0
12474.820271,12474.821257,WS,173558096,624,986.0
12474.820300,12474.830000,RA,8,8,9700.0
12474.823000,12474.823125,R,200,16,125.0
12474.823300,12474.824300,W,300,16,1000.0
"""


def run_py(script, *args, stdin=None):
    return subprocess.run([sys.executable, str(KIT / script), *map(str, args)], input=stdin, capture_output=True,
                          text=True)


def test_tracefs_to_csv_pairs_issue_and_complete_exactly(tmp_path):
    r = run_py("tracefs_to_csv.py", "--dev", "254,0", "-", stdin=TRACEFS)
    assert r.returncode == 0, r.stderr
    assert r.stdout == TRACEFS_CSV_254_0
    assert ("5 requests written from 20 block events; left out: 2 without data (flushes), 1 failed, 0 never "
            "completed, 1 completions never issued, 2 of other devices, 1 other lines; 1 requeues and 1 second "
            "issues in flight (the last issue kept)") in r.stderr
    other = run_py("tracefs_to_csv.py", "--dev", "8,16", "--no-header", stdin=TRACEFS)
    assert other.stdout == "12474.821500,12474.821600,R,64,8,100.0\n"
    both = run_py("tracefs_to_csv.py", stdin=TRACEFS)
    assert both.returncode == 2 and "several devices (254,0, 8,16)" in both.stderr
    assert run_py("tracefs_to_csv.py", "--dev", "sda", stdin=TRACEFS).returncode == 2
    counter = "  dd-1 [000] ..... 123456: block_rq_issue: 8,0 R 4096 () 8 + 8 [dd]\n"
    bad = run_py("tracefs_to_csv.py", stdin=counter)
    assert bad.returncode == 2 and "line 1: timestamp '123456' has no fraction" in bad.stderr


STRACE = """\
700   10:00:00.000100 openat(AT_FDCWD</data>, "/data/a b.bin", O_RDONLY) = 3</data/a b.bin> <0.000020>
700   10:00:00.000200 openat(AT_FDCWD</data>, "missing\\t\\"x\\"", O_RDONLY) = -1 ENOENT (No such file or directory) <0.000011>
700   10:00:00.000300 lseek(3</data/a b.bin>, 8192, SEEK_SET) = 8192 <0.000003>
700   10:00:00.000400 read(3</data/a b.bin>,  <unfinished ...>
701   10:00:00.000450 pread64(4</data/c.bin>, ""..., 4096, 1048576) = 4096 <0.000030>
700   10:00:00.000600 <... read resumed>""..., 131072) = 131072 <0.000250>
701   10:00:00.000700 close(4</data/c.bin> <unfinished ...>
700   10:00:00.000710 read(3</data/a b.bin>, "", 131072) = 0 <0.000002>
701   10:00:00.000800 <... close resumed>) = 0 <0.000004>
700   10:00:00.000900 lseek(3</data/a b.bin>, -4096, SEEK_END) = 1044480 <0.000002>
701   10:00:00.001000 read(5<pipe:[1234]>,  <unfinished ...>
700   10:00:00.001100 +++ exited with 0 +++
701   10:00:00.001200 +++ killed by SIGKILL +++
"""

DTRACE = """\
# ziosim-dtrace 1
36000000100000 700 openat -1 -1 0 3 20000 /data/a b.bin
36000000200000 700 openat -1 -1 0 -1 11000 missing\t"x"
36000000300000 700 lseek 3 8192 0 8192 3000
36000000400000 700 read 3 -1 131072 131072 250000
36000000450000 701 pread 4 1048576 4096 4096 30000
36000000700000 701 close 4 -1 0 0 4000
36000000710000 700 read 3 -1 131072 0 2000
36000000900000 700 lseek 3 -4096 2 1044480 2000
"""


def test_strace_to_dtrace_converts_exactly(tmp_path):
    r = run_py("strace_to_dtrace.py", stdin=STRACE)
    assert r.returncode == 0, r.stderr
    assert r.stdout == DTRACE
    assert ("8 calls written (openat 2, read 2, pread 1, lseek 2, close 1); left out: 1 without a result, "
            "0 other calls, 2 exit/signal lines") in r.stderr
    bad = run_py("strace_to_dtrace.py", stdin="700 10:00:00.000100 read(3</x>, \"\"..., 4096) = 4096\n")
    assert bad.returncode == 2 and "line 1: no '<seconds>' duration" in bad.stderr


def test_the_dtrace_fixture_is_the_strace_fixture_converted():
    r = run_py("strace_to_dtrace.py", FIXTURES / "dd-128k.strace")
    assert r.returncode == 0, r.stderr
    assert r.stdout == (FIXTURES / "dd-128k.dtrace").read_text()
    lines = r.stdout.splitlines()
    reads = [line.split() for line in lines[1:] if line.split()[2] == "read" and line.split()[3] == "0"]
    assert [int(f[6]) for f in reads] == [131072] * 64 + [0]


@pytest.mark.parametrize("name", ["dd-128k.strace", "dd-4k-skip.strace", "tar.strace", "tar-devnull.strace",
                                  "dd-128k.dtrace"])
def test_fixtures_are_small_and_neutral(name):
    text = (FIXTURES / name).read_text()
    assert len(text.encode()) < 100_000
    for machine_path in ("/dev/shm", "/work", "/home", "/root", "/tmp", "/dev/pts"):
        assert machine_path not in text


@pytest.mark.parametrize("name", ["dd-128k-ext4", "tar-ext4"])
def test_the_block_fixtures_are_their_raw_tracefs_text_converted(name):
    folder = REPO / "traces" / "block-level"
    r = run_py("tracefs_to_csv.py", "--dev", "7,0", folder / f"{name}.tracefs.txt")
    assert r.returncode == 0, r.stderr
    assert r.stdout == (folder / f"{name}.csv").read_text()
    assert "0 never completed, 0 completions never issued" in r.stderr
