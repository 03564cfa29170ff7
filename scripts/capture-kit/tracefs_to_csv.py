#!/usr/bin/env python3
"""Pairs tracefs block_rq_issue / block_rq_complete events into the CSV that
`ziosim replay --format ftrace` reads (sim/trace/ftrace_csv_reader.cc):

    issue_s,complete_s,rwbs,sector,nsectors,latency_us
    12474.788845,12474.789561,RS,30284128,256,716.0

    tracefs_to_csv.py [--dev MAJ,MIN] [--no-header] [-o OUT.csv] [TRACE.txt | -]

The input is the text of `trace_pipe` (or `trace`) with the two events enabled,
one event a line, as the kernel prints them, e.g. (Linux 6.x; older kernels lack
the "be,0,4" I/O priority, which is not needed):

    dd-31772 [000] ..... 12474.788845: block_rq_issue: 254,0 RS 131072 () 30284128 + 256 be,0,4 [dd]
    <idle>-0 [001] ..s.. 12474.789561: block_rq_complete: 254,0 RS () 30284128 + 256 be,0,4 [0]

An issue is paired with the next completion of the same device and start sector.
A request the driver could not take (queue full) is requeued and issued again:
the last issue before the completion stands, as that is when the device got the
request (a block_rq_requeue event, if enabled, drops the earlier issue; without
it a second issue of a request in flight replaces the first; both counted).
This differs from ziosim's blkparse reader, which keeps the first D. Written: one line per paired request with data, in issue order; issue_s and
complete_s are the trace clock's seconds as printed, rwbs the issue's, latency_us
= complete - issue. Left out, and counted on stderr: requests without data
(flushes: 0 sectors), completions with an error, issues never completed and
completions never issued (the capture began or ended in between), and other
events. With several devices in the input, --dev is required (the CSV has no
device column). Python standard library only. Exit status 2 on bad input.
"""

from __future__ import annotations

import argparse
import re
import sys

EVENT = re.compile(r"\s(\d+)(?:\.(\d+))?: (block_rq_issue|block_rq_complete|block_rq_requeue): (\d+,\d+) (\S+) (.*)$")
SECTORS = re.compile(r"(?:^|\s)(\d+) \+ (\d+)(?:\s|$)")
ERROR = re.compile(r"\[(-?\d+)\]\s*$")


class BadInput(Exception):
    pass


def seconds_text(ns: int, digits: int) -> str:
    s, frac = divmod(ns, 1_000_000_000)
    return f"{s}.{frac:09d}"[: len(str(s)) + 1 + digits]


def micros_text(ns: int) -> str:
    text = f"{ns // 1000}.{ns % 1000:03d}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def convert(lines, dev: str | None, header: bool = True):
    """Returns (csv_lines, counts) for the tracefs text LINES."""
    pending: dict[tuple[str, int], tuple[int, str, int, int]] = {}  # (dev, sector) -> (issue_ns, rwbs, nsectors, order)
    done: list[tuple[int, int, int, str, int, int]] = []  # (issue_ns, order, complete_ns, rwbs, sector, nsectors)
    counts = {"events": 0, "paired": 0, "no_data": 0, "errors": 0, "never_completed": 0, "never_issued": 0,
              "requeued": 0, "reissued": 0, "other_devices": 0, "other_lines": 0}
    devices: set[str] = set()
    digits = 6
    order = 0
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        m = EVENT.search(line)
        if not m:
            counts["other_lines"] += 1
            continue
        whole, frac, event, device, rwbs, rest = m.groups()
        if frac is None:
            raise BadInput(f"line {number}: timestamp '{whole}' has no fraction: the trace clock must count time "
                           "(local, global, mono, boot), not 'counter'")
        digits = max(digits, min(len(frac), 9))
        ns = int(whole) * 1_000_000_000 + int((frac + "000000000")[:9])
        s = SECTORS.search(rest)
        if not s:
            raise BadInput(f"line {number}: {event}: no 'SECTOR + NSECTORS' in '{rest}'")
        sector, nsectors = int(s.group(1)), int(s.group(2))
        counts["events"] += 1
        devices.add(device)
        if dev is not None and device != dev:
            counts["other_devices"] += 1
            continue
        key = (device, sector)
        if event == "block_rq_issue":
            if nsectors == 0:
                counts["no_data"] += 1
                continue
            if key in pending:
                counts["reissued"] += 1  # issued again without a requeue event: the later issue stands
            pending[key] = (ns, rwbs, nsectors, order)
            order += 1
            continue
        if event == "block_rq_requeue":
            if pending.pop(key, None) is not None:
                counts["requeued"] += 1
            continue
        issued = pending.pop(key, None)
        if issued is None:
            if nsectors == 0:
                counts["no_data"] += 1
            else:
                counts["never_issued"] += 1
            continue
        e = ERROR.search(rest)
        if e and int(e.group(1)) != 0:
            counts["errors"] += 1
            continue
        issue_ns, issue_rwbs, issue_n, issue_order = issued
        if ns < issue_ns:
            raise BadInput(f"line {number}: block_rq_complete at {whole}.{frac} before its issue")
        done.append((issue_ns, issue_order, ns, issue_rwbs, sector, issue_n))
    if dev is None and len(devices) > 1:
        raise BadInput(f"the trace holds several devices ({', '.join(sorted(devices))}): choose one with --dev MAJ,MIN")
    counts["never_completed"] = len(pending)
    counts["paired"] = len(done)
    done.sort()
    out = ["issue_s,complete_s,rwbs,sector,nsectors,latency_us"] if header else []
    for issue_ns, _, complete_ns, rwbs, sector, nsectors in done:
        out.append(f"{seconds_text(issue_ns, digits)},{seconds_text(complete_ns, digits)},{rwbs},{sector},{nsectors},"
                   f"{micros_text(complete_ns - issue_ns)}")
    return out, counts


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", nargs="?", default="-", help="tracefs text (trace_pipe output); - or nothing for stdin")
    p.add_argument("-o", "--output", help="the CSV to write (default stdout)")
    p.add_argument("--dev", help="keep only this device, as MAJ,MIN (e.g. 8,0 for sda)")
    p.add_argument("--no-header", action="store_true", help="leave out the header line")
    a = p.parse_args(argv)
    if a.dev is not None and not re.fullmatch(r"\d+,\d+", a.dev):
        print(f"tracefs_to_csv.py: --dev takes MAJ,MIN (e.g. 8,0), got '{a.dev}'", file=sys.stderr)
        return 2
    try:
        if a.input == "-":
            rows, counts = convert(sys.stdin, a.dev, not a.no_header)
        else:
            with open(a.input, encoding="utf-8", errors="replace") as f:
                rows, counts = convert(f, a.dev, not a.no_header)
    except BadInput as e:
        print(f"tracefs_to_csv.py: {a.input}: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"tracefs_to_csv.py: {e}", file=sys.stderr)
        return 2
    text = "".join(r + "\n" for r in rows)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    c = counts
    print(f"tracefs_to_csv.py: {c['paired']} requests written from {c['events']} block events; left out: "
          f"{c['no_data']} without data (flushes), {c['errors']} failed, {c['never_completed']} never completed, "
          f"{c['never_issued']} completions never issued, {c['other_devices']} of other devices, "
          f"{c['other_lines']} other lines; {c['requeued']} requeues and {c['reissued']} second issues in flight "
          "(the last issue kept)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
