"""Where the scenario scripts find the ziosim command: $ZIOSIM, else this
repository's build/ziosim, else the one on PATH."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_ziosim():
    if os.environ.get("ZIOSIM"):
        return os.environ["ZIOSIM"]
    built = os.path.join(ROOT, "build", "ziosim")
    return built if os.access(built, os.X_OK) else "ziosim"
