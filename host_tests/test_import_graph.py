"""The import graph of firmware/, shared_rules/ and tools/, drawn from the source (ast):
no circle, no module that imports the app, no module named by string that does not exist.

Every import counts, at the top of a module or inside a function: the firmware imports
most of its modules late, one a frame, and a late import is a door all the same. A
module's import of its own package (`from shared_rules.ai import CHECK_EVERY` in a
module of shared_rules.ai) is no edge: Python runs a package's __init__ before any module
in it.

`python3 host_tests/test_import_graph.py` prints the graph: each module and what it imports.
"""
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where the modules live: (folder, the folder their names are relative to)
SOURCES = (("firmware", "firmware"), ("shared_rules", "."), ("tools", "."))


def modules():
    """{module name: path} of every .py file under SOURCES."""
    out = {}
    for folder, base in SOURCES:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / base).with_suffix("").parts
            if "__pycache__" in parts or "node_modules" in parts:
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


def imports(name, path, known):
    """The modules of `known` that module `name` imports, anywhere in its source."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:            # a module of a package, or a name in a module
                found.add(base + "." + a.name if base + "." + a.name in known else base)
    out = set()
    for m in found:
        while m and m not in known:         # a name inside a module: the module
            m = m.rpartition(".")[0]
        if m and m != name and not name.startswith(m + "."):    # (its own package: no edge)
            out.add(m)
    return out


def graph():
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def circles(edges):
    """The strongly connected components of more than one module (Tarjan's)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        for v in sorted(edges):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return out


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_has_no_circle():
    assert circles(graph()) == []


def test_no_module_imports_the_app():
    """A screen or the table gets what it needs when it is made and tells the app what it
    wants by what it returns; only the board's entry point and the simulator make the app."""
    edges = graph()
    assert sorted(a for a in edges if "sixtysix.app" in edges[a]) == ["code", "tools.sim"]


def test_every_module_the_firmware_names_exists():
    """The names the firmware imports or forgets by string (sixtysix.forget, the title's
    loading lists) are modules: a module renamed without its names would stay resident,
    or fail to load."""
    known = modules()
    dotted = re.compile(r"^(sixtysix|shared_rules)(\.[a-z_0-9]+)+$")
    missing = []
    for name, path in known.items():
        if not (name.startswith("sixtysix") or name in ("code", "boot")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and dotted.match(node.value):
                if node.value not in known:
                    missing.append((name, node.value))
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "forget":
                for arg in node.args:       # forget's short names are sixtysix's
                    if isinstance(arg, ast.Constant) and "." not in arg.value \
                            and "sixtysix." + arg.value not in known:
                        missing.append((name, arg.value))
    assert missing == []


if __name__ == "__main__":
    for name, out in sorted(graph().items()):
        print("%-32s -> %s" % (name, " ".join(sorted(out))))
