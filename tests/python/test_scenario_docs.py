"""Every result table in the documents is what the model prints now.

A table (or a fenced output) in scenarios/*.md, docs/*.md or README.md between the markers of
scenarios/tables.py is the output of the ```sh command above it. This test runs every such command
and fails, with a diff, when a document says something the model no longer says: regenerate with
``python3 scenarios/tables.py --write`` and say in the document what moved and why.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "scenarios"))
import tables  # noqa: E402


def test_the_scenario_documents_have_generated_tables():
    docs = {d.relative_to(REPO).as_posix() for d in tables.documents([])}
    for scenario in ("sparse-holes", "raidz2-layout", "mirror-balancing", "prefetch-eras", "l2arc-prefetch",
                     "compressed-arc-cpu", "primarycache-metadata", "raidz2-writes"):
        assert f"scenarios/{scenario}/README.md" in docs, scenario


def test_a_stale_or_broken_block_is_caught(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("```sh\necho '| a |'\n```\n\n" + tables.BEGIN + "\n| b |\n" + tables.END + "\n")
    changed, found = tables.stale([doc], jobs=1)
    assert len(found) == 1 and changed[0][1] == "| a |"
    tables.rewrite(doc, {found[0].first: "| a |"}, found)
    assert tables.stale([doc], jobs=1)[0] == []
    doc.write_text(tables.BEGIN + "\n| b |\n" + tables.END + "\n")
    with pytest.raises(tables.DocumentError, match="no ```sh block above it"):
        tables.blocks(doc)


def test_every_generated_table_is_current():
    if not (REPO / "build" / "ziosim").exists():
        pytest.skip("build/ziosim is not built (cmake -S . -B build && cmake --build build): the documents' "
                    "commands run it")
    p = subprocess.run([sys.executable, str(REPO / "scenarios" / "tables.py")], capture_output=True, text=True,
                       cwd=REPO)
    print(p.stderr)  # which blocks were skipped (absent data) and why
    assert p.returncode == 0, (f"documents out of date with the model (python3 scenarios/tables.py --write, "
                               f"then say in each what moved):\n{p.stdout[-6000:]}\n{p.stderr[-3000:]}")
