"""Seat tokens: 192 random bits, stored only as SHA-256 digests, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

from loveletter.api.problems import Problem
from loveletter.core.lang import Text


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(token), stored_digest)


def bearer(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer <token>` header (None without one; 401 if it is malformed)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(
            401,
            "token_required",
            Text("use Authorization: Bearer <token>", "l'en-tête s'écrit « Authorization: Bearer <jeton> »"),
        )
    return token.strip()
