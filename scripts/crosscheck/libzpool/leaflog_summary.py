#!/usr/bin/env python3
"""Summarise a leafemu CSV log (see README.md).

usage: leaflog_summary.py LOG.csv [HARNESS.json]

Prints one JSON object: per leaf reads/writes, bytes, max in_flight, device
busy fraction (sum of end-start over the phase span; with lanes=1 this is the
utilisation), and the peak number of leaf I/Os outstanding over all leaves.
With the harness JSON of the same run (made with --dump-blocks) and a stripe
or mirror pool, leaf read bytes are also classified by what they hit:
data blocks inside the requested range, data blocks past its end (prefetch
run-ahead), data blocks before its start, indirect blocks, other (metadata).
Leaf offset = DVA offset + 4 MiB (front labels + boot area)."""
import bisect, csv, json, sys

LABEL_START = 4 << 20


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    per, events = {}, []
    t0 = min((int(r['arrival_ns']) for r in rows), default=0)
    t1 = max((int(r['end_ns']) for r in rows), default=0)
    for r in rows:
        leaf = int(r['leaf'])
        s = per.setdefault(leaf, {'reads': 0, 'read_bytes': 0, 'writes': 0,
                                  'write_bytes': 0, 'max_in_flight': 0,
                                  'busy_ns': 0})
        size = int(r['size'])
        if r['op'] == 'R':
            s['reads'] += 1
            s['read_bytes'] += size
        else:
            s['writes'] += 1
            s['write_bytes'] += size
        s['max_in_flight'] = max(s['max_in_flight'], int(r['in_flight']))
        s['busy_ns'] += int(r['end_ns']) - int(r['start_ns'])
        events.append((int(r['arrival_ns']), 1))
        events.append((int(r['end_ns']), -1))
    for s in per.values():
        s['busy_fraction'] = round(s['busy_ns'] / (t1 - t0), 4) if t1 > t0 else 0
    events.sort()
    cur = peak = 0
    for _, d in events:
        cur += d
        peak = max(peak, cur)
    out = {'leaves': {str(k): v for k, v in sorted(per.items())},
           'total_reads': sum(v['reads'] for v in per.values()),
           'total_read_bytes': sum(v['read_bytes'] for v in per.values()),
           'span_s': (t1 - t0) / 1e9,
           'peak_outstanding_all_leaves': peak}
    if len(sys.argv) > 2:
        out['classified'] = classify(rows, json.load(open(sys.argv[2])))
    print(json.dumps(out))


def classify(rows, h):
    sc = h['scenario']
    kind = sc['vdev_kind']
    if kind not in ('stripe', 'mirror') or 'blocks' not in h:
        return {'error': 'needs --dump-blocks and a stripe or mirror pool'}
    rd = sc['read']
    if rd.startswith('range:'):
        _, a, b = rd.split(':')
        lo, hi = int(a), int(a) + int(b)
    elif rd == 'holes':
        lo, hi = 0, (sc['file_size'] - 1) // sc['recordsize'] * sc['recordsize']
    else:
        lo, hi = 0, sc['file_size']
    ivs = {}   # top vdev -> sorted [(start, end, class)]
    for b in h['blocks']:
        if b['level'] > 0:
            cls = 'indirect'
        else:
            off = b['blkid'] * b['lsize']
            cls = ('data_in_range' if lo <= off < hi else
                   'data_past_end' if off >= hi else 'data_before_start')
        for v, o, asz in b['dvas']:
            ivs.setdefault(v, []).append((o, o + asz, cls))
    for v in ivs:
        ivs[v].sort()
    starts = {v: [i[0] for i in ivs[v]] for v in ivs}
    res = {'data_in_range': 0, 'data_past_end': 0, 'data_before_start': 0,
           'indirect': 0, 'other': 0}
    for r in rows:
        if r['op'] != 'R':
            continue
        leaf = int(r['leaf'])
        top = 0 if kind == 'mirror' else leaf
        a = int(r['offset']) - LABEL_START
        e = a + int(r['size'])
        covered = 0
        lst = ivs.get(top, [])
        i = max(bisect.bisect_right(starts.get(top, []), a) - 1, 0)
        while i < len(lst) and lst[i][0] < e:
            s0, e0, cls = lst[i]
            ov = min(e, e0) - max(a, s0)
            if ov > 0:
                res[cls] += ov
                covered += ov
            i += 1
        res['other'] += int(r['size']) - covered
    res['range'] = [lo, hi]
    return res


if __name__ == '__main__':
    main()
