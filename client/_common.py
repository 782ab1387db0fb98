"""What the calls and both faces share: a move's body, the retry policy and reading refusals."""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from enum import Enum
from typing import Any

import httpx

from loveletter.client.errors import RefereeError, error_of
from loveletter.client.models import LegalMove

CardLike = str | Enum
"""A card as a move names it: a `loveletter.core.cards.Card`, its id, or its English or French name."""

RETRY_STATUSES = frozenset((429, 500, 502, 503, 504))


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry: exponential backoff from `base` seconds up to `cap`, with jitter, and the
    server's Retry-After when it sends one (never beyond `cap`)."""

    attempts: int = 5
    base: float = 0.1
    cap: float = 5.0

    def delay(self, attempt: int, retry_after: str | None = None) -> float:
        if retry_after is not None:
            try:
                return min(self.cap, max(0.0, float(retry_after)))
            except ValueError:
                pass
        backoff: float = min(self.cap, self.base * 2**attempt)
        return backoff * (0.5 + random.random() / 2)

    def pause(
        self, attempt: int, response: httpx.Response | None, exc: BaseException | None, safe: bool
    ) -> float | None:
        """Seconds to wait before sending a request again after its `attempt` (from 0) ended in `response` or `exc`,
        or None when it is not sent again: it was answered without a refusal, it was the last attempt, or the
        failure does not allow it (`retryable`)."""
        if response is not None and response.status_code < 400:
            return None
        if attempt >= self.attempts or not retryable(response, exc, safe):
            return None
        return self.delay(attempt, None if response is None else response.headers.get("retry-after"))


def new_key() -> str:
    """An Idempotency-Key: 128 random bits, one per move, reused by every retry of that move."""
    return "ll-" + uuid.uuid4().hex


def card_id(card: CardLike | None) -> str | None:
    if card is None:
        return None
    return str(card.value) if isinstance(card, Enum) else card


def move_body(
    move: LegalMove | int | dict[str, Any] | None,
    *,
    card: CardLike | None,
    target: int | str | None,
    guess: CardLike | None,
    keep: CardLike | None,
    bottom: list[CardLike] | None,
) -> dict[str, Any]:
    """The body of `POST /games/{id}/moves`: an action code (an int), a listed legal move or a body as given, or the
    move spelled out from `card`/`target`/`guess` (a play) or `keep`/`bottom` (a Chancellor's return)."""
    if isinstance(move, bool):
        raise TypeError("a move is an action code, a LegalMove or a body, not a bool")
    if isinstance(move, int):
        return {"type": "code", "action_code": move}
    if isinstance(move, LegalMove):
        return move.body()
    if isinstance(move, dict):
        return dict(move)
    if keep is not None:
        return {"type": "return", "keep": card_id(keep), "bottom": [card_id(c) for c in bottom or ()]}
    if card is None:
        raise TypeError("play(...) needs a move, an action code, a card, or keep= for a Chancellor's return")
    body: dict[str, Any] = {"type": "play", "card": card_id(card)}
    if target is not None:
        body["target"] = target
    if guess is not None:
        body["guess"] = card_id(guess)
    return body


def other_language(lang: str) -> str:
    return "fr" if lang == "en" else "en"


def retryable(response: httpx.Response | None, exc: BaseException | None, safe: bool) -> bool:
    """Whether a failed attempt may be sent again. A request that never reached the referee (no connection), or
    one it turned away before judging (429, 503), always may; after a lost answer or any other 5xx, only a `safe`
    one — a read, or a move carrying its Idempotency-Key."""
    if exc is not None:
        if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout):
            return True
        return safe and isinstance(exc, httpx.TransportError)
    assert response is not None
    if response.status_code in (429, 503):
        return True
    return safe and response.status_code in RETRY_STATUSES


class _Again(Exception):
    """A stream refused for now (429, 503): opened again after the pause asked."""

    def __init__(self, retry_after: str | None) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def problem_of(response: httpx.Response) -> dict[str, Any]:
    try:
        data = response.json()
    except ValueError:
        data = None
    if isinstance(data, dict):
        return data
    return {"status": response.status_code, "code": "http_error", "detail": response.text[:500]}


def error_from(response: httpx.Response, lang: str) -> RefereeError:
    return error_of(response.status_code, problem_of(response), lang, dict(response.headers))


def add_language(error: RefereeError, response: httpx.Response, lang: str) -> None:
    """Put the same refusal's text in a second language beside the first, if it is the same refusal."""
    again = problem_of(response)
    if response.status_code != error.status or again.get("code") != error.code:
        return
    error.details[lang] = str(again.get("detail", ""))
    rules = getattr(error, "rules", None)
    if rules is not None and "rule" in again:
        rules[lang] = str(again["rule"])
