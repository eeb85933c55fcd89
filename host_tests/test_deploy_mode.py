"""Deploy mode: firmware/boot.py's one-shot flag in the nvm, boot.py and code.py at power-up,
and the deploy tool's board-side snippets on a real MicroPython VM."""

import sys
import types
import zlib
from pathlib import Path

import pytest

import cpcheck
import mpvm
from deploy_fakes import boot_py
from tools.deploy.serialboard import PRELUDE, RESET, checksum, write_snippets
from tools.flashnvm import FlashNVM, PowerCut

ROOT = Path(__file__).resolve().parent.parent
BOOT_PY = ROOT / "firmware" / "boot.py"
AREA = 64


def flag_area(nvm):
    return bytes(nvm.data[-AREA:])


def with_save_data(nvm):
    """The save store's bytes (everything before the flag area): they must never change."""
    nvm[0:len(nvm) - AREA] = bytes(i * 7 % 251 for i in range(len(nvm) - AREA))
    nvm.erases = nvm.page_programs = 0
    return bytes(nvm.data[:-AREA])


# ---------------------------------------------------------------- the flag protocol

def test_arming_and_spending_program_fresh_bytes_without_an_erase():
    b, nvm = boot_py(), FlashNVM()
    save = with_save_data(nvm)
    assert b["marks"](nvm) == 0 and not b["spend"](nvm)
    b["arm"](nvm)
    b["arm"](nvm)                                   # armed twice is armed once
    assert b["marks"](nvm) == 1
    assert b["spend"](nvm) and not b["spend"](nvm)   # one writable boot, then normal ones
    assert nvm.erases == 0 and flag_area(nvm) == b"\x66\x66" + b"\xff" * 62
    assert bytes(nvm.data[:-AREA]) == save


def test_thirty_two_deploys_per_erase_and_the_save_store_is_kept():
    b, nvm = boot_py(), FlashNVM()
    save = with_save_data(nvm)
    erases = []
    for _deploy in range(100):
        b["arm"](nvm)
        assert b["spend"](nvm)
        erases.append(nvm.erases)
    # the area holds 32 deploys; the 33rd, 65th and 97th arm erase it once each
    assert erases[31] == 0 and erases[32] == 1 and erases[64] == 2 and erases[96] == 3 and erases[99] == 3
    assert bytes(nvm.data[:-AREA]) == save
    print("\ndeploy flag: {} erases in 100 deploys ({} deploys per erase)".format(nvm.erases, AREA // 2))


@pytest.mark.parametrize("area", [
    b"\x00" * AREA,                                  # foreign bytes
    b"\x66\x00" + b"\xff" * 62,                      # a torn or foreign byte after a mark
    b"\xff" * 10 + b"\x66" + b"\xff" * 53,           # a mark after a free byte
    b"\x66\x66\x66\x66\x12" + b"\xff" * 59,
], ids=["zeros", "torn", "gap", "junk"])
def test_a_corrupt_flag_area_is_a_normal_boot_and_the_next_arm_repairs_it(area):
    b, nvm = boot_py(), FlashNVM()
    nvm[len(nvm) - AREA:] = area
    nvm.erases = 0
    assert b["marks"](nvm) == -1 and not b["spend"](nvm)
    assert flag_area(nvm) == area and nvm.erases == 0       # a normal boot writes nothing
    b["arm"](nvm)
    assert nvm.erases == 1 and b["marks"](nvm) == 1 and b["spend"](nvm)


def deploy_mode_boots(b, nvm, boots=3):
    return sum(1 for _ in range(boots) if b["spend"](nvm))


@pytest.mark.parametrize("used", [0, 2, 30, 62, 64], ids=lambda used: "{} marks".format(used))
def test_a_power_cut_while_arming_never_leaves_the_board_in_deploy_mode(used):
    """Cut the power after (a sample of) every number of bytes arm() programs: the boots
    that follow give at most one writable boot, then only normal ones. With room left
    arm() programs one byte; a full area takes the erase path (the whole sector)."""
    b = boot_py()
    area = b"\x66" * used + b"\xff" * (AREA - used)
    cuts = [0, 1] if used < AREA else sorted(set(range(0, 4097, 61)) | set(range(4028, 4040)))
    for cut in cuts:
        nvm = FlashNVM()
        save = with_save_data(nvm)
        nvm[len(nvm) - AREA:] = area
        nvm.arm_cut(cut)
        try:
            b["arm"](nvm)
            nvm.cut_in = None                       # arm() finished before the cut
        except PowerCut:
            pass
        assert deploy_mode_boots(b, nvm) <= 1, cut
        assert deploy_mode_boots(b, nvm) == 0, cut
        if used < AREA:
            assert bytes(nvm.data[:-AREA]) == save      # no erase on this path: the save store is safe


def test_a_power_cut_while_spending_boots_normally():
    b, nvm = boot_py(), FlashNVM()
    b["arm"](nvm)
    nvm.arm_cut(0)                                   # the spending byte never lands
    with pytest.raises(PowerCut):
        b["spend"](nvm)
    # boot.py spends before it remounts, so this boot never got as far as the remount; the
    # next boot is the (one) deploy-mode boot, then normal ones
    assert deploy_mode_boots(b, nvm) == 1


# ---------------------------------------------------------------- boot.py and code.py at power-up

class Storage:
    def __init__(self, nvm, b, refuse=False):
        self.nvm, self.b, self.refuse = nvm, b, refuse
        self.remounts = []

    def remount(self, path, readonly=False):
        # the flag must already be spent when the drive opens
        self.remounts.append((path, readonly, self.b["marks"](self.nvm) % 2))
        if self.refuse:
            raise RuntimeError("Cannot remount path when visible via USB.")


def run_boot_py(monkeypatch, nvm, refuse=False):
    b = boot_py()
    storage = Storage(nvm, b, refuse)
    monkeypatch.setitem(sys.modules, "microcontroller", types.SimpleNamespace(nvm=nvm))
    monkeypatch.setitem(sys.modules, "storage", storage)
    exec(compile(BOOT_PY.read_text(), "boot.py", "exec"), {"__name__": "__main__"})
    return storage.remounts


def test_boot_py_spends_the_flag_then_opens_the_drive_for_one_boot(monkeypatch):
    nvm = FlashNVM()
    assert run_boot_py(monkeypatch, nvm) == []
    boot_py()["arm"](nvm)
    assert run_boot_py(monkeypatch, nvm) == [("/", False, 0)]
    assert run_boot_py(monkeypatch, nvm) == []


def test_boot_py_never_crashes(monkeypatch):
    assert run_boot_py(monkeypatch, None) == []                         # a board without nvm
    nvm = FlashNVM()
    boot_py()["arm"](nvm)
    assert run_boot_py(monkeypatch, nvm, refuse=True) == [("/", False, 0)]   # remount refused: a normal boot
    assert run_boot_py(monkeypatch, nvm) == []


def run_code_py(monkeypatch, readonly, sleep, forgotten=None):
    """firmware/code.py with every board module faked; returns what it printed and whether the app ran.
    `forgotten`: a list that gets what sixtysix.forget was given and, once the app runs,
    the names code.py holds then."""
    ran = []
    printed = []
    monkeypatch.setitem(sys.modules, "storage", types.SimpleNamespace(
        getmount=lambda path: types.SimpleNamespace(readonly=readonly)))
    monkeypatch.setitem(sys.modules, "microcontroller", types.SimpleNamespace(nvm=bytearray(4096)))
    monkeypatch.setitem(sys.modules, "supervisor", types.SimpleNamespace(
        status_bar=types.SimpleNamespace(display=True)))
    display = types.SimpleNamespace(refresh=lambda: None, width=240, height=135, auto_refresh=False)
    profile = types.SimpleNamespace(display=lambda: display,
                                    keys=lambda: types.SimpleNamespace(events=None), BUTTONS=())
    monkeypatch.setitem(sys.modules, "profiles", types.SimpleNamespace(
        load=lambda name: profile, power=lambda profile, display, keys: None,
        sound=lambda profile: None))
    ui = types.ModuleType("sixtysix.core.ui")          # the splash: no font file on a PC
    ui.load_font = lambda path: None
    ui.backdrop = lambda width, height, title: title
    restart = types.ModuleType("sixtysix.restart")    # a start, not a restart after an error
    restart.RESUME = 1
    restart.memory = lambda: None
    restart.spend = lambda memory: 0
    core = types.ModuleType("sixtysix.core")
    core.ui = ui
    package = types.ModuleType("sixtysix")
    package.core = core
    package.restart = restart
    package.forget = lambda *names: None if forgotten is None else forgotten.append(names)
    monkeypatch.setitem(sys.modules, "sixtysix", package)
    monkeypatch.setitem(sys.modules, "sixtysix.core", core)
    monkeypatch.setitem(sys.modules, "sixtysix.core.ui", ui)
    monkeypatch.setitem(sys.modules, "sixtysix.restart", restart)
    monkeypatch.setitem(sys.modules, "board", types.SimpleNamespace())     # no built-in display
    app = types.ModuleType("sixtysix.app")
    app.App = lambda *args, **kwargs: types.SimpleNamespace(
        run=lambda sleep: ran.append(True) if forgotten is None else forgotten.append(set(namespace)))
    monkeypatch.setitem(sys.modules, "sixtysix.app", app)
    monkeypatch.setitem(sys.modules, "time", types.SimpleNamespace(sleep=sleep, monotonic=lambda: 0.0))
    code = (ROOT / "firmware" / "code.py").read_text()
    namespace = {"__name__": "__main__", "print": lambda *a: printed.append(" ".join(map(str, a)))}
    try:
        exec(compile(code, "code.py", "exec"), namespace)
    except KeyboardInterrupt:
        printed.append("^C")
    return printed, bool(ran)


def test_code_py_in_deploy_mode_waits_for_the_tool(monkeypatch):
    def ctrl_c(seconds):
        raise KeyboardInterrupt

    assert run_code_py(monkeypatch, readonly=False, sleep=ctrl_c) == (["Deploying...", "^C"], False)
    # the tool never came: after the wait the game starts as usual
    assert run_code_py(monkeypatch, readonly=False, sleep=lambda s: None) == (["Deploying..."], True)
    assert run_code_py(monkeypatch, readonly=True, sleep=ctrl_c) == ([], True)


# ---------------------------------------------------------------- the tool's snippets on the board

def test_code_py_lets_the_error_screen_leave_the_heap_while_the_game_plays(monkeypatch):
    """sixtysix.restart (the error screen, 1 KB resident on the real firmware) is forgotten
    once read at power-on, and code.py keeps no name of it while the game plays: a name
    alone would keep the module in the heap."""
    forgotten = []
    run_code_py(monkeypatch, readonly=True, sleep=lambda s: None, forgotten=forgotten)
    assert ("sixtysix", "restart") in forgotten
    names = forgotten[-1]
    assert "App" in names and "restart" not in names


def test_the_board_snippets_use_only_circuitpython_apis(tmp_path):
    snippets = [PRELUDE, RESET, "_survey([('/code.py', 10)],['/lib'])", "_read('/settings.toml')", "_space()",
                "_deploy_mode(True)", "_remount(False)", "_close()"]
    snippets += write_snippets("/assets/cards.bmp", bytes(range(256)) * 20, True)
    (tmp_path / "firmware").mkdir()
    (tmp_path / "firmware" / "deploy_snippets.py").write_text("\n".join(snippets))
    assert cpcheck.check(cpcheck.targets(tmp_path)) == []


def test_write_snippets_spell_each_piece_the_shorter_way():
    text, binary = b"def f():\n    return 1\n" * 10, bytes(range(256)) * 20
    assert write_snippets("/a.py", text, True) == ["_open('/a.py')\n_f.write({!r})\n_f.close()\n".format(text)]
    pieces = write_snippets("/b.bmp", binary, True)
    assert len(pieces) == 2 and all("_f.write(_a(b'" in piece for piece in pieces)
    assert pieces[0].startswith("_open('/b.bmp')") and pieces[1].endswith("_f.close()\n")
    assert "_a(" not in "".join(write_snippets("/b.bmp", binary, False))      # no binascii on the board
    assert write_snippets("/empty", b"", True) == ["_open('/empty')\n_f.close()\n"]


# ---------------------------------------------------------------- on a real MicroPython VM

def test_boot_py_and_the_board_snippets_run_on_micropython():
    mpvm.check_installed()
    data = bytes(range(256)) * 9 + b"tail"
    script = PRELUDE + """
import boot
nvm = bytearray(b'\\xff' * 4096)
got = []
for deploy in range(40):
    boot.arm(nvm)
    got.append(boot.spend(nvm))
print(repr(('boot', got.count(True), boot.marks(nvm), bytes(nvm[-64:-50]))))
with open('/data.bin', 'wb') as f:
    f.write({data!r})
for name in ('sha256', 'crc32', 'adler32'):
    try:
        _S = name
        print(repr((name, _sum('/data.bin'))))
    except ImportError:
        print(repr((name, None)))
""".format(data=data)
    lines = [eval(line) for line in mpvm.run(script, packages=(BOOT_PY,)).splitlines() if line.startswith("(")]
    results = dict((line[0], line[1:]) for line in lines)
    assert results["boot"] == (40, 16, b"\x66" * 14)     # 40 deploys: one erase at the 33rd, 8 more since
    for name in ("sha256", "crc32", "adler32"):
        if results[name][0] is not None:
            assert results[name][0] == checksum(name, data), name
    assert results["adler32"][0] == zlib.adler32(data)
