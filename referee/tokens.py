"""Who is asking: seat tokens (192 random bits, stored only as SHA-256 digests, compared in constant time), the
organiser's token, and the admin tokens (several valid at once, so one can be rotated without a restart: fixed
ones, and those of a file read again whenever it changes).

A token reaches these functions already read by the transport (visible ASCII); they compare bytes all the same, so
no text can make a comparison raise (`hmac.compare_digest` refuses `str` with non-ASCII characters)."""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import structlog

from loveletter.referee.refusals import not_a_seat_token, token_required

if TYPE_CHECKING:
    from loveletter.referee.tables import Table

log = structlog.get_logger()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(token).encode(), stored_digest.encode())


class AdminTokens:
    """The bearer tokens that are the admin's: fixed ones, and those of a file (one a line; blank lines and `#`
    comments ignored) read again when its modification time, size or inode change."""

    def __init__(self, tokens: Iterable[str] = (), file: str | None = None) -> None:
        self._fixed = tuple(t.encode() for t in (t.strip() for t in tokens) if t)
        self._file = file or None
        self._seen: tuple[int, int, int] | None = None
        self._from_file: tuple[bytes, ...] = ()
        if self._file is not None:
            self._check()

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


class Credentials:
    """What a token is worth at a table: a seat, the organiser (who reads what a spectator reads), the admin."""

    def __init__(self, admin_tokens: AdminTokens, identified: Callable[[str, int], None] | None = None) -> None:
        self.admin_tokens = admin_tokens
        self.identified = identified
        """Told (game id, seat) whenever a token is found to be a seat's: the host's hook (the HTTP server binds
        them to the request's log line); the referee itself keeps no record of who asked."""

    def seat_for(self, table: Table, token: str | None, *, required: bool) -> int | None:
        """The seat of `token`; None for no token (refused if `required`) or the organiser's; refused for any
        other token."""
        if token is None:
            if required:
                raise token_required("seat token", "jeton de votre siège")
            return None
        for seat, info in enumerate(table.record.seats):
            stored = info.token_digest
            if stored and matches(token, stored):
                if self.identified is not None:
                    self.identified(table.game_id, seat)
                return seat
        if self.is_organiser(table, token):
            return None
        raise not_a_seat_token()

    def seat_of_player(self, table: Table, token: str | None) -> int:
        """The seat of a seat token; refused for no token, the organiser's or any other."""
        seat = self.seat_for(table, token, required=True)
        if seat is None:  # the organiser's token (found by the OpenAPI conformance run: it was an assert, a 500)
            raise not_a_seat_token()
        return seat

    def is_admin(self, token: str | None) -> bool:
        """Whether `token` is one of the admin tokens now (several may be valid at once)."""
        return self.admin_tokens.matches(token)

    def is_organiser(self, table: Table, token: str) -> bool:
        stored = table.record.organiser_digest
        return isinstance(stored, str) and matches(token, stored)
