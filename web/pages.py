"""The referee's web pages: the lobby (`/`), the seat page (`/play/{game}`), the ladder (`/ladder`) and an account's
page (`/accounts/{id}`), served with their own assets (the replay viewer and statistics are in `web.viewer`, the
rulings in `web.rulings`). The ladder and account pages share their paths with the API's `GET /ladder` and
`GET /accounts/{id}`: a browser asking for HTML gets the page, any other caller the API's JSON, unchanged.

Pages are rendered on the server from Jinja2 templates (web/templates/) in the visitor's language; a small plain
JavaScript module per page (web/static/) then talks to the same HTTP API as any other client — the lobby's and the
game's event streams, `GET /games/{id}`, `POST /games/{id}/moves` — and never holds more than its own seat's token.
Nothing is loaded from another host: the Content-Security-Policy allows only this origin.

A new page is a route that calls `page(request, "name.html", title_key, script="name.js", **data)` and an entry in
`NAV` if it belongs in the header (docs/web.md).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.routing import Match
from starlette.types import Scope

from loveletter.api import parse
from loveletter.api.problems import Problem, of_refusal
from loveletter.api.routes.accounts import account_id as valid_account_id
from loveletter.api.routes.games.answers import PRIVATE
from loveletter.api.routes.games.stream import PAGE
from loveletter.core.catalogue import EVENT_TYPES
from loveletter.core.lang import Lang
from loveletter.referee.referee import Referee, Refusal
from loveletter.web.quick import quick_pairings, titles
from loveletter.web.words import COOKIE, WORDS, choose, rulesets, words

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
"""Only this origin, no inline script or style: the browser itself refuses anything else (the pages' data travels
in a `<script type="application/json">` block, which is never executed)."""

NAV: list[tuple[str, str]] = [
    ("nav.lobby", "/"),
    ("nav.replay", "/replay"),
    ("nav.stats", "/stats"),
    ("nav.rulings", "/rulings"),
    ("nav.ladder", "/ladder"),
]
"""The header's links: (catalogue key, path)."""


@functools.cache
def _templates() -> Any:
    """The templates' environment, made at the first page asked for: an API-only start never loads Jinja."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, trim_blocks=True, lstrip_blocks=True
    )


def page(
    request: Request,
    template: str,
    title_key: str,
    *,
    script: str | None = None,
    html: Mapping[str, str] | None = None,
    **data: Any,
) -> HTMLResponse:
    """A page of the site in the visitor's language; `data` reaches both the template and the page's script, `html`
    (markup the server trusts, such as the rulings' text) the template only."""
    lang = choose(request)
    here = request.url.path
    context = {
        "lang": lang,
        "t": words(lang),
        "title": WORDS[title_key](lang),
        "nav": [(key, href, href == here) for key, href in NAV],
        "here": here,
        "script": script,
        "data": {"lang": lang, "words": words(lang), "ruleset_titles": titles(lang), **data},
        **data,
        **(html or {}),
    }
    text = _templates().get_template(template).render(context)
    return HTMLResponse(text, headers={"Content-Security-Policy": POLICY, "Vary": "Cookie, Accept-Language"})


def _local(target: str | None) -> str:
    """A redirect target on this site only (never `//other.host/…`, nor `/\\other.host`, which browsers read alike)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target or urlsplit(target).netloc:
        return "/"
    return target


class PageRoute(APIRoute):
    """A page that shares its path with an API route: it matches a browser navigating (its Accept names HTML) and
    nothing else, so any other request goes on to the API's own route, which answers it unchanged."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child = super().matches(scope)
        if match is not Match.NONE and b"text/html" not in dict(scope.get("headers", ())).get(b"accept", b""):
            return Match.NONE, {}
        return match, child


def _varies(answer: Response) -> Response:
    """The same path answers a page or JSON by the request's Accept: a cache must keep them apart."""
    known = answer.headers.get("Vary")
    answer.headers["Vary"] = f"{known}, Accept" if known else "Accept"
    return answer


def install(app: FastAPI, referee: Referee) -> None:
    """The web pages, their assets under /static, and the seat page's story route; none is in the OpenAPI
    document (they are pages, not API)."""
    app.mount("/static", StaticFiles(directory=STATIC), name="web-static")

    @app.get("/", include_in_schema=False)
    async def lobby(request: Request) -> HTMLResponse:
        lang = choose(request)
        return page(request, "lobby.html", "lobby.title", script="lobby.js", rulesets=rulesets(lang),
                    quick=quick_pairings(lang))  # fmt: skip

    @app.get("/play/{game_id}", include_in_schema=False)
    async def seat_page(game_id: str, request: Request) -> HTMLResponse:
        lang = choose(request)
        try:
            reader = await referee.reader(parse.game_id(game_id), None)
        except (Problem, Refusal) as refused:
            problem = of_refusal(refused) if isinstance(refused, Refusal) else refused
            if "text/html" not in request.headers.get("accept", ""):
                raise  # a program asked: the usual problem+json
            # a person followed a wrong link: a page that says so
            answer = page(request, "message.html", "seat.title", message=problem.detail(lang))
            answer.status_code = problem.status
            return answer
        return page(
            request,
            "seat.html",
            "seat.title",
            script="seat.js",
            game_id=reader.game_id,
            ruleset=reader.ruleset,
            rulesets=rulesets(lang),
            event_types=sorted(EVENT_TYPES),
        )

    shared = APIRouter(route_class=PageRoute)  # paths the API answers too: these match a browser alone

    @shared.get("/ladder", include_in_schema=False)
    async def ladder_page(
        request: Request,
        ruleset: Annotated[str, Query(max_length=40)] = "2019",
        players: Annotated[int, Query(ge=2, le=6)] = 2,
        cursor: Annotated[str | None, Query(max_length=20)] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> Response:
        """The ladder page (its script reads `GET /ladder`'s JSON, which any other caller gets at this path)."""
        chosen = parse.ruleset_id(ruleset)
        lang = choose(request)
        answer = page(request, "ladder.html", "ladder.title", script="ladder.js", rulesets=rulesets(lang),
                      ruleset=chosen, players=players, cursor=cursor, limit=limit)  # fmt: skip
        return _varies(answer)

    @shared.get("/accounts/{account_id}", include_in_schema=False)
    async def account_page(account_id: str, request: Request) -> Response:
        """An account's page (its chart, games and head-to-head); any other caller gets the API's JSON here."""
        lang = choose(request)
        try:
            await referee.account(valid_account_id(account_id))  # 404 for an id the referee could not have issued
        except Refusal as refused:
            problem = of_refusal(refused)
            answer = page(request, "message.html", "account.title", message=problem.detail(lang))
            answer.status_code = problem.status
            return _varies(answer)
        return _varies(page(request, "account.html", "account.title", script="account.js", account_id=account_id,
                            rulesets=rulesets(lang)))  # fmt: skip

    app.include_router(shared)

    @app.get("/lang/{code}", include_in_schema=False)
    async def switch_language(code: str, next: Annotated[str | None, Query(max_length=500)] = None) -> Response:
        """Remember the visitor's language (a cookie), then go back where they were."""
        answer = RedirectResponse(_local(next), status_code=303)
        if code in ("en", "fr"):
            answer.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="lax", path="/")
        return answer

    @app.get("/web/games/{game_id}/story", include_in_schema=False)
    async def story(
        game_id: str,
        lang: Annotated[str, Query(pattern="^(en|fr)$")] = "en",
        page: Annotated[str | None, Query(pattern=PAGE)] = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        """The game told so far as the caller lived it (a seat: the table's story and its own secrets; anyone
        else: the table's story), the deadlines it names (each line's text and its time, for the page to show in
        the viewer's own time), and which seats are present."""
        reader = await referee.reader(parse.game_id(game_id), parse.bearer(authorization))
        chosen: Lang = "fr" if lang == "fr" else "en"
        body = reader.story(chosen) | reader.presence(page)  # a spectator's story lags by the spectator delay
        return Response(orjson.dumps(body), media_type="application/json", headers=PRIVATE)

    @app.get("/web/games/{game_id}/presence", include_in_schema=False)
    async def presence(
        game_id: str,
        page: Annotated[str | None, Query(pattern=PAGE)] = None,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        """Which seats are present (each a bool, in seat order): what the seat page polls between events."""
        reader = await referee.reader(parse.game_id(game_id), parse.bearer(authorization))
        return Response(orjson.dumps(reader.presence(page)), media_type="application/json", headers=PRIVATE)
