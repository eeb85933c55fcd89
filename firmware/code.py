"""Sixty-Six on the board: pick the board profile, build the device seams, run the app.

settings.toml chooses the board: SIXTYSIX_PROFILE = "pico_display_pack". The
simulator (tools/sim.py) runs the same sixtysix package with PC stand-ins.

The order is for a fast, clean start: the display is built with auto_refresh off and
its first picture is the game's own splash (the title's felt and heading), so
CircuitPython's console never shows (except in deploy mode, where it says what is
happening); the app comes next and shows the title's art; the title then loads what its
choices need, one module a frame, before its menu comes (sixtysix.loading).
"""
import gc
import os
import time

import microcontroller
import storage
import supervisor

import profiles
from sixtysix import ui

try:
    supervisor.status_bar.display = False   # no status line on the screen, ever
except AttributeError:
    pass    # CircuitPython before 8.1
profile = profiles.load(os.getenv("SIXTYSIX_PROFILE"))
display = profile.display()
if not storage.getmount("/").readonly:
    # Deploy mode (boot.py): tools.deploy is about to stop this program over USB serial
    # and copy the game. The display shows the console until then; play if it never comes.
    display.auto_refresh = True
    print("Deploying...")
    time.sleep(30)
ui.load_font("/assets/font.bmp")
display.root_group = ui.backdrop(display.width, display.height, "Sixty-Six")
display.refresh()
display.auto_refresh = True
keys = profile.keys()
power = profiles.power(profile, display, keys)
sound = profiles.sound(profile)         # None on a board without a speaker
gc.collect()

from sixtysix.app import App  # noqa: E402  (after the display: its errors show on screen)

app = App(display, keys.events, profile.BUTTONS, microcontroller.nvm, time.monotonic,
          assets="/assets", think_clock=time.monotonic, show=display.refresh, power=power,
          board=profile, sound=sound,
          link=getattr(profile, "link", None), entropy=os.urandom)   # (a board without a link port: None)
gc.collect()
app.run(time.sleep)
