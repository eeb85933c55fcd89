"""The seam between the engine and the AI: shared_rules/*.py never imports the AI
package, and shared_rules/ai/ reads the deal only through a seat's view (it imports no
module that holds or moves a deal)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "shared_rules"
AI = ENGINE / "ai"
# What the AI may import from the engine: card and action encodings, rules, the PRNG, the
# team games' suit masks and their bidding order (rules on bare numbers, so a search
# bids as the engine does). Never deal, team.TeamDeal, match, family or record.
AI_MAY_IMPORT = {"shared_rules.cards", "shared_rules.actions", "shared_rules.rules", "shared_rules.rng",
                 "shared_rules.errors", "shared_rules.view", "shared_rules.team.SUIT8",
                 "shared_rules.team.again_after", "shared_rules.team.next_caller"}


def imports(path):
    """Every module a file imports (at any depth: lazy imports count too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            out.add(node.module)
            out.update(node.module + "." + a.name for a in node.names)
    return out


def test_the_engine_never_imports_the_ai():
    for path in ENGINE.glob("*.py"):
        bad = [m for m in imports(path) if m == "shared_rules.ai" or m.startswith("shared_rules.ai.")]
        assert not bad, (path.name, bad)


def test_the_ai_imports_no_deal():
    files = list(AI.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for m in imports(path):
            if m.startswith("shared_rules.") and not m.startswith("shared_rules.ai") and m != "shared_rules.team":
                assert m in AI_MAY_IMPORT or m.rsplit(".", 1)[0] in AI_MAY_IMPORT, \
                    (path.name, m)


def test_randplay_is_the_only_ai_module_that_moves_a_deal():
    """randplay drives an engine deal (benchmarks, fuzzers); every player only reads views."""
    for path in AI.glob("*.py"):
        if path.name == "randplay.py":
            continue
        assert ".apply(" not in path.read_text(encoding="utf-8"), path.name
