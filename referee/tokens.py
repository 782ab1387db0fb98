"""Seat tokens: 192 random bits, stored only as SHA-256 digests, compared in constant time.

A token reaches these functions already read by `api.parse` (visible ASCII); they compare bytes all the same, so
no text can make a comparison raise (`hmac.compare_digest` refuses `str` with non-ASCII characters)."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def matches(token: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(token).encode(), stored_digest.encode())
