"""The battery: its symbol in a screen's corner, and a warning when it runs low.

Loaded only on a board whose profile names a battery-sense pin. The symbol is three
small rectangles, so a new charge redraws a few pixels only.
"""
from sixtysix.core import ui

W = 12          # the symbol's body, pixels
H = 7
EVERY = 10      # seconds between readings
LOW = 0.1       # the share that is low: the fill turns red, the app saves and warns


class Gauge:
    def __init__(self, group, x, y):
        group.append(ui.rect(x, y, W, H, ui.WHITE))
        group.append(ui.rect(x + W, y + 2, 2, H - 4, ui.WHITE))        # the terminal nub
        group.append(ui.rect(x + 1, y + 1, W - 2, H - 2, ui.INK))
        self.fill = ui.rect(x + 1, y + 1, W - 2, H - 2, ui.GREEN)
        group.append(self.fill)
        self.level = -1

    def show(self, charge):
        """Show a charge between 0.0 and 1.0."""
        level = max(0, min(W - 2, int(charge * (W - 2) + 0.5)))
        if level == self.level:
            return
        self.level = level
        self.fill.hidden = level == 0
        if level:
            self.fill.width = level
        self.fill.pixel_shader = ui.palette(ui.RED if charge < LOW else ui.GREEN)


class Battery:
    """Reads the profile's battery every EVERY seconds; shows it on the screen's gauge."""

    def __init__(self, power):
        self.power = power
        self.charge = None
        self.gauge = None
        self.next = 0.0
        self.warned = False

    def add_gauge(self, group, box):
        x, y, w, h = box
        self.gauge = Gauge(group, x + w - W - 2, y + (h - H) // 2)
        if self.charge is not None:
            self.gauge.show(self.charge)

    def check(self, now):
        """Read when due; True the first time the charge is low (again after charging)."""
        if now < self.next:
            return False
        self.next = now + EVERY
        self.charge = self.power.battery()
        if self.gauge is not None:
            self.gauge.show(self.charge)
        if self.charge >= LOW + 0.05:
            self.warned = False
        elif self.charge < LOW and not self.warned:
            self.warned = True
            return True
        return False
