"""The baselines: a bare FastAPI endpoint that parses a small JSON body and answers a small JSON body (`app`);
the same as a plain ASGI app (`raw`), which measures what uvicorn itself costs per request; and the plain app
behind the referee's own request middleware (`short`), which is the path the move route takes — so the move
route can be compared with a bare endpoint on the same path, like with like."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import Body, FastAPI
from fastapi.responses import Response
from starlette.types import Receive, Scope, Send

from loveletter.server.logs import RequestContext, configure

configure("json", "info")  # as the load test runs the referee: one JSON line per request on the short path
app = FastAPI()


@app.post("/bare")
async def bare(body: dict[str, Any] = Body(...)) -> Response:  # noqa: B008
    return Response(orjson.dumps({"ok": True, "echo": body}), media_type="application/json")


async def raw(scope: Scope, receive: Receive, send: Send) -> None:
    """Any request: its JSON body echoed, with no framework at all (lifespan acknowledged)."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = orjson.dumps({"ok": True, "echo": orjson.loads(b"".join(chunks))})
    headers = [(b"content-length", str(len(body)).encode()), (b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# The move route's path without the referee: `RequestContext` (request id, body limit, the request's log line)
# around a plain handler, as `RefereeApp` answers POST /games/{id}/moves.
short = RequestContext(raw, max_body=64 * 1024)
