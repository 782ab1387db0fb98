"""The one way a route answers JSON: orjson's bytes, `application/json`, a status and headers."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import Response

JSON = "application/json"


def reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type=JSON, headers=headers)
