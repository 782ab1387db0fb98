"""The docs name a rule's sources by what they are: docs/rules.md (written by docs/generate.py) links a ruling to its
section of rulings.md and names each printed source in English and in French; the glossary and the audit page show
no seed file name to a reader (the audit's JSON example keeps the ids, as the answer does). And the rulings page the
referee serves is docs/rulings.md cut to one language (docs/rulings_html.py), checked here on a small page."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.append(str(DOCS))  # last: the docs scripts shadow nothing

import generate  # noqa: E402
import rulings_html  # noqa: E402

SEED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")


def test_a_rules_source_on_the_rules_page_in_english_and_french() -> None:
    assert generate._source("RULINGS §5") == "[Rulings §5](rulings.md#s5)"
    assert generate._source("RULINGS §12", "fr") == "[Décisions §12](rulings.md#s12)"
    assert generate._source("003_0fc648c025107d8d.txt") == "[Love Letter (2019), English rules](rulings.md#sources)"
    assert generate._source("000_91a7d2231e64ad36.txt", "fr") == (
        "[Love Letter (2019), règles françaises](rulings.md#sources)"
    )
    assert generate._source("docs/shuffle.md") == "[`docs/shuffle.md`](shuffle.md)"
    assert generate._source("events/log.py") == "`events/log.py`"
    assert generate._source("our ruling", "fr") == "notre décision"


def test_the_rules_page_cites_by_name_and_links_every_ruling() -> None:
    text = (DOCS / "rules.md").read_text("utf-8")
    assert SEED_NAME.search(text) is None
    assert "RULINGS §" not in text
    section = text.split("### `countess.forced`")[1].split("\n### ")[0]
    assert (
        "Sources: [Rulings §5](rulings.md#s5); [Love Letter (2019), French rulebook](rulings.md#sources); "
        "[Love Letter (2019), English rules](rulings.md#sources)." in section
    )
    assert (
        "Sources : [Décisions §5](rulings.md#s5) ; [Love Letter (2019), règles françaises](rulings.md#sources) ; "
        "[Love Letter (2019), règles anglaises](rulings.md#sources)." in section
    )


def test_the_glossary_and_the_audit_page_show_no_file_name_to_a_reader() -> None:
    assert SEED_NAME.search((DOCS / "glossary.md").read_text("utf-8")) is None
    audit = (DOCS / "audit.md").read_text("utf-8")
    prose = [line for line in audit.splitlines() if not line.startswith("{")]  # JSON answers keep the ids
    assert [line for line in prose if SEED_NAME.search(line)] == []
    assert "  sources: Rulings §5; Love Letter (2019), French rulebook; Love Letter (2019), English rules" in audit


SAMPLE = """# Rulings · Décisions

**EN** The intro, see [Rules](rules.md#x) and [§2](#s2).

**FR** L'introduction, voir [Rules](rules.md#x) et le [§2](#s2).

## §2 A turn · Un tour {#s2}

**EN** *Decision:* yes.

- a point

*Why:* because.

**FR** *Décision :* oui.

*Pourquoi :* parce que.

| ruleset | tie · égalité |
|---|---|
| `2012` | nobody · personne |

Rules · Règles : [`turn.order`](rules.md#turn.order).

### `tie_2012`: a tie · une égalité {#s2-tie}
"""


def test_one_language_keeps_its_blocks_and_the_shared_ones() -> None:
    assert rulings_html.one_language(SAMPLE, "en") == (
        "# Rulings\n\n"
        "The intro, see Rules and [§2](#s2).\n\n"
        "## §2 A turn {#s2}\n\n"
        "*Decision:* yes.\n\n"
        "- a point\n\n"
        "*Why:* because.\n\n"
        "| ruleset | tie |\n"
        "|---|---|\n"
        "| `2012` | nobody |\n\n"
        "Rules: `turn.order`.\n\n"
        "### `tie_2012`: a tie {#s2-tie}\n"
    )
    assert rulings_html.one_language(SAMPLE, "fr") == (
        "# Décisions\n\n"
        "L'introduction, voir Rules et le [§2](#s2).\n\n"
        "## §2 Un tour {#s2}\n\n"
        "*Décision :* oui.\n\n"
        "*Pourquoi :* parce que.\n\n"
        "| ruleset | égalité |\n"
        "|---|---|\n"
        "| `2012` | personne |\n\n"
        "Règles : `turn.order`.\n\n"
        "### `tie_2012`: une égalité {#s2-tie}\n"
    )


def test_the_rendered_page_keeps_the_anchors_and_makes_tables_reachable() -> None:
    html = rulings_html.render(SAMPLE, "fr")
    assert '<h2 id="s2">§2 Un tour</h2>' in html
    assert '<h3 id="s2-tie"><code>tie_2012</code>: une égalité</h3>' in html
    assert '<div class="table" tabindex="0" role="region" aria-label="Tableau"><table>' in html
    assert html.count("</table></div>") == 1
    assert 'href="rules.md' not in html
