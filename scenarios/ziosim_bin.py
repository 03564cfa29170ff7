"""Where the scenario scripts find the ziosim command ($ZIOSIM, else this repository's
build/ziosim, else the one on PATH), and how they run a scenario file.

Set ZIOSIM_RUN_CACHE to a folder to keep each run's JSON there, keyed by the binary and the
file's bytes: scenarios/tables.py does, so that a file two tables show runs once."""
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


def run_json(ziosim, path):
    """`ziosim run PATH --json`, parsed; exits with the command's stderr if it fails."""
    cache = os.environ.get("ZIOSIM_RUN_CACHE")
    key = None
    if cache:
        binary = os.path.realpath(shutil.which(ziosim) or ziosim)
        digest = hashlib.sha256()
        for part in (binary, str(os.stat(binary).st_mtime_ns), os.path.realpath(path)):
            digest.update(part.encode() + b"\0")
        with open(path, "rb") as f:
            digest.update(f.read())
        key = os.path.join(cache, digest.hexdigest() + ".json")
        if os.path.exists(key):
            with open(key) as f:
                return json.load(f)
    p = subprocess.run([ziosim, "run", path, "--json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        raise SystemExit("{} run {} failed (exit {})".format(ziosim, path, p.returncode))
    if key:
        tmp = "{}.{}.tmp".format(key, os.getpid())
        with open(tmp, "w") as f:
            f.write(p.stdout)
        os.replace(tmp, key)  # atomic: blocks run at once may race to the same file
    return json.loads(p.stdout)

