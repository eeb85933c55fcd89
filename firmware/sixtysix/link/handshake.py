"""A linked match's set-up, as steps over its session (a sixtysix.link.match.LinkedMatch):
a proposal, its acceptance, declined or withdrawn, and the fair seed (sixtysix.link.fairseed:
both commit, then both reveal), which starts the match; the proposal read from its
bytes. Functions, not the session's methods, so that a linked match's table forgets
this module with the fair seed's (sixtysix.link.session.start_linked): on the real
firmware the table then keeps ~2.5 KB more. Whatever a playing match still answers
(its STATUS, a reveal asked again, a commitment or value checked) is the session's.
"""
from shared_rules.match import COUNTING
from shared_rules.rules import Rules, OPTIONS
from sixtysix.link import fairseed
from sixtysix.link.cable import put32
from sixtysix.link.terms import PROPOSE, ACCEPT, LEAVE, NONE, PROPOSED, ACCEPTED, REVEALED, PLAYING, \
    PROPOSER, ACCEPTER, COMPUTER, IDLE, Proposal


def propose(s, rules, counting="casual", seats=None):
    """Offer a match to the connected device; False when not possible now."""
    if s.phase != NONE or s.offer or s.state() != IDLE:
        return False
    proposal = Proposal(rules, counting, seats or default_seats(rules.players))
    s.role = PROPOSER
    s.proposal = proposal
    s.nonce = random_id(s.entropy)
    s.value = fairseed.new_value(s.entropy)
    s.peer_id = s.link.peer_id
    s.phase = PROPOSED
    s.changed = True
    send_propose(s)
    return True


def accept(s):
    """Accept the offer on screen; False when there is none (or no link)."""
    o = s.offer
    if o is None or s.phase != NONE or not s.link.up():
        return False
    s.role = ACCEPTER
    s.nonce, s.peer_commit, s.proposal = o
    s.value = fairseed.new_value(s.entropy)
    s.peer_id = s.link.peer_id
    s.phase = ACCEPTED
    s.offer = None
    s.changed = True
    send_accept(s)
    return True


def send_propose(s):
    out = bytearray((PROPOSE,))
    put32(out, s.nonce)
    out.extend(fairseed.commitment(s.value))
    out.extend(s.proposal.to_bytes())
    s.link.send(out)


def send_accept(s):
    out = bytearray((ACCEPT,))
    put32(out, s.nonce)
    out.extend(fairseed.commitment(s.value))
    s.link.send(out)


def withdraw(s, notice):
    """Drop this device's proposal."""
    s._forget()
    s.changed = True
    s.notice = notice


def on_propose(s, nonce, commit, p):
    try:
        proposal = read_proposal(p, 37)[0]
    except ValueError as e:
        out = bytearray((LEAVE,))
        put32(out, nonce)
        s.link.send(out)
        s.notice = "The other device offers a game this one does not know (" + str(e) + ")"
        return
    if s.phase == PROPOSED and nonce != s.nonce:
        if s.link.device_id > s.link.peer_id:
            return                           # both proposed at once: ours stands
        withdraw(s, None)
    if s.phase == NONE:
        if not s.offer or s.offer[0] != nonce:
            s.offer = (nonce, commit, proposal)
    elif nonce == s.nonce and s.phase == ACCEPTED:
        send_accept(s)


def accepted(s, commit):
    """The proposer hears the accepter's commitment: it reveals its value."""
    s.peer_commit = commit
    s.phase = REVEALED
    s.changed = True
    s._send_reveal()


def revealed(s, value):
    """The other device's value, checked against its commitment, starts the match."""
    if not fairseed.opens(value, s.peer_commit):
        s._stop("The other device's shuffle value does not match its commitment",
                "your shuffle value does not match your commitment")
        return
    s.peer_value = value
    start(s)
    s.changed = True
    if s.role == ACCEPTER:
        s._send_reveal()


def start(s):
    """The match, from both values (also a saved one's: sixtysix.link.restore)."""
    from shared_rules.family import new_match
    pv, av = (s.value, s.peer_value) if s.role == PROPOSER else (s.peer_value, s.value)
    p = s.proposal
    s.match = new_match(p.rules, p.counting, fairseed.match_seed(pv, av))
    s.phase = PLAYING


def default_seats(players):
    """Proposer first, the accepter next to it (two or three players) or opposite it,
    as partners against two computer players (four players)."""
    if players == 4:
        return (PROPOSER, COMPUTER, ACCEPTER, COMPUTER)
    return (PROPOSER, ACCEPTER, COMPUTER)[:players]


def parse_rules(text):
    """Rules from link.terms.rules_text(); ValueError when this device does not know them."""
    words = text.split()
    if not words:
        raise ValueError("no rule set")
    options = {}
    for word in words[1:]:
        kv = word.split("=")
        key, value = kv[0], kv[-1]
        if len(kv) != 2 or key not in OPTIONS:
            raise ValueError("unknown rule option " + key)
        found = [v for v in OPTIONS[key] if str(v) == value]
        if not found:
            raise ValueError("rule option " + key + " cannot be " + value)
        options[key] = found[0]
    return Rules(words[0], **options)


def read_proposal(raw, i):
    """(Proposal, index after it) from raw[i:] (Proposal.to_bytes); ValueError when it
    makes no sense."""
    if len(raw) < i + 4:
        raise ValueError("short proposal")
    counting, packed, n, size = raw[i], raw[i + 1], raw[i + 2], raw[i + 3]
    if counting >= len(COUNTING) or len(raw) < i + 4 + size:
        raise ValueError("bad proposal")
    try:
        text = bytes(raw[i + 4:i + 4 + size]).decode()
    except UnicodeError:
        raise ValueError("bad rules text")
    seats = [packed >> 2 * k & 3 for k in range(n)]
    return Proposal(parse_rules(text), COUNTING[counting], seats), i + 4 + size


def random_id(entropy):
    """A random non-zero 30-bit number (match ids, device ids)."""
    b = entropy(4)
    return ((b[0] & 0x3F) << 24 | b[1] << 16 | b[2] << 8 | b[3]) or 1
