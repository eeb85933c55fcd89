"""The real CircuitPython firmware on an emulated RP2040 board (python -m tools.emu; docs/EMULATOR.md).

Node (rp2040js and this folder's .mjs files) runs the board; Python prepares the drive
(fat), maps the profile's pins (boards), turns a keys file into steps (__main__) and
reads the figures back (figures).
"""
