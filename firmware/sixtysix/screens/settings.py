"""The settings screen: the list of settings, each changed in place by the ok key."""
from sixtysix.core import ui
from sixtysix.save.settings import CHOICES, SOUND

# An object constant: without one, the end of this module's compiled constants points at
# the next heap block and keeps whatever lands there alive (a whole search: 5.7 KB)
# (host_tests/test_firmware_memory.py, test_no_module_pins_the_heap_block_after_its_constants)
HEAP_ANCHOR = "ends in its own block"


class SettingsScreen:
    """The heading, then (the next frame, ui.Show) the list of settings."""

    def __init__(self, device):
        self.device = device
        self.group = ui.screen(device.layout, "Settings")
        self.s = device.settings
        self.dirty = False
        self.steps = [self.add_menu]

    def add_menu(self):
        device = self.device
        g = self.group
        lay = device.layout
        # the settings this board has (Sound only where there is a speaker), by CHOICES index
        self.shown = [i for i in range(len(CHOICES)) if i != SOUND or device.sound is not None]
        items = [self.line(i) for i in self.shown]
        longest = [len(CHOICES[i][1]) + 2 + max(len(v) for v in CHOICES[i][2]) for i in self.shown]
        hx, hy = lay.settings_hint
        bottom = hy if hy > lay.body_y else lay.h
        if lay.body_y + (len(items) + 1) * lay.settings_row <= bottom:
            items.append("Back")            # where it fits (the menu key goes back anyway)
            longest.append(4)
        self.menu = ui.ListWidget(g, items, 6, lay.body_y, lay.w - 12, lay.settings_row,
                                  longest=longest)
        k = device.key
        g.append(ui.Label(k["ok"] + ": change, " + k["menu"] + ": back", hx, hy, ui.SOFT).view)

    def line(self, i):
        key, title, values = CHOICES[i]
        return title + ": " + values[self.device.settings.index[i]]

    def tick(self, role):
        if role == "menu":
            return self.leave()
        row = self.menu.handle(role)
        if row is None:
            return None
        if row == len(self.shown):
            return self.leave()
        i = self.shown[row]
        self.s.cycle(i)
        self.menu.relabel(row, self.line(i))
        if CHOICES[i][0] == "light":
            self.device.light(self.device.lit)
        self.dirty = True
        return None

    def leave(self):
        self.flush()
        return "title"

    def flush(self):
        """Save the changes (leaving, or before the device sleeps)."""
        if self.dirty:
            self.s.save(self.device.store)
            self.dirty = False
