"""Every value the referee reads from a request's headers and path, each kind read by one strict function.

A header value reaches the application as Latin-1 text (any byte 0x80-0xFF is a character) and a path parameter
as percent-decoded text (any character, NUL included). Python's lenient helpers must not be the judge of such
input: `str.isdigit` accepts "²", which `int` refuses; `secrets.compare_digest` raises on non-ASCII text;
PostgreSQL refuses a NUL in a query parameter. So each kind of value has one function here that accepts exactly
its form, written with ASCII-only patterns (`[0-9]`, never `\\d`, which is any Unicode digit), and refuses anything
else as a problem before any comparison, conversion or store lookup:

| value | form | otherwise |
|---|---|---|
| game id (path) | what the referee issues: `g_` and 16 characters of `[A-Za-z0-9_-]` | 404 `game_not_found` |
| ruleset id (path) | a known ruleset | 404 `ruleset_not_found` |
| `Authorization` | `Bearer <token>`, the token 1-1024 visible ASCII characters | 401 `token_required` |
| `?token=` (the stream) | the token alone, as above | 401 `token_required` |
| `If-Match`, `Last-Event-ID` | a version: `"12"`, `W/"12"`, `12`, or a viewer's tag `"12-s1"` | 400 `invalid_header` |
| `If-None-Match` | `*` or a comma-separated list of versions as above | 400 `invalid_header` |
| `Idempotency-Key` | 1-200 printable ASCII characters | 400 `invalid_header` |
| `Content-Type`, JSON body | none, `application/json`, `application/*+json` (charset UTF-8) | 415 |
| `Content-Length` | ASCII digits | 400 `invalid_header` |
| `X-Request-ID` | 1-64 visible ASCII characters | replaced by a fresh id (never refused) |
| `Accept-Language` | any text: `fr` if French is preferred to English, else `en` | never refused |

Only the server's HTTP parser (uvicorn with httptools or h11) sees a request before this module, and refuses on
its own, with a plain-text 400, what is not HTTP at all: a control character or DEL in a header value, a malformed
Content-Length, a raw byte above 0x7F in the path (see docs/api.md, "Malformed requests").
"""

from __future__ import annotations

import base64
import re
from typing import Literal

from starlette.requests import Request

from loveletter.api.problems import Problem, language, of_refusal
from loveletter.core.lang import Text
from loveletter.core.rulesets import RULESETS
from loveletter.referee import refusals

__all__ = [
    "accept_language",
    "bearer",
    "content_length",
    "game_id",
    "game_not_found",
    "idempotency_key",
    "json_body",
    "json_content_type",
    "media_type",
    "request_id",
    "ruleset_id",
    "token",
    "version",
    "versions",
]

GAME_ID = re.compile(r"g_[A-Za-z0-9_-]{16}")
"""What `Referee.create` issues: "g_" + `secrets.token_urlsafe(12)` (12 bytes are 16 base64url characters)."""
TOKEN = re.compile(r"[!-~]{1,1024}")
BEARER = re.compile(r"bearer[ ]+([!-~]{1,1024})", re.IGNORECASE | re.ASCII)
# a version, quoted or not; quoted, it may carry the viewer a `GET /games/{id}` ETag names (`"12-s1"`, `"12-w"`)
VERSION = re.compile(r'(?:W/)?"([0-9]{1,18})(?:-(?:s[0-9]{1,3}|w))?"|([0-9]{1,18})')
IDEMPOTENCY_KEY = re.compile(r"[ -~]{1,200}")
REQUEST_ID = re.compile(rb"[!-~]{1,64}")
CONTENT_LENGTH = re.compile(rb"[0-9]+")
BEYOND_ANY_LIMIT = 10**18
MEDIA_TYPE = re.compile(r"([!#$%&'*+.^_`|~0-9A-Za-z-]+)/([!#$%&'*+.^_`|~0-9A-Za-z-]+)")
OWS = " \t"


def game_not_found(value: str) -> Problem:
    """The referee's own refusal of an unknown game, said before it is asked."""
    return of_refusal(refusals.game_not_found(value))


def game_id(value: str) -> str:
    """A game id from a path: one the referee could have issued, or 404 without asking the store."""
    if GAME_ID.fullmatch(value) is None:
        raise game_not_found(value)
    return value


def ruleset_id(value: str) -> str:
    """A ruleset id from a path: a known one, or 404."""
    if value not in RULESETS:
        raise Problem(
            404,
            "ruleset_not_found",
            Text(
                f"known rulesets: {', '.join(RULESETS)}",
                f"il n'y a pas de jeu de règles « {value} » ; jeux connus : "
                + ", ".join(f"« {known} »" for known in RULESETS),
            ),
        )
    return value


def _token_malformed() -> Problem:
    return Problem(
        401,
        "token_required",
        Text(
            "use Authorization: Bearer <token>, the token 1-1024 visible ASCII characters",
            "l'en-tête s'écrit « Authorization: Bearer <jeton> », le jeton fait de 1 à 1024 lettres sans accent, "
            "chiffres ou signes de ponctuation",
        ),
    )


def bearer(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header: None without the header, 401 if it is malformed
    (another scheme, no token, or a token that is not 1-1024 visible ASCII characters)."""
    if authorization is None:
        return None
    found = BEARER.fullmatch(authorization.strip(OWS))
    if found is None:
        raise _token_malformed()
    return found[1]


def token(value: str | None) -> str | None:
    """A token given on its own (the stream's `?token=`): None if absent, 401 unless 1-1024 visible ASCII."""
    if value is None:
        return None
    if TOKEN.fullmatch(value) is None:
        raise _token_malformed()
    return value


def _bad_header(name: str, en: str, fr: str) -> Problem:
    return Problem(400, "invalid_header", Text(f"{name} must be {en}", f"l'en-tête {name} doit être {fr}"))


def _one_version(text: str) -> int | None:
    found = VERSION.fullmatch(text.strip(OWS))
    return None if found is None else int(found[1] or found[2])


def version(value: str | None, name: str) -> int | None:
    """A game version from `If-Match` or `Last-Event-ID`: `"12"`, `W/"12"` or `12`; None if absent, else 400."""
    if value is None:
        return None
    found = _one_version(value)
    if found is None:
        raise _bad_header(
            name,
            'a game version such as "12"',
            'une version de la partie, par exemple « "12" »',
        )
    return found


def versions(value: str | None, name: str) -> frozenset[int] | Literal["*"] | None:
    """The versions an `If-None-Match` lists (`"3", W/"4"`), or "*"; None if absent; 400 if malformed."""
    if value is None:
        return None
    if value.strip(OWS) == "*":
        return "*"
    out = set()
    for part in value.split(","):
        found = _one_version(part)
        if found is None:
            raise _bad_header(
                name,
                'a list of game versions such as "12" (or *)',
                'une liste de versions de la partie, par exemple « "12" » (ou « * »)',
            )
        out.add(found)
    return frozenset(out)


def idempotency_key(value: str | None) -> str | None:
    """An `Idempotency-Key`: 1-200 printable ASCII characters (spaces inside allowed); None if absent; 400 else."""
    if value is None:
        return None
    key = value.strip(OWS)
    if IDEMPOTENCY_KEY.fullmatch(key) is None:
        raise Problem(
            400,
            "invalid_header",
            Text(
                "an Idempotency-Key has 1-200 printable ASCII characters",
                "un en-tête Idempotency-Key compte de 1 à 200 lettres sans accent, chiffres, espaces ou signes de "
                "ponctuation",
            ),
        )
    return key


def media_type(value: str | None) -> tuple[str, dict[str, str]] | None:
    """A `Content-Type`: ("type/subtype" in lower case, its parameters with lower-case names and unquoted values),
    or None if absent or not of that form."""
    if value is None:
        return None
    kind, *params = value.split(";")
    found = MEDIA_TYPE.fullmatch(kind.strip(OWS))
    if found is None:
        return None
    parameters: dict[str, str] = {}
    for param in params:
        name, equals, raw = param.strip(OWS).partition("=")
        if not equals or not name:
            return None
        parameters[name.strip(OWS).lower()] = raw.strip(OWS).strip('"')
    return f"{found[1]}/{found[2]}".lower(), parameters


def json_content_type(value: str | None) -> None:
    """A JSON body's `Content-Type`: absent (the body is read as JSON all the same), `application/json` or
    `application/<anything>+json`, with no charset but UTF-8; else 415."""
    if value is None:
        return
    parsed = media_type(value)
    if parsed is not None:
        kind, parameters = parsed
        charset = parameters.get("charset", "utf-8").lower()
        if (kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))) and (
            charset in ("utf-8", "utf8")
        ):
            return
    raise Problem(
        415,
        "unsupported_media_type",
        Text(
            "send the body as JSON: Content-Type: application/json",
            "envoyez le corps en JSON : « Content-Type: application/json »",
        ),
    )


async def json_body(request: Request) -> None:
    """`json_content_type` as a FastAPI dependency of a route whose body is JSON: it runs before the body is
    validated, so a body of another type is a 415, never a 422 about its fields."""
    json_content_type(request.headers.get("content-type"))


def content_length(value: bytes | None) -> int | None:
    """A `Content-Length` (raw bytes, before any decoding): None if absent, 400 unless ASCII digits. A length of
    more than 18 digits is taken as 10**18, beyond any body limit (and never converted digit by digit)."""
    if value is None:
        return None
    text = value.strip(b" \t")
    if CONTENT_LENGTH.fullmatch(text) is None:
        raise Problem(
            400,
            "invalid_header",
            Text("Content-Length must be a number of bytes", "l'en-tête Content-Length doit être un nombre d'octets"),
        )
    return int(text) if len(text) <= 18 else BEYOND_ANY_LIMIT


def request_id(value: bytes | None) -> str | None:
    """An `X-Request-ID` to echo and log: 1-64 visible ASCII characters, else None (the referee makes its own)."""
    if value is None or REQUEST_ID.fullmatch(value) is None:
        return None
    return value.decode("ascii")


def accept_language(value: str | None) -> str:
    """`en` or `fr` from an `Accept-Language` (never refused: what cannot be read is English)."""
    return language(value or "")


def lobby_cursor_of(created: int, game_id: str) -> str:
    """The opaque cursor of a lobby page: where the next page starts."""
    return base64.urlsafe_b64encode(f"{created}:{game_id}".encode()).decode().rstrip("=")


def lobby_cursor(value: str | None) -> tuple[int, str] | None:
    """A lobby cursor as `lobby_cursor_of` wrote it; 400 `invalid_cursor` for anything else."""
    if value is None:
        return None
    try:
        text = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode("ascii")
        created, game = text.split(":", 1)
        if not created.isdigit() or not GAME_ID.fullmatch(game):
            raise ValueError
        return int(created), game
    except ValueError:
        raise Problem(
            400,
            "invalid_cursor",
            Text(
                "this cursor is not one the lobby gave: start again without it",
                "ce curseur n'est pas un curseur donné par la liste des parties : recommencez sans lui",
            ),
        ) from None
