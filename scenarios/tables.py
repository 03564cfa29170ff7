#!/usr/bin/env python3
"""Regenerates the result tables of the documents from the commands shown above them.

A generated block is the output of the last ```sh block before it, between two markers:

    ```sh
    python3 scenarios/summarize.py --cols file,readers,mb_s scenarios/sparse-holes/rs128k-bs4k.toml
    ```

    <!-- output of the command above -->
    | file | readers | mb_s |
    |---|---|---|
    | rs128k-bs4k | 1 | 243.9 |
    <!-- end of output -->

The command runs as a bash script from the repository's root, as a reader's shell would run it
(brace expansion, pipes; `python3` is the interpreter running this script). A block whose text is
a fenced code block gets the output inside the same fence. Nothing in a block is typed by hand, so
a document cannot disagree with the model it describes: the test suite runs `--check` on every
document (tests/python/test_scenario_docs.py).

    python3 scenarios/tables.py [--write] [DOC.md ...]   # default: every document with a block

Without --write, prints a unified diff of each block that differs from what the commands print now
and exits 1; with --write, rewrites those blocks in place. Exit status 2: a command failed. A
command that exits 77 says its input is absent (../shared/data, say): its block is left as it is
and reported as skipped.
"""
from __future__ import annotations

import argparse
import difflib
import os
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN = "<!-- output of the command above -->"
END = "<!-- end of output -->"
# Where documents with generated blocks live.
SEARCHED = ("scenarios", "docs", "README.md")
SKIPPED = 77  # a command's way of saying its input is absent (ziosim_bin.need)


@dataclass
class Block:
    doc: Path
    command: str     # the sh block's text
    first: int       # index of the first line of the output (after BEGIN)
    last: int        # index of the END line
    fence: str       # "```" or "" (a table)
    text: str        # the output as the document has it


class DocumentError(Exception):
    pass


def blocks(doc: Path) -> list[Block]:
    """The generated blocks of `doc`, in order."""
    lines = doc.read_text().splitlines()
    out: list[Block] = []
    command = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.strip() == "```sh":
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            command = "\n".join(lines[i + 1:j])
            i = j + 1
            continue
        if line.strip() == BEGIN:
            if command is None:
                raise DocumentError(f"{doc}:{i + 1}: {BEGIN} with no ```sh block above it")
            j = i + 1
            while j < len(lines) and lines[j].strip() != END:
                if lines[j].strip() == BEGIN:
                    raise DocumentError(f"{doc}:{j + 1}: {BEGIN} inside the block of line {i + 1}")
                j += 1
            if j == len(lines):
                raise DocumentError(f"{doc}:{i + 1}: {BEGIN} never ended by {END}")
            body = lines[i + 1:j]
            fence = body[0].strip() if body and body[0].strip().startswith("```") else ""
            if fence:
                body = body[1:-1] if len(body) >= 2 and body[-1].strip() == "```" else body[1:]
            out.append(Block(doc, command, i + 1, j, fence, "\n".join(body)))
            i = j + 1
            continue
        i += 1
    return out


def run(block: Block, cache: str) -> str | None:
    """What the block's command prints now; None if it skipped (its input is absent). Scenario
    runs are shared through `cache` (ziosim_bin.run_json): a file two blocks show runs once."""
    script = f"set -eo pipefail\npython3() {{ {shlex.quote(sys.executable)} \"$@\"; }}\n{block.command}\n"
    env = dict(os.environ, ZIOSIM_RUN_CACHE=cache)
    p = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, env=env)
    if p.returncode == SKIPPED:
        print(f"tables.py: {block.doc.relative_to(ROOT)}:{block.first}: skipped: {p.stderr.strip()}", file=sys.stderr)
        return None
    if p.returncode != 0:
        raise DocumentError(f"{block.doc.relative_to(ROOT)}:{block.first}: the command above failed "
                            f"(exit {p.returncode}):\n{block.command}\n{p.stderr.strip()}")
    return "\n".join(line.rstrip() for line in p.stdout.rstrip("\n").splitlines())


def documents(paths: list[str]) -> list[Path]:
    if paths:
        return [Path(p).resolve() for p in paths]
    found = []
    for top in SEARCHED:
        p = ROOT / top
        found += [p] if p.is_file() else sorted(p.rglob("*.md"))
    return [d for d in found if BEGIN in d.read_text()]


def rewrite(doc: Path, fresh: dict[int, str], found: list[Block]) -> None:
    lines = doc.read_text().splitlines()
    for b in reversed(found):  # from the end, so that earlier indices stay valid
        if b.first not in fresh:
            continue
        body = fresh[b.first].splitlines()
        if b.fence:
            body = [b.fence, *body, "```"]
        lines[b.first:b.last] = body
    doc.write_text("\n".join(lines) + "\n")


def stale(docs: list[Path], jobs: int) -> tuple[list[tuple[Block, str]], list[Block]]:
    """(blocks whose output changed, with the new output; every block)."""
    found = [b for d in docs for b in blocks(d)]
    with tempfile.TemporaryDirectory(prefix="ziosim-runs-") as cache, ThreadPoolExecutor(max_workers=jobs) as pool:
        outputs = list(pool.map(lambda b: run(b, cache), found))
    return [(b, o) for b, o in zip(found, outputs) if o is not None and o != b.text], found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("docs", nargs="*", help="Markdown documents (default: every one with a generated block)")
    ap.add_argument("--write", action="store_true", help="rewrite the blocks that differ")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="commands run at once")
    a = ap.parse_args(argv)
    try:
        changed, found = stale(documents(a.docs), a.jobs)
    except DocumentError as e:
        print(f"tables.py: {e}", file=sys.stderr)
        return 2
    for b, new in changed:
        rel = b.doc.relative_to(ROOT)
        if a.write:
            print(f"{rel}:{b.first}: rewritten")
        else:
            sys.stdout.writelines(difflib.unified_diff(
                (b.text + "\n").splitlines(keepends=True), (new + "\n").splitlines(keepends=True),
                f"{rel}:{b.first} (in the document)", f"{rel}:{b.first} (what the command prints now)"))
    if a.write:
        for doc in {b.doc for b, _ in changed}:
            rewrite(doc, {b.first: new for b, new in changed if b.doc == doc}, blocks(doc))
        return 0
    print(f"tables.py: {len(found)} blocks, {len(changed)} stale", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
