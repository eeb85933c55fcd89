"""sixtysix.forget, on the board's Python (the MicroPython VM, the firmware compiled as
the deploy compiles it): a module forgotten leaves sys.modules and its package, so its
code can leave the heap, and is loaded again when imported."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpvm  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (ROOT / "firmware" / "sixtysix", ROOT / "shared_rules")


@pytest.fixture(scope="module", autouse=True)
def vm():
    try:
        mpvm.check_installed()
    except mpvm.MPVMUnavailable as e:
        pytest.skip(str(e))


def run(steps):
    return mpvm.run(["import sys, sixtysix"] + steps, packages=PACKAGES).split()


def test_short_names_drop_modules_of_a_package_and_their_attributes():
    out = run(["import sixtysix.save.format, sixtysix.save.oldsave, sixtysix.save.settings",
               "sixtysix.forget('sixtysix.save', 'format', 'oldsave', 'archive')",  # archive: never loaded
               "save = sys.modules['sixtysix.save']\n"
               "print([n for n in ('format', 'oldsave', 'settings') if 'sixtysix.save.' + n in sys.modules])\n"
               "print([n for n in ('format', 'oldsave', 'settings') if hasattr(save, n)])"])
    assert out == ["['settings']", "['settings']"]


def test_a_whole_name_drops_one_module_or_a_package():
    out = run(["import shared_rules.ai.greedy",
               "sixtysix.forget('shared_rules.ai.greedy')",
               "print('shared_rules.ai.greedy' in sys.modules, hasattr(sys.modules['shared_rules.ai'], 'greedy'))",
               "sixtysix.forget('shared_rules.ai')",
               "print('shared_rules.ai' in sys.modules, hasattr(sys.modules['shared_rules'], 'ai'))",
               "import shared_rules.ai.greedy\nprint('shared_rules.ai.greedy' in sys.modules)"])
    assert out == ["False", "False", "False", "False", "True"]


def test_a_dotted_short_name_is_an_error_not_a_module_kept():
    with pytest.raises(mpvm.MPVMError) as info:
        run(["import shared_rules.ai.greedy",
             "sixtysix.forget('shared_rules', 'ai.greedy')"])
    assert "ValueError: ai.greedy" in str(info.value)
