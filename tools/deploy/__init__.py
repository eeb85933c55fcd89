"""Deploy the game to a CircuitPython board: ``python -m tools.deploy [options]``.

One command takes a freshly soldered board from "plugged in" to "playing":

1. (``--uf2 FILE``) install CircuitPython on a board in bootloader mode (RPI-RP2 drive);
2. pick the board: ``--drive PATH`` / ``--port PORT``, else the one mounted CIRCUITPY drive,
   else the one USB serial port (reached through its raw REPL);
3. check it runs CircuitPython >= ``errors.MIN_CIRCUITPYTHON``; pick the board profile
   by its Board ID (each profile's BOARD_IDS) unless --profile or settings.toml say;
4. build the manifest (docs/LAYOUT.md, the game's modules compiled to .mpy when the
   board's CircuitPython loads them, libraries pinned in tools/board_libs.txt, the
   merged settings.toml), compare by size and checksum, check free space and that the
   board can be written (over serial: restart it in deploy mode, firmware/boot.py);
5. copy what differs with code.py replaced by a placeholder meanwhile, check every
   written file on the board, then write the real code.py last.

Modules: manifest (what goes where, profiles), mpy (the modules compiled to .mpy),
libraries (PyPI wheels -> /lib), target/drive/serialboard (the two ways to reach a
board), rawrepl (the REPL protocol over a serial port), discover (finding boards), uf2,
sync (plan/copy/verify), cli (options and messages), errors (messages and exit codes).

Exit codes (also in docs/DEPLOY.md):
  0    deployed, nothing to do, or dry run done
  2    bad option (unknown profile, unusable .uf2, no firmware/code.py)
  3    no board found (nothing mounted or plugged in; board only in bootloader mode)
  4    several boards found: choose with --drive or --port
  5    the board runs MicroPython, a CircuitPython older than 9.0, or unknown firmware
  6    not enough space on the board
  7    the board's filesystem is read-only to us (over serial: no game boot.py yet, drive not ejected)
  8    a copy failed mid-way: the board runs a placeholder; run again to resume
  9    files read back differ from what was written
  10   CircuitPython libraries unavailable (offline and not cached, or not pinned)
  11   the serial port is busy or not ours, or the board does not answer (or fails a command)
  12   the modules could not be compiled to .mpy (no compiler, a module does not compile, wrong format)
  130  interrupted (Ctrl-C); same state as 8
"""
