"""RFC 9457 problem details: every refusal is `application/problem+json` saying what was wrong, in English or French.

A `Problem` keeps its detail in both languages (`Text(en, fr)`, written side by side where it is raised) and takes
its title from `TITLES`, one table keyed by the stable `code`; the answer is rendered in the request's language
(`Accept-Language`) only when the response is built. Rule refusals carry the rules' own bilingual message and
text and take their title from `RULE_TITLES`. Pydantic's validation errors are translated by their error `type`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Send

from loveletter.core.lang import BilingualError, Text, number, plural_en, plural_fr
from loveletter.core.rules import RULES, RuleViolation
from loveletter.events.store import StoreError

PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://loveletter-referee.example/problems/"

TITLES: Mapping[str, Text] = {
    "invalid_request": Text("Invalid request", "Requête invalide"),
    "invalid_header": Text("Invalid header", "En-tête invalide"),
    "http_error": Text("Request refused", "Requête refusée"),
    "token_required": Text("Seat token required", "Jeton de siège requis"),
    "token_rejected": Text("Wrong token", "Jeton refusé"),
    "game_not_over": Text("Game in progress", "Partie en cours"),
    "admin_required": Text("Admin token required", "Jeton d'administration requis"),
    "game_not_found": Text("No such game", "Partie introuvable"),
    "ruleset_not_found": Text("No such ruleset", "Jeu de règles introuvable"),
    "not_found": Text("Not Found", "Introuvable"),
    "method_not_allowed": Text("Method Not Allowed", "Méthode non autorisée"),
    "conflict": Text("Conflict", "Conflit"),
    "stale_version": Text("Version mismatch", "Version non concordante"),
    "too_large": Text("Request too large", "Requête trop volumineuse"),
    "unsupported_media_type": Text("Unsupported media type", "Type de contenu non pris en charge"),
    "unknown_player": Text("Unknown player", "Joueur inconnu"),
    "unknown_action_code": Text("Unknown action code", "Code d'action inconnu"),
    "idempotency_key_reused": Text("Idempotency key reused", "Clé d'idempotence déjà utilisée"),
    "unreadable_log": Text("Unreadable log", "Journal illisible"),
    "at_out_of_range": Text("No such point", "Point hors du journal"),
    "internal_error": Text("Internal error", "Erreur interne"),
    "rate_limited": Text("Too many requests", "Trop de requêtes"),
    "overloaded": Text("Referee busy", "Arbitre surchargé"),
    "simulation_running": Text("A simulation is already running", "Une simulation est déjà en cours"),
    "too_many_streams": Text("Too many event streams", "Trop de flux d'événements"),
    "store_unavailable": Text("Storage unavailable", "Stockage indisponible"),
    "invite_used": Text("Invite already used", "Invitation déjà utilisée"),
    "invite_rejected": Text("Wrong invite", "Invitation refusée"),
    "invite_required": Text("Invite required", "Invitation requise"),
    "game_full": Text("Game full", "Partie complète"),
    "not_organiser": Text("Organiser only", "Réservé à l'organisateur"),
    "invalid_cursor": Text("Invalid cursor", "Curseur invalide"),
}
"""The title of every problem the referee answers by itself, by its `code`."""

RULE_TITLES: Mapping[str, Text] = {
    "out_of_turn": Text("Move out of turn", "Hors de votre tour"),
    "illegal_move": Text("Illegal move", "Coup illégal"),
    "invalid_game": Text("Invalid game", "Partie invalide"),
}
"""The title of a rules refusal (whose `code` is the rules' own): a move out of turn (409), any other move the rules
refuse (422, with the seat's legal moves), or a game the rules refuse to create (422)."""


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
        return orjson.dumps(self.body(lang, instance))


def _render(value: Any, lang: str) -> Any:
    if isinstance(value, Text):
        return value(lang)
    if isinstance(value, dict):
        return {k: _render(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [_render(v, lang) for v in value]
    return value


def internal_error() -> Problem:
    return Problem(
        500,
        "internal_error",
        Text(
            "the referee failed; the game's log is unchanged",
            "l'arbitre a rencontré une erreur ; le journal de la partie est inchangé",
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
            "l'arbitre ne peut pas joindre ou écrire son stockage d'événements pour l'instant ; réessayez après le "
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


def fr_int(n: Any) -> str:
    """A whole number as French writes it (« 65 536 », a narrow no-break space between groups); else `str(n)`."""
    return number(f"{n:,}", "fr") if isinstance(n, int) and not isinstance(n, bool) else str(n)


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


# -- rules refusals ----------------------------------------------------------------------------------------

OUT_OF_TURN = {"not_your_turn", "chancellor_pending"}


def violation(v: RuleViolation, legal_moves: list[dict[str, Any]] | None = None) -> Problem:
    """A rules refusal: 409 for a move out of turn, 422 for any other rule; moves carry the seat's legal moves."""
    status = 409 if v.code in OUT_OF_TURN else 422
    if status == 409:
        kind = "out_of_turn"
    elif legal_moves is not None:
        kind = "illegal_move"
    else:
        kind = "invalid_game"
    rule = RULES[v.rule_id]
    extra: dict[str, Any] = {"rule_id": v.rule_id, "rule": Text(rule.text("en"), rule.text("fr"))}
    if legal_moves is not None:
        extra["legal_moves"] = legal_moves
    return Problem(status, v.code, Text(v.en, v.fr), title=RULE_TITLES[kind], **extra)


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


def fields_detail(items: Sequence[Mapping[str, Any]]) -> Text:
    """The detail naming the first five fields: "card: …; target: …" (« card » : … ; « target » : …)."""
    en = "; ".join(f"{e['field'] or 'body'}: {e['message'].en}" for e in items[:5])
    fr = " ; ".join(f"{field_fr(e['field'])} : {e['message'].fr}" for e in items[:5])
    return Text(en, fr)


def field_fr(field: str) -> str:
    """A field's name in a French sentence: quoted, or « corps de la requête » for the whole body."""
    return "corps de la requête" if field in ("", "body") else f"« {field} »"


def _quoted_fr(values: Sequence[str]) -> str:
    """« a », « b » ou « c »."""
    quoted = [f"« {v} »" for v in values]
    if len(quoted) <= 1:
        return "".join(quoted)
    return f"{', '.join(quoted[:-1])} ou {quoted[-1]}"


def _listed(expected: Any) -> list[str]:
    """The values of pydantic's "'a', 'b' or 'c'" (a single unquoted value stays as it is)."""
    text = str(expected)
    found = re.findall(r"'((?:[^'\\]|\\.)*)'", text)
    return found or [text]


_JSON_REASONS: tuple[tuple[str, str], ...] = (
    ("eof while parsing", "fin des données inattendue"),
    ("key must be a string", "un nom de champ doit être une chaîne entre guillemets droits"),
    ("expecting property name", "un nom de champ doit être une chaîne entre guillemets droits"),
    ("expected value", "une valeur est attendue"),
    ("expecting value", "une valeur est attendue"),
    ("trailing", "des caractères suivent la valeur"),
    ("extra data", "des caractères suivent la valeur"),
    ("expected `,` or `}`", "« , » ou « } » est attendu"),
    ("expected `,` or `]`", "« , » ou « ] » est attendu"),
    ("expecting ',' delimiter", "« , » est attendu"),
    ("expected `:`", "« : » est attendu"),
    ("expecting ':' delimiter", "« : » est attendu"),
    ("unterminated string", "une chaîne n'est pas fermée"),
    ("control character", "une chaîne contient un caractère de contrôle"),
    ("invalid escape", "une chaîne contient un échappement invalide"),
    ("invalid \\escape", "une chaîne contient un échappement invalide"),
    ("invalid unicode", "une chaîne contient un point de code invalide"),
    ("lone leading surrogate", "une chaîne contient un point de code invalide"),
    ("number out of range", "un nombre est hors limites"),
    ("invalid number", "un nombre est mal écrit"),
)


def _json_fr(err: Mapping[str, Any]) -> str:
    reason = str((err.get("ctx") or {}).get("error", ""))
    lowered = reason.lower()
    said = next((fr for en, fr in _JSON_REASONS if lowered.startswith(en) or en in lowered), "")
    where = ""
    if m := re.search(r"line (\d+) column (\d+)", reason):
        where = f" à la ligne {m[1]}, colonne {m[2]}"
    elif (loc := err.get("loc", ())) and isinstance(loc[-1], int):
        where = f" au caractère {fr_int(loc[-1])}"
    return f"JSON invalide{where}" + (f" ({said})" if said else "")


_CONTAINERS = {"List": "la liste", "Tuple": "la liste", "Set": "l'ensemble", "Dictionary": "l'objet"}


def french_error(err: Mapping[str, Any]) -> str:
    """The French of one pydantic validation error, by its `type` (with its `ctx`); never English."""
    kind = str(err.get("type", ""))
    ctx: Mapping[str, Any] = err.get("ctx") or {}
    if kind == "missing":
        return "champ obligatoire manquant"
    if kind == "extra_forbidden":
        return "champ inconnu"
    if kind in ("string_type", "string_sub_type"):
        return "une chaîne de caractères est attendue"
    if kind in ("int_type", "int_parsing"):
        return "un nombre entier est attendu"
    if kind == "int_from_float":
        return "un nombre entier est attendu, sans partie décimale"
    if kind == "int_parsing_size":
        return "ce nombre entier est trop grand"
    if kind in ("float_type", "float_parsing", "decimal_type", "decimal_parsing"):
        return "un nombre est attendu"
    if kind in ("bool_type", "bool_parsing"):
        return "un booléen est attendu : « true » ou « false »"
    if kind in ("literal_error", "enum"):
        return f"valeur attendue : {_quoted_fr(_listed(ctx.get('expected', '')))}"
    if kind in ("too_short", "too_long"):
        container = _CONTAINERS.get(str(ctx.get("field_type", "")), "la valeur")
        bound = ctx.get("min_length" if kind == "too_short" else "max_length", 0)
        actual = ctx.get("actual_length")
        limit = plural_fr(bound, "élément", "éléments") if isinstance(bound, int) else str(bound)
        said = f"{container} doit avoir {'au moins' if kind == 'too_short' else 'au plus'} {limit}"
        return f"{said}, et non {actual}" if actual is not None else said
    if kind == "string_too_short":
        least = ctx.get("min_length", 1)
        if least == 1:
            return "le texte ne peut pas être vide"
        return f"le texte doit avoir au moins {plural_fr(least, 'caractère', 'caractères')}"
    if kind == "string_too_long":
        return f"le texte doit avoir au plus {plural_fr(ctx.get('max_length', 0), 'caractère', 'caractères')}"
    if kind == "string_pattern_mismatch":
        return f"la valeur doit suivre le motif « {ctx.get('pattern', '')} »"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = ctx.get({"greater_than_equal": "ge", "greater_than": "gt", "less_than_equal": "le"}.get(kind, "lt"))
        said = {
            "greater_than_equal": "supérieure ou égale à",
            "greater_than": "strictement supérieure à",
            "less_than_equal": "inférieure ou égale à",
            "less_than": "strictement inférieure à",
        }[kind]
        return f"la valeur doit être {said} {fr_int(bound)}"
    if kind == "multiple_of":
        return f"la valeur doit être un multiple de {ctx.get('multiple_of')}"
    if kind == "json_invalid":
        return _json_fr(err)
    if kind == "json_type":
        return "une chaîne JSON est attendue"
    if kind == "union_tag_invalid":
        name = str(ctx.get("discriminator", "")).strip("'")
        expected = _quoted_fr(_listed(ctx.get("expected_tags", "")))
        return f"« {name} » doit valoir {expected}, et non « {ctx.get('tag', '')} »"
    if kind == "union_tag_not_found":
        name = str(ctx.get("discriminator", "")).strip("'")
        return f"champ « {name} » manquant"
    if kind in ("model_type", "model_attributes_type", "dict_type", "dataclass_type"):
        return "un objet JSON est attendu"
    if kind in ("list_type", "tuple_type", "set_type", "frozen_set_type", "iterable_type"):
        return "une liste (un tableau JSON) est attendue"
    if kind == "none_required":
        return "la valeur doit être « null »"
    if kind in ("string_unicode", "bytes_type"):
        return "le texte n'est pas de l'UTF-8 valide"
    if kind in ("value_error", "assertion_error"):
        error = ctx.get("error")
        if isinstance(error, BilingualError):
            return error.message("fr")
        return "valeur invalide"
    return "valeur refusée par le schéma de la requête"


def plural(count: int, one: Text, many: Text) -> Text:
    """« 1 partie », « 2 parties » and "1 game", "2 games" at once."""
    return Text(plural_en(count, one.en, many.en), plural_fr(count, one.fr, many.fr))


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


def _http_problem(exc: StarletteHTTPException, request: Request) -> Problem:
    """Starlette's and FastAPI's own refusals (unknown route, wrong method, unreadable body…) as problems."""
    path, method = request.url.path, request.method
    if exc.status_code == 404:
        return Problem(404, "not_found", Text(f"no route matches {path}", f"aucune route ne correspond à « {path} »"))
    if exc.status_code == 405:
        allowed = [m.strip() for m in (exc.headers or {}).get("Allow", "").split(",") if m.strip()]
        return Problem(
            405,
            "method_not_allowed",
            Text(
                f"{method} is not allowed on {path}" + (f" (allowed: {', '.join(allowed)})" if allowed else ""),
                f"la méthode « {method} » n'est pas autorisée sur « {path} »"
                + (f" (autorisées : {_quoted_fr(allowed)})" if allowed else ""),
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
