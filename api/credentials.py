"""Admin tokens, and tokens kept out of the access log.

Several admin tokens may be valid at once, so one can be rotated without a restart: add the new one, move the
clients over, remove the old one. They come from `LOVELETTER_ADMIN_TOKEN` (one), `LOVELETTER_ADMIN_TOKENS`
(comma-separated) and `LOVELETTER_ADMIN_TOKENS_FILE` (one a line; blank lines and `#` comments ignored), a file
read again whenever it changes (its modification time, size or inode: an edit in place or a file renamed over
it). A token is compared with each of them in constant time, as bytes.

uvicorn's access log writes each request's query string, where a stream's `?token=` travels (EventSource cannot
send headers): `redact_access_log` blanks the value of any query parameter named like a token in those lines.
"""

from __future__ import annotations

import hmac
import logging
import os
from collections.abc import Iterable
from urllib.parse import unquote_plus

import structlog

from loveletter.api.settings import Settings

log = structlog.get_logger()


class AdminTokens:
    """The bearer tokens that are the admin's: fixed ones, and those of a file read again when it changes."""

    def __init__(self, tokens: Iterable[str] = (), file: str | None = None) -> None:
        self._fixed = tuple(t.encode() for t in (t.strip() for t in tokens) if t)
        self._file = file or None
        self._seen: tuple[int, int, int] | None = None
        self._from_file: tuple[bytes, ...] = ()
        if self._file is not None:
            self._check()

    @classmethod
    def of(cls, settings: Settings) -> AdminTokens:
        tokens = [settings.admin_token or "", *(settings.admin_tokens or "").split(",")]
        return cls(tokens, settings.admin_tokens_file)

    def __bool__(self) -> bool:
        return bool(self._fixed or self._file)

    def matches(self, token: str | None) -> bool:
        """Whether `token` is one of the admin tokens (each compared in constant time, as bytes)."""
        if not token:
            return False
        given = token.encode()
        found = False
        for known in self.current():
            found |= hmac.compare_digest(given, known)
        return found

    def current(self) -> tuple[bytes, ...]:
        if self._file is not None:
            self._check()
        return self._fixed + self._from_file

    def _check(self) -> None:
        """Read the file again if it changed since it was last read (a missing or unreadable file: none of its
        tokens count, and a warning names the file, never a token)."""
        assert self._file is not None
        try:
            stat = os.stat(self._file)
        except OSError as exc:
            if self._seen != (0, 0, 0):
                self._seen, self._from_file = (0, 0, 0), ()
                log.warning("admin tokens file unreadable", path=self._file, error=exc.strerror)
            return
        seen = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
        if seen == self._seen:
            return
        try:
            with open(self._file, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            self._seen, self._from_file = (0, 0, 0), ()
            log.warning("admin tokens file unreadable", path=self._file, error=str(getattr(exc, "strerror", exc)))
            return
        self._seen = seen  # as it was before it was read: a change made while reading is read next time
        self._from_file = tuple(t.encode() for t in (line.strip() for line in lines) if t and not t.startswith("#"))
        log.info("admin tokens read", path=self._file, tokens=len(self._from_file))


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
