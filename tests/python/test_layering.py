"""The code's dependencies run one way (scripts/check_layering.py): sim/core <- models <- sim/zfs
<- sim/workload <- sim/cli, bindings, with the smaller folders in between."""
from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import check_layering  # noqa: E402


def test_no_file_includes_a_higher_layer():
    assert check_layering.violations() == []


def test_an_upward_include_and_an_unplaced_folder_are_reported(tmp_path):
    (tmp_path / "models" / "device").mkdir(parents=True)
    (tmp_path / "models" / "device" / "disk.h").write_text('#include "sim/core/time.h"\n#include "sim/zfs/zio.h"\n')
    (tmp_path / "sim" / "newthing").mkdir(parents=True)
    (tmp_path / "sim" / "newthing" / "a.cc").write_text("int a;\n")
    (tmp_path / "sim" / "cli").mkdir(parents=True)
    (tmp_path / "sim" / "cli" / "main.cc").write_text('#include "bindings/realtime/ziosim_realtime.h"\n')
    assert check_layering.violations(tmp_path) == [
        "models/device/disk.h:2: includes sim/zfs/zio.h (sim/zfs is not below models)",
        "sim/cli/main.cc:1: includes bindings/realtime/ziosim_realtime.h (bindings is not below sim/cli)",
        "sim/newthing/a.cc:1: in no layer (add its folder to LAYERS in scripts/check_layering.py)",
    ]
