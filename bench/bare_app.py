"""The baseline: a bare FastAPI endpoint that parses a small JSON body and answers a small JSON body."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import Body, FastAPI
from fastapi.responses import Response

app = FastAPI()


@app.post("/bare")
async def bare(body: dict[str, Any] = Body(...)) -> Response:  # noqa: B008
    return Response(orjson.dumps({"ok": True, "echo": body}), media_type="application/json")
