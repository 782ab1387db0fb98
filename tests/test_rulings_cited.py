"""Where a person reads about the rules, a ruling is cited as the refusals cite it — "Rulings §12" (« Décisions §12 »)
with its link — never as `RULINGS §12`, and a printed source by what it is, never by its file name: in the help
pages of the command line, in the descriptions of the OpenAPI document (its fields, operations and the client's
models it is built from), and in the prose of the docs (JSON answers shown as they come keep the ids in `sources`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loveletter.server.app import create_app
from loveletter.server.settings import Settings
from tests.cli import ROOT, loveletter

DOCS = ROOT / "docs"
BARE = re.compile(r"RULINGS §\d+")
SEED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
COMMANDS = ["simulate", "tournament", "demo", "replay", "audit", "show", "explain", "situation", "analyse", "serve"]


@pytest.mark.parametrize("command", [*COMMANDS, "bot run"])
def test_help_pages_cite_rulings_by_name_and_link(command: str) -> None:
    for lang in ("en", "fr"):
        page = loveletter(*command.split(), "--help", "--lang", lang)
        assert page.returncode == 0, page.stderr
        text = " ".join(page.stdout.split())  # click wraps lines where it likes
        assert BARE.search(text) is None and SEED_NAME.search(text) is None, (command, lang, text)


def test_the_rule_option_and_the_timeout_cite_their_ruling_with_its_link() -> None:
    def said(*args: str) -> str:
        return " ".join(loveletter(*args).stdout.split())

    assert "a rule option (Rulings §11: docs/rulings.md#s11)" in said("simulate", "--help", "--lang", "en")
    assert "une option de règle (Décisions §11 : docs/rulings.md#s11)" in said("simulate", "--help", "--lang", "fr")
    tournament_en = said("tournament", "--help", "--lang", "en")
    assert "a rule option (Rulings §11: docs/rulings.md#s11)" in tournament_en
    assert "in process as over HTTP (Rulings §12: docs/rulings.md#s12)" in tournament_en
    assert "comme par HTTP (Décisions §12 : docs/rulings.md#s12)" in said("tournament", "--help", "--lang", "fr")


def _descriptions(node: Any) -> Iterator[str]:
    """Every text of the OpenAPI document a person reads: descriptions and summaries (not the examples' data)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "summary") and isinstance(value, str):
                yield value
            elif key not in ("example", "examples"):
                yield from _descriptions(value)
    elif isinstance(node, list):
        for item in node:
            yield from _descriptions(item)


def test_the_openapi_descriptions_link_the_rulings(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/o.db", key_path=str(tmp_path / "k.key")))
    texts = list(_descriptions(app.openapi()))
    assert len(texts) > 100  # the walk reaches the schemas and the operations
    assert [t for t in texts if BARE.search(t) or SEED_NAME.search(t)] == []
    cited = {link for t in texts for link in re.findall(r"\[Rulings §(\d+)\]\(/rulings#s(\d+)\)", t)}
    assert {("11", "11"), ("12", "12")} <= cited  # rule options, leaving the table: as refusals link them
    assert all(section == anchor for section, anchor in cited)


def _prose(page: Path) -> list[str]:
    """The lines of a docs page a person reads as prose: not inside a code block, not a JSON answer shown as is,
    without inline code."""
    lines, fenced = [], False
    for line in page.read_text("utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and not line.startswith("{"):
            lines.append(re.sub(r"`[^`]*`", " ", line))
    return lines


def test_the_docs_cite_rulings_as_links_and_sources_by_name() -> None:
    pages = sorted(set(DOCS.glob("*.md")) - {DOCS / "rulings.md"})  # the rulings explain the form they are cited by
    assert DOCS / "transcripts.md" in pages and len(pages) > 20
    bare = [(p.name, line) for p in pages for line in _prose(p) if BARE.search(line) or SEED_NAME.search(line)]
    assert bare == []
    link = re.compile(r"\[(?:Rulings|Décisions) §(\d+)\]\(rulings\.md#s(\d+)(?:-[\w-]+)?\)")
    for page in pages:
        for line in _prose(page):
            for section, anchor in link.findall(line):
                assert section == anchor, (page.name, line)


def test_the_transcripts_page_names_the_reader_questions_source_by_what_it_is() -> None:
    page = (DOCS / "transcripts.md").read_text("utf-8")
    assert SEED_NAME.search(page) is None
    assert "[A French rules web page for the 2019 edition](rulings.md#sources)" in page
    assert "[Rulings §5](rulings.md#s5-all-protected)" in page
