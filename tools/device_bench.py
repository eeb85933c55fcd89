"""The device's own figures for `python -m tools.bench`: flash wear of the saves, the
share of time the main loop sleeps, and the cost of starting up.

- nvm_wear: whole matches of a rule set played through the unmodified firmware in the
  simulator (tools/sim.py), its nvm the flash stand-in with CircuitPython's semantics
  (tools/flashnvm.py); the human's seat is played by the Normal AI through the buttons.
- idle_share: App.run with the real clock while a screen waits for a key (the title,
  then the table on the player's turn): the share of wall time spent in sleep().
- boot_cost: in the MicroPython VM, what code.py does before and after the first screen
  (imports compiled from .py, the App and its title), scaled to the board by a
  reference loop (100,000 `s += 1` take 0.45 s on a 125 MHz RP2040; PLATFORM_NOTES).
"""
import time

from tools.sim import Sim, Driver, setup_paths

BOARD_REFERENCE_MS = 450        # 100,000 `s += 1` on the board
BOARD_SLOWER = 20               # the board runs CPython's work 5-20x slower: the worst case


def ai_human(deal, seat):
    """The human's seat played by the computer's Normal level (team games: team_greedy)."""
    from shared_rules import ai
    from shared_rules.ai import team_greedy
    from shared_rules.rules import TEAM_GAMES
    if deal.rules.game in TEAM_GAMES:
        return team_greedy.choose(deal.view(seat))
    return ai.make_player("normal", seed=len(deal.log)).choose(deal.view(seat))


def nvm_wear(game, matches):
    """(sector erases per deal, page programs per deal, deals) over `matches` whole
    matches of `game` (a Settings > Rules choice), one after another on one nvm."""
    from tools.flashnvm import FlashNVM
    setup_paths()
    from sixtysix.save.settings import CHOICES
    nvm = FlashNVM()
    sim = Sim("pico_display_pack", nvm=nvm, seed=1)
    sim.boot()
    sim.settle()
    settings = sim.app.device.settings
    settings.index[0] = CHOICES[0][2].index(game)
    settings.save(sim.app.device.store)
    erases, programs = nvm.erases, nvm.page_programs
    deals = 0
    for _ in range(matches):
        sim.press("ok")                         # New match (the title's first choice)
        match = sim.app.screen.match
        Driver(sim, ai_human).play_match(limit=20000)
        deals += match.deals
    return (nvm.erases - erases) / deals, (nvm.page_programs - programs) / deals, deals


def idle_share(seconds=2.0):
    """{screen: (share of wall time asleep, the same on the board if its steps took
    BOARD_SLOWER times as long, microseconds awake a pass, passes)} for the title and the
    table waiting for the player, App.run on the real clock."""
    sim = Sim("pico_display_pack", fake_clock=False, seed=3)
    out = {}

    class Done(Exception):
        pass

    def measure(name):
        app = sim.app
        asleep = [0.0, 0]
        start = time.perf_counter()

        def sleep(s):
            t = time.perf_counter()
            time.sleep(s)
            asleep[0] += time.perf_counter() - t
            asleep[1] += 1
            if t - start > seconds:
                raise Done()

        try:
            app.run(sleep)
        except Done:
            pass
        wall = time.perf_counter() - start
        awake = wall - asleep[0]
        board = min(1.0, awake * BOARD_SLOWER / wall)
        out[name] = (asleep[0] / wall, 1.0 - board, awake / asleep[1] * 1e6, asleep[1])

    def settle():
        while not sim.idle():                   # real time: let the frames come
            sim.step()
            time.sleep(0.005)

    sim.boot()
    settle()
    measure("title")
    sim.press("ok", settle=False)               # New match: wait for the player's turn
    settle()
    measure("table")
    return out


BOOT = """
import time, gc
t0 = time.ticks_ms()
s = 0
for i in range(100000):
    s += 1
ref = time.ticks_ms() - t0
t0 = time.ticks_ms()
from sixtysix.app import App
t1 = time.ticks_ms()
app = App(Disp(), q, ("ok", "menu", "left", "right"), bytearray(b"\\xff" * 4096), clock,
          assets="/lib/assets", seed=7)
t2 = time.ticks_ms()
while app.device.warm:
    T[0] += 0.05
    app.step()
t3 = time.ticks_ms()
import sys
print(ref, t1 - t0, t2 - t1, t3 - t2, len([m for m in sys.modules if "." in m]))
"""


def boot_cost(source_dirs):
    """Milliseconds in the MicroPython VM and as estimated for the board: importing the
    app (code.py, after the splash), building the App with its title, and the imports
    done while the title loads before its menu (sixtysix.screens.loading); plus the modules loaded
    by then. `source_dirs`: the
    sixtysix and shared_rules directories to load (the repo's, or stripped copies)."""
    import tempfile
    from pathlib import Path
    import mpvm
    from test_firmware_memory import DISPLAYIO, VECTORIO, DEVICE
    from tools.screenbench import FAST_BITMAPTOOLS      # reads the sheets at C's pace
    assets = Path(__file__).resolve().parent.parent / "firmware" / "assets"
    with tempfile.TemporaryDirectory() as tmp:
        stubs = []
        for name, text in (("displayio.py", DISPLAYIO), ("vectorio.py", VECTORIO),
                           ("bitmaptools.py", FAST_BITMAPTOOLS)):
            (Path(tmp) / name).write_text(text)
            stubs.append(Path(tmp) / name)
        out = mpvm.run([DEVICE, BOOT], packages=tuple(stubs) + tuple(source_dirs) + (assets,),
                       timeout=120)
    ref, imports, title, warm, modules = (int(n) for n in out.split()[-5:])
    scale = BOARD_REFERENCE_MS / max(ref, 1)
    return {"vm_reference_ms": ref, "import_app_ms": imports, "app_and_title_ms": title,
            "title_loading_ms": warm, "modules_after_loading": modules,
            "board_first_screen_ms_est": round((imports + title) * scale),
            "board_title_loading_ms_est": round(warm * scale)}
