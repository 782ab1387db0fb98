"""The rulings ship with the product: `docs/rulings.md` has an anchor for every cited `RULINGS §N`, says each
ruling in English and in French, names its sources by what they are (never by a seed file name), and agrees with
`core/sources.py`, the same names as data.

The anchors are read from the page rendered by Python-Markdown with the heading extensions mkdocs.yml configures
(attr_list, toc), so a heading whose `{#sN}` the site would not turn into an id fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import markdown
import pytest

from loveletter.core.sources import RULINGS_SECTIONS, RULINGS_URL, SOURCES, Citation, Source, cite, ruling_anchor

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / RULINGS_URL
TEXT = PAGE.read_text(encoding="utf-8")
SEED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")
CITATION = re.compile(r"RULINGS ((?:§\d+(?:, | and )?)+)")
SECTION = re.compile(r"^## §(\d+) .*\{#(s\d+)\}$", re.M)
ENTRY = re.compile(r"^### .*\{#([a-z0-9-]+)\}$", re.M)


def _ids() -> set[str]:
    html = markdown.markdown(TEXT, extensions=["attr_list", "toc", "tables"])
    return set(re.findall(r'<h[1-6] id="([^"]+)"', html))


def _python_files(*folders: str) -> list[Path]:
    return [p for folder in folders for p in sorted((ROOT / folder).rglob("*.py"))]


def _sections() -> dict[int, str]:
    """Each § section's text, from its heading to the next `## ` heading."""
    heads = list(SECTION.finditer(TEXT))
    out: dict[int, str] = {}
    for i, head in enumerate(heads):
        end = TEXT.find("\n## ", head.end())
        out[int(head.group(1))] = TEXT[head.start() : end if end != -1 else len(TEXT)]
        assert head.group(2) == f"s{head.group(1)}", head.group(0)
        assert i == 0 or int(heads[i - 1].group(1)) < int(head.group(1)), "sections out of order"
    return out


def _has_both_languages(text: str) -> bool:
    return re.search(r"^\*\*EN\*\* \S", text, re.M) is not None and re.search(r"^\*\*FR\*\* \S", text, re.M) is not None


def test_every_cited_section_has_its_anchor() -> None:
    cited: set[int] = set()
    for path in _python_files("core", "replays"):
        for match in CITATION.finditer(path.read_text(encoding="utf-8")):
            cited |= {int(n) for n in re.findall(r"\d+", match.group(1))}
    assert {1, 5, 12} <= cited, "the code cites the rulings less than it did: check the pattern"
    ids = _ids()
    missing = sorted(n for n in cited if f"s{n}" not in ids)
    assert not missing, f"RULINGS § cited in core/ or replays/ without an anchor on docs/rulings.md: {missing}"


def test_one_section_per_ruling_in_order_each_in_english_and_french() -> None:
    sections = _sections()
    assert list(sections) == list(RULINGS_SECTIONS)
    ids = _ids()
    for n, text in sections.items():
        assert ruling_anchor(n).split("#")[1] in ids
        lead = text.split("\n### ")[0]
        assert _has_both_languages(lead), f"§{n} needs an **EN** and an **FR** part before its points"


def test_every_point_is_anchored_under_its_section_in_both_languages() -> None:
    ids = _ids()
    seen: list[str] = []
    for n, text in _sections().items():
        points = text.split("\n### ")[1:]
        for point in points:
            anchor = ENTRY.search("### " + point)
            assert anchor is not None, f"a point of §{n} has no anchor: {point[:60]!r}"
            name = anchor.group(1)
            assert name.startswith(f"s{n}-"), f"{name} sits under §{n}"
            assert name in ids
            assert _has_both_languages(point), f"{name} needs an **EN** and an **FR** part"
            seen.append(name)
    assert len(seen) == len(set(seen))
    # the points the project's own docs and issues already point at
    assert {"s2-face-down-revealed", "s5-all-protected", "s7-spy-favor", "s11-tie-2012"} <= set(seen)


def test_sources_table_names_every_source_in_both_languages() -> None:
    assert "sources" in _ids()
    start = TEXT.index("{#sources}")
    section = TEXT[start : TEXT.index("\n## ", start)]
    rows = re.findall(r"^\| `([^`]+)` \| ([^|]*) \| ([^|]*) \|", section, re.M)
    table = {sid: (en.strip(), fr.strip()) for sid, en, fr in rows}
    assert len(table) == len(rows), "a source id is listed twice"
    for sid, (en, fr) in table.items():
        assert en and fr and en != fr, f"source {sid} needs an English and a French name"
    assert table == {source.id: (source.en, source.fr) for source in SOURCES.values()}


def test_no_seed_file_name_on_the_page() -> None:
    assert SEED_NAME.findall(TEXT) == []


def test_every_source_the_rules_cite_has_a_name() -> None:
    cited = {name for path in _python_files("core") for name in SEED_NAME.findall(path.read_text(encoding="utf-8"))}
    assert len(cited) == 5, cited  # the five seed files the rules were written from
    assert cited <= set(SOURCES)
    ids = [source.id for source in SOURCES.values()]
    assert len(ids) == len(set(ids))


def test_source_names_by_language() -> None:
    spp = SOURCES["002_ffde5cf4fb9261c3.txt"]
    assert spp == Source("princess-princess-fr", spp.en, "Love Letter Princesse Princesse, règles")
    assert spp.name("fr") == spp.fr and spp.name("en") == spp.name() == spp.en
    assert SOURCES["000_91a7d2231e64ad36.txt"].name("fr") == "Love Letter (2019), règles françaises"
    assert SOURCES["003_0fc648c025107d8d.txt"].name("en") == "Love Letter (2019), English rules"


def test_ruling_anchor() -> None:
    assert ruling_anchor(5) == "rulings.md#s5"
    assert ruling_anchor(12) == "rulings.md#s12"
    for outside in (0, 13, -5):
        with pytest.raises(ValueError, match="§1 to §12"):
            ruling_anchor(outside)


def test_every_source_the_rules_cite_reads_as_a_name_or_a_link() -> None:
    quoted = re.compile(r'"(RULINGS §\d+|\d{3}_[0-9a-f]{16}\.txt|docs/[\w.-]+\.md|our ruling)"')
    cited = {s for path in _python_files("core") for s in quoted.findall(path.read_text(encoding="utf-8"))}
    assert {"RULINGS §5", "our ruling", "docs/shuffle.md"} <= cited
    ids = _ids()
    for source in cited:
        for lang in ("en", "fr"):
            citation = cite(source, lang)
            assert not SEED_NAME.search(citation.text), citation
            if citation.href is not None and citation.href.startswith(f"{RULINGS_URL}#"):
                assert citation.href.split("#")[1] in ids, citation
            elif citation.href is not None:
                assert (ROOT / "docs" / citation.href).is_file(), citation


def test_cite() -> None:
    assert cite("RULINGS §7") == Citation("Rulings §7", "rulings.md#s7")
    assert cite("RULINGS §7", "fr") == Citation("Décisions §7", "rulings.md#s7")
    assert cite("000_91a7d2231e64ad36.txt", "fr") == Citation(
        "Love Letter (2019), règles françaises", "rulings.md#sources"
    )
    assert cite("004_9723e0a7a62a3371.txt") == Citation(
        "Love Letter (2012), rules summary in French", "rulings.md#sources"
    )
    assert cite("docs/shuffle.md") == Citation("docs/shuffle.md", "shuffle.md")
    assert cite("our ruling", "fr") == Citation("notre décision", None)
    assert cite("events/log.py") == Citation("events/log.py", None)
    with pytest.raises(ValueError):
        cite("RULINGS §13")
