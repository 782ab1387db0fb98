"""The OpenAPI document's answers: each route declares the schema of every status it can answer, with the client
library's own models (`loveletter.client.models`, `loveletter.client.answers`), so a generated client and
`loveletter.client` read the same shapes. Handlers keep writing their own JSON bytes (the hot routes stay as fast
as they were); tests/test_openapi_answers.py checks with schemathesis that real answers conform."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from loveletter.api.event_schemas import REF, log_line_schemas, seen_event_schemas
from loveletter.client.answers import Problem

EXAMPLES: dict[str, Any] = json.loads((Path(__file__).with_name("openapi_examples.json")).read_text("utf-8"))
JSON = "application/json"
PROBLEM = "application/problem+json"
SSE = "text/event-stream"
NDJSON = "application/x-ndjson"
_TITLES = {
    400: "A malformed request: a body that is not JSON, a header that cannot be read",
    401: "A missing token",
    403: "A wrong token",
    404: "No such game",
    409: "A move out of turn",
    412: "A stale If-Match",
    413: "A body larger than the limit",
    415: "A body of the wrong media type",
    422: "A request the rules or the schema refuse (the field, or the rule id, is named)",
    431: "Request headers larger than the limit",
    429: "Too many requests from this client (Retry-After says when to come back)",
    503: "The referee is busy or cannot reach its store (Retry-After says when to come back)",
}
ANYWHERE = (400, 429, 431, 503)
"""Problems any route may answer: a header that cannot be read, the limits of api/limits.py and server/deadlines.py
and an unreachable store (docs/reliability.md)."""

RETRY_AFTER = {
    "description": "seconds to wait before trying again (sent with every 503 and every rate limit)",
    "required": False,
    "schema": {"type": "string", "pattern": "^[0-9]+$"},
}
ETAG = {"ETag": 'the game\'s version, quoted ("12"): what If-Match and If-None-Match take'}
MODELS: dict[str, type[BaseModel]] = {}
"""Models the declarations refer to by name. Their JSON Schemas are built only when the document is (`components`):
building them costs a second of CPU, which every start of the referee paid at import time before."""


def ref(model: type[BaseModel]) -> dict[str, str]:
    """A `$ref` to `model`'s JSON Schema (as a client reads it); the schema itself is written by `components`."""
    if MODELS.setdefault(model.__name__, model) is not model:
        raise ValueError(f"two different models are both named {model.__name__!r}")
    return {"$ref": REF + model.__name__}


def components() -> dict[str, Any]:
    """The schemas of every model `ref` named, with the models they refer to."""
    out: dict[str, Any] = {}

    def add(name: str, schema: Any) -> None:
        if out.setdefault(name, schema) != schema:
            raise ValueError(f"two different schemas are both named {name!r}")

    for name, model in MODELS.items():
        schema = model.model_json_schema(ref_template=REF + "{model}")
        for sub_name, sub in schema.pop("$defs", {}).items():
            if sub_name != "Event":  # the generic envelope: the document has the union of every kind instead
                add(sub_name, sub)
        add(name, schema)
    return out


def problem(status: int, example: Any = None, description: str | None = None) -> dict[str, Any]:
    """The `responses` entry of a problem+json answer."""
    content: dict[str, Any] = {"schema": ref(Problem)}
    entry: dict[str, Any] = {"description": description or _TITLES[status], "content": {PROBLEM: content}}
    if status in (429, 503):
        entry["headers"] = {"Retry-After": RETRY_AFTER}
    if example is None and str(status) in EXAMPLES["problems"]:
        example = EXAMPLES["problems"][str(status)]
    if example is not None:
        content["example"] = example
    return entry


def answers(
    model: type[BaseModel] | dict[str, Any] | None,
    *problems: int,
    status: int = 200,
    media: str = JSON,
    example: Any = None,
    description: str = "Success",
    more: dict[int, Any] | None = None,
    links: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> dict[Any, Any]:
    """`responses=` for a route: its success answer (`model`, or a schema; `example`: a name in
    openapi_examples.json, or the example itself) and the problem+json answers it can give besides those of every
    route (`ANYWHERE`); `more` adds whole entries by status, `links` the success answer's links (Open API links:
    what a later call may take from this answer), `headers` the success answer's headers (name: what it says;
    a `?` ending the name: not always sent)."""
    content: dict[str, Any] = {}
    if model is not None:
        content["schema"] = model if isinstance(model, dict) else ref(model)
    if example is not None:
        content["example"] = EXAMPLES.get(example, example) if isinstance(example, str) else example
    out: dict[Any, Any] = {status: {"description": description, "content": {media: content}}}
    if links:
        out[status]["links"] = links
    if headers:
        out[status]["headers"] = {
            name.rstrip("?"): {"description": said, "required": not name.endswith("?"), "schema": {"type": "string"}}
            for name, said in headers.items()
        }
    for code in (*problems, *ANYWHERE):
        out[code] = problem(code)
    return out | (more or {})


def seat_links(operations: dict[str, str], token: str = "$response.body#/seats/0/token") -> dict[str, Any]:
    """Open API links from an answer that names a game (`game_id`) and a token to the calls that take them: how
    stateful tools (schemathesis) and readers go from a new game to playing it."""
    return {
        name: {
            "operationId": operation,
            "parameters": {"path.game_id": "$response.body#/game_id", "header.Authorization": f"Bearer {{{token}}}"},
            "description": f"{operation} on the new game, with the token this answer gives",
        }
        for name, operation in operations.items()
    }


def stream_schema(payloads: dict[str, str], what: str) -> dict[str, Any]:
    """A `text/event-stream` body, as Open API 3.1 tools read one: the schema of each event (`id`, `event`, and
    `data`, a line of JSON whose `contentSchema` depends on the kind); `payloads` maps each kind to its `$ref`."""
    kinds = ", ".join(f"`{kind}`" for kind in payloads)
    return {
        "description": f"Server-sent events ({what}). Each event has an `id:`, an `event:` ({kinds}) and one "
        "`data:` line of JSON whose schema depends on the kind; a `: keep-alive` comment comes every 15 s.",
        "oneOf": [
            {
                "type": "object",
                "required": ["id", "event", "data"],
                "properties": {
                    "id": {"type": "string", "pattern": "^[0-9]+$"},
                    "event": {"const": kind},
                    "data": {
                        "type": "string",
                        "contentMediaType": JSON,
                        "contentSchema": {"$ref": target},
                    },
                },
            }
            for kind, target in payloads.items()
        ],
    }


def stream_payload(schema: dict[str, Any], kind: str) -> dict[str, Any]:
    """The schema of the `data:` of a `kind` event in a stream declared by `stream_schema`."""
    for branch in schema["oneOf"]:
        if branch["properties"]["event"]["const"] == kind:
            return branch["properties"]["data"]["contentSchema"]  # type: ignore[no-any-return]
    raise KeyError(kind)


def complete(document: dict[str, Any]) -> dict[str, Any]:
    """FastAPI's document with the answers' schemas added, and FastAPI's own validation answer (a JSON 422 it never
    sends: every refusal here is problem+json) replaced by the problem it is."""
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in {**components(), **seen_event_schemas(), **log_line_schemas()}.items():
        if schemas.setdefault(name, schema) != schema:
            raise ValueError(f"two different schemas are both named {name!r}")
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for entry in responses.values():  # a stream or a log: FastAPI's default JSON answer is not one of them
                content = entry.get("content", {})
                if len(content) > 1 and not content.get(JSON, {}).get("schema", True):
                    del content[JSON]
            reads_token = bool(operation.get("security")) or any(
                p.get("name", "").lower() == "authorization" for p in operation.get("parameters", [])
            )
            if reads_token:  # a token that cannot be read (empty, too long, not ASCII) is a 401 wherever it is sent
                responses.setdefault("401", problem(401))
            for status in ("422", *map(str, ANYWHERE)):
                entry = responses.get(status)
                if (entry is None and status != "422") or (entry is not None and JSON in entry.get("content", {})):
                    responses[status] = problem(int(status))
    return document
