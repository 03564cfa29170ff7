"""ziosim.replay: a block trace on a drive or on a zvol of a pool, with small traces made here."""

from __future__ import annotations

import math

import pandas as pd
import pytest

import ziosim

from conftest import MIRROR, SHARED_DATA


def _msr(tmp_path, lines):
    """An MSR Cambridge trace: (time_100ns, disk, op, offset, size, response_100ns) per line."""
    path = tmp_path / "t.csv"
    path.write_text("".join(f"{t},hm,{d},{op},{off},{size},{resp}\n" for t, d, op, off, size, resp in lines))
    return path


def _reads(n, gap_100ns=1_000_000, disk=0):
    """n 4K reads 64K apart, 100 ms apart, measured 5 ms each."""
    return [(i * gap_100ns, disk, "Read", i * 65536, 4096, 50_000) for i in range(n)]


def test_drive_summary_compares_with_the_measured_latencies(tmp_path):
    trace = _msr(tmp_path, _reads(10) + [(20_000_000, 0, "Write", 0, 8192, 1000)])
    s = ziosim.replay(trace, "wd-re4-1tb")
    assert isinstance(s, pd.DataFrame) and len(s) == 1
    row = s.iloc[0]
    assert row["target_kind"] == "drive" and row["requests"] == 11
    assert row["reads"] == 10 and row["writes"] == 1
    assert row["read_requests"] == 10 and row["write_requests"] == 1
    assert row["read_measured_mean_ms"] == pytest.approx(5.0)
    assert row["write_measured_mean_ms"] == pytest.approx(0.1)
    assert math.isfinite(row["demerit_ms"]) and row["sim_mean_ms"] > 0


def test_pool_reads_hit_the_arc_on_the_second_pass(tmp_path):
    once = _msr(tmp_path, _reads(20))
    first = ziosim.replay(once, MIRROR).iloc[0]
    again = _reads(20) + [(t + 50_000_000, d, op, off, size, r) for t, d, op, off, size, r in _reads(20)]
    both = ziosim.replay(_msr(tmp_path, again), MIRROR)
    assert both.iloc[0]["target_kind"] == "pool"
    assert both.iloc[0]["disk_bytes_read"] == first["disk_bytes_read"] > 0
    assert both.iloc[0]["arc_hit_pct"] == pytest.approx(50.0)
    assert len(both.attrs["disks"]) == 2


def test_per_request_and_per_device(tmp_path):
    trace = _msr(tmp_path, _reads(4) + [(5_000_000, 1, "Read", 0, 4096, 20_000)])
    rows = ziosim.replay(trace, "generic-ssd", per_request=True, per_device=True)
    assert list(rows.columns) == ["instance", "i", "line", "op", "trace_offset", "offset", "size", "arrival_ms", "issue_ms",
                                  "done_ms", "sim_ms", "measured_ms"]
    assert len(rows) == 5 and rows.attrs["summary"]["devices_seen"] == 2
    one = ziosim.replay(trace, "generic-ssd", device=1, per_device=True)
    assert one.iloc[0]["requests"] == 1 and one.iloc[0]["other_devices"] == 4
    assert [d["device"] for d in one.attrs["devices"]] == ["1"]


def test_errors_are_value_errors_with_the_cli_message(tmp_path):
    trace = _msr(tmp_path, _reads(2) + [(3_000_000, 0, "Write", 0, 4096, 10)])
    assert ziosim.replay(trace, MIRROR).iloc[0]["writes"] == 1  # the pool's write path takes it
    assert ziosim.replay(trace, MIRROR, reads_only=True).iloc[0]["skipped_writes"] == 1
    with pytest.raises(ValueError, match="volblocksize: applies to a pool target, and target wd-re4-1tb is a drive"):
        ziosim.replay(trace, "wd-re4-1tb", volblocksize="8K")
    with pytest.raises(ValueError, match="speed: only applies to mode open"):
        ziosim.replay(trace, "wd-re4-1tb", mode="closed:2", speed=2)


def test_msr_sample_on_a_sensible_drive():
    path = SHARED_DATA / "traces" / "msr-cambridge" / "msr-cambridge1-sample.csv"
    if not path.exists():
        pytest.skip(f"{path} not found")
    row = ziosim.replay(path, "wd-re4-1tb", reads_only=True).iloc[0]
    assert row["requests"] == 508 and row["skipped_writes"] == 492
    assert math.isfinite(row["demerit_ms"]) and math.isfinite(row["mean_error_pct"])


def test_errors_and_notes_name_the_keyword_arguments(tmp_path):
    trace = _msr(tmp_path, _reads(2) + [(3_000_000, 1, "Read", 0, 4096, 10)])
    with pytest.raises(ValueError, match=r"^volblocksize: applies to a pool target, and target wd-re4-1tb is a drive "
                                         r"\(write 1xwd-re4-1tb for a one-disk pool\)$"):
        ziosim.replay(trace, "wd-re4-1tb", volblocksize="8K")
    with pytest.raises(ValueError, match="^policy: only applies to a drive target"):
        ziosim.replay(trace, MIRROR, policy="fifo")
    with pytest.raises(ValueError, match=r"^speed: must be a positive number \(got nan\)$"):
        ziosim.replay(trace, "wd-re4-1tb", speed=float("nan"))
    with pytest.raises(ValueError, match="^limit: must not be negative"):
        ziosim.replay(trace, "wd-re4-1tb", limit=-1)
    notes = ziosim.replay(trace, "wd-re4-1tb").attrs["notes"]
    assert notes == ["the trace holds 2 devices, all replayed onto wd-re4-1tb "
                     "(device N replays one, per_device compares each)"]


def test_per_request_csv_is_the_rows_of_per_request_true(tmp_path):
    trace = _msr(tmp_path, _reads(4))
    csv = tmp_path / "rows.csv"
    summary = ziosim.replay(trace, "generic-ssd", per_request=str(csv))
    assert len(summary) == 1  # a file asked: the summary row, as without per_request
    rows = ziosim.replay(trace, "generic-ssd", per_request=True)
    from_file = pd.read_csv(csv)
    assert list(from_file.columns) == list(rows.columns)
    pd.testing.assert_frame_equal(from_file, rows, check_dtype=False)


def _strace(tmp_path, files):
    """An strace of one thread reading each (name, MiB) file through in 128 KiB calls, 1 ms apart."""
    lines, t = [], 0
    for fd, (name, mib) in enumerate(files, start=3):
        for _ in range(mib * 8):
            lines.append(f"9 10:00:{t // 1_000_000:02d}.{t % 1_000_000:06d} "
                         f"read({fd}</data/{name}>, \"\"..., 131072) = 131072 <0.000200>")
            t += 1000
    lines.append(f"9 10:00:{t // 1_000_000:02d}.{t % 1_000_000:06d} read(3</lib/libc.so.6>, \"\"..., 832) = 832 "
                 "<0.000010>")
    path = tmp_path / "app.strace"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_file_level_trace_runs_as_readers_on_files_of_the_pool(tmp_path):
    trace = _strace(tmp_path, [("a", 4), ("b", 2)])
    frame = ziosim.replay(trace, MIRROR, readers=[1, 2, 4], mode="validate", files_under="/data")
    assert list(frame["readers"]) == [1, 2, 4]
    assert (frame["data"] == "files").all() and (frame["files"] == 2).all()
    assert list(frame["file_bytes"]) == [6 << 20] * 3
    assert list(frame["requests"]) == [48, 96, 192]
    # Each instance reads its own copy: the disks read every copy.
    assert list(frame["disk_bytes_read"] // (6 << 20)) == [1, 2, 4]
    # More instances share the disks: more in all than one alone (two already fill them), less each.
    mb_s = list(frame["throughput_mb_s"])
    assert mb_s[1] > 1.2 * mb_s[0] and mb_s[2] > 1.2 * mb_s[0], mb_s
    assert frame["per_instance_mean_mb_s"].is_monotonic_decreasing
    per = ziosim.replay(trace, MIRROR, readers=[1, 3], mode="validate", files_under="/data", per_instance=True)
    assert list(per["readers"]) == [1, 3, 3, 3] and list(per["instance"]) == [0, 0, 1, 2]
    shared = ziosim.replay(trace, MIRROR, readers=[4], mode="validate", files_under="/data", same_data=True)
    assert shared.iloc[0]["disk_bytes_read"] < 2 * (6 << 20)


def test_instance_options_name_the_keyword(tmp_path):
    trace = _strace(tmp_path, [("a", 1)])
    with pytest.raises(ValueError, match=r"^readers: each count must be from 1 to 64 \(got 65\)"):
        ziosim.replay(trace, MIRROR, readers=[1, 65])
    with pytest.raises(ValueError, match=r"^per_request: takes the requests of one run"):
        ziosim.replay(trace, MIRROR, readers=[1, 2], per_request=True)
    with pytest.raises(ValueError, match=r"^readers: applies to a pool target"):
        ziosim.replay(trace, "wd-re4-1tb", readers=[2])
