"""What to press for each role, as the on-screen hints say it (the device's key): read
once at power-on from the board profile, then dropped (sixtysix.forget)."""


def key_names(keys, labels):
    """{role: what to press for it} for the hints (the device's key), from the RoleKeys
    `keys` and the profile's LABELS: the first key's printed label ("X"); for a role only a hold
    gives, "hold" (any key) or "hold L". No labels (tests): "OK", "MENU", ..."""
    out = {}
    for n, role in enumerate(keys.roles):
        if role not in out:
            out[role] = labels[n] if labels else role.upper()
    held = {}
    for n, role in enumerate(keys.holds or ()):
        if role is not None and role not in out:
            held.setdefault(role, []).append(labels[n] if labels else str(n))
    for role, names in held.items():
        out[role] = "hold" if len(names) == len(keys.roles) else "hold " + "/".join(names)
    return out
