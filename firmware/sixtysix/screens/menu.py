"""A menu screen: a heading and a list of choices, each the name of the screen it opens
(App.open). Play a friend's (sixtysix.screens.friends) and the rules' (sixtysix.screens.text)."""
from sixtysix.core import ui

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"


class Menu:
    """A heading and a list of choices; OK opens the chosen one's screen, menu goes back."""

    def __init__(self, device, title, items, names):
        self.group = g = ui.screen(device.layout, title)
        lay = device.layout
        self.names = names
        self.menu = ui.ListWidget(g, items, 6, lay.body_y + 4, lay.w // 2, lay.menu[3])

    def tick(self, role):
        if role == "menu":
            return "title"
        i = self.menu.handle(role)
        return None if i is None else self.names[i]
