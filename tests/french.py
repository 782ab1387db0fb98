"""Is this text French? Every word must be a French word (pyspellchecker's French dictionary), a term of our
glossary (docs/glossary.md), or a name or id the text quotes; anything else — an English word left behind, a
misspelling, a missing accent — is reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from spellchecker import SpellChecker

# Game and service terms the dictionary lacks, as they stand in docs/glossary.md.
GLOSSARY = {
    "défausse",
    "défausser",
    "défaussé",
    "défaussée",
    "défaussés",
    "défaussées",
    "défaussent",
    "défaussez",
    "ciblent",
    "chancelière",
    "chancelier",
    "comtesse",
    "espionne",
    "servante",
    "prêtre",
    "garde",
    "baron",
    "prince",
    "princesse",
    "roi",
    "manche",
    "manches",
    "pioche",
    "faveur",
    "faveurs",
    "jeton",
    "jetons",
    "graine",
    "graines",
    "condensé",
    "hexadécimaux",
    "hexadécimal",
    "hexadécimale",
    "horodatage",
    "idempotence",
    "organisateur",
    "organisatrice",
    "journal",
    "journaux",
    "rejouer",
    "réessayez",
    "rejoué",
    "rejouée",
    "audit",
    "auditer",
    "web",
    "audité",
    "auditée",
    "signé",
    "signée",
    "json",
    "jsonl",
    "http",
    "https",
    "url",
    "sha",
    "hmac",
    "ed25519",
    "utf",
    "pem",
    "base64",
    "api",
    "sse",
    "id",
    "ids",
    "bearer",
    "authorization",
    "content",
    "type",
    "length",
    "accept",
    "language",
    "if",
    "match",
    "idempotency",
    "key",
    "last",
    "event",
    "retry",
    "after",
    "etag",
    "fisher",
    "yates",
    "tomas",
    "odette",
    "talus",
    "clément",
    "arnaud",
    "iv",
    "susannah",
    "wilhelmina",
    "annette",
    "vladric",
    "oliver",
    "oriane",
    "suzanne",
    "ninette",
    "baronne",
    "conseillers",
    "amira",
    "sadie",
    "claire",
    "jacqueline",
    "sqlite",
    "postgresql",
    "fr",
    "en",
    "loveletter",
    "seq",
    "ok",
}

_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿŒœÆæ]+(?:['’-][A-Za-zÀ-ÖØ-öø-ÿŒœÆæ]+)*")
# Quoted values: « … », "…", `…`, […], and '…' where the quote is not an apostrophe inside a word (d'Alice).
_QUOTED = re.compile(r"«[^»]*»|\"[^\"]*\"|`[^`]*`|\[[^\]]*\]|(?<![\w’'])'[^'\n]*'(?![\w’])")
_ID_LIKE = re.compile(r"\S*[_./:=<>{}0-9@#]\S*")
# HTTP header names and the auth scheme are names, not prose: « l'en-tête If-Match ».
_HEADER = re.compile(
    r"(?:\b[dlnDLN]['’])?\b(?:If-Match|If-None-Match|Content-Type|Content-Length|Last-Event-ID|Idempotency-Key|Idempotent-Replayed|"
    r"Accept-Language|Retry-After|Authorization|Bearer|ETag|X-Request-ID)\b",
    re.IGNORECASE,
)
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")  # command-line options: --players, -h
_ELIDED = re.compile(r"^(?:[dlnmstjc]|qu|jusqu|lorsqu|puisqu)['’]", re.IGNORECASE)


@cache
def _french() -> SpellChecker:
    return SpellChecker(language="fr")


def words(text: str) -> list[str]:
    """The words of `text` once quoted values and ids (anything with digits, underscores, dots…) are set aside."""
    text = _QUOTED.sub(" ", text)
    text = _HEADER.sub(" ", text)
    text = _OPTION.sub(" ", text)
    text = _ID_LIKE.sub(" ", text)
    out = []
    for word in _WORD.findall(text):
        for part in re.split(r"-", _ELIDED.sub("", word)):
            if part:
                out.append(part)
    return out


def not_french(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of `text` that are neither French, nor in the glossary, nor in `allowed` (names, ids)."""
    extra = {a.lower() for a in allowed} | GLOSSARY
    candidates = [w for w in words(text) if w.lower() not in extra]
    unknown = _french().unknown([w.lower() for w in candidates])
    return [w for w in candidates if w.lower() in unknown]
