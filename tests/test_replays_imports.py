"""The modules of replays/ import one another in one direction only: no circle, not even through an import put
inside a function to dodge one (the way `position` once reached back into `rulings` for `describe_move`)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "loveletter.replays."


def imports_of(path: Path) -> set[str]:
    """The replays modules `path` imports anywhere in it, by their short names."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE):
            found.add(node.module.removeprefix(PACKAGE).split(".")[0])
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix(PACKAGE).split(".")[0] for a in node.names if a.name.startswith(PACKAGE)}
    return found


def test_no_module_of_replays_is_in_a_circle_of_imports() -> None:
    graph = {p.stem: imports_of(p) for p in sorted((ROOT / "replays").glob("*.py"))}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    circles = sorted(name for name in graph if reaches(name, name, {name}))
    assert circles == []
