"""Server-sent events: the referee's streams (a game's events, the lobby's news, an account's events) framed for
HTTP. The referee yields batches of items (id, kind, JSON) and None when a stream has been idle for a keep-alive;
here each batch goes out as one chunk, and an idle stream sends a comment line once the client is known to be
still there."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator

from fastapi import Request
from fastapi.responses import StreamingResponse

SSE = "text/event-stream"
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
KEEP_ALIVE = b": keep-alive\n\n"

# JSON leaves U+0085, U+2028 and U+2029 unescaped, and some line readers (httpx's, under httpx-sse) end a line at
# each: a player named with one would cut an event's `data:` in two for them. Escaped, the JSON means the same.
_LINE_ENDS = ((b"\xc2\x85", b"\\u0085"), (b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


def sse_frame(ident: int, kind: str, data: bytes) -> bytes:
    """One server-sent event whose `data:` stays on one line for every line reader."""
    for raw, escaped in _LINE_ENDS:
        if raw in data:
            data = data.replace(raw, escaped)
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (ident, kind.encode(), data)


Items = AsyncGenerator[list[tuple[int, str, bytes]] | None, None]


async def framed(items: Items, request: Request) -> AsyncIterator[bytes]:
    """The referee's stream as server-sent events, until it ends or the client goes away; the referee's side is
    closed at once either way (a seat's presence ends with its last stream)."""
    try:
        async for batch in items:
            if batch is None:
                if await request.is_disconnected():
                    return
                yield KEEP_ALIVE
            else:
                yield b"".join(sse_frame(ident, kind, data) for ident, kind, data in batch)
    finally:
        await items.aclose()


def stream(items: Items, request: Request) -> StreamingResponse:
    return StreamingResponse(framed(items, request), media_type=SSE, headers=HEADERS)
