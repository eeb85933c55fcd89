"""The one exception the engine raises for a move the rules forbid."""


class IllegalMove(Exception):
    """An action that is not allowed now; the message is written for a player.

    The state that raised it is unchanged.
    """
