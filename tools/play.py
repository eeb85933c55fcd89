"""Start playing: `python3 -m tools.play [--sim] [sim options]`.

With a board attached (a CIRCUITPY drive or a USB serial port), the game is deployed to
it and starts there; otherwise the simulator runs the same firmware in a window. Sets
up .venv on first use (tools.bootstrap), then runs itself inside it.
"""
import os
import sys

from tools import bootstrap


def _in_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(bootstrap.VENV)


def main(argv):
    if not _in_venv():
        python = bootstrap.venv()
        os.execv(python, [python, "-m", "tools.play"] + argv)
    force_sim = "--sim" in argv
    argv = [a for a in argv if a != "--sim"]
    if not force_sim:
        from tools.deploy import discover
        if discover.circuitpy_drives() or discover.board_ports():
            from tools.deploy import cli
            rc = cli.main(argv)
            if rc == 0:
                print("The game is on the board: it restarts by itself and shows the title screen.")
            return rc
        print("No board attached: starting the simulator (arrow keys move, Enter plays, Esc is the menu).")
    from tools import sim
    return sim.main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
