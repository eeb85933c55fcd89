"""Sixty-Six on the board: pick the board profile, build the device seams, run the app.

settings.toml chooses the board: SIXTYSIX_PROFILE = "pico_display_pack". The
simulator (tools/sim.py) runs the same sixtysix package with PC stand-ins.

The order is for a fast, clean start: the display is built with auto_refresh off and
its first picture is the game's own splash (the title's felt and heading), so
CircuitPython's console never shows (except in deploy mode, where it says what is
happening; and on a board whose display CircuitPython built and drew its console on
before code.py runs, which goes straight to the title); the app's first refresh shows the title, menu
and all (a whole-screen refresh: cheaper than the title's many layers drawn one by one
over the splash, measured); the title then loads what its choices need in frames
without a key (sixtysix.screens.loading).

An error nothing else caught never ends the program: sixtysix.restart shows it and
restarts the board into the saved match.
"""
import gc
import os
import time

import board
import microcontroller
import storage
import supervisor

import profiles
from sixtysix.core import ui

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
if getattr(board, "DISPLAY", None) is None:
    # a display just built shows noise until its first refresh: the splash, at once (a
    # built-in one already shows the console; a splash over it would cost a whole
    # refresh, 240 ms on 320x240, to hide it 0.5 s sooner)
    display.root_group = ui.backdrop(display.width, display.height, "Sixty-Six")
    display.refresh()
keys = profile.keys()
power = profiles.power(profile, display, keys)
sound = profiles.sound(profile)         # None on a board without a speaker
gc.collect()

import sixtysix  # noqa: E402
from sixtysix import restart  # noqa: E402

memory = restart.memory()
why = restart.spend(memory)
resume = why == restart.RESUME
sixtysix.forget("sixtysix", "restart")    # (its heap while the game plays: an error brings it back)
del restart                                 # (this name alone kept it: 1 KB on the real firmware)
app = None
try:
    from sixtysix.app import App
    app = App(display, keys.events, profile.BUTTONS, microcontroller.nvm, time.monotonic,
              assets="/assets", think_clock=time.monotonic, show=display.refresh, power=power,
              board=profile, sound=sound, resume=resume,
              link=getattr(profile, "link", None), entropy=os.urandom)   # (a board without a link port: None)
    gc.collect()
    app.run(time.sleep)
except Exception as error:      # (not a Ctrl-C, a reload, a deep sleep: those end the program)
    pressed = app is not None and app.pressed
    # The heap for the message: the app and its screen (the display holds it) go (a
    # MemoryError with 320 B free, measured, left too little to import the message's
    # module)
    app = None
    display.root_group = None
    gc.collect()
    try:
        from sixtysix import restart
        restart.crashed(error, why, pressed, display, keys.events, memory, supervisor.reload,
                        time.sleep, time.monotonic)
    except MemoryError:
        supervisor.reload()     # no room even for the message: to the title at once
        while True:
            time.sleep(1)       # (the reload stops this program at once)
