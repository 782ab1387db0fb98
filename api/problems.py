"""RFC 9457 problem details: every refusal is `application/problem+json` saying what was wrong, in English or French.

A `Problem` keeps its detail in both languages (`Text(en, fr)`, written side by side where it is raised) and takes
its title from `TITLES`, one table keyed by the stable `code`; the answer is rendered in the request's language
(`Accept-Language`) only when the response is built. The referee's refusals (`referee.refusals.Refusal`, which
know no HTTP) become problems here, their status from one table, `STATUSES`; rules refusals carry the rules' own
bilingual message and text, and the rule's sources named and linked to the rulings page the referee serves.
Pydantic's validation errors are translated by their error `type` (api/validation.py).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Send

from loveletter.api.problem_codes import STATUSES, TITLES
from loveletter.api.validation import field_fr, fields_detail, fr_int, french_error, plural, quoted_fr
from loveletter.core.lang import BilingualError, Text
from loveletter.core.rules import RULES
from loveletter.core.sources import cite_on_referee
from loveletter.events.store import StoreError
from loveletter.referee.refusals import RULE_TITLES, Refusal

__all__ = [
    "PROBLEM_JSON",
    "RULE_TITLES",
    "STATUSES",
    "TITLES",
    "TYPE_BASE",
    "Problem",
    "field_fr",
    "fields_detail",
    "fr_int",
    "french_error",
    "install",
    "invalid_request",
    "of_refusal",
    "plural",
    "rule_sources",
]

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://loveletter-referee.example/problems/"


class Problem(Exception):
    """An error answer: HTTP status, a stable code, a detail in both languages, and any extra members (whose
    `Text` values, at any depth, are rendered in the answer's language too)."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: Text,
        *,
        title: Text | None = None,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail.en)
        self.status = status
        self.code = code
        self.title = title if title is not None else TITLES[code]
        self.detail = detail
        self.headers = dict(headers) if headers else {}
        """HTTP headers of the answer (such as Retry-After)."""
        self.extra = extra

    def body(self, lang: str = "en", instance: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": TYPE_BASE + self.code,
            "title": self.title(lang),
            "status": self.status,
            "detail": self.detail(lang),
            "code": self.code,
        }
        if instance:
            out["instance"] = instance
        for name, value in self.extra.items():
            out[name] = _render(value, lang)
        return out

    def encode(self, lang: str = "en", instance: str | None = None) -> bytes:
        """The answer's bytes; the request's log line (and its metrics) name its code and rule."""
        structlog.contextvars.bind_contextvars(code=self.code, rule_id=self.extra.get("rule_id"))
        return orjson.dumps(self.body(lang, instance))


_LEAVES = frozenset((int, str, bool, float, type(None)))
"""Values returned as they are, checked first: a refusal's legal moves are many small plain dicts."""


def _render(value: Any, lang: str) -> Any:
    if type(value) in _LEAVES:
        return value
    if isinstance(value, Text):
        return value(lang)
    if isinstance(value, dict):
        return {k: _render(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [_render(v, lang) for v in value]
    return value


def rule_sources(sources: Sequence[str]) -> list[dict[str, Any]]:
    """A rule's sources as a person reads them, in the answer's language, each with its link on the referee
    (`{"text": "Rulings §5", "href": "/rulings#s5"}`; a href of None: nothing the referee serves)."""
    en, fr = cite_on_referee(sources, "en"), cite_on_referee(sources, "fr")
    return [{"text": Text(str(e["text"]), str(f["text"])), "href": e["href"]} for e, f in zip(en, fr, strict=True)]


def of_refusal(refusal: Refusal) -> Problem:
    """The referee's refusal as a problem: its status from `STATUSES`, a rules refusal's rule id, text and sources
    (`rule_sources`, named and linked) first among its members; worded with HTTP's own names where the referee's
    words are the transport's to choose (`HTTP_WORDS`)."""
    if refusal.rule_id is not None:
        status = STATUSES.get(f"rule:{refusal.code}", STATUSES["rule:*"])
    elif refusal.about.get("read"):
        status = STATUSES[f"{refusal.code}/read"]
    else:
        status = STATUSES[refusal.code]
    extra = _rule_members(refusal.rule_id) if refusal.rule_id is not None else {}
    words = HTTP_WORDS.get(refusal.code)
    detail = words(refusal) if words is not None else refusal.detail
    retry = refusal.about.get("retry_after")
    headers = {"Retry-After": str(retry)} if retry is not None else None
    return Problem(status, refusal.code, detail, title=refusal.title, headers=headers, **extra, **refusal.extra)


def _bearer(refusal: Refusal) -> Text:
    needed: Text = refusal.about["credential"]
    return Text(
        f"send Authorization: Bearer <{needed.en}>", f"envoyez l'en-tête « Authorization: Bearer <{needed.fr}> »"
    )


def _if_match(refusal: Refusal) -> Text:
    expected, version = refusal.about["expected"], refusal.extra["version"]
    return Text(
        f"If-Match expected version {expected}, the game is at version {version}",
        f"If-Match attendait la version {expected}, la partie en est à la version {version}",
    )


HTTP_WORDS = {
    "token_required": _bearer,
    "stale_version": _if_match,
    "idempotency_key_reused": lambda _: Text(
        "this Idempotency-Key was already used with a different request body",
        "cette valeur d'Idempotency-Key a déjà servi pour une requête au corps différent",
    ),
}
"""The refusals an HTTP client is told in HTTP's words (the header to send, the header that did not match): the
referee says the same without naming a header."""


@functools.cache
def _rule_members(rule_id: str) -> dict[str, Any]:
    """A rule's members of a refusal, the same for every refusal citing it: worked out once per rule (a refusal
    is one request in seven of a bot's game), never changed (`Problem` renders them into new values)."""
    rule = RULES[rule_id]
    return {
        "rule_id": rule_id,
        "rule": Text(rule.text("en"), rule.text("fr")),
        "rule_sources": rule_sources(rule.sources),
    }


def internal_error() -> Problem:
    return Problem(
        500,
        "internal_error",
        Text(
            "the referee failed; the game's log is unchanged",
            "l'arbitre a rencontré une erreur ; le journal de la partie est inchangé",
        ),
    )


STORE_RETRY_AFTER = 1
"""Seconds a client is asked to wait when the event store cannot be reached or written."""


def store_unavailable() -> Problem:
    """503: the event store failed (a full disk, the database down or restarting). The referee's cache keeps only
    what the store acknowledged; a commit whose outcome is unknown (the connection lost during COMMIT) is found in
    the store by the next request."""
    return Problem(
        503,
        "store_unavailable",
        Text(
            "the referee cannot reach or write its event store right now; retry after the time in Retry-After "
            "(a move retried with the same Idempotency-Key is recorded at most once)",
            "l'arbitre ne peut pas joindre ou écrire son stockage d'événements pour l'instant ; réessayez après le "
            "délai de Retry-After (un coup renvoyé avec la même Idempotency-Key n'est enregistré qu'une fois)",
        ),
        headers={"Retry-After": str(STORE_RETRY_AFTER)},
    )


def bilingual(exc: BaseException, fr: str) -> Text:
    """The message of an error from elsewhere: both of its languages when it has them, else its English text
    beside `fr` (a French sentence saying as much as can be said without it)."""
    if isinstance(exc, BilingualError):
        return exc.text
    return Text(str(exc), fr)


def lang_of(request: Request) -> str:
    """fr when Accept-Language prefers French over English, else en."""
    return language(request.headers.get("accept-language", ""))


def problem_lang(request: Request) -> str:
    """The language of a problem answered to `request`: its `?lang=` (en or fr) where a route takes one, else
    Accept-Language."""
    asked = request.query_params.get("lang")
    return asked if asked in ("en", "fr") else lang_of(request)


def language(header: str) -> str:
    """`lang_of` for the value of an Accept-Language header."""
    best, best_q = "en", -1.0
    for part in header.split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        primary = tag.strip().lower()[:2]
        if primary in ("fr", "en") and q > best_q:
            best, best_q = primary, q
    return best


# -- validation errors -----------------------------------------------------------------------------------


def invalid_request(errors: Sequence[Mapping[str, Any]], *, drop: str | None = None) -> Problem:
    """400 (malformed JSON) or 422 naming each field, from pydantic's errors; `drop` leaves a location part out
    of the field names (FastAPI's "body")."""
    items = [
        {
            "field": ".".join(str(p) for p in err.get("loc", ()) if p != drop),
            "type": str(err.get("type", "")),
            "message": Text(str(err.get("msg", "")), french_error(err)),
        }
        for err in errors
    ]
    status = 400 if any(err.get("type") == "json_invalid" for err in errors) else 422
    return Problem(status, "invalid_request", fields_detail(items), errors=items)


# -- answering -----------------------------------------------------------------------------------------------


async def send_problem(
    send: Send, problem: Problem, lang: str, instance: str | None = None, headers: Mapping[str, str] | None = None
) -> None:
    """`problem_response` for pure ASGI code that answers before (or instead of) the application."""
    body = problem.encode(lang, instance)
    merged = {**problem.headers, **headers} if headers else problem.headers
    raw = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in merged.items()]
    raw += [(b"content-type", PROBLEM_JSON.encode()), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": problem.status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


def problem_response(
    problem: Problem, lang: str, instance: str | None = None, headers: Mapping[str, str] | None = None
) -> Response:
    merged = {**problem.headers, **headers} if headers else problem.headers
    return Response(
        problem.encode(lang, instance),
        status_code=problem.status,
        media_type=PROBLEM_JSON,
        headers=merged or None,
    )


def body_unreadable() -> Problem:
    """400: a body that says it is JSON but cannot be read as text (FastAPI's "error parsing the body")."""
    return Problem(
        400,
        "http_error",
        Text("There was an error parsing the body", "le corps de la requête n'a pas pu être lu"),
    )


def _http_problem(exc: StarletteHTTPException, request: Request) -> Problem:
    """Starlette's and FastAPI's own refusals (unknown route, wrong method, unreadable body…) as problems."""
    path, method = request.url.path, request.method
    if exc.status_code == 404:
        return Problem(404, "not_found", Text(f"no route matches {path}", f"aucune route ne correspond à « {path} »"))
    if exc.status_code == 405:
        allowed = [m.strip() for m in (exc.headers or {}).get("Allow", "").split(",") if m.strip()]
        return Problem(
            405,
            "method_not_allowed",
            Text(
                f"{method} is not allowed on {path}" + (f" (allowed: {', '.join(allowed)})" if allowed else ""),
                f"la méthode « {method} » n'est pas autorisée sur « {path} »"
                + (f" (autorisées : {quoted_fr(allowed)})" if allowed else ""),
            ),
        )
    if exc.status_code == 413:
        return Problem(413, "too_large", Text("the request body is too large", "le corps de la requête est trop gros"))
    if exc.status_code == 415:
        return Problem(
            415,
            "unsupported_media_type",
            Text("this media type is not accepted here", "ce type de contenu n'est pas accepté ici"),
        )
    detail = exc.detail if isinstance(exc.detail, str) else "request refused"
    if detail == "There was an error parsing the body":
        fr = "le corps de la requête n'a pas pu être lu"
    else:
        fr = f"requête refusée (statut HTTP {exc.status_code})"
    return Problem(exc.status_code, "http_error", Text(detail, fr))


def install(app: FastAPI) -> None:
    """Answer every error as problem+json, in the request's language; never a traceback."""

    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> Response:
        return problem_response(exc, problem_lang(request), request.url.path)

    @app.exception_handler(Refusal)
    async def _refused(request: Request, exc: Refusal) -> Response:
        return problem_response(of_refusal(exc), problem_lang(request), request.url.path)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        return problem_response(invalid_request(exc.errors(), drop="body"), problem_lang(request), request.url.path)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        return problem_response(_http_problem(exc, request), problem_lang(request), request.url.path, exc.headers)

    @app.exception_handler(StoreError)
    async def _store(request: Request, exc: StoreError) -> Response:
        return problem_response(store_unavailable(), problem_lang(request), request.url.path)

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> Response:
        import structlog

        structlog.get_logger().exception("unhandled error", path=request.url.path)
        return problem_response(internal_error(), problem_lang(request), request.url.path)
