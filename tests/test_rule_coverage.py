"""Every rule of `core.rules.RULES` has at least one test named after it (dots and dashes become underscores)."""

from __future__ import annotations

import ast
from pathlib import Path

from loveletter.core.rules import RULES

HERE = Path(__file__).parent


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in HERE.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names.update(
            node.name
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_")
        )
    return names


def test_every_rule_id_has_a_test_named_after_it() -> None:
    names = _test_names()
    missing = [
        rule_id for rule_id in RULES if not any(rule_id.replace(".", "_").replace("-", "_") in name for name in names)
    ]
    assert not missing, f"rules without a test: {missing}"
