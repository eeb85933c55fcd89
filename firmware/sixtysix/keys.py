"""Buttons -> role events ("left", "ok", ...) with key repeat for moving.

The source is anything with `get()` returning keypad-style events (key_number,
pressed) or None: `keypad.Keys(...).events` on the board, a pygame adapter in the
simulator, a scripted queue in tests. Roles come from the board profile's BUTTONS
tuple, so the same code serves every board.
"""

REPEATING = ("left", "right", "up", "down")
DELAY = 0.40     # seconds held before the first repeat
INTERVAL = 0.12  # seconds between repeats


class RoleKeys:
    def __init__(self, source, roles, clock):
        self.source = source
        self.roles = roles
        self.clock = clock
        self.held = None      # the repeating role held down, if any
        self.next_repeat = 0.0

    def poll(self):
        """The next role event, or None. Call often; repeats come from here too."""
        event = self.source.get()
        while event is not None:
            n = event.key_number
            role = self.roles[n] if 0 <= n < len(self.roles) else None
            if role is not None:
                if event.pressed:
                    if role in REPEATING:
                        self.held = role
                        self.next_repeat = self.clock() + DELAY
                    else:
                        self.held = None
                    return role
                if role == self.held:
                    self.held = None
            event = self.source.get()
        if self.held is not None:
            now = self.clock()
            if now >= self.next_repeat:
                self.next_repeat = now + INTERVAL
                return self.held
        return None
