"""Where the scenario scripts find the ziosim command ($ZIOSIM, else this repository's
build/ziosim, else the one on PATH), and how they run a scenario file.

Set ZIOSIM_RUN_CACHE to a folder to keep each run's JSON there, keyed by the binary and the
file's bytes: scenarios/tables.py does, so that a file two tables show runs once."""
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_ziosim():
    if os.environ.get("ZIOSIM"):
        return os.environ["ZIOSIM"]
    built = os.path.join(ROOT, "build", "ziosim")
    return built if os.access(built, os.X_OK) else "ziosim"


SKIPPED = 77  # exit status: an input is absent (scenarios/tables.py leaves the block as it is)


def need(path, who):
    """`path`, or exit SKIPPED saying it is absent (../shared is not beside every checkout)."""
    if not os.path.exists(path):
        print("{}: {} is absent: skipped".format(who, path), file=sys.stderr)
        sys.exit(SKIPPED)
    return path


def run_json(ziosim, path):
    """`ziosim run PATH --json`, parsed; exits with the command's stderr if it fails."""
    cache = os.environ.get("ZIOSIM_RUN_CACHE")
    if not cache:
        return json.loads(_run(ziosim, path))
    binary = os.path.realpath(shutil.which(ziosim) or ziosim)
    digest = hashlib.sha256()
    for part in (binary, str(os.stat(binary).st_mtime_ns), os.path.realpath(path)):
        digest.update(part.encode() + b"\0")
    with open(path, "rb") as f:
        digest.update(f.read())
    key = os.path.join(cache, digest.hexdigest())
    # One process runs a given file; the others (blocks run at once) wait for its result.
    with open(key + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(key + ".json"):
            out = _run(ziosim, path)
            with open(key + ".tmp", "w") as f:
                f.write(out)
            os.replace(key + ".tmp", key + ".json")
    with open(key + ".json") as f:
        return json.load(f)


def _run(ziosim, path):
    p = subprocess.run([ziosim, "run", path, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("{} run {} failed (exit {})".format(ziosim, path, p.returncode))
    return p.stdout
