"""The nvm stand-in behaves like CircuitPython's RP2040 nvm: erase only when a target
byte is not 0xFF, page-wise programming otherwise, torn writes at an armed power cut."""
import pytest

from tools.flashnvm import FlashNVM, PowerCut, PAGE, SECTOR


def test_writes_into_erased_bytes_program_pages_without_erasing():
    nvm = FlashNVM()
    nvm[0:3] = b"abc"
    nvm[3:6] = b"def"
    assert nvm[0:6] == bytearray(b"abcdef")
    assert (nvm.erases, nvm.page_programs) == (0, 2)
    nvm[PAGE - 2:PAGE + 2] = b"WXYZ"          # straddles two pages: two programs
    assert (nvm.erases, nvm.page_programs) == (0, 4)


def test_overwriting_any_programmed_byte_erases_the_sector_and_keeps_the_rest():
    nvm = FlashNVM()
    nvm[0:4] = b"keep"
    nvm[SECTOR - 4:SECTOR] = b"tail"
    nvm[0:2] = b"KE"
    assert nvm.erases == 1
    assert nvm[0:4] == bytearray(b"KEep") and nvm[SECTOR - 4:] == bytearray(b"tail")
    assert nvm.page_programs == 2 + SECTOR // PAGE


def test_single_byte_assignment_and_bounds():
    nvm = FlashNVM()
    nvm[5] = 7
    nvm[-1] = 9
    assert (nvm[5], nvm[SECTOR - 1], nvm.erases) == (7, 9, 0)
    with pytest.raises(ValueError):
        nvm[0:2] = b"abc"
    with pytest.raises(IndexError):
        nvm[SECTOR] = 1


def test_power_cut_lands_a_prefix_and_leaves_the_rest_erased():
    nvm = FlashNVM()
    nvm.arm_cut(3)
    with pytest.raises(PowerCut):
        nvm[10:18] = b"12345678"
    assert nvm[10:18] == bytearray(b"123" + b"\xff" * 5)
    nvm[20:22] = b"ok"                       # the cut is spent: writes work again
    assert nvm[20:22] == bytearray(b"ok")


def test_power_cut_in_the_erase_path_loses_what_was_not_reprogrammed():
    nvm = FlashNVM()
    nvm[0:PAGE] = b"a" * PAGE
    nvm[PAGE:2 * PAGE] = b"b" * PAGE
    nvm.arm_cut(PAGE + 10)
    with pytest.raises(PowerCut):
        nvm[0:1] = b"A"
    assert nvm[0:PAGE] == bytearray(b"A" + b"a" * (PAGE - 1))
    assert nvm[PAGE:2 * PAGE] == bytearray(b"b" * 10 + b"\xff" * (PAGE - 10))


def test_the_persistence_hook_sees_completed_and_torn_writes():
    seen = []

    class Recording(FlashNVM):
        def written(self):
            seen.append(bytes(self.data[0:2]))

    nvm = Recording()
    nvm[0:1] = b"x"
    nvm.arm_cut(0)
    with pytest.raises(PowerCut):
        nvm[1:2] = b"y"
    assert seen == [b"x\xff", b"x\xff"]


def test_image_size_is_checked():
    with pytest.raises(ValueError):
        FlashNVM(b"\xff" * 10)
    assert len(FlashNVM(b"\x00" * SECTOR)) == SECTOR
