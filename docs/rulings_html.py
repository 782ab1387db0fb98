"""The rulings page the referee serves (`GET /rulings`), rendered from `docs/rulings.md` when the docs are generated.

`docs/rulings.md` says every ruling in English and in French, block after block. The referee serves it in one
language at a time (the visitor's, as every other page): this module keeps the blocks of one language and the
shared ones (headings, tables, the lists of rules), cuts each bilingual heading or table cell (`English · français`)
to its half, and renders the result with Python-Markdown. Markdown is a development tool here (it comes with
mkdocs), not a dependency of the wheel: `docs/generate.py` writes `web/rulings/en.html` and `web/rulings/fr.html`,
which travel as package data, and `--check` fails when they no longer match `docs/rulings.md`.

Links to other pages of the docs site (`rules.md#guard.effect`) do not exist on the referee: their text stays,
the link goes. Links inside the page (`#s8`) and every anchor (`{#s5}`, `{#s5-all-protected}`) are kept.
"""

from __future__ import annotations

import re

BOTH = " · "
"""What separates the English from the French in a heading or a table cell."""

_HEADING = re.compile(r"^(#{1,6}) (.*?)(\s*\{[^}]*\})?$")
_LEAD = re.compile(r"^(§\d+ |`[^`]+`: )")
_OUTSIDE_LINK = re.compile(r"\[([^\]]+)\]\((?!#)[^)]+\)")
_RULES_LINE = "Rules · Règles :"
TABLE = {"en": "Table", "fr": "Tableau"}


def _half(text: str, lang: str) -> str:
    """One language of `English · français` (a text without the separator is the same in both)."""
    if text.count(BOTH) != 1:
        return text
    en, fr = text.split(BOTH)
    if lang == "en":
        return en
    lead = _LEAD.match(en)
    return lead.group(1) + fr if lead and not fr.startswith(lead.group(1)) else fr


def _heading(line: str, lang: str) -> str:
    match = _HEADING.match(line)
    if match is None:
        return line
    marks, title, attrs = match.groups()
    return f"{marks} {_half(title, lang)}{attrs or ''}"


def _table(block: str, lang: str) -> str:
    rows = []
    for row in block.split("\n"):
        if set(row) <= set("|-: "):  # the line under the header row
            rows.append(row)
            continue
        cells = row.strip().strip("|").split(" | ")
        rows.append("| " + " | ".join(_half(cell.strip(), lang) for cell in cells) + " |")
    return "\n".join(rows)


def one_language(text: str, lang: str) -> str:
    """The Markdown of `docs/rulings.md` in `lang` only ("en" or "fr")."""
    out: list[str] = []
    current: str | None = None  # the language of the blocks being read (None: both)
    for block in text.strip().split("\n\n"):
        if block.startswith(("**EN** ", "**FR** ")):
            current = block[2:4].lower()
            block = block[len("**EN** ") :]
        elif block.startswith("#"):
            current = None
            block = _heading(block, lang)
        elif block.startswith("|"):
            current = None
            block = _table(block, lang)
        elif block.startswith(_RULES_LINE):
            current = None
            block = ("Rules:" if lang == "en" else "Règles :") + block[len(_RULES_LINE) :]
        if current not in (None, lang):
            continue
        out.append(_OUTSIDE_LINK.sub(r"\1", block))
    return "\n\n".join(out) + "\n"


def render(text: str, lang: str) -> str:
    """The page's HTML body in `lang`: Python-Markdown with the extensions mkdocs.yml uses for headings and tables."""
    import markdown  # a development tool (mkdocs brings it): only `docs/generate.py` calls this

    html = markdown.markdown(one_language(text, lang), extensions=["attr_list", "toc", "tables"], output_format="html")
    # A wide table scrolls on its own on a phone; a keyboard reaches it (a focusable region named in the page's
    # language), so it can scroll it too.
    region = f'<div class="table" tabindex="0" role="region" aria-label="{TABLE[lang]}">'
    html = html.replace("<table>", region + "<table>").replace("</table>", "</table></div>")
    return html.strip() + "\n"
