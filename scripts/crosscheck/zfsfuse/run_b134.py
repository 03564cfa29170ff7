#!/usr/bin/env python3
"""Run ONNV build 134 ZFS (zfs-fuse 0.7.0, pool v23) as an I/O oracle for ziosim.

The zfs-fuse daemon runs in a private mount namespace with its own /etc/zfs
(prefetch enabled), leaf I/O is served by an emulated device (libaioemu.so,
LD_PRELOADed into the daemon, see aioemu.c) and logged as CSV.

Needs root, /dev/fuse, cc, unshare/nsenter (util-linux), apt-get (once, to
fetch the zfs-fuse, libaio1 and libfuse2 packages; cached under --cache).
Prints one JSON object on stdout.  See README.md.
"""
import argparse
import csv
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
POOL = "b134pool"
FS = POOL + "/fs"
PKGS = ["zfs-fuse", "libaio1", "libfuse2"]


class ArgError(Exception):
    pass


def die_arg(name, msg):
    print("run_b134: --%s: %s" % (name, msg), file=sys.stderr)
    sys.exit(2)


def log(msg):
    print("run_b134: " + msg, file=sys.stderr, flush=True)


def parse_size(name, s):
    m = re.fullmatch(r"\s*(\d+)\s*([KMGT]i?B?|[kmgt]|B)?\s*", s)
    if not m:
        die_arg(name, "not a size: %r" % s)
    mult = {None: 1, "B": 1}
    for i, p in enumerate("KMGT"):
        for suf in (p, p + "i", p + "iB", p.lower()):
            mult[suf] = 1024 ** (i + 1)
        mult[p + "B"] = 1000 ** (i + 1)
    return int(m.group(1)) * mult[m.group(2)]


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", required=True, help="scratch folder (created)")
    ap.add_argument("--vdev", default="stripe:1", help="KIND:N, KIND stripe|mirror|raidz1|raidz2|raidz3")
    ap.add_argument("--leaf-size", default=str(4 << 30), help="bytes per sparse leaf file (4 GiB)")
    ap.add_argument("--ashift", default="12", help="9 or 12")
    ap.add_argument("--recordsize", default="131072", help="bytes, power of 2, 512..128K")
    ap.add_argument("--file-size", default=str(256 << 20), help="bytes per file")
    ap.add_argument("--readers", default="1", help="parallel dd processes, each its own file")
    ap.add_argument("--bs", default=str(1 << 20), help="dd block size")
    ap.add_argument("--read", default="whole", help="whole | range:OFFSET:LENGTH | holes")
    ap.add_argument("--primarycache", default="all", help="all | metadata")
    ap.add_argument("--compression", default="off", help="off (only)")
    ap.add_argument("--device", default="fixed:latency=4ms,bandwidth=150MB/s,lanes=1",
                    help="LEAFEMU_DEVICE spec; 'none' = no emulation (logging only)")
    ap.add_argument("--log", default=None, help="leaf I/O CSV (default WORK/leaf_io.csv)")
    ap.add_argument("--dump-blocks", action="store_true", help="add zdb block pointers of the files")
    ap.add_argument("--direct", action="store_true", help="dd iflag=direct")
    ap.add_argument("--max-arc-mb", default="1024",
                    help="zfsrc max-arc-size in MB (Debian zfsrc: 100, which thrashes with >1 reader)")
    ap.add_argument("--vdev-cache-mb", default="10", help="zfsrc vdev-cache-size (default 10)")
    ap.add_argument("--no-prefetch", action="store_true", help="zfsrc zfs-prefetch-disable")
    ap.add_argument("--cache", default="/var/tmp/zfsfuse-b134",
                    help="where the .debs are downloaded and unpacked once")
    ap.add_argument("--settle", default="2",
                    help="seconds the log/emulation stays on after the last reader ends, so queued "
                         "prefetch I/O is captured (not counted in elapsed_s)")
    ap.add_argument("--nice", default="-10",
                    help="nice value for the daemon and the readers (default -10: the emulated "
                         "device's completion timing suffers when other jobs load the CPUs)")
    ap.add_argument("--keep", action="store_true", help="keep leaf files after the run")
    a = ap.parse_args(argv)

    m = re.fullmatch(r"(stripe|mirror|raidz1|raidz2|raidz3):(\d+)", a.vdev)
    if not m:
        die_arg("vdev", "expected stripe|mirror|raidz1|raidz2|raidz3:N, got %r" % a.vdev)
    a.kind, a.nleaves = m.group(1), int(m.group(2))
    minleaves = {"stripe": 1, "mirror": 2, "raidz1": 2, "raidz2": 3, "raidz3": 4}[a.kind]
    if a.nleaves < minleaves or a.nleaves > 32:
        die_arg("vdev", "%s needs %d..32 leaves" % (a.kind, minleaves))
    a.leaf_size = parse_size("leaf-size", a.leaf_size)
    if a.leaf_size < (64 << 20):
        die_arg("leaf-size", "at least 64 MiB")
    if a.ashift not in ("9", "12"):
        die_arg("ashift", "must be 9 or 12")
    a.ashift = int(a.ashift)
    a.recordsize = parse_size("recordsize", a.recordsize)
    if a.recordsize < 512 or a.recordsize > 131072 or a.recordsize & (a.recordsize - 1):
        die_arg("recordsize", "power of 2 between 512 and 131072 (b134 caps at 128K)")
    a.file_size = parse_size("file-size", a.file_size)
    if a.file_size <= 0:
        die_arg("file-size", "must be > 0")
    try:
        a.readers = int(a.readers)
    except ValueError:
        die_arg("readers", "not an integer")
    if a.readers < 1 or a.readers > 64:
        die_arg("readers", "1..64")
    a.bs = parse_size("bs", a.bs)
    if a.bs <= 0:
        die_arg("bs", "must be > 0")
    if a.direct and a.bs % 512:
        die_arg("bs", "must be a multiple of 512 with --direct")
    a.range = None
    if a.read.startswith("range:"):
        p = a.read.split(":")
        if len(p) != 3:
            die_arg("read", "range:OFFSET:LENGTH")
        off, ln = parse_size("read", p[1]), parse_size("read", p[2])
        if ln <= 0 or off + ln > a.file_size:
            die_arg("read", "range must lie inside --file-size")
        a.range = (off, ln)
    elif a.read not in ("whole", "holes"):
        die_arg("read", "whole | range:OFFSET:LENGTH | holes")
    if a.primarycache not in ("all", "metadata"):
        die_arg("primarycache", "all | metadata")
    if a.compression != "off":
        die_arg("compression", "only off is supported")
    # fixed:... (the reference device), none, or a ziosim drive name, checked by the interposer.
    if a.device.startswith("fixed:") and not re.fullmatch(r"fixed:[a-z]+=[^,]+(,[a-z]+=[^,]+)*", a.device):
        die_arg("device", "expected fixed:latency=T,bandwidth=B,lanes=N, a ziosim drive or none")
    if not a.device:
        die_arg("device", "expected fixed:latency=T,bandwidth=B,lanes=N, a ziosim drive or none")
    try:
        a.settle = float(a.settle)
        if a.settle < 0:
            raise ValueError
    except ValueError:
        die_arg("settle", "not a non-negative number")
    for k in ("max_arc_mb", "vdev_cache_mb", "nice"):
        try:
            setattr(a, k, int(getattr(a, k)))
        except ValueError:
            die_arg(k.replace("_", "-"), "not an integer")
    need = a.file_size * a.readers * (2 if a.kind == "mirror" else 1)
    usable = a.leaf_size * (1 if a.kind == "mirror" else a.nleaves)
    if need > usable * 0.8:
        die_arg("leaf-size", "too small for %d files of %d bytes" % (a.readers, a.file_size))
    a.work = os.path.abspath(a.work)
    a.log = os.path.abspath(a.log) if a.log else os.path.join(a.work, "leaf_io.csv")
    return a


def run(cmd, **kw):
    kw.setdefault("check", True)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("text", True)
    try:
        return subprocess.run(cmd, **kw)
    except subprocess.CalledProcessError as e:
        raise RuntimeError("command failed (%d): %s\n%s%s" % (
            e.returncode, " ".join(map(shlex.quote, cmd)), e.stdout or "", e.stderr or ""))


def ensure_packages(cache):
    root = os.path.join(cache, "root")
    if os.path.exists(os.path.join(root, "sbin", "zfs-fuse")):
        return root
    os.makedirs(cache, exist_ok=True)
    log("downloading %s into %s" % (" ".join(PKGS), cache))
    run(["apt-get", "download"] + PKGS, cwd=cache)
    os.makedirs(root, exist_ok=True)
    for f in sorted(os.listdir(cache)):
        if f.endswith(".deb"):
            run(["dpkg-deb", "-x", os.path.join(cache, f), root])
    return root


def build_lib(work):
    src = os.path.join(HERE, "aioemu.c")
    out = os.path.join(work, "libaioemu.so")
    run(["cc", "-O2", "-Wall", "-shared", "-fPIC", "-o", out, src, "-lpthread", "-ldl", "-lm"])
    return out


class Daemon:
    def __init__(self, a, root, lib):
        self.a, self.root, self.lib = a, root, lib
        self.pid = None
        self.proc = None
        self.ldpath = ":".join([os.path.join(root, "lib/x86_64-linux-gnu"),
                                os.path.join(root, "usr/lib/x86_64-linux-gnu")])
        self.ctl = os.path.join(a.work, "leafemu.ctl")

    def bin(self, name):
        return os.path.join(self.root, "sbin", name)

    def start(self):
        a = self.a
        etc = os.path.join(a.work, "etc")
        os.makedirs(etc, exist_ok=True)
        with open(os.path.join(etc, "zfsrc"), "w") as f:
            f.write("vdev-cache-size = %d\n" % a.vdev_cache_mb)
            f.write("max-arc-size = %d\n" % a.max_arc_mb)
            if a.no_prefetch:
                f.write("zfs-prefetch-disable\n")
            f.write("fuse-attr-timeout = 3600\nfuse-entry-timeout = 3600\n")
            f.write("fuse-mount-options = default_permissions\n")
        for p in (self.ctl, self.ctl + ".ack"):
            if os.path.exists(p):
                os.unlink(p)
        script = os.path.join(a.work, "start_daemon.sh")
        with open(script, "w") as f:
            f.write("set -e\n")
            f.write("mount --make-rprivate / 2>/dev/null || true\n")
            # zfs-fuse reads /etc/zfs/zfsrc, a path compiled in. The bind mount needs the mount
            # point, which only a machine with a ZFS package has: make it (empty) where it is missing.
            f.write("mkdir -p /etc/zfs\n")
            f.write("mount --bind %s /etc/zfs\n" % shlex.quote(etc))
            # /run (= /var/run, /var/lock) and /var/lib are replaced inside the
            # namespace only, for zfs_socket, zfs_lock and zpool.cache.
            f.write("mount -t tmpfs b134run /run\n")
            f.write("mkdir -p /run/zfs /run/lock/zfs\n")
            f.write("mount -t tmpfs b134varlib /var/lib\n")
            f.write("mkdir -p /var/lib/zfs\n")
            f.write("export LD_PRELOAD=%s\n" % shlex.quote(self.lib))
            f.write("exec nice -n %d %s --no-daemon\n" % (a.nice, shlex.quote(self.bin("zfs-fuse"))))
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = self.ldpath
        env["LEAFEMU_LEAVES"] = ":".join(a.leaf_paths)
        env["LEAFEMU_DEVICE"] = "" if a.device == "none" else a.device
        env["LEAFEMU_LOG"] = a.log
        env["LEAFEMU_CONTROL"] = self.ctl
        env["LEAFEMU_EXE"] = "zfs-fuse"
        self.daemon_log = open(os.path.join(a.work, "daemon.log"), "w")
        self.proc = subprocess.Popen(["unshare", "-m", "--propagation", "private",
                                      "sh", script], env=env,
                                     stdout=self.daemon_log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.pid = self.proc.pid  # unshare and sh exec, so this is the daemon
        for _ in range(200):
            if self.proc.poll() is not None:
                raise RuntimeError("zfs-fuse exited early, see %s/daemon.log" % a.work)
            r = self.ns(["test", "-S", "/run/zfs/zfs_socket"], check=False)
            if r.returncode == 0:
                return
            time.sleep(0.05)
        raise RuntimeError("zfs-fuse did not come up")

    def ns(self, cmd, **kw):
        env = dict(os.environ)
        env["LD_LIBRARY_PATH"] = self.ldpath
        env.pop("LD_PRELOAD", None)
        kw.setdefault("env", env)
        return run(["nsenter", "-t", str(self.pid), "-m", "--"] + cmd, **kw)

    def sh(self, script, **kw):
        return self.ns(["sh", "-c", script], **kw)

    def control(self, state, logpath=None):
        ack = self.ctl + ".ack"
        tmp = self.ctl + ".tmp"
        with open(tmp, "w") as f:
            f.write(state + ((" " + logpath) if logpath else "") + "\n")
        os.rename(tmp, self.ctl)
        for _ in range(5000):
            try:
                with open(ack) as f:
                    if f.read().strip() == state:
                        return
            except FileNotFoundError:
                pass
            time.sleep(0.001)
        raise RuntimeError("libaioemu did not acknowledge '%s'" % state)

    def cpu_s(self):
        with open("/proc/%d/stat" % self.pid) as f:
            p = f.read().rsplit(")", 1)[1].split()
        return (int(p[11]) + int(p[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if not self.proc:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        self.daemon_log.close()


def read_kstat(d):
    out = {}
    for group, sub in (("zfetch", "zfetchstats"), ("vdev_cache", "vdev_cache_stats"),
                       ("arc", "arcstats")):
        txt = d.sh("cd /zfs-kstat/zfs/%s && for f in *; do echo \"$f $(cat $f)\"; done" % sub).stdout
        vals = {}
        for line in txt.splitlines():
            p = line.split()
            if len(p) == 2:
                try:
                    vals[p[0]] = int(p[1])
                except ValueError:
                    pass
        out[group] = vals
    return out


ARC_LEVELS = {"c", "c_max", "c_min", "p", "size", "hdr_size", "data_size", "other_size",
              "l2_size", "l2_hdr_size", "hash_elements", "hash_elements_max",
              "hash_chain_max", "hash_chains"}


def kstat_delta(before, after):
    out = {}
    for g in after:
        out[g] = {}
        for k, v in after[g].items():
            if g == "arc" and k in ARC_LEVELS:
                out[g][k] = v
            else:
                out[g][k] = v - before.get(g, {}).get(k, 0)
    return out


DVA_RE = re.compile(r"^\s*([0-9a-f]+)\s+L(\d+)\s+((?:\d+:[0-9a-f]+:[0-9a-f]+\s+)+)([0-9a-f]+)L/([0-9a-f]+)P")


def dump_blocks(d, fileobjs):
    blocks = []
    for name, obj in fileobjs:
        # -dddddd (6) prints every DVA of a block pointer; -ddddd only the first
        txt = d.ns([d.bin("zdb"), "-dddddd", FS, str(obj)]).stdout
        dblk = None
        m = re.search(r"^\s+%d\s+\d+\s+(\S+)\s+(\S+)\s" % obj, txt, re.M)
        for line in txt.splitlines():
            mm = DVA_RE.match(line)
            if not mm:
                continue
            foff = int(mm.group(1), 16)
            level = int(mm.group(2))
            lsize, psize = int(mm.group(4), 16), int(mm.group(5), 16)
            if level == 0 and dblk is None:
                dblk = lsize
            dvas = [[int(v), int(o, 16), int(s, 16)] for v, o, s in
                    (x.split(":") for x in mm.group(3).split())]
            blocks.append({"file": name, "object": obj, "level": level,
                           "file_offset": foff, "lsize": lsize, "psize": psize, "dvas": dvas})
        # blkid at level L = file offset / (data block size * 128^L) (16K indirect blocks)
        for b in blocks:
            if b["object"] == obj:
                span = (dblk or 131072) * (128 ** b["level"])
                b["blkid"] = b["file_offset"] // span
    return blocks


def leaf_extents(a, b, dva):
    """Leaf-file byte extents [(leaf, start, end)] holding a DVA (4 MiB labels+boot)."""
    vdev, off, asize = dva
    base = 4 << 20
    if a.kind == "stripe":
        return [(vdev, base + off, base + off + asize)]
    if a.kind == "mirror":
        return [(c, base + off, base + off + asize) for c in range(a.nleaves)]
    # RAID-Z map (vdev_raidz_map_alloc, b134)
    np_ = int(a.kind[-1])
    dcols, sh = a.nleaves, a.ashift
    bsec = off >> sh
    f, o = bsec % dcols, (bsec // dcols) << sh
    # the raidz zio carries psize rounded up to the sector size (zio_vdev_io_start)
    s = (b["psize"] + (1 << sh) - 1) >> sh
    q, r = s // (dcols - np_), s % (dcols - np_)
    bc = 0 if r == 0 else r + np_
    acols = dcols if q else bc
    out = []
    for c in range(acols):
        col, coff = f + c, o
        if col >= dcols:
            col -= dcols
            coff += 1 << sh
        size = ((q + 1) if c < bc else q) << sh
        if size:
            out.append((col, base + coff, base + coff + size))
    return out


def attribute(a, blocks, reads):
    """Split leaf read bytes by what they hit: file data before/in/after the range, indirect, other."""
    ext = {}
    for b in blocks:
        if b["level"] == 0:
            if a.range:
                lo, hi = a.range[0], a.range[0] + a.range[1]
                fo = b["file_offset"]
                cls = "data_in_range" if lo <= fo < hi or (fo < lo < fo + b["lsize"]) else (
                    "data_beyond_range" if fo >= hi else "data_before_range")
            else:
                cls = "data"
        else:
            cls = "indirect"
        for dva in b["dvas"]:
            for leaf, s, e in leaf_extents(a, b, dva):
                ext.setdefault(leaf, []).append((s, e, cls))
    for v in ext.values():
        v.sort()
    import bisect
    starts = {k: [x[0] for x in v] for k, v in ext.items()}
    res = {}
    for leaf, off, size in reads:
        end = off + size
        hit = 0
        lst = ext.get(leaf, [])
        i = bisect.bisect_right(starts.get(leaf, []), off) - 1
        i = max(i, 0)
        while i < len(lst) and lst[i][0] < end:
            s, e, cls = lst[i]
            ov = min(e, end) - max(s, off)
            if ov > 0:
                res[cls] = res.get(cls, 0) + ov
                hit += ov
            i += 1
        if size - hit > 0:
            res["other"] = res.get("other", 0) + size - hit
    return res


def summarize_log(path, nleaves):
    per = {i: {"reads": 0, "read_bytes": 0, "writes": 0, "write_bytes": 0,
               "max_in_flight": 0} for i in range(nleaves)}
    hist = {}
    aligned64 = 0
    reads = []
    with open(path) as f:
        for r in csv.DictReader(f):
            i, size, off = int(r["leaf"]), int(r["size"]), int(r["offset"])
            p = per.setdefault(i, {"reads": 0, "read_bytes": 0, "writes": 0,
                                   "write_bytes": 0, "max_in_flight": 0})
            p["max_in_flight"] = max(p["max_in_flight"], int(r["in_flight"]))
            if r["op"] == "R":
                p["reads"] += 1
                p["read_bytes"] += size
                hist[size] = hist.get(size, 0) + 1
                reads.append((i, off, size))
                if size == 65536 and off % 65536 == 0:
                    aligned64 += 1
            elif r["op"] == "W":
                p["writes"] += 1
                p["write_bytes"] += size
    return {"per_leaf": [dict(index=k, **v) for k, v in sorted(per.items())],
            "read_size_histogram": {str(k): v for k, v in sorted(hist.items())},
            "reads_64k_aligned_64k": aligned64}, reads


def main(argv):
    a = parse_args(argv)
    if os.geteuid() != 0:
        print("run_b134: must run as root", file=sys.stderr)
        return 2
    os.makedirs(a.work, exist_ok=True)
    vdir = os.path.join(a.work, "vdevs")
    mnt = os.path.join(a.work, "mnt")
    os.makedirs(vdir, exist_ok=True)
    os.makedirs(mnt, exist_ok=True)
    a.leaf_paths = [os.path.join(vdir, "leaf%d" % i) for i in range(a.nleaves)]
    kstat_dir_existed = os.path.exists("/zfs-kstat")
    root = ensure_packages(a.cache)
    lib = build_lib(a.work)
    for p in a.leaf_paths:
        if os.path.exists(p):
            os.unlink(p)
        with open(p, "wb") as f:
            f.truncate(a.leaf_size)
    d = Daemon(a, root, lib)
    result = None
    try:
        d.start()
        zp, zf = d.bin("zpool"), d.bin("zfs")
        spec = ([] if a.kind == "stripe" else [a.kind]) + a.leaf_paths
        d.ns([zp, "create", "-f", "-o", "ashift=%d" % a.ashift, "-m", "none", POOL] + spec)
        d.ns([zf, "create", "-o", "compression=off", "-o", "recordsize=%d" % a.recordsize,
              "-o", "primarycache=%s" % a.primarycache, "-o", "mountpoint=%s" % mnt, FS])
        files = [os.path.join(mnt, "file%d" % i) for i in range(a.readers)]
        log("writing %d file(s) of %d bytes" % (a.readers, a.file_size))
        rs = a.recordsize
        for fn in files:
            q = shlex.quote(fn)
            if a.read == "holes":
                last = ((a.file_size - 1) // rs) * rs
                d.sh("truncate -s %d %s && head -c %d /dev/urandom | dd of=%s bs=%d seek=%d "
                     "iflag=fullblock oflag=seek_bytes conv=notrunc status=none" % (
                         a.file_size, q, a.file_size - last, q, rs, last))
            else:
                d.sh("head -c %d /dev/urandom > %s" % (a.file_size, q))
        d.sh("sync")
        objs = []
        for i, fn in enumerate(files):
            objs.append(("file%d" % i, int(d.ns(["stat", "-c", "%i", fn]).stdout.strip())))
        d.ns([zp, "export", POOL])
        d.ns([zp, "import", "-d", vdir, POOL])
        blocks = dump_blocks(d, objs) if a.dump_blocks else None
        # build the reader script
        if a.range:
            off, ln = a.range
            extra = "iflag=skip_bytes,count_bytes%s skip=%d count=%d" % (
                ",direct" if a.direct else "", off, ln)
        else:
            extra = "iflag=direct" if a.direct else ""
        rdir = os.path.join(a.work, "readers")
        shutil.rmtree(rdir, ignore_errors=True)
        os.makedirs(rdir)
        lines = []
        for i, fn in enumerate(files):
            o = shlex.quote(os.path.join(rdir, "r%d" % i))
            lines.append("( s=$(date +%%s%%N); dd if=%s of=/dev/null bs=%d %s 2>%s.dd; "
                         "e=$(date +%%s%%N); echo $s $e > %s.t ) &" % (
                             shlex.quote(fn), a.bs, extra, o, o))
        lines.append("wait")
        before = read_kstat(d)
        cpu0 = d.cpu_s()
        d.control("on", a.log)
        log("reading with %d reader(s)" % a.readers)
        d.ns(["nice", "-n", str(a.nice), "sh", "-c", "\n".join(lines)])
        cpu_read = d.cpu_s() - cpu0
        time.sleep(a.settle)
        d.control("off")
        after = read_kstat(d)
        per, app_bytes, t0s, t1s = [], 0, [], []
        for i in range(a.readers):
            s, e = map(int, open(os.path.join(rdir, "r%d.t" % i)).read().split())
            ddout = open(os.path.join(rdir, "r%d.dd" % i)).read()
            m = re.search(r"^(\d+) bytes", ddout, re.M)
            if not m:
                raise RuntimeError("dd %d failed: %s" % (i, ddout))
            nb = int(m.group(1))
            app_bytes += nb
            t0s.append(s)
            t1s.append(e)
            per.append(nb / ((e - s) / 1e9) / 1e6)
        elapsed = (max(t1s) - min(t0s)) / 1e9
        summary, reads = summarize_log(a.log, a.nleaves)
        try:
            with open(a.log + ".emu.json") as f:
                emu_stats = json.load(f)
        except (OSError, ValueError):
            emu_stats = None
        if blocks is not None:
            summary["read_bytes_by_target"] = attribute(a, blocks, reads)
        scen = {k: getattr(a, k) for k in ("vdev", "leaf_size", "ashift", "recordsize",
                                            "file_size", "readers", "bs", "read",
                                            "primarycache", "compression", "device",
                                            "direct", "max_arc_mb", "vdev_cache_mb",
                                            "no_prefetch", "settle", "nice")}
        result = {"implementation": "onnv-134", "scenario": scen, "readers": a.readers,
                  "elapsed_s": elapsed, "app_bytes": app_bytes,
                  "throughput_mb_s": app_bytes / elapsed / 1e6, "per_reader_mb_s": per,
                  "leaves": [{"index": i, "path": p} for i, p in enumerate(a.leaf_paths)],
                  "kstat": kstat_delta(before, after), "leaf_io": summary, "log": a.log,
                  "daemon_cpu_s": cpu_read, "host_cpus": os.cpu_count(),
                  "emulation": emu_stats}
        if blocks is not None:
            result["blocks"] = blocks
        d.ns([zp, "export", POOL], check=False)
    finally:
        try:
            if d.proc and d.proc.poll() is None:
                d.ns([d.bin("zpool"), "export", "-f", POOL], check=False)
        except Exception:
            pass
        d.stop()
        if not kstat_dir_existed and os.path.isdir("/zfs-kstat"):
            try:
                os.rmdir("/zfs-kstat")
            except OSError:
                pass
        if not a.keep:
            for p in a.leaf_paths:
                if os.path.exists(p):
                    os.unlink(p)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except RuntimeError as e:
        print("run_b134: %s" % e, file=sys.stderr)
        sys.exit(1)
