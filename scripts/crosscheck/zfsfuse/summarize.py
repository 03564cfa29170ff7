#!/usr/bin/env python3
"""Print a short summary of run_b134.py JSON outputs: summarize.py OUT.json..."""
import json
import sys

for f in sys.argv[1:]:
    r = json.load(open(f))
    if not isinstance(r, dict) or "leaf_io" not in r:
        continue  # e.g. the LOG.emu.json side files
    L = r["leaf_io"]
    k = r["kstat"]
    print("== %s: %s readers=%d read=%s  %.1f MB/s  elapsed %.2f s  per reader %s" % (
        f, r["scenario"]["vdev"], r["readers"], r["scenario"]["read"], r["throughput_mb_s"],
        r["elapsed_s"], [round(x, 1) for x in r["per_reader_mb_s"]]))
    for p in L["per_leaf"]:
        print("   leaf%d: %d reads, %d bytes, max in_flight %d" % (
            p["index"], p["reads"], p["read_bytes"], p["max_in_flight"]))
    print("   read sizes:", L["read_size_histogram"])
    print("   64K reads at 64K-aligned offsets:", L["reads_64k_aligned_64k"])
    if r.get("emulation"):
        print("   completion lateness:", r["emulation"], " daemon CPU s: %.2f" % r.get("daemon_cpu_s", 0))
    if "read_bytes_by_target" in L:
        print("   leaf read bytes by target:", L["read_bytes_by_target"])
    print("   zfetch:", {x: k["zfetch"][x] for x in ("hits", "misses", "colinear_hits",
                                                   "stride_hits", "streams_resets")},
          " vdev_cache:", k["vdev_cache"],
          " arc: prefetch_data_misses %d demand_data_misses %d demand_metadata_misses %d" % (
              k["arc"]["prefetch_data_misses"], k["arc"]["demand_data_misses"],
              k["arc"]["demand_metadata_misses"]))
