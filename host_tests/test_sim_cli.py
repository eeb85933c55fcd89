"""`python -m tools.sim` on bad input (issue 9): one clear line and a non-zero exit, never
a traceback; a keys file is checked whole before the device starts, and a screenshot is
never written outside --shots.

Most cases call tools.sim.main() in this process (SystemExit carries the line the command
prints); one runs the real command.
"""
import subprocess
import sys

import pytest

from tools import sim
from tools.sim import ROOT, setup_paths

setup_paths()
from profiles import PROFILES  # noqa: E402

CHOICES = ", ".join(PROFILES)


def fails(argv):
    """The one-line message main() exits with."""
    with pytest.raises(SystemExit) as e:
        sim.main(argv)
    message = e.value.code
    assert isinstance(message, str) and "\n" not in message and "Traceback" not in message
    return message


def keys(tmp_path, data):
    path = tmp_path / "keys.txt"
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize("text,line,words", [
    (b"ok\nup\n", 2, "the Pimoroni Pico Display Pack has no 'up' button (it has left, menu, ok, right)"),
    (b"ok\nhold down 300\n", 2, "has no 'down' button"),
    (b"ok\nright \xc2\xb2\n", 2, "cannot read 'right \u00b2'"),
    (b"# look\n\nshot ../../x\n", 3, "a shot is named by a plain file name, not '../../x'"),
    (b"shot sub/x\n", 1, "a shot is named by a plain file name"),
    (b"shot ..\n", 1, "a shot is named by a plain file name"),
])
def test_a_bad_line_is_named_before_the_device_starts(tmp_path, text, line, words):
    shots = tmp_path / "deep" / "shots"
    message = fails(["--headless", "--keys", keys(tmp_path, text), "--shots", str(shots),
                     "--save", "-"])
    assert message.startswith("keys file line %d: " % line) and words in message
    assert not (tmp_path / "deep").exists() and not (tmp_path / "x.png").exists()
    assert not (ROOT.parent / "x.png").exists()


def test_the_other_board_has_the_buttons(tmp_path):
    """The Waveshare board has up and down: the same keys file runs there."""
    assert sim.main(["--headless", "--profile", "waveshare_lcd_1in3", "--keys", keys(tmp_path, b"up\ndown\n"),
                     "--save", "-"]) == 0


def test_keys_files_that_cannot_be_read(tmp_path):
    missing = tmp_path / "nope.txt"
    assert fails(["--headless", "--keys", str(missing)]) == "cannot read keys file %s: No such file or directory" % missing
    assert fails(["--headless", "--keys", str(tmp_path)]).startswith("cannot read keys file %s: " % tmp_path)
    latin1 = keys(tmp_path, b"ok\n# caf\xe9\n")
    assert fails(["--headless", "--keys", latin1]) == \
        "keys file %s is not UTF-8 text (byte 0xe9 at offset 8)" % latin1
    bom = keys(tmp_path, b"\xef\xbb\xbfok\n")
    assert sim.main(["--headless", "--keys", bom, "--save", "-"]) == 0


def test_an_unknown_profile(tmp_path):
    for name in ("nosuch", "_st7789", "../profiles/pico_display_pack"):
        assert fails(["--headless", "--profile", name, "--keys", keys(tmp_path, b"ok\n")]) == \
            "unknown board profile %r; choose one of: %s" % (name, CHOICES)


def test_shots_where_they_cannot_be_written(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    message = fails(["--headless", "--keys", keys(tmp_path, b"shot x\n"), "--shots", str(blocker), "--save", "-"])
    assert message.startswith("keys file line 1: cannot write %s: " % (blocker / "x.png"))


def test_the_command_prints_one_line(tmp_path):
    out = subprocess.run([sys.executable, "-m", "tools.sim", "--headless", "--profile", "nosuch",
                          "--keys", keys(tmp_path, b"ok\n")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.splitlines() == [
        "unknown board profile 'nosuch'; choose one of: " + CHOICES]
