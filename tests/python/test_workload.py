"""ziosim.workload: a personality through a pool, one summary row."""

from __future__ import annotations

import pytest

import ziosim


def test_log_device_shortens_database_sync_writes():
    plain = ziosim.workload("database", "raidz1 5xwd-re4-1tb", profile="solaris-11-express", nfs="on",
                            duration="2s")
    slog = ziosim.workload("database", "raidz1 5xwd-re4-1tb log generic-ssd", profile="solaris-11-express",
                           nfs="on", duration="2s")
    assert len(plain) == 1
    assert plain["personality"][0] == "database"
    assert plain["sync_writes"][0] > 0
    assert slog["sync_p50_ms"][0] * 2 < plain["sync_p50_ms"][0]
    disks = ziosim.workload("database", "raidz1 5xwd-re4-1tb log generic-ssd", profile="solaris-11-express",
                            nfs="on", duration="2s", per_disk=True)
    assert list(disks["vdev"])[-1] == "log/d5"
    assert slog["zil_indirect_records"][0] == 0


def test_bad_input_is_value_error():
    with pytest.raises(ValueError, match="unknown personality"):
        ziosim.workload("dtabase", "wd-re4-1tb", duration="1s")
    with pytest.raises(ValueError, match="^nfs: "):
        ziosim.workload("database", "wd-re4-1tb", nfs="fast", duration="1s")
