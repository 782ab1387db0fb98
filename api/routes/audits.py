"""`POST /audits`: upload a JSONL log, get the audit report of every game in it (see `replays.audit`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from loveletter.api.openapi import answers, problem
from loveletter.api.problems import Problem, bilingual, lang_of
from loveletter.api.routes.bodies import LOG_UPLOAD, log_upload
from loveletter.api.routes.replies import reply
from loveletter.client.answers import AuditReport
from loveletter.core.lang import Text
from loveletter.events.log import LogFormatError
from loveletter.replays.audit import FileAudit, Options, audit_lines, normalise_key

AUDIT_PATH = "/audits"
MAX_AUDIT_BYTES = 8 * 1024 * 1024
"""Uploads to POST /audits may be this large (other routes keep `settings.max_body_bytes`)."""
BODY_LIMITS = {AUDIT_PATH: MAX_AUDIT_BYTES}
router = APIRouter()


def audit_upload(data: bytes, options: Options) -> FileAudit:
    """`audit_bytes` of an upload, in one piece; an unreadable log is a 422 `Problem` saying why in both languages
    (the reader's `LogFormatError` is bilingual; the report keeps only its English)."""
    try:
        games = audit_lines(data.splitlines(), options)
    except LogFormatError as exc:
        raise Problem(422, "unreadable_log", exc.text, line=exc.line) from None
    if not games:
        raise Problem(
            422,
            "unreadable_log",
            Text(
                "line 1: no game in this log (it has no header line)",
                "ligne 1 : ce journal ne contient aucune partie (il n'a pas de ligne d'en-tête)",
            ),
            line=1,
        )
    return FileAudit("upload", games)


_GAME_EXAMPLE = {
    "game": 1,
    "game_id": "sim-1-0",
    "line": 1,
    "ruleset": "2019",
    "players": ["Ann", "Bob", "Cid", "Dee"],
    "verdict": "invalid",
    "events": 203,
    "rounds": 5,
    "finished": True,
    "winners": ["Bob"],
    "signed": True,
    "key_id": "3f1c0a9e5b7d2c44",
    "checks": {
        "sequence": "ok",
        "chain": "problem",
        "signature": "skipped",
        "commitment": "skipped",
        "derivation": "skipped",
        "rules": "skipped",
    },
    "problems": [
        {
            "line": 9,
            "seq": 8,
            "where": None,
            "event": "turn_started",
            "rule_id": "log.chain",
            "code": "chain_broken",
            "message": "prev is not the SHA-256 of the line before: a line was changed, removed, added or moved",
            "expected": "5d41402abc4b2a76b9719d911017c592ae3b0c7e2d2a1f4a6f2b7e3c9d8e1f20",
            "found": "9b74c9897bac770ffc029102a200c5de0f4a9b1d2e3c4b5a69788796a5b4c3d2",
        }
    ],
    "notes": [],
}
_RESPONSES = answers(
    AuditReport,
    413,
    415,
    422,
    description="The audit report (its verdict: valid or invalid)",
    example={
        "file": "upload",
        "verdict": "invalid",
        "error": None,
        "error_line": None,
        "counts": {"games": 1, "valid": 0, "invalid": 1, "events": 203, "problems": 1, "signed": 1},
        "games": [_GAME_EXAMPLE],
    },
)
_RESPONSES[413] = problem(
    413,
    {
        "type": "https://loveletter-referee.example/problems/too_large",
        "title": "Request too large",
        "status": 413,
        "detail": f"bodies are limited to {MAX_AUDIT_BYTES} bytes",
        "code": "too_large",
    },
    "The upload is larger than 8 MiB",
)
_RESPONSES[422] = problem(
    422,
    {
        "type": "https://loveletter-referee.example/problems/unreadable_log",
        "title": "Unreadable log",
        "status": 422,
        "detail": "line 5: invalid JSON (unexpected end of data)",
        "code": "unreadable_log",
        "line": 5,
    },
    "The log cannot be read",
)


@router.post(
    AUDIT_PATH,
    dependencies=[Depends(log_upload)],
    tags=["audit"],
    responses=_RESPONSES,
    openapi_extra=LOG_UPLOAD,
)
async def audit_log(
    request: Request,
    lang: Annotated[str | None, Query(pattern="^(en|fr)$", description="en or fr (else Accept-Language)")] = None,
    lenient: Annotated[bool, Query(description="report every problem, not just each game's first")] = False,
    key: Annotated[
        str | None, Query(max_length=200, description="pin the referee's public key (64 hex digits)")
    ] = None,
    require_signature: Annotated[bool, Query(description="an unsigned game is a problem")] = False,
) -> Response:
    """Audit an uploaded log (up to 8 MiB): sequence, hash chain, signature, seed commitment, every deck's
    derivation and every move. 200 with the report (its `verdict` says valid or invalid); 422 if unreadable."""
    language = lang or lang_of(request)
    pinned = None
    if key is not None:
        try:
            pinned = normalise_key(key)
        except ValueError as exc:
            reason = bilingual(exc, "une clé publique s'écrit en 64 chiffres hexadécimaux (32 octets)")
            raise Problem(422, "invalid_request", Text(f"key: {reason.en}", f"« key » : {reason.fr}")) from None
    data = await request.body()  # at most MAX_AUDIT_BYTES: `RequestContext` refuses more (BODY_LIMITS)
    options = Options(lenient=lenient, key=pinned, require_signature=require_signature)
    report = await run_in_threadpool(audit_upload, data, options)
    return reply(report.as_dict(language))
