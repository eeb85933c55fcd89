"""tools.deploy against a temporary folder standing in for a mounted CIRCUITPY drive."""

import errno
import os
from pathlib import Path

import pytest

from deploy_fakes import board_files, make_drive, make_repo, seed_cache
from tools.deploy import cli, discover, mpy
from tools.deploy.drive import DriveTarget
from tools.deploy.sync import PLACEHOLDER

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def setup(tmp_path):
    repo = make_repo(tmp_path / "repo")
    cache = seed_cache(tmp_path / "cache")
    drive = make_drive(tmp_path / "CIRCUITPY")
    return repo, cache, drive


def run(capsys, repo, cache, *args):
    code = cli.main(["--source", str(repo), "--lib-cache", str(cache)] + list(args))
    out, err = capsys.readouterr()
    return code, out, err


EXPECTED = {
    "/code.py", "/boot.py", "/settings.toml", "/assets/cards.bmp", "/lib/profiles/__init__.mpy",
    "/lib/sixtysix/__init__.mpy", "/lib/sixtysix/app.mpy", "/lib/sixtysix/screens/menu.mpy",
    "/lib/shared_rules/cards.mpy", "/lib/shared_rules/rules.mpy",
    "/lib/profiles/pico_display_pack.mpy", "/lib/profiles/waveshare_lcd_1in3.mpy",
    "/lib/adafruit_display_text/__init__.py", "/lib/adafruit_display_text/label.py",
    "/lib/adafruit_st7789.py", "/lib/adafruit_ticks.py",
}


def refused_on(drive, number):
    """Path.write_bytes failing with errno ``number`` for files on ``drive`` only."""
    real = Path.write_bytes

    def write_bytes(self, data):
        if Path(drive) in self.parents:
            raise OSError(number, os.strerror(number))
        return real(self, data)

    return write_bytes


def test_full_deploy_copies_the_layout_and_the_libraries(setup, capsys):
    repo, cache, drive = setup
    code, out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert (code, err) == (0, "")
    files = board_files(drive)
    assert set(files) == EXPECTED
    assert files["/code.py"] == (repo / "firmware/code.py").read_bytes()
    assert files["/lib/sixtysix/screens/menu.mpy"] == mpy.compile_source(
        (repo / "firmware/sixtysix/screens/menu.py").read_bytes(), "sixtysix/screens/menu.py", mpy.program())
    assert files["/settings.toml"] == b'SIXTYSIX_PROFILE = "pico_display_pack"\nCIRCUITPY_PYSTACK_SIZE = 4096\n'
    assert "16 written" in out and "every written file checked" in out and "Free space on the board" in out
    # boot.py is written first, code.py last
    written = [line.split()[1] for line in out.splitlines() if line.strip().startswith("wrote")]
    assert written[0] == "/boot.py" and written[-1] == "/code.py" and len(written) == 16


def test_incremental_deploy_copies_only_what_changed(setup, capsys):
    repo, cache, drive = setup
    run(capsys, repo, cache, "--drive", str(drive))
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 0 and "Nothing to copy: all 16 files on the board match" in out

    (repo / "shared_rules/cards.py").write_text("SUITS = 'HDCS'  # hearts first\n")
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive))
    written = [line.split()[1] for line in out.splitlines() if line.strip().startswith("wrote")]
    assert code == 0
    # the placeholder guarded the copy, so code.py is rewritten last even though it did not change
    assert written == ["/lib/shared_rules/cards.mpy", "/code.py"]
    assert b"HDCS" in board_files(drive)["/lib/shared_rules/cards.mpy"]
    assert board_files(drive)["/code.py"] == (repo / "firmware/code.py").read_bytes()


def test_a_file_corrupted_on_the_board_is_found_by_hash_and_replaced(setup, capsys):
    repo, cache, drive = setup
    run(capsys, repo, cache, "--drive", str(drive))
    target = drive / "lib/adafruit_ticks.py"
    data = bytearray(target.read_bytes())
    data[3] ^= 0x20  # same size, different content
    target.write_bytes(bytes(data))
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 0 and "/lib/adafruit_ticks.py" in out
    assert board_files(drive)["/lib/adafruit_ticks.py"] == b"from micropython import const\n"


def test_verification_catches_a_file_that_reads_back_wrong(setup, capsys, monkeypatch):
    repo, cache, drive = setup
    real_write = DriveTarget.write_file

    def bad_flash(self, path, data):
        if path == "/lib/sixtysix/app.mpy":
            data = data[:-1] + b"?"
        real_write(self, path, data)

    monkeypatch.setattr(DriveTarget, "write_file", bad_flash)
    code, out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 9
    assert "/lib/sixtysix/app.mpy: content differs (checksum)" in err
    assert "retry    /lib/sixtysix/app.mpy" in out  # rewritten once before giving up
    assert board_files(drive)["/code.py"] == PLACEHOLDER.data  # the half-verified game never boots


def test_disk_full_is_refused_before_anything_is_written(setup, capsys, monkeypatch):
    repo, cache, drive = setup
    monkeypatch.setattr(DriveTarget, "space", lambda self: (4 * 1024, 512))
    code, out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 6
    assert "Not enough space on the board: the deploy needs" in err and "4.0 KB is free" in err
    assert "Nothing was changed" in err
    assert set(board_files(drive)) == set()


def test_disk_full_midway_leaves_the_placeholder_then_resumes(setup, capsys, monkeypatch):
    repo, cache, drive = setup
    real_write = DriveTarget.write_file

    def fills_up(self, path, data):
        if path == "/lib/profiles/pico_display_pack.mpy":
            partial = drive / path.lstrip("/")  # a partial file, then the disk is full
            partial.parent.mkdir(parents=True, exist_ok=True)
            partial.write_bytes(data[:5])
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(self, path, data)

    monkeypatch.setattr(DriveTarget, "write_file", fills_up)
    code, _out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 6 and "ran out of space while copying" in err, err
    files = board_files(drive)
    assert files["/code.py"] == PLACEHOLDER.data
    assert "/lib/profiles/pico_display_pack.mpy" not in files  # the partial file was removed

    monkeypatch.setattr(DriveTarget, "write_file", real_write)
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive))
    written = [line.split()[1] for line in out.splitlines() if line.strip().startswith("wrote")]
    assert code == 0
    assert "/lib/adafruit_display_text/__init__.py" not in written  # copied by the first run: kept
    assert written[-1] == "/code.py" and "/lib/profiles/pico_display_pack.mpy" in written
    assert set(board_files(drive)) == EXPECTED


def test_copy_failure_midway_then_resume(setup, capsys, monkeypatch):
    repo, cache, drive = setup
    real_write = DriveTarget.write_file
    calls = []

    def unplugged(self, path, data):
        calls.append(path)
        if len(calls) == 5:
            raise OSError(errno.EIO, "Input/output error")
        real_write(self, path, data)

    monkeypatch.setattr(DriveTarget, "write_file", unplugged)
    code, _out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 8 and "Input/output error" in err and "run the same command again" in err
    assert board_files(drive)["/code.py"] == PLACEHOLDER.data
    monkeypatch.setattr(DriveTarget, "write_file", real_write)
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 0 and set(board_files(drive)) == EXPECTED
    assert board_files(drive)["/code.py"] == (repo / "firmware/code.py").read_bytes()


def test_read_only_drive(setup, capsys, monkeypatch):
    repo, cache, drive = setup
    monkeypatch.setattr("pathlib.Path.write_bytes", refused_on(drive, errno.EROFS))
    code, _out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 7 and "is read-only" in err and "storage.remount" in err


def test_dry_run_writes_nothing(setup, capsys):
    repo, cache, drive = setup
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive), "--dry-run")
    assert code == 0 and "Dry run: 16 to write" in out and "Nothing was written" in out
    assert "would write  /code.py" in out
    assert board_files(drive) == {}


def test_settings_are_merged_and_the_profile_is_kept(setup, capsys):
    repo, cache, drive = setup
    (drive / "settings.toml").write_text('CIRCUITPY_WIFI_SSID = "home"\nCIRCUITPY_WIFI_PASSWORD = "secret"\n')
    run(capsys, repo, cache, "--drive", str(drive), "--profile", "waveshare_lcd_1in3")
    assert (drive / "settings.toml").read_text() == (
        'CIRCUITPY_WIFI_SSID = "home"\nCIRCUITPY_WIFI_PASSWORD = "secret"\n'
        'SIXTYSIX_PROFILE = "waveshare_lcd_1in3"\nCIRCUITPY_PYSTACK_SIZE = 4096\n')
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive))  # no --profile: keep the board's choice
    assert code == 0 and "Profile: waveshare_lcd_1in3" in out and "Nothing to copy" in out


def test_unknown_profile_is_a_usage_error(setup, capsys):
    repo, cache, drive = setup
    code, _out, err = run(capsys, repo, cache, "--drive", str(drive), "--profile", "pico_dispaly_pack")
    assert code == 2 and "pico_display_pack, waveshare_lcd_1in3" in err


def test_stale_firmware_files_are_removed(setup, capsys):
    repo, cache, drive = setup
    run(capsys, repo, cache, "--drive", str(drive))
    (drive / "lib/sixtysix/old_screen.mpy").write_bytes(b"C\x06\x00\x1f")
    (drive / "lib/other_project.py").write_text("kept = True\n")
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 0 and "removed  /lib/sixtysix/old_screen.mpy" in out
    assert not (drive / "lib/sixtysix/old_screen.mpy").exists()
    assert (drive / "lib/other_project.py").exists()  # not ours: left alone


def test_a_board_with_the_flat_firmware_gets_the_packages(setup, capsys):
    """A board deployed before the firmware was in packages: its flat modules (menu.mpy
    beside app.mpy; a link.mpy where the link package now is) go, and each module comes in
    its package's folder (a module file and the package's folder would both answer
    `import sixtysix.link`)."""
    repo, cache, drive = setup
    lib = drive / "lib" / "sixtysix"
    lib.mkdir(parents=True)
    for name in ("__init__", "app", "menu", "link", "linkplay"):
        (lib / (name + ".mpy")).write_bytes(b"C\x06\x00\x1f")
    code, out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert (code, err) == (0, "")
    assert "removed  /lib/sixtysix/menu.mpy" in out and "removed  /lib/sixtysix/link.mpy" in out
    assert sorted(p.relative_to(lib).as_posix() for p in lib.rglob("*")) == [
        "__init__.mpy", "app.mpy", "screens", "screens/menu.mpy"]


def test_old_circuitpython_on_the_drive(setup, capsys):
    repo, cache, drive = setup
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 8.2.10 on 2024-02-14; Raspberry Pi Pico with rp2040\n")
    code, _out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 5 and "CircuitPython 8.2.10; the game needs 9.0 or newer" in err


def test_folder_without_boot_out_is_not_a_board(setup, capsys, tmp_path):
    repo, cache, _drive = setup
    code, _out, err = run(capsys, repo, cache, "--drive", str(make_drive(tmp_path / "USBSTICK", boot_out=None)))
    assert code == 3 and "has no boot_out.txt" in err


def test_auto_detection_picks_the_single_drive(setup, capsys, monkeypatch):
    repo, cache, drive = setup
    monkeypatch.setattr(discover, "mount_points", lambda: [str(drive.parent / "elsewhere"), str(drive)])
    code, out, _ = run(capsys, repo, cache)
    assert code == 0 and "CIRCUITPY drive at {}".format(drive) in out


def test_auto_detection_with_two_drives(setup, capsys, monkeypatch, tmp_path):
    repo, cache, drive = setup
    other = make_drive(tmp_path / "CIRCUITPY1")
    monkeypatch.setattr(discover, "mount_points", lambda: [str(drive), str(other)])
    code, _out, err = run(capsys, repo, cache)
    assert code == 4 and "Found 2 boards" in err and "--drive" in err


def test_no_board_at_all(setup, capsys, monkeypatch):
    repo, cache, _drive = setup
    monkeypatch.setattr(discover, "mount_points", lambda: [])
    monkeypatch.setattr(discover, "board_ports", lambda: [])
    code, _out, err = run(capsys, repo, cache)
    assert code == 3 and "No board found" in err and "data USB cable" in err


def uf2_file(path, payload=b"Adafruit CircuitPython 10.0.3", family=0xE48BFF56):
    import struct
    blocks = []
    chunks = [payload[i:i + 256] for i in range(0, len(payload), 256)] or [b""]
    for number, chunk in enumerate(chunks):
        header = struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, 0x10000000 + 256 * number,
                             256, number, len(chunks), family)
        blocks.append(header + chunk.ljust(476, b"\0") + struct.pack("<I", 0x0AB16F30))
    path.write_bytes(b"".join(blocks))
    return path


def test_uf2_install_then_deploy(setup, capsys, monkeypatch, tmp_path):
    repo, cache, _drive = setup
    bootloader = tmp_path / "RPI-RP2"
    bootloader.mkdir()
    (bootloader / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    firmware = uf2_file(tmp_path / "adafruit-circuitpython-raspberry_pi_pico-en_US-10.0.3.uf2")
    fresh = tmp_path / "NEWBOARD"

    def mounts():
        # the bootloader takes the .uf2, reboots, and CircuitPython's drive appears
        if (bootloader / firmware.name).exists() and not fresh.exists():
            make_drive(fresh)
        return [str(fresh)] if fresh.exists() else [str(bootloader)]

    monkeypatch.setattr(discover, "mount_points", mounts)
    monkeypatch.setattr(discover, "board_ports", lambda: [])
    code, out, err = run(capsys, repo, cache, "--uf2", str(firmware), "--wait", "5")
    assert (code, err) == (0, "")
    assert (bootloader / firmware.name).read_bytes() == firmware.read_bytes()
    assert "CircuitPython is running" in out and set(board_files(fresh)) == EXPECTED


def test_board_in_bootloader_mode_without_uf2(setup, capsys, monkeypatch, tmp_path):
    repo, cache, _drive = setup
    bootloader = tmp_path / "RPI-RP2"
    bootloader.mkdir()
    (bootloader / "INFO_UF2.TXT").write_text("Board-ID: RPI-RP2\n")
    monkeypatch.setattr(discover, "mount_points", lambda: [str(bootloader)])
    monkeypatch.setattr(discover, "board_ports", lambda: [])
    code, _out, err = run(capsys, repo, cache)
    assert code == 3 and "bootloader mode" in err and "--uf2" in err


def test_micropython_uf2_is_refused(setup, capsys, tmp_path):
    repo, cache, drive = setup
    firmware = uf2_file(tmp_path / "micropython.uf2", payload=b"MicroPython v1.25.0")
    code, _out, err = run(capsys, repo, cache, "--uf2", str(firmware), "--drive", str(drive))
    assert code == 2 and "does not contain CircuitPython" in err


def test_uf2_for_another_chip_is_refused(setup, capsys, tmp_path):
    repo, cache, drive = setup
    firmware = uf2_file(tmp_path / "rp2350.uf2", family=0xE48BFF59)
    code, _out, err = run(capsys, repo, cache, "--uf2", str(firmware), "--drive", str(drive))
    assert code == 2 and "another chip" in err


def test_placeholder_is_valid_python():
    compile(PLACEHOLDER.data, "code.py", "exec")


def test_uf2_installed_but_no_board_appears(setup, capsys, monkeypatch, tmp_path):
    repo, cache, _drive = setup
    bootloader = tmp_path / "RPI-RP2"
    bootloader.mkdir()
    (bootloader / "INFO_UF2.TXT").write_text("Board-ID: RPI-RP2\n")
    firmware = uf2_file(tmp_path / "circuitpython.uf2")
    monkeypatch.setattr(discover, "mount_points", lambda: [str(bootloader)])
    code, _out, err = run(capsys, repo, cache, "--uf2", str(firmware), "--wait", "0.3")
    assert code == 3 and "no board appeared within 0.3 s" in err and "without --uf2" in err


def test_uf2_dry_run_does_not_flash(setup, capsys, tmp_path):
    repo, cache, _drive = setup
    bootloader = tmp_path / "RPI-RP2"
    bootloader.mkdir()
    firmware = uf2_file(tmp_path / "circuitpython.uf2")
    code, out, _ = run(capsys, repo, cache, "--uf2", str(firmware), "--bootloader-drive", str(bootloader), "--dry-run")
    assert code == 0 and "would install circuitpython.uf2" in out
    assert list(bootloader.iterdir()) == []


def test_a_second_deploy_onto_a_drive_that_is_still_full(setup, capsys, monkeypatch):
    repo, cache, drive = setup
    assert run(capsys, repo, cache, "--drive", str(drive))[0] == 0
    (repo / "firmware/code.py").write_text((repo / "firmware/code.py").read_text().replace("os", "os "))
    monkeypatch.setattr(DriveTarget, "space", lambda self: (0, 512))     # not one block free
    monkeypatch.setattr("pathlib.Path.write_bytes", refused_on(drive, errno.ENOSPC))
    code, _out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 6 and "Not enough space on the board" in err and "delete files you do not need" in err
    assert "Traceback" not in err


def test_dry_run_on_a_read_only_drive_says_it_will_fail(setup, capsys, monkeypatch):
    repo, cache, drive = setup
    real_access = os.access
    monkeypatch.setattr("os.access", lambda path, mode: Path(path) != drive and real_access(path, mode))
    code, out, err = run(capsys, repo, cache, "--drive", str(drive), "--dry-run")
    assert code == 7 and "Dry run: 16 to write" in out and "is read-only" in err
    assert board_files(drive) == {}


HANDHELDS = {"picosystem": "pimoroni_picosystem", "picopad": "pajenicko_picopad", "ugame22": "ugame22",
             "t_display": "lilygo_t_display_rp2040"}


@pytest.mark.parametrize("board_id, profile", [(board_id, name) for name, board_id in HANDHELDS.items()] +
                         [("raspberry_pi_pico", "pico_display_pack"), ("raspberry_pi_pico_w", "pico_display_pack")])
def test_the_profile_follows_the_board_id_in_boot_out(tmp_path, capsys, board_id, profile):
    repo = make_repo(tmp_path / "repo", profiles=("pico_display_pack", "waveshare_lcd_1in3") + tuple(HANDHELDS),
                     board_ids={name: (ident,) for name, ident in HANDHELDS.items()})
    drive = make_drive(tmp_path / "CIRCUITPY", boot_out="Adafruit CircuitPython 10.0.3 on 2025-10-17; some board "
                                                        "with rp2040\nBoard ID:{}\nUID:0123\n".format(board_id))
    code, out, _ = run(capsys, repo, seed_cache(tmp_path / "cache"), "--drive", str(drive))
    assert code == 0 and "Profile: {} (".format(profile) in out
    assert (drive / "settings.toml").read_text().startswith('SIXTYSIX_PROFILE = "{}"'.format(profile))


# The real profiles: each handheld's own Board ID (boot_out.txt as CircuitPython writes it)
REAL_BOARDS = {"pimoroni_picosystem": "pimoroni_picosystem", "pajenicko_picopad": "pajenicko_picopad",
               "ugame22": "ugame22", "lilygo_t_display_rp2040": "lilygo_t_display_rp2040",
               "raspberry_pi_pico": "pico_display_pack", "raspberry_pi_pico_w": "pico_display_pack"}


@pytest.mark.parametrize("board_id", sorted(REAL_BOARDS))
def test_the_real_profiles_are_picked_by_the_board_id_without_profile(tmp_path, capsys, board_id):
    """The repo's own profiles and firmware onto a drive whose boot_out.txt names the
    board: the profile made for it is chosen and written to settings.toml."""
    drive = make_drive(tmp_path / "CIRCUITPY", boot_out="Adafruit CircuitPython 10.0.3 on 2025-10-17; a board "
                                                        "with rp2040\nBoard ID:{}\nUID:0123\n".format(board_id))
    code, out, err = run(capsys, ROOT, tmp_path / "cache", "--drive", str(drive))
    profile = REAL_BOARDS[board_id]
    assert (code, err) == (0, "") and "Profile: {} (made for {})".format(profile, board_id) in out
    assert (drive / "settings.toml").read_text().startswith('SIXTYSIX_PROFILE = "{}"'.format(profile))
    assert (drive / "lib" / "profiles" / (profile + ".mpy")).read_bytes() == mpy.compile_source(
        (ROOT / "hardware" / "profiles" / (profile + ".py")).read_bytes(), "profiles/" + profile + ".py", mpy.program())
    assert (drive / "code.py").read_bytes() == (ROOT / "firmware" / "code.py").read_bytes()


@pytest.mark.parametrize("form", ["mpy", "py"])
def test_the_firmware_packages_arrive_whole(tmp_path, capsys, form):
    """The repo's own firmware, whose modules are in packages (sixtysix.core, .save,
    .table, .link, .screens): every module arrives in its package's folder below
    /lib/sixtysix, as .mpy (compiled under the name its tracebacks show) or, with --py,
    as the source; nothing of the firmware lands beside them. A package's __init__ that
    is its docstring alone stays behind (the folder is the package on the board), and
    sixtysix's own, which holds forget(), arrives."""
    firmware = ROOT / "firmware" / "sixtysix"
    every = [p.relative_to(firmware).as_posix() for p in firmware.rglob("*.py") if "__pycache__" not in p.parts]
    sources = sorted(s for s in every if not s.endswith("/__init__.py"))
    assert {"link/play.py", "screens/menu.py", "app.py", "__init__.py"} <= set(sources)
    assert len(every) - len(sources) == 5           # core, link, save, screens, table
    drive = make_drive(tmp_path / "CIRCUITPY")
    code, out, err = run(capsys, ROOT, tmp_path / "cache", "--drive", str(drive), "--profile", "pico_display_pack",
                         *(["--py"] if form == "py" else []))
    assert (code, err) == (0, "")
    lib = drive / "lib" / "sixtysix"
    assert sorted(p.relative_to(lib).as_posix() for p in lib.rglob("*") if p.is_file()) == \
        sorted(s[:-3] + "." + form for s in sources)
    play = (firmware / "link" / "play.py").read_bytes()
    assert (lib / "link" / ("play." + form)).read_bytes() == \
        (play if form == "py" else mpy.compile_source(play, "sixtysix/link/play.py", mpy.program()))


def test_an_unknown_board_id_lists_the_profiles(setup, capsys):
    repo, cache, drive = setup
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 10.0.3 on 2025-10-17; Feather with rp2040\n"
                                        "Board ID:adafruit_feather_rp2040\n")
    code, _out, err = run(capsys, repo, cache, "--drive", str(drive))
    assert code == 2 and "No board profile is made for this board (Board ID: adafruit_feather_rp2040)" in err
    assert "pico_display_pack      raspberry_pi_pico, raspberry_pi_pico_w" in err and "--profile NAME" in err
    assert board_files(drive) == {}
    code, out, _ = run(capsys, repo, cache, "--drive", str(drive), "--profile", "waveshare_lcd_1in3")
    assert code == 0 and "Note: waveshare_lcd_1in3 is made for raspberry_pi_pico" in out


def test_uf2_naming_a_folder(setup, capsys, tmp_path):
    repo, cache, drive = setup
    code, _out, err = run(capsys, repo, cache, "--uf2", str(tmp_path), "--drive", str(drive))
    assert code == 2 and "is a folder, not a .uf2 file" in err
