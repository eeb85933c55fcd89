"""Set up the host environment from scratch: the .venv, the MicroPython VM and the RP2040
emulator (npm).

Used by `tools.test` and `tools.play`; standard library only, so it runs on a fresh
Python 3.11. Each step is skipped when its inputs have not changed since the last run.
"""
import hashlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv")
VENV_PYTHON = os.path.join(VENV, "Scripts" if os.name == "nt" else "bin", "python")
REQUIREMENTS = os.path.join(ROOT, "requirements-dev.txt")
VM_DIR = os.path.join(ROOT, "host_tests", "vm")
EMU_DIR = os.path.join(ROOT, "tools", "emu")


def _digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _fresh(stamp, digest):
    try:
        with open(stamp) as f:
            return f.read() == digest
    except OSError:
        return False


def _run(cmd, what):
    print("setup: " + what, flush=True)
    if subprocess.call(cmd, cwd=ROOT) != 0:
        sys.exit("setup failed: " + what + " (" + " ".join(cmd) + ")")


def venv():
    """Create .venv and install requirements-dev.txt into it when they changed."""
    if not os.path.exists(VENV_PYTHON):
        _run([sys.executable, "-m", "venv", VENV], "creating .venv")
    stamp = os.path.join(VENV, ".requirements.sha256")
    digest = _digest(REQUIREMENTS)
    if not _fresh(stamp, digest):
        _run([VENV_PYTHON, "-m", "pip", "install", "-q", "--upgrade", "pip"], "upgrading pip")
        _run([VENV_PYTHON, "-m", "pip", "install", "-q", "-r", REQUIREMENTS], "installing Python packages")
        with open(stamp, "w") as f:
            f.write(digest)
    return VENV_PYTHON


def npm_folder(folder, what):
    """Install a folder's npm packages from its committed lock file when it changed."""
    lock = os.path.join(folder, "package-lock.json")
    stamp = os.path.join(folder, "node_modules", ".lock.sha256")
    digest = _digest(lock)
    if not _fresh(stamp, digest):
        npm = "npm.cmd" if os.name == "nt" else "npm"
        _run([npm, "ci", "--prefix", folder, "--no-audit", "--no-fund"], "installing " + what + " (npm)")
        with open(stamp, "w") as f:
            f.write(digest)


def micropython_vm():
    npm_folder(VM_DIR, "the MicroPython VM")


def emulator():
    """rp2040js for tools.emu (the real firmware in an RP2040 emulator)."""
    npm_folder(EMU_DIR, "the RP2040 emulator")


def all_():
    python = venv()
    micropython_vm()
    emulator()
    return python


if __name__ == "__main__":
    all_()
