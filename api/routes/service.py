"""The service's own routes: `GET /healthz`, `GET /keys` (the log-signing public key) and the rulesets.

Public routes: no credential is read. `/healthz` answers at once, even when the referee is at its in-flight cap
(`api.limits` lets it through): what load balancers and the tests' health probes ask.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import EXAMPLES, JSON, answers, ref
from loveletter.api.routes.replies import reply
from loveletter.client.answers import Health, Keys, Readiness
from loveletter.client.answers import Ruleset as RulesetAnswer
from loveletter.core.cards import CARD_ORDER
from loveletter.core.rulesets import RULESETS, Ruleset
from loveletter.referee.referee import Referee

router = APIRouter()


def _referee(request: Request) -> Referee:
    referee: Referee = request.app.state.referee
    return referee


def ruleset_json(rs: Ruleset) -> dict[str, Any]:
    """A ruleset as `GET /rulesets` shows it: its players, favors, cards (both languages' names) and options."""
    return {
        "id": rs.id,
        "title": rs.title,
        "players": {"min": rs.min_players, "max": rs.max_players},
        "favors_to_win": {str(n): f for n, f in rs.favors_to_win.items()},
        "deck_size": len(rs.deck),
        "tie_rule": rs.tie_rule.value,
        "spy_favor": rs.spy_favor,
        "amira_sadie_favor": rs.amira_sadie_favor,
        "options": {"tie_2012": ["nobody", "all"], "guard_unknown": ["refuse", "miss"]},
        "cards": [
            {
                "id": card.value,
                "value": rs.values[card],
                "copies": rs.copies[card],
                "name": {"en": rs.name(card, "en"), "fr": rs.name(card, "fr")},
            }
            for card in CARD_ORDER
            if rs.has(card)
        ],
    }


@router.get("/healthz", tags=["service"], responses=answers(Health, example="healthz"))
async def health(request: Request) -> Response:
    return reply(_referee(request).health())


@router.get(
    "/readyz",
    tags=["service"],
    responses=answers(
        Readiness,
        example="readyz",
        more={
            503: {"description": "The store does not answer: not ready", "content": {JSON: {"schema": ref(Readiness)}}}
        },
    ),
)
async def ready(request: Request) -> Response:
    """Whether this referee can serve: its store answers a read (within 2 s), and the state of the engine's worker
    processes (`idle` until the first decision that needs them; idle is ready). 503 while the store does not
    answer: what a load balancer's health check asks (`/healthz` only says the process is alive)."""
    said = await _referee(request).readiness()
    return reply(said, status=200 if said["ready"] else 503)


@router.get("/keys", tags=["service"], responses=answers(Keys, example="keys"))
async def get_keys(request: Request) -> Response:
    """The public key exported logs are signed with: Ed25519, as hex (what `loveletter audit --key` takes),
    base64 and PEM, and the message each signature covers."""
    return reply({"keys": _referee(request).public_keys()})


@router.get(
    "/rulesets",
    tags=["rulesets"],
    responses=answers({"type": "array", "items": ref(RulesetAnswer)}, example=[EXAMPLES["ruleset"]]),
)
async def list_rulesets() -> Response:
    return reply([ruleset_json(rs) for rs in RULESETS.values()])


@router.get("/rulesets/{ruleset_id}", tags=["rulesets"], responses=answers(RulesetAnswer, 404, example="ruleset"))
async def get_ruleset(ruleset_id: str) -> Response:
    return reply(ruleset_json(RULESETS[parse.ruleset_id(ruleset_id)]))
