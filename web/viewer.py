"""The replay and dispute viewer (`/replay`, `/replay/{game}`) and the statistics page (`/stats`).

Both pages hold no rule: the viewer asks `POST /replays/views` for every position of a log as one point of view
saw it, `POST /audits` for the verdict and `POST /rulings` for a disputed move; the statistics page asks
`POST /simulations` (then polls it) or `POST /simulations/tally`, and draws the answers as small inline SVG charts.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from loveletter.api import parse
from loveletter.api.problems import Problem, of_refusal
from loveletter.api.routes.bodies import MAX_GAMES, SIMULATION_BOTS
from loveletter.core.rules import RULES
from loveletter.referee.referee import Referee, Refusal
from loveletter.web.pages import page
from loveletter.web.words import choose, rulesets


def install(app: FastAPI, referee: Referee) -> None:
    """The two pages; their data are the rulesets' cards in the visitor's language (and the game, if named)."""

    async def viewer(request: Request, game_id: str | None) -> HTMLResponse:
        lang = choose(request)
        if game_id is not None:
            try:
                game_id = (await referee.reader(parse.game_id(game_id), None)).game_id
            except (Problem, Refusal) as refused:
                problem = of_refusal(refused) if isinstance(refused, Refusal) else refused
                if "text/html" not in request.headers.get("accept", ""):
                    raise  # any client but a browser gets the problem+json every route answers
                # a page, not a JSON problem, for a person who followed a wrong link
                answer = page(request, "message.html", "replay.title", message=problem.detail(lang))
                answer.status_code = problem.status
                return answer
        rules = {rule_id: rule.text(lang) for rule_id, rule in RULES.items()}  # the audit's rule ids, told
        return page(
            request,
            "replay.html",
            "replay.title",
            script="viewer.js",
            game_id=game_id,
            rulesets=rulesets(lang),
            rules=rules,
        )

    @app.get("/replay", include_in_schema=False)
    async def replay_page(request: Request) -> HTMLResponse:
        return await viewer(request, None)

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_game(game_id: str, request: Request) -> HTMLResponse:
        return await viewer(request, game_id)

    @app.get("/stats", include_in_schema=False)
    async def stats_page(request: Request) -> HTMLResponse:
        lang = choose(request)
        return page(
            request,
            "stats.html",
            "stats.title",
            script="stats.js",
            rulesets=rulesets(lang),
            bots=list(SIMULATION_BOTS),
            max_games=MAX_GAMES,
        )
