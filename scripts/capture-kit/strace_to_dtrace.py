#!/usr/bin/env python3
"""Converts a trace made by capture-linux-strace.sh (strace -f -tt -T -y -s 0
-e trace=read,pread64,openat,lseek,close) into the ziosim-dtrace 1 format that
capture-freebsd-dtrace.sh writes, so both of ziosim's file-level readers can be
checked on the same calls:

    strace_to_dtrace.py [-o OUT.dtrace] [TRACE.strace | -]

    # ziosim-dtrace 1
    <entry_ns> <pid> <call> <fd> <offset> <size> <ret> <latency_ns>[ <path>]

entry_ns is the strace -tt wall clock time of the call's entry in ns since
midnight (microsecond steps; a day change adds 86400 s), latency_ns the -T
duration. call: read, pread (pread64), lseek, close, openat. fd, offset, size
(whence for lseek: SEEK_SET 0, SEEK_CUR 1, SEEK_END 2, SEEK_DATA 3, SEEK_HOLE 4),
ret and path as ziosim-read.d records them: openat's fd is -1, its path the
path argument (unescaped), its ret the new fd or -1. A call split by another
thread's line ("<unfinished ...>" ... "<... read resumed>") is joined at its
entry time. pid is strace's, which with -f is the thread id. Left out, and
counted on stderr: calls without a result ("= ?": the process ended inside
them), exit and signal lines, other calls. Lines are in entry_ns order (stable).
Python standard library only. Exit status 2 on a line it cannot read.
"""

from __future__ import annotations

import argparse
import re
import sys

LEAD = re.compile(r"^(\d+) +(\d\d):(\d\d):(\d\d)\.(\d{6}) (.*)$")
DURATION = re.compile(r" <(\d+)\.(\d{6})>$")
CALLS = {"read": "read", "pread64": "pread", "lseek": "lseek", "close": "close", "openat": "openat"}
WHENCE = {"SEEK_SET": 0, "SEEK_CUR": 1, "SEEK_END": 2, "SEEK_DATA": 3, "SEEK_HOLE": 4}
UNFINISHED = " <unfinished ...>"


class BadLine(Exception):
    pass


def c_string(text: str, start: int) -> str:
    """The C string literal at text[start] (a '"'), unescaped as strace escapes it."""
    if start < 0 or start >= len(text) or text[start] != '"':
        raise BadLine("expected a quoted path")
    out = bytearray()
    i = start + 1
    simple = {"n": 10, "t": 9, "r": 13, "v": 11, "f": 12, "\\": 92, '"': 34}
    while i < len(text):
        ch = text[i]
        if ch == '"':
            return out.decode("utf-8", errors="surrogateescape")
        if ch == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt in simple:
                out.append(simple[nxt])
                i += 2
                continue
            if nxt == "x" and re.match(r"[0-9a-fA-F]{2}", text[i + 2 : i + 4]):
                out.append(int(text[i + 2 : i + 4], 16))
                i += 4
                continue
            m = re.match(r"[0-7]{1,3}", text[i + 1 : i + 4])
            if m:
                out.append(int(m.group(0), 8))
                i += 1 + len(m.group(0))
                continue
        out.extend(ch.encode("utf-8", errors="surrogateescape"))
        i += 1
    raise BadLine("unterminated quoted path")


def leading_int(text: str, what: str) -> int:
    m = re.match(r"-?\d+", text.strip())
    if not m:
        raise BadLine(f"expected {what}, got '{text.strip()[:40]}'")
    return int(m.group(0))


def dup_for(fd: int, fd_path: str | None, fds: dict, opened: dict) -> tuple[int, str] | None:
    """The dup2 a strace capture does not show (dup2 is not in its filter) but -y
    betrays: `fd` names `fd_path`, which was opened as another descriptor. The
    ziosim-dtrace line of dup2(that descriptor, fd), dated when its open returned,
    as ziosim-read.d records dup2; None when nothing is missing."""
    if fd_path is None or fds.get(fd) == fd_path or fd_path not in opened:
        return None
    fds[fd] = fd_path
    when, pid, source = opened[fd_path]
    return when, f"{when} {pid} dup2 {source} -1 {fd} {fd} 0"


def record(pid: int, entry_ns: int, call_text: str, counts: dict, fds: dict | None = None,
           opened: dict | None = None) -> list[tuple[int, str]]:
    """The ziosim-dtrace lines (entry_ns, line) of a whole strace call text 'NAME(ARGS) = RET ... <DUR>':
    the call's, after any dup2 its -y path shows was missed; `fds` (descriptor -> path) and
    `opened` (path -> when its open returned, pid, descriptor) follow the descriptors."""
    fds = {} if fds is None else fds
    opened = {} if opened is None else opened
    d = DURATION.search(call_text)
    if not d:
        if re.search(r"\) += \?", call_text):
            counts["no_result"] += 1
            return []
        raise BadLine("no '<seconds>' duration at the end (was it captured with -T?)")
    latency_ns = int(d.group(1)) * 1_000_000_000 + int(d.group(2)) * 1000
    body = call_text[: d.start()]
    cut = body.rfind(") = ")
    if cut < 0:
        if re.search(r"\) += \?", body):
            counts["no_result"] += 1
            return []
        raise BadLine("no ') = RESULT'")
    head, result = body[:cut], body[cut + 4 :]
    paren = head.find("(")
    name, args = head[:paren], head[paren + 1 :]
    if name not in CALLS:
        counts["other_calls"] += 1
        return []
    call = CALLS[name]
    ret = leading_int(result, "a return value")
    if call == "openat":
        path = c_string(args, args.find('"'))
        counts[call] += 1
        y = re.match(r"-?\d+<(.*)>$", result.strip())
        if ret >= 0:
            fds[ret] = y.group(1) if y else path
            opened[fds[ret]] = (entry_ns + latency_ns, pid, ret)
        return [(entry_ns, f"{entry_ns} {pid} openat -1 -1 0 {ret} {latency_ns} {path}")]
    fd = leading_int(args, "a file descriptor")
    y = re.match(r"\d+<([^>]*)>", args)
    missed = dup_for(fd, y.group(1) if y else None, fds, opened)
    tail = args.rsplit(", ", 2)
    offset, size = -1, 0
    if call == "read":
        size = leading_int(tail[-1], "the byte count")
    elif call == "pread":
        size, offset = leading_int(tail[-2], "the byte count"), leading_int(tail[-1], "the offset")
    elif call == "lseek":
        whence = tail[-1].strip()
        if whence not in WHENCE:
            raise BadLine(f"unknown lseek whence '{whence}'")
        offset, size = leading_int(tail[-2], "the offset"), WHENCE[whence]
    counts[call] += 1
    if call == "close":
        fds.pop(fd, None)
    return ([missed] if missed else []) + [(entry_ns, f"{entry_ns} {pid} {call} {fd} {offset} {size} {ret} {latency_ns}")]


def convert(lines):
    """Returns (output lines, counts) for the strace text LINES."""
    counts = {k: 0 for k in ("openat", "read", "pread", "lseek", "close", "no_result", "other_calls", "other_lines")}
    pending: dict[int, tuple[int, str]] = {}  # pid -> (entry_ns, text before " <unfinished ...>")
    rows: list[tuple[int, int, str]] = []
    fds: dict[int, str] = {}
    opened: dict[str, tuple[int, int, int]] = {}
    day = 0
    last_s = None
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        if not line.strip():
            continue
        m = LEAD.match(line)
        if not m:
            raise BadLine(f"line {number}: expected 'PID HH:MM:SS.micro ...' (strace -f -tt), got '{line[:60]}'")
        pid = int(m.group(1))
        secs = int(m.group(2)) * 3600 + int(m.group(3)) * 60 + int(m.group(4))
        if last_s is not None and secs < last_s - 43200:
            day += 1  # past midnight
        last_s = secs
        ns = (day * 86400 + secs) * 1_000_000_000 + int(m.group(5)) * 1000
        text = m.group(6)
        try:
            if text.startswith("+++") or text.startswith("---"):
                counts["other_lines"] += 1
                continue
            if text.startswith("<... "):
                r = re.match(r"<\.\.\. (\w+) resumed>(.*)$", text)
                if not r:
                    raise BadLine("unreadable '<... resumed>' line")
                if pid not in pending:
                    counts["other_lines"] += 1  # its entry was before the capture began
                    continue
                entry_ns, start = pending.pop(pid)
                rest = r.group(2)
                if rest.endswith(UNFINISHED):  # resumed, then split again: keep joining
                    pending[pid] = (entry_ns, start + rest[: -len(UNFINISHED)])
                    continue
                out = record(pid, entry_ns, start + rest, counts, fds, opened)
            elif text.endswith(UNFINISHED):
                pending[pid] = (ns, text[: -len(UNFINISHED)])
                continue
            else:
                out = record(pid, ns, text, counts, fds, opened)
        except BadLine as e:
            raise BadLine(f"line {number}: {e}") from None
        rows += [(when, len(rows) + i, line) for i, (when, line) in enumerate(out)]
    counts["no_result"] += len(pending)
    rows.sort()
    return ["# ziosim-dtrace 1"] + [r[2] for r in rows], counts


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", nargs="?", default="-", help="strace output; - or nothing for stdin")
    p.add_argument("-o", "--output", help="the ziosim-dtrace file to write (default stdout)")
    a = p.parse_args(argv)
    try:
        if a.input == "-":
            rows, counts = convert(sys.stdin)
        else:
            with open(a.input, encoding="utf-8", errors="surrogateescape") as f:
                rows, counts = convert(f)
    except BadLine as e:
        print(f"strace_to_dtrace.py: {a.input}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"strace_to_dtrace.py: {e}", file=sys.stderr)
        return 2
    text = "".join(r + "\n" for r in rows)
    if a.output:
        with open(a.output, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    c = counts
    print(f"strace_to_dtrace.py: {len(rows) - 1} calls written (openat {c['openat']}, read {c['read']}, "
          f"pread {c['pread']}, lseek {c['lseek']}, close {c['close']}); left out: {c['no_result']} without a "
          f"result, {c['other_calls']} other calls, {c['other_lines']} exit/signal lines", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
