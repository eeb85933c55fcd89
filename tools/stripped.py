"""A package copied without its docstrings, for the benches (tools.bench, compilebench,
screenbench) that measure the code as the board holds it."""
import ast
import os


def without_docstrings(src_dir, dst_dir):
    """Copy a package (with its subpackages) with its docstrings removed.

    The VM's MicroPython build keeps docstrings in the heap; CircuitPython's board builds
    do not compile them in, so the stripped figure is the one that applies on the board.
    Only the docstrings' lines change (to `pass` and blank lines): the rest of the source
    stays as written, since MicroPython compiles some spellings differently (a swap
    `a, b = b, a` allocates nothing, `(a, b) = (b, a)` a tuple).
    """
    os.makedirs(dst_dir, exist_ok=True)
    for name in os.listdir(src_dir):
        src = os.path.join(src_dir, name)
        if os.path.isdir(src) and name != "__pycache__":
            without_docstrings(src, os.path.join(dst_dir, name))
        if not name.endswith(".py"):
            continue
        text = open(src, encoding="utf-8").read()
        lines = text.split("\n")
        for node in ast.walk(ast.parse(text)):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                doc = body[0]
                first = lines[doc.lineno - 1]
                lines[doc.lineno - 1] = first[:doc.col_offset] + "pass"
                for i in range(doc.lineno, doc.end_lineno):
                    lines[i] = ""
        with open(os.path.join(dst_dir, name), "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
