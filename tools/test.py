"""Run the whole test suite on a fresh machine: `python3 -m tools.test [pytest args]`.

Sets up .venv and the MicroPython VM first (tools.bootstrap), then runs pytest over
host_tests/ on both cores, one test file per worker at a time (the simulator has one
pygame window per process, which a file's tests share). Exits non-zero when any test
fails or none ran.
"""
import os
import subprocess
import sys

from tools import bootstrap


def main(argv):
    python = bootstrap.all_()
    cmd = [python, "-m", "pytest", "host_tests", "-n", "2", "--dist", "loadfile", "-q", "-p", "no:cacheprovider"] + argv
    print(" ".join(cmd), flush=True)
    rc = subprocess.call(cmd, cwd=bootstrap.ROOT, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    if rc == 5:
        print("no tests ran", file=sys.stderr)
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
