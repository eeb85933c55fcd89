"""Run Python code inside a real MicroPython VM (MicroPython 1.27, WebAssembly, in Node.js).

CPython forgives things the board does not (missing modules, big allocations), so tests run
the board's dependency-free packages (shared_rules/) in this VM as well.

Setup (once per checkout; Node.js 20+):  npm ci --prefix host_tests/vm

    out = mpvm.run("import shared_rules.cards as c; print(c.name(0))")
    rows = mpvm.run_json(SCRIPT)          # many scenarios in one VM start, one JSON line each
    mpvm.run(["setup()", "step()", "step()"], heap_cap=150 * 1024)

`code` is one string or a list of strings ("steps"). Steps share globals; a plain name such
as "shared_rules" is a directory of the repo, copied to /lib/shared_rules/ in the VM, and a
Path may name any package directory or single .py module. Every run also gets
/lib/mpvm_probe.py (host_tests/vm/mpvm_probe.py). A VM start costs about 0.1-0.2 s, so put
many scenarios in one run rather than one run each.

A package directory's modules go in compiled, as the board gets them: each .py becomes
the .mpy that tools.deploy writes (tools/deploy/mpy.py), but for its first byte, left "M"
(MicroPython's; the board's is "C"), since this VM refuses "C". So the VM runs the board's
bytecode, and no compile garbage lands on its heap. compiled=False copies the .py sources
instead (to measure what compiling costs). A single module (a stand-in, a helper, boot.py,
which the board keeps as source) is always copied as source.

What the VM does differently from the board (measured here):

- Garbage is only reclaimed BETWEEN steps. Inside a step gc.collect() merely marks a
  collection as pending and the heap grows instead; the harness collects after every
  step. So a step's peak = live data + every byte it allocated, garbage included: an upper
  bound on what the board (which collects when it runs out) needs for the same work.
- heap_cap fixes the GC heap at heap_cap bytes (its block tables take ~2.4% of that; the
  harness keeps ~1.3 KB live). An allocation that does not fit raises MemoryError. Model
  the board by splitting long work into steps (e.g. one move per step). After a MemoryError
  is caught, dropping references frees nothing until the step ends, so even printing may
  fail: record the fact and print it in the next step.
- gc.mem_free() is meaningless here (it counts ~128 MB of room to grow, even with a cap).
  gc.mem_alloc() is exact (16-byte blocks).
- No time.monotonic (use time.ticks_ms); floats are doubles (the RP2040 has single).
- The Python stack defaults to 8 KB (pystack=2048 words); pass pystack_bytes to match
  the board's CIRCUITPY_PYSTACK_SIZE when checking recursion depth.

Measuring allocation (plain MicroPython; also runs on the board):

    import mpvm_probe
    nbytes, result = mpvm_probe.alloc(fn, arg)   # bytes allocated by fn(arg), garbage included

Resident size of an import needs steps, since only a step boundary collects:
import_footprint("shared_rules.deal") does that and returns {"resident": bytes kept after
a collection, "allocated": bytes allocated while importing (compiler garbage included)}.
Measured: an empty module keeps 48 bytes; shared_rules.match (with what it imports) ~23 KB.
"""
import json
import shutil
import subprocess
import tempfile
import time
from functools import lru_cache
from pathlib import Path

from tools.deploy import manifest, mpy

REPO = Path(__file__).resolve().parent.parent
VM_DIR = REPO / "host_tests" / "vm"
RUNNER = VM_DIR / "run.mjs"
PROBE = VM_DIR / "mpvm_probe.py"
MODULE_JS = VM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
MIN_NODE = 20
INSTALL = "run `npm ci --prefix host_tests/vm` from the repo root (needs Node.js %d+ and npm)" % MIN_NODE

RAISED = 3  # run.mjs exit code when the Python code raised


class MPVMUnavailable(RuntimeError):
    """Node.js or the VM package is missing: a setup problem, not a test result."""


class MPVMError(Exception):
    """The Python code raised, the run timed out, or the VM itself failed.

    reason: "raised", "timeout" or "vm"; traceback: the MicroPython traceback (raised);
    stdout: what the code printed before that.
    """

    def __init__(self, reason, message, stdout="", traceback=""):
        super().__init__(message)
        self.reason = reason
        self.stdout = stdout
        self.traceback = traceback


@lru_cache(maxsize=None)
def _node():
    node = shutil.which("node")
    if node is None:
        raise MPVMUnavailable("node not found on PATH; install Node.js %d+, then %s" % (MIN_NODE, INSTALL))
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    if int(version.lstrip("v").split(".")[0]) < MIN_NODE:
        raise MPVMUnavailable("Node.js %s is too old; need %d+" % (version, MIN_NODE))
    return node


def check_installed():
    """Raise MPVMUnavailable with the fix if the VM cannot start here."""
    _node()
    if not MODULE_JS.is_file():
        raise MPVMUnavailable("MicroPython VM package missing (%s); %s" % (MODULE_JS, INSTALL))


@lru_cache(maxsize=None)
def _compiled(source, name):
    """The VM's .mpy of a module: the board's bytes with MicroPython's first byte."""
    return b"M" + mpy.compile_source(source, name, mpy.program())[1:]


def _compile_package(path, into, name):
    """Copy package directory `path` to `into`, each .py as its .mpy (`name`: its import
    path), but a package's __init__.py that is words alone (as the deploy leaves it)."""
    into.mkdir(parents=True)
    for item in sorted(path.iterdir()):
        if item.is_dir():
            if item.name != "__pycache__":
                _compile_package(item, into / item.name, name + "/" + item.name)
        elif item.suffix == ".py":
            if not (item.name == "__init__.py" and manifest.only_words(item.read_bytes())):
                (into / (item.stem + ".mpy")).write_bytes(_compiled(item.read_bytes(), name + "/" + item.name))
        else:
            shutil.copyfile(item, into / item.name)


def _package_entry(package, staging=None):
    """[name, host path] for run.mjs; a package directory with modules is compiled into
    `staging` when one is given."""
    path = Path(package) if isinstance(package, Path) else REPO / package
    if not path.exists():
        raise FileNotFoundError("package for the VM not found: %s" % path)
    if path.is_file():
        return [path.stem, str(path.resolve())]
    if staging is not None and any(path.rglob("*.py")):
        _compile_package(path, staging / path.name, path.name)
        path = staging / path.name
    return [path.name, str(path.resolve())]


def _clean_traceback(text):
    # Drop the harness's own frame; user code shows as File "<step>".
    return "\n".join(line for line in text.splitlines() if 'File "<stdin>"' not in line)


def _vm_message(stderr):
    own = [line for line in stderr.splitlines() if line.startswith("run.mjs:")]
    if own:
        return "\n".join(own)
    noise = ("growMemory:", "Failed to grow the heap")
    lines = [line for line in stderr.splitlines() if line.strip() and not line.startswith(noise)]
    return "\n".join(line[:300] for line in lines[-20:]) or "no message"


def run(code, packages=("shared_rules",), timeout=60, heap_cap=None, heapsize=None, pystack_bytes=None,
        compiled=True):
    """Run code (a string, or a list of step strings) in a fresh VM; return its stdout.

    packages: repo dir names or Paths, their modules compiled unless compiled=False (see
    the module doc). heap_cap: bytes, at least 32 KB (see above). heapsize: the first
    heap area when uncapped (default 1 MiB; it grows anyway). pystack_bytes: Python
    stack size (default 8 KB).

    Raises MPVMError if the code raised (later steps are skipped), the run took longer
    than timeout seconds (Node is killed), or the VM failed; MPVMUnavailable if the VM is
    not installed.
    """
    check_installed()
    steps = [code] if isinstance(code, str) else list(code)
    with tempfile.TemporaryDirectory(prefix="mpvm-") as tmp:
        tmp = Path(tmp)
        entries = [["mpvm_probe", str(PROBE)]] + [_package_entry(p, tmp / "compiled" / str(i) if compiled else None)
                                                 for i, p in enumerate(packages)]
        spec = {
            "packages": entries,
            "steps": steps,
            "heap_cap": heap_cap,
            "heapsize": heapsize,
            "pystack": None if pystack_bytes is None else pystack_bytes // 4,
            "traceback": str(tmp / "traceback.json"),
        }
        (tmp / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
        # Files, not pipes: nothing can block, and a killed run still leaves its output.
        with open(tmp / "stdout", "wb") as out, open(tmp / "stderr", "wb") as err:
            proc = subprocess.Popen([_node(), str(RUNNER), str(tmp / "spec.json")],
                                    stdin=subprocess.DEVNULL, stdout=out, stderr=err)
            timed_out = False
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                proc.kill()
                proc.wait()
        stdout = (tmp / "stdout").read_bytes().decode("utf-8", "replace")
        stderr = (tmp / "stderr").read_bytes().decode("utf-8", "replace")
        if timed_out:
            raise MPVMError("timeout", "MicroPython run timed out after %ss (Node killed); output so far:\n%s"
                            % (timeout, stdout[-2000:]), stdout=stdout)
        if proc.returncode == RAISED:
            report = json.loads((tmp / "traceback.json").read_text(encoding="utf-8"))
            tb = _clean_traceback(report["traceback"])
            lines = tb.splitlines()
            shown = "\n".join(lines[:3] + ["  ..."] + lines[-30:]) if len(lines) > 40 else tb
            # A MemoryError on a full heap comes without frames: say which step it was.
            where = "step %d of %d, which begins %r" % (report["step"], len(steps), steps[report["step"]][:80])
            raise MPVMError("raised", "MicroPython code raised in %s:\n%s" % (where, shown),
                            stdout=stdout, traceback=tb)
        if proc.returncode != 0:
            raise MPVMError("vm", "MicroPython VM failed (exit %s): %s" % (proc.returncode, _vm_message(stderr)),
                            stdout=stdout)
        return stdout


def run_json(code, **kwargs):
    """run() and decode each non-empty stdout line as JSON (print(json.dumps(row)) in the VM)."""
    rows = []
    for line in run(code, **kwargs).splitlines():
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except ValueError:
            raise MPVMError("vm", "VM printed a line that is not JSON: %r" % line[:300]) from None
    return rows


def import_footprint(module, packages=("shared_rules",), **kwargs):
    """Bytes a fresh `import module` keeps (after a GC) and allocates (garbage included).

    The marks are read in steps of equal length, so each reading carries the same
    compile garbage of its own step and it cancels out.
    """
    out = run([
        "import gc\n_m = [0, 0, 0, 0]",
        "_m[0] = gc.mem_alloc()",
        "_m[1] = gc.mem_alloc(); import %s; _m[2] = gc.mem_alloc()" % module,
        "_m[3] = gc.mem_alloc()",
        "print(_m[3] - _m[0], _m[2] - _m[1])",
    ], packages=packages, **kwargs)
    resident, allocated = (int(n) for n in out.split())
    return {"resident": resident, "allocated": allocated}


def startup_seconds(repeat=3):
    """Best wall time of starting the VM and running `pass` (for benchmark reports)."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        run("pass", packages=())
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best
