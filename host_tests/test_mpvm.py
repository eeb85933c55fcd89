"""The MicroPython VM harness (host_tests/mpvm.py) does what the other tests rely on."""
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpvm  # noqa: E402
from tools.deploy import mpy  # noqa: E402


def test_runs_code_in_micropython_and_returns_stdout():
    out = mpvm.run("import sys\nprint(sys.implementation.name, 6 * 7)", packages=())
    assert out == "micropython 42\n"


def test_steps_share_globals():
    out = mpvm.run(["x = 20", "def f():\n    return x + 1", "print(f() * 2)"], packages=())
    assert out == "42\n"


def test_exception_becomes_error_with_traceback_and_earlier_output():
    with pytest.raises(mpvm.MPVMError) as info:
        mpvm.run(["print('before')", "def f():\n    raise ValueError('bad card 99')\nf()", "print('after')"],
                 packages=())
    err = info.value
    assert err.reason == "raised"
    assert "ValueError: bad card 99" in str(err)
    assert 'File "<step>", line 2, in f' in err.traceback
    assert "in step 1 of 3" in str(err)
    assert err.stdout == "before\n"  # the step after the failing one never ran


def test_many_steps_leak_nothing():
    # A file name per step used to intern ~28 bytes a step; a one-off 32 bytes remains.
    steps = ["import gc\nmarks = [0, 0]", "marks[0] = gc.mem_alloc()"] + ["x = 1"] * 300
    steps += ["marks[1] = gc.mem_alloc()", "print(marks[1] - marks[0])"]
    assert int(mpvm.run(steps, packages=())) <= 32


def test_timeout_kills_the_vm():
    with pytest.raises(mpvm.MPVMError) as info:
        mpvm.run("print('spinning')\nwhile True:\n    pass", packages=(), timeout=6)  # (a loaded machine: the VM starts slowly)
    assert info.value.reason == "timeout"
    assert info.value.stdout == "spinning\n"


ALLOCATE_80K = textwrap.dedent("""
    try:
        block = bytearray(80000)
        print("allocated", len(block))
    except MemoryError:
        print("MemoryError")
""")


def test_heap_cap_makes_a_too_large_allocation_fail():
    assert mpvm.run(ALLOCATE_80K, packages=(), heap_cap=64 * 1024) == "MemoryError\n"
    assert mpvm.run(ALLOCATE_80K, packages=()) == "allocated 80000\n"
    assert mpvm.run("b = bytearray(40000)\nprint(len(b))", packages=(), heap_cap=64 * 1024) == "40000\n"


def test_uncaught_memory_error_is_reported_not_hung():
    with pytest.raises(mpvm.MPVMError) as info:
        mpvm.run("keep = []\nwhile True:\n    keep.append(bytearray(100))", packages=(), heap_cap=64 * 1024, timeout=30)
    assert info.value.reason == "raised"
    assert "MemoryError" in info.value.traceback


def test_garbage_is_reclaimed_between_steps_only():
    churn = "for i in range(100):\n    b = bytearray(1000)"  # 100 KB of garbage, 1 KB live
    with pytest.raises(mpvm.MPVMError, match="MemoryError"):
        mpvm.run(churn, packages=(), heap_cap=64 * 1024)
    stepped = ["b = bytearray(1000)"] * 100 + ["print('ok')"]
    assert mpvm.run(stepped, packages=(), heap_cap=64 * 1024) == "ok\n"


def test_small_pystack_limits_recursion():
    deep = "def f(n):\n    return n if n == 0 else f(n - 1)\nprint(f(100))"
    assert mpvm.run(deep, packages=()) == "0\n"
    with pytest.raises(mpvm.MPVMError, match="pystack exhausted"):
        mpvm.run(deep, packages=(), pystack_bytes=1024)


@pytest.fixture
def toy_package(tmp_path):
    pkg = tmp_path / "toy"
    (pkg / "inner").mkdir(parents=True)
    (pkg / "__init__.py").write_text("NAME = 'toy'\n")
    (pkg / "inner" / "__init__.py").write_text("")
    (pkg / "inner" / "deep.py").write_text("def twice(x):\n    return 2 * x\n")
    (pkg / "__pycache__").mkdir()
    (pkg / "__pycache__" / "junk.pyc").write_bytes(b"\0not python")
    single = tmp_path / "lone.py"
    single.write_text("VALUE = 7\n")
    return pkg, single


def test_packages_and_single_modules_are_importable(toy_package):
    pkg, single = toy_package
    code = textwrap.dedent("""
        import os, toy, lone
        from toy.inner import deep
        print(toy.NAME, deep.twice(lone.VALUE), deep.__file__)
        print(sorted(os.listdir("/lib/toy")))
    """)
    out = mpvm.run(code, packages=(pkg, single))
    assert out.splitlines() == ["toy 14 /lib/toy/inner/deep.mpy", "['__init__.mpy', 'inner']"]
    out = mpvm.run(code, packages=(pkg, single), compiled=False)
    assert out.splitlines() == ["toy 14 /lib/toy/inner/deep.py", "['__init__.py', 'inner']"]


def test_a_package_runs_as_the_bytes_the_board_gets(toy_package):
    """The VM loads the deploy's .mpy of each module, with MicroPython's "M" for the
    board's "C"; a traceback names the module and function as the board's does."""
    pkg, _single = toy_package
    (pkg / "inner" / "deep.py").write_text('"""Doc."""\ndef twice(x):\n    return 2 * x\n\ndef fail():\n'
                                           '    raise ValueError("no")\n')
    board = mpy.compile_source((pkg / "inner" / "deep.py").read_bytes(), "toy/inner/deep.py", mpy.program())
    code = textwrap.dedent("""
        from toy.inner import deep
        print(open(deep.__file__, "rb").read().hex())
        print(deep.__doc__ if hasattr(deep, "__doc__") else None)
        deep.fail()
    """)
    with pytest.raises(mpvm.MPVMError) as info:
        mpvm.run(code, packages=(pkg,))
    loaded, doc = info.value.stdout.splitlines()
    assert board[:1] == b"C" and bytes.fromhex(loaded) == b"M" + board[1:]
    assert doc == "None"
    assert 'File "toy.inner.deep", line 1, in fail' in info.value.traceback   # -O3: no line numbers


def test_run_json_decodes_one_row_per_line():
    code = "import json\nfor n in range(3):\n    print(json.dumps({'n': n, 'sq': n * n}))"
    assert mpvm.run_json(code, packages=()) == [{"n": 0, "sq": 0}, {"n": 1, "sq": 1}, {"n": 2, "sq": 4}]
    with pytest.raises(mpvm.MPVMError, match="not JSON"):
        mpvm.run_json("print('hello')", packages=())


def test_probe_measures_allocation():
    code = textwrap.dedent("""
        import mpvm_probe
        print(mpvm_probe.alloc(lambda: None)[0])
        print(mpvm_probe.alloc(bytearray, 1000)[0])
    """)
    nothing, kilobyte = (int(n) for n in mpvm.run(code, packages=()).split())
    assert nothing == 0
    assert 1000 <= kilobyte <= 1100


def test_import_footprint_counts_what_a_module_keeps(tmp_path):
    (tmp_path / "empty.py").write_text("")
    (tmp_path / "table.py").write_text("TABLE = bytearray(3000)\n")
    empty = mpvm.import_footprint("empty", packages=(tmp_path / "empty.py",))
    table = mpvm.import_footprint("table", packages=(tmp_path / "table.py",))
    assert empty["resident"] < 200
    assert 3000 <= table["resident"] - empty["resident"] < 3600
    assert table["allocated"] >= table["resident"] - empty["resident"]


def test_missing_vm_package_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setattr(mpvm, "MODULE_JS", tmp_path / "missing.mjs")
    with pytest.raises(mpvm.MPVMUnavailable, match="npm ci --prefix host_tests/vm"):
        mpvm.run("pass", packages=())
