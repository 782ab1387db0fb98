"""French typography in every French string the pages, the API and the command line can show (issue 35): a narrow
no-break space (U+202F) before « : ; ! ? » and inside « », never a plain or a no-break space there, and never none.

Two readings, each able to fail alone:

(a) the source. Every string literal of the product's packages that puts a space before those signs or inside the
    guillemets — only French does — puts the narrow one; and every literal known to be French (the French of a
    `Text(en, fr)` or of a `RuleViolation`, which is also every word of the pages' catalogues; the French branch of
    `… if fr else …`; the words given to `plural_fr`) has a space before a sign that ends a clause.
(b) what is shown: the pages' French catalogue, every rule text, the French story of whole games in every ruleset
    (as the seat page and the viewer tell it, and as a seat saw it), the French refusals of the rules, and what
    the command line prints in French.

The API's problems are the `Text` and `RuleViolation` pairs of (a); its French answers are checked in
tests/test_http_french.py with this module's `faults`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import loveletter
from loveletter.core.rules import RULES
from loveletter.play.bots import get_bot
from loveletter.play.simulate import play_game, root_key
from loveletter.replays.narrative import narrate
from loveletter.replays.pov import narrate_pov
from loveletter.web.words import WORDS
from tests.cli import loveletter as run_cli

PACKAGE = Path(loveletter.__file__).parent
PRODUCT = ("core", "events", "replays", "referee", "api", "cli", "play", "client", "env", "server", "web")
NNBSP = "\u202f"

_SPACED = re.compile(r"[ \u00a0][:;!?](?=\s|$|[\"'»)\]])")
"""A plain or no-break space before a sign: French, set with the wrong space."""
_GUILLEMETS = re.compile(r"«(?!\u202f)|(?<!\u202f)»")
_TIGHT = re.compile(r"[^\s\u00a0\u202f(\[{«'\"/:;!?.…][:;!?](?=\s|$)")
"""A sign that ends a clause with nothing before it (« pioche: 6 »), in a text known to be French."""
_QUOTED = re.compile(r"«[^»]*»")
_SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|WHERE|VALUES|CREATE)\b")


def faults(text: str, *, french: bool = True) -> list[str]:
    """Where `text` breaks French typography (each with a little context); `french=False` for a text that may be
    English, where only a space set before a sign or inside guillemets is French, and must be the narrow one."""
    found = [m for pattern in (_SPACED, _GUILLEMETS) for m in pattern.finditer(text)]
    if french:  # what guillemets quote (a header, a name, a command) keeps its own punctuation
        found += list(_TIGHT.finditer(_QUOTED.sub(lambda m: "«" + "x" * (len(m[0]) - 2) + "»", text)))
    return [repr(text[max(0, m.start() - 15) : m.end() + 5]) for m in sorted(found, key=lambda m: m.start())]


# -- (a) the source ----------------------------------------------------------------------------------------------


def literal(node: ast.expr) -> str | None:
    """The text of a string or f-string, each placeholder an "X"; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(p.value if isinstance(p, ast.Constant) else "X" for p in node.values)
    return None


def _is_french_test(node: ast.expr) -> bool:
    """`fr`, `self.fr`, `lang == "fr"`: the test of a French branch."""
    if isinstance(node, ast.Name | ast.Attribute):
        return (node.id if isinstance(node, ast.Name) else node.attr) == "fr"
    return (
        isinstance(node, ast.Compare)
        and isinstance(node.ops[0], ast.Eq)
        and any(isinstance(c, ast.Constant) and c.value == "fr" for c in node.comparators)
    )


def _french_nodes(tree: ast.AST) -> Iterator[ast.expr]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name in ("Text", "Problem") and len(node.args) >= 2:
                yield node.args[1]
            if name == "RuleViolation" and len(node.args) == 4:
                yield node.args[3]
            if name == "plural_fr":
                yield from node.args[1:]
            yield from (k.value for k in node.keywords if k.arg == "fr")
        elif isinstance(node, ast.IfExp) and _is_french_test(node.test):
            yield node.body


def _sources() -> list[Path]:
    return sorted(p for folder in PRODUCT for p in (PACKAGE / folder).rglob("*.py"))


def test_the_scan_reads_the_product() -> None:
    assert len(_sources()) > 150
    french = [n for p in _sources() for n in _french_nodes(ast.parse(p.read_text()))]
    assert len(french) > 800  # the words of the pages alone are some 500 pairs


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstrings' nodes (for whoever reads the code, not shown by the product)."""
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr)
    }


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_french_literal_is_typeset(path: Path) -> None:
    tree = ast.parse(path.read_text())
    docs = _docstrings(tree)
    wrong = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr) or id(node) in docs:
            continue
        text = literal(node)
        if text and not _SQL.search(text):
            wrong += [f"line {node.lineno}: {f}" for f in faults(text, french=False)]
    for node in _french_nodes(tree):
        text = literal(node)
        if text:
            wrong += [f"line {node.lineno}: {f}" for f in faults(text)]
    assert wrong == [], "\n".join(sorted(set(wrong)))


def test_the_checks_can_fail() -> None:
    assert faults("Cartes dans la pioche: 6") and faults("Cartes dans la pioche : 6")
    assert faults("« Garde »") and faults(f"«{NNBSP}Garde »") and not faults(f"«{NNBSP}Garde{NNBSP}»")
    assert faults("Pioche : 6", french=False) and not faults("Deck: 6", french=False)
    assert not faults(f"Pioche{NNBSP}: 6{NNBSP}; https://example.org/a?b=1 à 10:30{NNBSP}!")


# -- (b) what is shown ---------------------------------------------------------------------------------------------


def test_no_template_writes_a_bare_colon_after_a_word_of_the_catalogue() -> None:
    """`{{ t["seat.deck"] }}: ` reads « pioche: » in French: a template puts `t["colon"]` after a catalogue word."""
    bare = re.compile(r"\}\}(?:</\w+>)?[:;!?]")
    templates = sorted((PACKAGE / "web" / "templates").glob("*.html"))
    assert len(templates) > 5
    wrong = [
        f"{path.name}:{n}: {line.strip()}"
        for path in templates
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(line)
    ]
    assert wrong == [], "\n".join(wrong)


def test_every_word_of_the_pages_and_every_rule_text() -> None:
    wrong = [f"{key}: {f}" for key, text in WORDS.items() for f in faults(text("fr"))]
    wrong += [f"{rule_id}: {f}" for rule_id, rule in RULES.items() for f in faults(rule.text("fr"))]
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("ruleset", ["2019", "2019-classic", "2012", "princess-princess"])
def test_the_french_story_of_whole_games(ruleset: str) -> None:
    wrong: list[str] = []
    for game in range(3):
        events: list = []
        play_game(ruleset, [get_bot("heuristic")] * (2 + game), root_key(7), game, record=events)
        lines = narrate(events, "fr", omniscient=True) + narrate(events, "fr")
        lines += [line for seat in range(2 + game) for line in narrate_pov(events, seat, "fr")]
        assert len(lines) > 20
        wrong += [f for line in lines for f in faults(line)]
    assert wrong == [], "\n".join(sorted(set(wrong))[:20])


def test_what_the_command_line_prints_in_french(tmp_path: Path) -> None:
    log = tmp_path / "partie.jsonl"
    log.write_text('{"type": "game_started"}\n')  # a log the audit refuses, with its reasons
    shown = ""
    for args in (("simulate", "--games", "20", "--seed", "3"), ("demo", "--seed", "2"), ("audit", str(log))):
        out = run_cli("--lang", "fr", *args)
        shown += out.stdout + out.stderr
    assert "manche" in shown and "parties" in shown, shown[:500]
    assert faults(shown) == [], "\n".join(faults(shown)[:20])
