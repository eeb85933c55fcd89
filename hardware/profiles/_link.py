"""The link cable's UART (docs/LINK.md), on the pins a profile names as LINK_TX and LINK_RX.

Reads never wait (timeout=0): sixtysix.link.cable polls. The receive buffer holds what the
other device sends while this one is busy (a Hard decision takes up to 2 s: a few
resent frames of at most 129 bytes, keep-alives and HELLOs), far more than the default 64.
A board with no free hardware UART pair names None for both pins: it has no link cable.
"""
BAUDRATE = 115200
RECEIVE_BUFFER = 1024


def uart(p):
    """busio.UART on the profile's LINK_TX / LINK_RX, or None where the board has no link."""
    if p.LINK_TX is None:
        return None
    import board
    import busio

    return busio.UART(getattr(board, p.LINK_TX), getattr(board, p.LINK_RX), baudrate=BAUDRATE,
                      timeout=0, receiver_buffer_size=RECEIVE_BUFFER)
