"""The import graph of firmware/, shared_rules/ and tools/, drawn from the source (ast):
no circle, nothing imported from a layer above (the firmware's layers are its packages),
no module that imports the app, no module named by string that does not exist, and no
package of the firmware whose __init__ is more than a docstring saying what it may import.

Every import counts, at the top of a module or inside a function: the firmware imports
most of its modules late, one a frame, and a late import is a door all the same. A
module's import of its own package (`from shared_rules.ai import CHECK_EVERY` in a
module of shared_rules.ai) is no edge: Python runs a package's __init__ before any module
in it.

`python3 host_tests/test_import_graph.py` prints the graph: each module, its layer and
what it imports.
"""
import ast
import re
import sys
from pathlib import Path

import pytest

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


# The layers, lowest first: a module may import the modules of its own layer and of the
# layers below it, never one above (docs/ARCHITECTURE.md draws them). A module is in the
# layer of the longest name that is it or a package of it: the firmware's layers are its
# packages (firmware/sixtysix/core/, ...), so a module is placed by the folder it is in;
# one beside app and restart at the top of firmware/sixtysix/ has to be named here.
LAYERS = (
    ("shared_rules", "the rules engine"),
    ("shared_rules.ai", "the computer players"),
    ("sixtysix", "the package: forget()"),
    ("sixtysix.core", "the screen, the keys, the speaker"),
    ("sixtysix.save", "the log in the nvm"),
    ("sixtysix.table", "the match and its view"),
    ("sixtysix.link", "play over the cable"),
    ("sixtysix.screens", "the screens away from the table"),
    ("sixtysix.app sixtysix.restart", "the app"),
    ("code boot", "the board's entry points"),
    ("tools", "host tools"),
)


def layer_of(name):
    """The index in LAYERS of module `name`."""
    best = None
    for i, (names, _) in enumerate(LAYERS):
        for n in names.split():
            if (name == n or name.startswith(n + ".")) and (best is None or len(n) > len(best[1])):
                best = (i, n)
    assert best is not None and (best[1] != "sixtysix" or name == "sixtysix"), "no layer for " + name
    return best[0]


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


def test_every_module_has_a_layer_and_a_layer_finds_its_modules():
    names = ("shared_rules.deal", "shared_rules.ai.hard", "sixtysix", "sixtysix.core.ui", "sixtysix.save",
             "sixtysix.table.felt", "sixtysix.link.match", "sixtysix.screens.text", "sixtysix.app",
             "tools.deploy.rawrepl")
    assert [layer_of(n) for n in names] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 10]
    for name in graph():
        layer_of(name)
    with pytest.raises(AssertionError, match="no layer for sixtysix.newmodule"):
        layer_of("sixtysix.newmodule")


def test_nothing_imports_from_a_layer_above_it():
    edges = graph()
    assert [(a, b) for a in sorted(edges) for b in sorted(edges[a]) if layer_of(b) > layer_of(a)] == []


def test_no_module_imports_the_app():
    """A screen or the table gets what it needs when it is made and tells the app what it
    wants by what it returns; only the board's entry point and the simulator make the app."""
    edges = graph()
    assert sorted(a for a in edges if "sixtysix.app" in edges[a]) == ["code", "tools.sim"]


def test_no_screen_is_given_the_app():
    """A screen, the table and the app's own work kept out of its module
    (screens.friends.open, screens.loading.begin, link.session.start_linked, ...) keep
    the Device they are given (sixtysix.core.device), never the App: no module below the
    app keeps one (`self.app`, `x.app`) or takes one as an argument (`app`)."""
    kept, given = [], []
    for name, path in modules().items():
        if not name.startswith("sixtysix.") or layer_of(name) >= layer_of("sixtysix.app"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "app":
                kept.append((name, node.lineno))
            if isinstance(node, (ast.FunctionDef, ast.Lambda)) and \
                    any(a.arg == "app" for a in node.args.args + node.args.kwonlyargs):
                given.append((name, getattr(node, "name", "lambda")))
    assert kept == [] and given == []


def app_class():
    """The App's class in sixtysix/app.py (ast)."""
    tree = ast.parse(modules()["sixtysix.app"].read_text(encoding="utf-8"))
    return [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "App"][0]


def test_the_app_enters_no_room_below_it():
    """The App hands nothing of itself to the modules below it: no call in sixtysix/app.py
    is given the App (`self`), one of its methods (`self.start`) or a function that
    closes over it (`lambda: drop(self)`); it gives the Device and what is used by name,
    and acts on what it is answered. Together with test_no_screen_is_given_the_app: no
    module of screens/, link/ or table/ can reach into the App's attributes."""
    cls = app_class()
    methods = {f.name for f in cls.body if isinstance(f, ast.FunctionDef)}

    def of_app(arg):
        if isinstance(arg, ast.Starred):
            arg = arg.value
        if isinstance(arg, ast.Name) and arg.id == "self":
            return True
        if isinstance(arg, ast.Attribute) and isinstance(arg.value, ast.Name) and arg.value.id == "self":
            return arg.attr in methods
        if isinstance(arg, ast.Lambda):
            return any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(arg.body))
        return False

    handed = []
    for node in ast.walk(cls):
        if isinstance(node, ast.Call):
            f = node.func
            own = isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self"
            if not own:         # (the App calling its own methods with itself is no door)
                handed += [(node.lineno, ast.unparse(a)) for a in node.args + [k.value for k in node.keywords]
                           if of_app(a)]
    assert handed == []


def test_the_app_keeps_no_second_name_for_what_the_device_owns():
    """Each thing has one owner: what the Device holds (the settings, the store, the
    sound, the board, the display, link play's session and port, ...) the App does not
    keep too: no `self.<name>` in sixtysix/app.py names an attribute of the Device."""
    known = modules()
    tree = ast.parse(known["sixtysix.core.device"].read_text(encoding="utf-8"))
    device = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
              and isinstance(n.value, ast.Name) and n.value.id == "self" and isinstance(n.ctx, ast.Store)}
    assert {"settings", "store", "sound", "session", "board"} <= device
    kept = {n.attr for n in ast.walk(app_class()) if isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name) and n.value.id == "self" and isinstance(n.ctx, ast.Store)}
    assert "device" in kept and sorted(kept & device) == []


def firmware_packages(known):
    """The packages of sixtysix (core, save, ...): a firmware name that starts with one
    of them is sixtysix's ("link.play": sixtysix.link.play)."""
    return sorted(n[len("sixtysix."):] for n, path in known.items()
                  if n.startswith("sixtysix.") and path.name == "__init__.py")


def misnamed(known):
    """(module, string) for each string in the firmware that should name a module of
    sixtysix or shared_rules and does not: a whole name ("sixtysix.link.play") that is no
    module, a string beside whole names in a list of them (the lists the title and link
    play load and forget), a short name given to sixtysix.forget that its package does
    not hold (forget("sixtysix.table", "build")), a value of App.MENUS or of
    screens.loading.SCREENS (modules of sixtysix.screens: "title")."""
    dotted = re.compile(r"^(sixtysix|shared_rules)(\.[a-z_0-9]+)*$")

    def named(node):
        return isinstance(node, ast.Constant) and isinstance(node.value, str) and dotted.match(node.value)

    def of_screens(module, node):
        return [(module, v.value) for v in node if "sixtysix.screens." + v.value not in known]

    missing = []
    for name, path in known.items():
        if not (name.startswith("sixtysix") or name in ("code", "boot")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if named(node) and "." in node.value and node.value not in known:
                missing.append((name, node.value))
            elif isinstance(node, (ast.List, ast.Tuple)) and any(named(e) for e in node.elts):
                missing += [(name, e.value) for e in node.elts if isinstance(e, ast.Constant) and not named(e)]
            elif isinstance(node, ast.Assign) and (name, [getattr(n, "id", None) for n in node.targets]) in \
                    (("sixtysix.app", ["MENUS"]), ("sixtysix.screens.loading", ["SCREENS"])):
                missing += of_screens(name, getattr(node.value, "values", getattr(node.value, "elts", None)))
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "forget":
                first, rest = node.args[0], node.args[1:]
                if isinstance(first, ast.Constant):
                    package = first.value
                    if not named(first):
                        missing.append((name, package))
                    missing += [(name, package + "." + a.value) for a in rest if isinstance(a, ast.Constant)
                                and package + "." + a.value not in known]
    return missing


def test_every_module_the_firmware_names_exists():
    """The names the firmware imports or forgets by string (sixtysix.forget, the title's
    loading lists, App.MENUS and the menu modules' OPENS, link play's lists) are modules, whole: a module
    renamed or moved without its names would stay resident, or fail to load."""
    assert misnamed(modules()) == []


def assigned(path, target):
    """The value of module-level `target = <literal>` in the file at `path`, or None."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(n, "id", None) for n in node.targets] == [target]:
            return ast.literal_eval(node.value)
    return None


def test_each_menu_module_says_what_its_own_screens_need():
    """App.before reads a screen's OPENS from the screen's menu module (App.MENUS), so a
    module's OPENS names only screens whose menu module it is."""
    known = modules()
    menus = assigned(known["sixtysix.app"], "MENUS")
    opens = {n: assigned(path, "OPENS") for n, path in known.items() if n.startswith("sixtysix.screens.")}
    opens = {n: o for n, o in opens.items() if o is not None}
    assert sorted(opens) == ["sixtysix.screens.friends", "sixtysix.screens.text", "sixtysix.screens.title"]
    assert [(n, screen) for n, o in opens.items() for screen in o
            if "sixtysix.screens." + menus.get(screen, "") != n] == []


def bare(path):
    """What a package's __init__ holds beside its docstring (a list of statements), or
    None when it has no docstring."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if not ast.get_docstring(tree):
        return None
    return tree.body[1:]


def test_the_firmware_packages_hold_a_docstring_and_nothing_else():
    """A package of sixtysix (core, save, table, link, screens) is its docstring alone:
    what it holds and which packages it may import. Code or an import there would stay in
    the heap as long as any of its modules is loaded (and an import would load modules
    that sixtysix.forget then could not drop). sixtysix's own __init__ is forget()."""
    known = modules()
    packages = firmware_packages(known)
    assert packages == ["core", "link", "save", "screens", "table"]
    wrong = []
    for name in packages:
        path = known["sixtysix." + name]
        rest = bare(path)
        if rest is None or rest or "May import" not in ast.get_docstring(ast.parse(path.read_text())):
            wrong.append(name)
    assert wrong == []


if __name__ == "__main__":
    for name, out in sorted(graph().items(), key=lambda item: (layer_of(item[0]), item[0])):
        print("%2d %-32s -> %s" % (layer_of(name), name, " ".join(sorted(out))))
