"""The figures of an emulator run, from what run.mjs wrote: the floors the boards issue sets.

Per board: crashes (tracebacks, MemoryError, "Code done running" on the console), the
least free heap after a collection and where it was (the keys file's line), the least
largest free block; at each power-on (the first is the first boot after the deploy, any
later one a normal boot) when code.py started, the title drawn (the end of its last
refresh of a quarter of the screen or more) and the title usable (the end of the last
refresh that drew before the board first waited for the player); the worst refresh
after the title, the answer to a key (from the press to the end of the first refresh
that draws after it), the longest stretch the CPU was busy (Hard's thinking), and the
flash sectors the game erased.
"""
import csv
import json
from pathlib import Path


def rows(path):
    with open(path, newline="") as f:
        return [{k: (float(v) if k != "offset" else v) for k, v in r.items()} for r in csv.DictReader(f)]


def where(marks, ms):
    """The label of the last mark at or before `ms` (the keys file's line)."""
    label = "boot"
    for at, text in marks:
        if at <= ms:
            label = text
    return label


def median(values):
    s = sorted(values)
    return s[len(s) // 2] if s else None


def summarize(out, result, **about):
    out = Path(out)
    marks = [(m[0] / 1e6, m[1]) for m in result["marks"]]
    title_at = next((at for at, label in marks if label == "title"), None)
    summary = dict(about, emulated_s=round(result["emulatedMs"] / 1000, 1), wall_s=round(result["seconds"], 1),
                   unsettled=len(result["unsettled"]), boards=[])
    for i, b in enumerate(result["boards"]):
        console = (out / ("console-%d.txt" % i)).read_text(encoding="latin-1")
        refreshes = rows(out / ("refreshes-%d.csv" % i))
        heap = rows(out / ("heap-%d.csv" % i))
        erases = rows(out / ("erases-%d.csv" % i))
        drawn = [r for r in refreshes if r["pixels"] > 0]      # (a refresh with nothing to draw shows nothing)
        ends = [r["start_ms"] + r["ms"] for r in drawn]
        # each power-on: from it to the end of the last refresh before the board first waited
        usable, shown, code = [], [], []
        screen = max((r["pixels"] for r in drawn), default=0)      # a whole screen's pixels
        for boot in b["boots"]:
            ready = next((at for at, label in marks if label == "title" and at > boot), None)
            last = max((e for e in ends if boot < e <= (ready or 0)), default=None)
            usable.append(round(last - boot) if last is not None else None)
            # the title drawn: its last refresh of a quarter of the screen or more (what
            # follows it are the title's loading dots, and it takes keys meanwhile)
            big = max((r["start_ms"] + r["ms"] for r in drawn if r["pixels"] * 4 >= screen and
                       boot < r["start_ms"] + r["ms"] <= (ready or 0)), default=None)
            shown.append(round(big - boot) if big is not None else None)
            # boot.py's VM, then code.py's: the second start after the power-on
            vms = [t for t in b.get("vms", []) if boot <= t <= (ready or float("inf"))]
            code.append(round(vms[1] - boot) if len(vms) > 1 else None)
        # a power-on's own refreshes, up to its title, are the boot's, not the game's answers
        booting = [(boot, next((at for at, label in marks if label == "title" and at > boot), float("inf")))
                   for boot in b["boots"]]
        after = [r for r in refreshes if not any(s <= r["start_ms"] <= e for s, e in booting)]
        worst = max(after, key=lambda r: r["ms"], default=None)
        answers = []
        for press_ms, _pin in b["presses"]:
            first = next((r for r in drawn if r["start_ms"] >= press_ms), None)
            if first is not None:
                answers.append(first["start_ms"] + first["ms"] - press_ms)
        least = min(heap, key=lambda h: h["free"], default=None)
        busy = max((s[1] - s[0] for s in b["busy"] if title_at is None or s[0] > title_at), default=0)
        summary["boards"].append({
            "tracebacks": console.count("Traceback"),
            "memory_errors": console.count("MemoryError"),
            "code_done": console.count("Code done running"),
            "title_usable_ms": usable,
            "title_drawn_ms": shown,
            "code_py_ms": code,
            "least_free": int(least["free"]) if least else None,
            "least_free_at": where(marks, least["ms"]) if least else None,
            "least_largest_block": int(min(h["largest"] for h in heap)) if heap else None,
            "collections": len(heap),
            "worst_refresh_ms": round(worst["ms"], 1) if worst else None,
            "worst_refresh_at": where(marks, worst["start_ms"]) if worst else None,
            "key_answer_median_ms": round(median(answers), 1) if answers else None,
            "key_answer_max_ms": round(max(answers), 1) if answers else None,
            "longest_busy_ms": round(busy),
            "flash_erases": len([e for e in erases if title_at is not None and e["ms"] > title_at]),
            "boots": b["boots"],
            "console_tail": console[-600:],
        })
    return summary


def report(summary):
    lines = ["%s on %s: %.1f s emulated in %.1f s%s" % (
        summary.get("profile"), summary.get("image"), summary["emulated_s"], summary["wall_s"],
        ", %d waits for the player never came" % summary["unsettled"] if summary["unsettled"] else "")]
    for n, b in enumerate(summary["boards"]):
        lines.append(("board %s: " % "ab"[n]) + json.dumps({k: v for k, v in b.items() if k != "console_tail"}))
    return "\n".join(lines)
