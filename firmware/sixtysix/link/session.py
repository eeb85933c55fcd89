"""Link play's session on the device: made (the port built the first time, the device's
id drawn the first time ever, a saved linked match restored) when link play is chosen
or a linked match continued, the linked match's table started, and the session dropped
when it is done with. Loaded with the session's modules (sixtysix.screens.friends.load),
forgotten once the table opens, loaded again to drop the session: none of it is a
linked table's. The session, its port and its sync are the device's
(sixtysix.core.device): each function here is given the device, never the app, and
App.step polls the device's session.
"""
import sixtysix


def match_rules(device):
    """The rules of the linked match to show: the session's, or the saved one's (None:
    there is none, or its save makes no sense)."""
    s = device.session
    if s is not None:
        return s.proposal.rules if s.proposal is not None else None
    from sixtysix.save.format import LINKED
    from sixtysix.link.handshake import read_proposal
    h = device.store.header(LINKED)
    try:
        return read_proposal(h, 12)[0].rules
    except (IndexError, TypeError, ValueError):
        return None


def level(device):
    """The level of a linked match's computer players: Hard's search does not fit beside
    the ~30 KB a linked match's table keeps resident (docs/LINK.md), so Normal at most."""
    level = device.settings.get("level")
    return "normal" if level == "hard" else level


def link_session(device):
    """The device's link play session: made when link play is chosen or a linked match
    continued (the port is built the first time, and kept), and kept until a match that
    is not linked starts (drop). None when this device has no link port
    (device.notice says why). The first time ever, the device draws its id, and a name by
    it unless one was chosen in the settings."""
    if device.session is None:
        port = device.port
        try:
            if port is None and device.link_port is not None:
                port = device.port = device.link_port()
        except (ValueError, RuntimeError, OSError) as e:
            device.notice = "Link port: " + str(e)
        if port is None:
            if not device.notice:
                device.notice = "This device has no link cable port"
            return None
        from sixtysix.link import match
        from sixtysix.link.handshake import random_id
        from sixtysix.link.cable import Link
        from sixtysix.save.format import CORRUPT, NOTICES
        from sixtysix.save.settings import CHOICES, DEFAULTS, NAME
        if device.entropy is None:
            device.entropy = random_bytes
        entropy = device.entropy
        st = device.settings
        if not st.device_id:
            st.device_id = random_id(entropy)
            if st.index[NAME] == DEFAULTS[NAME]:
                st.index[NAME] = st.device_id % len(CHOICES[NAME][2])
            st.save(device.store)
        link = Link(port, st.device_id, st.get("name"), entropy)
        try:
            device.session = restore(device.store, link, entropy) if device.store.linked() \
                else match.LinkedMatch(link, entropy)
        except ValueError:
            device.session = match.LinkedMatch(link, entropy)
            device.store.records = bytearray()
            device.notice = NOTICES[CORRUPT]
        device.sync = match.sync
    device.session.link.name = device.settings.get("name")
    return device.session


def random_bytes(n):
    """n bytes from the random module, where the device was given no random source
    (CircuitPython seeds it from the hardware at start)."""
    import random
    return bytes(random.getrandbits(8) for _ in range(n))


def start_linked(device, fresh):
    """The linked match's table to start: App.start's arguments (the match, its
    computers' level, a fresh deal, the persons, the session), or None when there is none
    to show (the title)."""
    from sixtysix.link.match import PLAYING
    s = link_session(device)
    if s is None or s.phase != PLAYING:
        return None
    sixtysix.forget("sixtysix.link", "restore", "session", "handshake", "fairseed", "sha256")  # (rebuilt, made, set up)
    return s.match, level(device), fresh and not s.count(), 1, s


def restore(st, link, entropy):
    """The session of the linked match in `st` (a fresh one if there is none); ValueError
    when the save makes no sense."""
    from sixtysix.link.match import LinkedMatch, asked
    from sixtysix.save.format import LINKED
    h = st.header(LINKED)
    return LinkedMatch(link, entropy, (h, st.actions(), asked(st)) if h else None)


def drop(device):
    """Link play's session and modules (~21 KB) leave the heap while a match that is not
    linked plays (App.start), or the title waits (sixtysix.screens.loading), so that Hard's
    search fits; with them the screens that hold them (else link play, chosen again,
    would load second copies beside them), and their package, sixtysix.link. Once the
    link has told the other device what it still had to (leaving a linked match, its last
    moves), or is down; at once if there is no session (no link port: the screen said
    so). A finished match whose last moves wait for the cable stays (choosing link play
    again would not rebuild it: the store's linked()). The port stays; choosing link play
    again makes a new session on it (sixtysix.screens.friends). Called by the app as a
    table that is not linked starts, and from the warm of that table or of the title,
    which the app drops with its screen (so never while the link screen uses it)."""
    s = device.session
    if s is not None and s.in_match():
        return                                  # in use again meanwhile
    if s is not None and s.link.out:
        if s.link.up():
            device.warm.insert(0, lambda: drop(device))   # again in the next frame
            return
        if s.match is not None:
            return                              # its last moves wait for the cable
    device.session = device.sync = None
    sixtysix.forget("sixtysix.link", "screen", "table", "match", "heard", "play", "handshake", "terms", "restore",
                    "session", "cable", "fairseed", "sha256")
    sixtysix.forget("sixtysix", "link")
