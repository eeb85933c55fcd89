"""Bringing a board in line with a manifest: plan, check space, copy, verify.

Safety rule: while anything but code.py is being changed, /code.py is a placeholder
that only prints "deploy unfinished". The real code.py is written after every written
file has been checked on the board (size and checksum), so an interrupted or failed
deploy never boots a half-copied game, and running the deploy again resumes (only what
differs is copied). Files the plan found matching are not read again.
"""

import errno

from .errors import CopyFailed, NotEnoughSpace, VerifyFailed
from .manifest import CODE_PY, OWNED_DIRS, Entry

PLACEHOLDER = Entry(CODE_PY, (
    b"# Written by tools.deploy while it copies the game; replaced when the copy is complete.\n"
    b'print("Sixty-Six: the last deploy did not finish.")\n'
    b'print("Connect the board to a computer and run: python -m tools.deploy")\n'
), "placeholder while deploying")


class Plan:
    """What a deploy will do: ``write`` (entries), ``remove`` ([(path, size)]), ``unchanged``."""

    def __init__(self, manifest, write, remove, board_sizes):
        self.manifest = manifest
        self.write = write
        self.remove = remove
        self.board_sizes = board_sizes
        written = set(entry.path for entry in write)
        self.unchanged = [entry for entry in manifest if entry.path not in written]

    @property
    def empty(self):
        return not self.write and not self.remove

    @property
    def needs_placeholder(self):
        return any(entry.path != CODE_PY for entry in self.write) or bool(self.remove)

    def bytes_needed(self, block):
        """Extra space the deploy takes, counted in whole allocation blocks."""

        def blocks(size):
            return -(-size // block) * block

        grow = sum(blocks(entry.size) - blocks(self.board_sizes.get(entry.path) or 0) for entry in self.write)
        shrink = sum(blocks(size) for _path, size in self.remove)
        new_dirs = set(entry.path.rsplit("/", 1)[0] for entry in self.write if self.board_sizes.get(entry.path) is None)
        placeholder = blocks(PLACEHOLDER.size) if self.needs_placeholder else 0
        return grow - shrink + block * len(new_dirs) + placeholder


def make_plan(target, manifest):
    """Compare the board with the manifest by size, then by checksum where sizes agree."""
    states, listed = target.survey({entry.path: entry.size for entry in manifest}, OWNED_DIRS)
    write = [entry for entry in manifest if states[entry.path] != (entry.size, target.checksum(entry.data))]
    remove = [(path, size) for path, size in listed if path not in manifest.paths]
    return Plan(manifest, write, remove, {path: size for path, (size, _sum) in states.items()})


def check_space(plan, free, block):
    needed = plan.bytes_needed(block)
    if needed > free:
        raise NotEnoughSpace(needed, free)
    return needed


def mismatches(target, entries):
    """[(path, what differs)] after checking sizes and checksums on the board."""
    entries = list(entries)
    states, _listed = target.survey({entry.path: entry.size for entry in entries})
    problems = []
    for entry in entries:
        size, checksum = states[entry.path]
        if size is None:
            problems.append((entry.path, "missing"))
        elif size != entry.size:
            problems.append((entry.path, "{} bytes instead of {}".format(size, entry.size)))
        elif checksum != target.checksum(entry.data):
            problems.append((entry.path, "content differs (checksum)"))
    return problems


class Copier:
    """Writes and removes files, turning OSErrors into the deploy's own errors."""

    def __init__(self, target):
        self.target = target

    def write(self, entry):
        try:
            self.target.write_file(entry.path, entry.data)
        except OSError as error:
            self._fail(entry.path, error)

    def remove(self, path):
        try:
            self.target.remove_file(path)
        except OSError as error:
            self._fail(path, error)

    def _fail(self, path, error):
        if error.errno == errno.ENOSPC:
            self._drop_partial(path)
            raise NotEnoughSpace(0, 0, midway=True)
        if error.errno == errno.EROFS:
            raise self.target.read_only_error()
        raise CopyFailed(path, error.strerror or error)

    def _drop_partial(self, path):
        if path == CODE_PY:
            return
        try:
            self.target.remove_file(path)
        except OSError:
            pass


def apply(target, plan, report=print):
    """Carry out ``plan``: write, check on the board, then code.py."""
    copier = Copier(target)
    manifest = plan.manifest
    code = [entry for entry in manifest if entry.path == CODE_PY]
    rest = [entry for entry in plan.write if entry.path != CODE_PY]
    if plan.needs_placeholder:
        copier.write(PLACEHOLDER)
    for path, _size in plan.remove:
        copier.remove(path)
        report("  removed  {}".format(path))
    for entry in plan.write:
        if entry.path != CODE_PY:
            copier.write(entry)
            report("  wrote    {:<44} {:>8,} B".format(entry.path, entry.size))
    _verify(target, copier, rest, report)
    if any(entry.path == CODE_PY for entry in plan.write) or plan.needs_placeholder:
        copier.write(code[0])
        report("  wrote    {:<44} {:>8,} B".format(CODE_PY, code[0].size))
    problems = mismatches(target, code)
    if problems:
        copier.write(PLACEHOLDER)
        raise VerifyFailed(problems)


def _verify(target, copier, entries, report):
    """Check what was written; rewrite what differs once, then give up loudly."""
    if not entries:
        return
    problems = mismatches(target, entries)
    if not problems:
        return
    by_path = {entry.path: entry for entry in entries}
    for path, what in problems:
        report("  retry    {} ({})".format(path, what))
        copier.write(by_path[path])
    problems = mismatches(target, [by_path[path] for path, _what in problems])
    if problems:
        raise VerifyFailed(problems)
