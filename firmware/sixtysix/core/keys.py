"""Buttons -> role events ("left", "ok", ...) with key repeat for moving, and long presses.

The source is anything with `get()` returning keypad-style events (key_number,
pressed) or None: `keypad.Keys(...).events` on the board, a pygame adapter in the
simulator, a scripted queue in tests. Roles come from the board profile's BUTTONS
tuple, so the same code serves every board; its HOLDS tuple (or None) gives keys a
second role when held HOLD seconds. Such a key answers when it is let go (its own role)
or once the hold is long enough (the hold role), never both: a board with two buttons
reaches the menu that way.
"""

REPEATING = ("left", "right", "up", "down")
DELAY = 0.40     # seconds held before the first repeat
INTERVAL = 0.12  # seconds between repeats
HOLD = 0.5       # seconds a key with a hold role is held for that role


class RoleKeys:
    def __init__(self, source, roles, clock, holds=None):
        self.source = source
        self.roles = roles
        self.holds = holds
        self.clock = clock
        self.held = None      # the repeating role held down, if any
        self.next_repeat = 0.0
        self.pending = -1     # the key with a hold role that is down, if any
        self.hold_at = 0.0    # when it becomes a hold

    def poll(self):
        """The next role event, or None. Call often; repeats and holds come from here too."""
        event = self.source.get()
        while event is not None:
            n = event.key_number
            role = self.roles[n] if 0 <= n < len(self.roles) else None
            if role is not None:
                if event.pressed:
                    self.held = None
                    if self.holds and self.holds[n]:
                        self.pending = n            # short or long: known when let go
                        self.hold_at = self.clock() + HOLD
                        event = self.source.get()
                        continue
                    if role in REPEATING:
                        self.held = role
                        self.next_repeat = self.clock() + DELAY
                    return role
                if n == self.pending:
                    self.pending = -1
                    return role
                if role == self.held:
                    self.held = None
            event = self.source.get()
        if self.pending >= 0 and self.clock() >= self.hold_at:
            role = self.holds[self.pending]
            self.pending = -1
            return role
        if self.held is not None:
            now = self.clock()
            if now >= self.next_repeat:
                self.next_repeat = now + INTERVAL
                return self.held
        return None
