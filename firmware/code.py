"""Sixty-Six on the board: pick the board profile, build the device seams, run the app.

settings.toml chooses the board: SIXTYSIX_PROFILE = "pico_display_pack". The
simulator (tools/sim.py) runs the same sixtysix package with PC stand-ins.
"""
import gc
import os
import time

import microcontroller
import storage

import profiles

profile = profiles.load(os.getenv("SIXTYSIX_PROFILE"))
display = profile.display()
if not storage.getmount("/").readonly:
    # Deploy mode (boot.py): tools.deploy is about to stop this program over USB serial
    # and copy the game. The display shows the console until then; play if it never comes.
    print("Deploying...")
    time.sleep(30)
keys = profile.keys()
gc.collect()

from sixtysix.app import App  # noqa: E402  (after the display: its errors show on screen)

app = App(display, keys.events, profile.BUTTONS, microcontroller.nvm, time.monotonic,
          assets="/assets", think_clock=time.monotonic, show=display.refresh)
gc.collect()
app.run()
