"""RFC 9457 problem details: every refusal is `application/problem+json` saying what was wrong."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from loveletter.core.rules import RULES, RuleViolation

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://loveletter-referee.example/problems/"


class Problem(Exception):
    """An error answer: HTTP status, a stable code, a human title and detail, and any extra members."""

    def __init__(self, status: int, code: str, title: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.extra = extra

    def body(self, instance: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": TYPE_BASE + self.code,
            "title": self.title,
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        if instance:
            out["instance"] = instance
        out.update(self.extra)
        return out

    def encode(self, instance: str | None = None) -> bytes:
        return orjson.dumps(self.body(instance))


def internal_error() -> Problem:
    return Problem(500, "internal_error", "Internal error", "the referee failed; the game's log is unchanged")


def lang_of(request: Request) -> str:
    """fr when Accept-Language prefers French over English, else en."""
    return language(request.headers.get("accept-language", ""))


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


OUT_OF_TURN = {"not_your_turn", "chancellor_pending"}


def violation(v: RuleViolation, lang: str, legal_moves: list[dict[str, Any]] | None = None) -> Problem:
    """A rules refusal: 409 for a move out of turn, 422 for any other rule; moves carry the seat's legal moves."""
    status = 409 if v.code in OUT_OF_TURN else 422
    fr = lang == "fr"
    if status == 409:
        title = "Hors de votre tour" if fr else "Move out of turn"
    elif legal_moves is not None:
        title = "Coup illégal" if fr else "Illegal move"
    else:
        title = "Partie invalide" if fr else "Invalid game"
    extra: dict[str, Any] = {"rule_id": v.rule_id, "rule": RULES[v.rule_id].text("fr" if fr else "en")}
    if legal_moves is not None:
        extra["legal_moves"] = legal_moves
    return Problem(status, v.code, title, v.message(lang), **extra)


def problem_response(problem: Problem, instance: str | None = None, headers: dict[str, str] | None = None) -> Response:
    return Response(problem.encode(instance), status_code=problem.status, media_type=PROBLEM_JSON, headers=headers)


def install(app: FastAPI) -> None:
    """Answer every error as problem+json; never a traceback."""

    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> Response:
        return problem_response(exc, request.url.path)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = [
            {"field": ".".join(str(p) for p in err.get("loc", ()) if p != "body"), "message": err.get("msg", "")}
            for err in exc.errors()
        ]
        where = "; ".join(f"{e['field'] or 'body'}: {e['message']}" for e in errors[:5])
        status = 400 if any(err.get("type") == "json_invalid" for err in exc.errors()) else 422
        return problem_response(
            Problem(status, "invalid_request", "Invalid request", where, errors=errors), request.url.path
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        codes = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 415: "unsupported_media_type"}
        code = codes.get(exc.status_code, "http_error")
        detail = exc.detail if isinstance(exc.detail, str) else "request refused"
        return problem_response(Problem(exc.status_code, code, detail, detail), request.url.path)

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> Response:
        import structlog

        structlog.get_logger().exception("unhandled error", path=request.url.path)
        return problem_response(internal_error(), request.url.path)
