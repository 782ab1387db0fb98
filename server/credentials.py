"""Admin tokens, and tokens kept out of the access log.

Several admin tokens may be valid at once, so one can be rotated without a restart: add the new one, move the
clients over, remove the old one. They come from `LOVELETTER_ADMIN_TOKEN` (one), `LOVELETTER_ADMIN_TOKENS`
(comma-separated) and `LOVELETTER_ADMIN_TOKENS_FILE` (one a line; blank lines and `#` comments ignored), a file
read again whenever it changes (its modification time, size or inode: an edit in place or a file renamed over
it). A token is compared with each of them in constant time, as bytes (`referee.tokens.AdminTokens`).

uvicorn's access log writes each request's query string, where a stream's `?token=` travels (EventSource cannot
send headers): `redact_access_log` blanks the value of any query parameter named like a token in those lines.
"""

from __future__ import annotations

import logging
from urllib.parse import unquote_plus

from loveletter.referee.referee import AdminTokens
from loveletter.server.settings import Settings

__all__ = ["AdminTokens", "admin_tokens", "redact_access_log"]


def admin_tokens(settings: Settings) -> AdminTokens:
    """The admin tokens the settings name: `admin_token`, the comma-separated `admin_tokens`, and the file."""
    tokens = [settings.admin_token or "", *(settings.admin_tokens or "").split(",")]
    return AdminTokens(tokens, settings.admin_tokens_file)


def _redact_query(target: str) -> str:
    """`target` (a path with its query string) with the value of every parameter named like a token blanked."""
    path, mark, query = target.partition("?")
    if not mark:
        return target
    parts = []
    for part in query.split("&"):
        name, equals, _ = part.partition("=")
        secret = "token" in unquote_plus(name).lower() or "authorization" in unquote_plus(name).lower()
        parts.append(f"{name}{equals or '='}[redacted]" if secret else part)
    return f"{path}?{'&'.join(parts)}"


class _AccessLogRedaction(logging.Filter):
    """On uvicorn's access logger: its line's arguments are (client, method, path with query, version, status)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str) and "?" in args[2]:
            record.args = (*args[:2], _redact_query(args[2]), *args[3:])
        return True


_REDACTION = _AccessLogRedaction()


def redact_access_log() -> None:
    """Keep tokens out of uvicorn's access log, if it is on (`loveletter serve` turns it off; `uvicorn` does not)."""
    logging.getLogger("uvicorn.access").addFilter(_REDACTION)
