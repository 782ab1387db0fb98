"""The project's rulings as a page of the referee (`GET /rulings`): a ruling an answer cites (`/rulings#s5` in a
problem's `rule_sources`, in `POST /rulings`) is a link that resolves on the referee itself, offline.

The page is `docs/rulings.md` in the visitor's language (the `lang` cookie, else Accept-Language, as every page):
one language at a time reads as a page, where the docs site's side-by-side text reads as a reference. Its HTML is
rendered when the docs are generated (`docs/generate.py` writes `web/rulings/en.html` and `fr.html`, and its
`--check` fails when they lag behind `docs/rulings.md`), so the wheel carries two files and no Markdown library.
Every anchor of the docs page (`#sources`, `#s5`, `#s5-all-protected`) is an anchor of this one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from loveletter.core.lang import Lang
from loveletter.web.pages import page
from loveletter.web.words import choose

PAGES = Path(__file__).resolve().parent / "rulings"
"""`en.html` and `fr.html`: the page's body in each language (package data, generated from docs/rulings.md)."""

router = APIRouter(include_in_schema=False)  # a page, not API


@cache
def body(lang: Lang) -> str:
    """The rulings' HTML in `lang` (read once: the files change only with a new release)."""
    return (PAGES / f"{lang}.html").read_text("utf-8")


@router.get("/rulings")
async def rulings_page(request: Request) -> HTMLResponse:
    return page(request, "rulings.html", "rulings.title", html={"rulings": body(choose(request))})
