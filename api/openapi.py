"""Examples for the OpenAPI document, so the contract shows every route's answers (taken from a real run)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

EXAMPLES: dict[str, Any] = json.loads((Path(__file__).with_name("openapi_examples.json")).read_text("utf-8"))
PROBLEM = "application/problem+json"
_TITLES = {
    "401": "A missing token",
    "403": "A wrong token",
    "404": "No such game",
    "409": "A move out of turn",
    "412": "A stale If-Match",
    "422": "A move the rules refuse",
}


def answers(example: str | None, *problems: int, status: int = 200, media: str = "application/json") -> dict[Any, Any]:
    """`responses=` for a route: its success example and the problem+json answers it can give."""
    out: dict[Any, Any] = {}
    if example is not None:
        out[status] = {"content": {media: {"example": EXAMPLES[example]}}}
    for code in problems:
        out[code] = {
            "description": _TITLES[str(code)],
            "content": {PROBLEM: {"example": EXAMPLES["problems"][str(code)]}},
        }
    return out
