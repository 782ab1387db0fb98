"""A minimal keep-alive HTTP/1.1 client on asyncio streams: cheap enough per request that one core of
load generator can drive one core of server (httpx spends several times more per request)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson


class Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str) -> None:
        self.reader, self.writer, self.host = reader, writer, host
        self.retry_after: float | None = None
        """The last answer's Retry-After (seconds), if it had one."""

    @classmethod
    async def open(cls, host: str, port: int, source: str | None = None) -> Connection:
        """A connection to host:port, from the local address `source` if given (any of 127.0.0.0/8 on Linux: one
        address per simulated client, as the referee's per-address limits see clients)."""
        local = (source, 0) if source else None
        reader, writer = await asyncio.open_connection(host, port, local_addr=local)
        return cls(reader, writer, f"{host}:{port}")

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        payload = b"" if body is None else orjson.dumps(body)
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(payload)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        for name, value in (headers or {}).items():
            head += f"{name}: {value}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split(b" ", 2)[1])
        length = 0
        self.retry_after = None
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            name = name.lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"retry-after":
                self.retry_after = float(value)
        data = await self.reader.readexactly(length) if length else b""
        return status, orjson.loads(data) if data else None

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()
