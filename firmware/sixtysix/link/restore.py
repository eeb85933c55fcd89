"""A linked match rebuilt from its save (sixtysix.link.session.restore): the header, the
moves replayed, a close asked for. Needed only to restore: forgotten once the match
plays (sixtysix.link.session.start_linked).
"""
from shared_rules.errors import IllegalMove
from sixtysix.link.cable import u32
from sixtysix.link.handshake import read_proposal, start
from sixtysix.link.terms import MAGIC, FORMAT, PROPOSED, ACCEPTED, REVEALED, PLAYING, PROPOSER, ACCEPTER


def load(s, raw, moves, requested):
    """Rebuild from a header, the moves and a close request; ValueError (a fresh
    session) when they make no sense."""
    try:
        if raw[0] != MAGIC or raw[1] != FORMAT or raw[2] not in (PROPOSED, ACCEPTED, REVEALED, PLAYING) \
                or raw[3] not in (PROPOSER, ACCEPTER):
            raise ValueError("not a linked match")
        proposal, i = read_proposal(raw, 12)
        if len(raw) != i + 64:
            raise ValueError("bad length")
        s.phase, s.role = raw[2], raw[3]
        s.peer_id = u32(raw, 4)
        s.nonce = u32(raw, 8)
        s.proposal = proposal
        s.value = bytes(raw[i:i + 16])
        if s.phase != PROPOSED:           # the accepter holds it from the offer
            s.peer_commit = bytes(raw[i + 16:i + 48])
        if s.phase == PLAYING:
            s.peer_value = bytes(raw[i + 48:i + 64])
            start(s)
            replay(s, moves)
            s.requested = requested
        else:
            for _ in moves:
                raise ValueError("moves before the match began")
    except (IndexError, KeyError, TypeError, ValueError, IllegalMove) as e:
        s._forget()
        raise ValueError("bad linked match save: " + str(e))

def replay(s, moves, ended=None):
    """Apply the saved moves to the session's match; `ended(deal)` sees each deal as it
    ends (tools.records takes its record)."""
    m = s.match
    for seat, action in moves:
        if m.deal.ended and not m.over:
            m.next_deal()
        if seat < 0:
            seat = m.deal.to_act
        m.apply(action, seat)
        s._append(seat, action)
        if ended is not None and m.deal.ended:
            ended(m.deal)
    s.changed = False
