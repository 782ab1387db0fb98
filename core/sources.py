"""The printed rule sources and the project's rulings, named so that a person can find them.

The rules were specified from five documents kept under file names such as `000_91a7d2231e64ad36.txt`, which
mean nothing to a player. A refusal, a ruling or a rules page shows a source by what it is, in the reader's
language, and cites a ruling as a link into `docs/rulings.md`, where each section has a stable anchor (`#s5`).
Pure data and small functions: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping, NamedTuple, Sequence

from loveletter.core.lang import Lang

RULINGS_URL = "rulings.md"
"""The page of the project's rulings, relative to the docs site's root (`docs/rulings.md`)."""

RULINGS_SECTIONS = range(1, 13)
"""The numbered sections of the rulings, §1 to §12."""


@dataclass(frozen=True, slots=True)
class Source:
    """One printed source: a stable id (used in `docs/rulings.md#sources`) and its name in each language."""

    id: str
    en: str
    fr: str

    def name(self, lang: Lang = "en") -> str:
        return self.fr if lang == "fr" else self.en


SOURCES: Mapping[str, Source] = MappingProxyType(
    {
        "000_91a7d2231e64ad36.txt": Source(
            "2019-fr",
            "Love Letter (2019), French rulebook",
            "Love Letter (2019), règles françaises",
        ),
        "001_d78694f395ea141b.txt": Source(
            "2019-web",
            "a French rules web page for the 2019 edition, with a reader's question",
            "une page web de règles pour l'édition 2019, avec la question d'un lecteur",
        ),
        "002_ffde5cf4fb9261c3.txt": Source(
            "princess-princess-fr",
            "Love Letter Princess Princess, French rules",
            "Love Letter Princesse Princesse, règles",
        ),
        "003_0fc648c025107d8d.txt": Source(
            "2019-en",
            "Love Letter (2019), English rules",
            "Love Letter (2019), règles anglaises",
        ),
        "004_9723e0a7a62a3371.txt": Source(
            "2012-fr",
            "Love Letter (2012), rules summary in French",
            "Love Letter (2012), résumé des règles",
        ),
    }
)
"""Each seed file name the rules cite, to the source it is."""


def ruling_anchor(section: int) -> str:
    """The link to a section of the rulings (`RULINGS §5` → `rulings.md#s5`), relative to the docs site's root."""
    if section not in RULINGS_SECTIONS:
        raise ValueError(f"the rulings have sections §1 to §12, not §{section}")
    return f"{RULINGS_URL}#s{section}"


class Citation(NamedTuple):
    """A rule's source as a person reads it, and the docs page it links to (None: nothing to follow)."""

    text: str
    href: str | None


_RULING = re.compile(r"RULINGS §(\d+)")
_DOCS_PAGE = re.compile(r"docs/([\w.-]+\.md)")


def cite(source: str, lang: Lang = "en") -> Citation:
    """One entry of a rule's `sources` (`RULINGS §5`, a seed file name, `docs/shuffle.md`, `our ruling`) made
    readable: a ruling links to its section, a printed source is named by what it is and links to the table of
    sources, a docs page links to itself. Links are relative to the docs site's root."""
    ruling = _RULING.fullmatch(source)
    if ruling:
        return Citation(f"{'Décisions' if lang == 'fr' else 'Rulings'} §{ruling[1]}", ruling_anchor(int(ruling[1])))
    if source in SOURCES:
        return Citation(SOURCES[source].name(lang), f"{RULINGS_URL}#sources")
    page = _DOCS_PAGE.fullmatch(source)
    if page:
        return Citation(source, page[1])
    if source == "our ruling":
        return Citation("notre décision" if lang == "fr" else "our ruling", None)
    return Citation(source, None)


REFEREE_RULINGS = "/rulings"
"""Where the referee serves the rulings page (`GET /rulings`, web/rulings.py): the same anchors as `rulings.md`."""


def cite_on_referee(sources: Sequence[str], lang: Lang = "en") -> list[dict[str, str | None]]:
    """A rule's sources as an answer of the referee gives them (`rule_sources`): each `{"text", "href"}`, the href
    a path on the referee (`/rulings#s5`, `/rulings#sources`), or None where the referee serves nothing to follow
    (a docs page, a file of the project, our ruling)."""
    out: list[dict[str, str | None]] = []
    for source in sources:
        text, href = cite(source, lang)
        if href is not None and href.startswith(RULINGS_URL + "#"):
            href = REFEREE_RULINGS + href[len(RULINGS_URL) :]
        else:
            href = None
        out.append({"text": text, "href": href})
    return out
