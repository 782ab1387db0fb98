"""What every route of a game shares: the private answer headers, the viewer's ETag, and a move's answer."""

from __future__ import annotations

from loveletter.api import parse
from loveletter.events.codec import dumps
from loveletter.referee.referee import Moved, Replayed

# Every answer that depends on the credential says so: no shared cache may keep it, a browser's cache keys it by
# the Authorization header, and its ETag names the viewer as well as the version, so that one viewer's copy is
# never revalidated (304) with another's tag (issue 24, defect 2).
PRIVATE = {"Cache-Control": "private, no-cache", "Vary": "Authorization"}
JSON = "application/json"


def viewer_etag(version: int, seat: int | None) -> str:
    """The ETag of a game as one viewer sees it: `"12-s1"` for seat 1, `"12-w"` for a spectator."""
    return f'"{version}-{"w" if seat is None else f"s{seat}"}"'


def unchanged(if_none_match: str | None, etag: str) -> bool:
    """Does If-None-Match name this viewer's tag (weak or strong) or `*`? Malformed: 400, as before."""
    if parse.versions(if_none_match, "If-None-Match") is None:
        return False
    assert if_none_match is not None
    tags = [part.strip(parse.OWS).removeprefix("W/") for part in if_none_match.split(",")]
    return "*" in tags or etag in tags


def answer(result: Moved | Replayed) -> tuple[int, bytes, dict[str, str]]:
    """A move's answer: (status, body, headers); a replayed one may be a refusal (4xx, problem+json)."""
    if isinstance(result, Replayed):
        status, body = result.kept
        return status, body, {"Idempotent-Replayed": "true", **PRIVATE}
    body = result.kept[1] if result.kept is not None else dumps(result.answer)
    return 200, body, {"ETag": f'"{result.version}"', **PRIVATE}
