"""The repository stands on its own (issue 9): a clone of it, with nothing beside it,
passes the record and replay tests, and no document links outside it.

The clone is of the commit checked out (HEAD): what a user gets from `git clone`.
"""
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# Everything about records and replaying, but not the ~300 runs of the replay command on
# each record file (the suite runs those itself; here they would cost a minute).
CLONE_TESTS = ["host_tests/test_records.py", "host_tests/test_family_records.py", "host_tests/test_replay_inputs.py",
               "-k", "not test_replay_tool_on_file_and_stdin"]


def git(*args, cwd=ROOT):
    return subprocess.run(["git"] + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)


def test_a_clone_alone_passes_the_record_and_replay_tests(tmp_path):
    if git("rev-parse", "HEAD").returncode != 0:
        pytest.skip("not a git checkout")
    clone = tmp_path / "alone" / "repo"
    made = git("clone", "--quiet", "--no-hardlinks", ROOT, str(clone))
    assert made.returncode == 0, made.stderr
    assert git("rev-parse", "HEAD", cwd=clone).stdout == git("rev-parse", "HEAD").stdout
    assert not (clone.parent / "shared").exists()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
                         + CLONE_TESTS, cwd=clone, env=env, capture_output=True, text=True, timeout=600)
    summary = out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "skipped" not in summary and "deselected" in summary, summary
    passed = int(re.search(r"(\d+) passed", summary).group(1))
    assert passed > 200, summary


def linked_files():
    """Markdown files of the repository (tracked, or all when not a git checkout)."""
    listed = git("ls-files", "*.md")
    if listed.returncode == 0:
        return [os.path.join(ROOT, f) for f in listed.stdout.split()]
    out = []
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if not x.startswith(".") and x != "node_modules"]
        out += [os.path.join(d, f) for f in files if f.endswith(".md")]
    return out


def test_documents_link_only_inside_the_repository():
    """Every relative link of README.md and docs/ names a file of the repository that
    exists (web addresses are left alone)."""
    checked = 0
    for path in linked_files():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            where = os.path.normpath(os.path.join(os.path.dirname(path), target.split("#")[0]))
            assert where.startswith(ROOT + os.sep), "%s links outside the repository: %s" % (path, target)
            assert os.path.exists(where), "%s links to a missing file: %s" % (path, target)
            checked += 1
    assert checked >= 15
