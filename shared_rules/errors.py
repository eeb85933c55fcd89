"""The one exception the engine raises for a move the rules forbid, and how an error
message shows a value it refuses."""


class IllegalMove(Exception):
    """An action that is not allowed now; the message is written for a player.

    The state that raised it is unchanged.
    """


def shown(value):
    """A refused value as a message shows it, in a record's (JSON) words: short, and never
    a whole list or object, which may be huge or nested without end."""
    t = type(value)
    if t is str:
        return repr(value[:24])
    if t is int or t is float:
        return repr(value)
    if t is bool or value is None:
        return ("false", "true", "null")[2 if value is None else value]
    return "a list" if t is list else "an object"
