"""Events to and from JSON: hand-written encoding on the way out, pydantic validation on the way in.

Encoding is lossless (`decode(encode(e)) == e`) and canonical (keys sorted, no spaces), so equal
events always give equal bytes. Decoding trusts nothing: every field is validated by pydantic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from enum import Enum
from typing import Any

import orjson
from pydantic import TypeAdapter, ValidationError

from loveletter.core.catalogue import EVENT_TYPES, Event, Shuffle
from loveletter.core.lang import BilingualError


class EventFormatError(BilingualError):
    """An event that cannot be read: unknown type or version, or a field that is wrong."""


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value._value_  # the member's value, without the descriptor `.value` goes through
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Shuffle):
        return {"algorithm": value.algorithm, "seed": value.seed}
    return value


_FIELDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in EVENT_TYPES.values()}
_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def encode(event: Event) -> dict[str, Any]:
    """The JSON form of an event: `type`, `v`, then its fields."""
    out: dict[str, Any] = {"type": event.TYPE, "v": event.VERSION}
    for name in _FIELDS[type(event)]:
        out[name] = _plain(getattr(event, name))
    return out


def _line_encoder(cls: type[Event]) -> Callable[[Any, int, str | None], bytes]:
    """`line(event, seq, prev)`: the event's canonical log line, built as one dict literal whose keys are
    already in sorted order, so orjson writes enums, tuples and nested dataclasses itself without sorting.
    Writers and the audit's regeneration build millions of lines; this is several times faster than
    `dumps(encode(event) | envelope)`, and `tests/test_codec.py` checks the two agree on every event type."""
    names = sorted([*_FIELDS[cls], "type", "v", "seq", "prev"])
    fixed = {"type": repr(cls.TYPE), "v": repr(cls.VERSION), "seq": "seq", "prev": "prev"}
    items = ", ".join(f"{name!r}: {fixed.get(name, f'e.{name}')}" for name in names)
    namespace: dict[str, Any] = {"_dumps": orjson.dumps}
    exec(f"def line(e, seq, prev):\n    return _dumps({{{items}}})", namespace)
    encoder: Callable[[Any, int, str | None], bytes] = namespace["line"]
    return encoder


def _needs_sorting(cls: type) -> bool:
    """Events holding a mapping (rule options) are written the slow way, their keys sorted."""
    return any("dict" in str(f.type) for f in fields(cls))


_LINES: dict[type, Callable[[Any, int, str | None], bytes]] = {
    cls: _line_encoder(cls) for cls in EVENT_TYPES.values() if not _needs_sorting(cls)
}


def event_line(event: Event, seq: int, prev: str | None) -> bytes:
    """The canonical JSON line of `event` at `seq`, chained to `prev`: equal to
    `dumps(encode(event) | {"seq": seq, "prev": prev})`, only faster."""
    fast = _LINES.get(type(event))
    if fast is not None:
        return fast(event, seq, prev)
    data = encode(event)
    data["seq"], data["prev"] = seq, prev
    return dumps(data)


def _adapter(cls: type) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(cls)
    return adapter


_VALIDATORS: dict[str, tuple[type[Event], Any]] = {}


def decode(data: Any) -> Event:
    """An event from its JSON form; `EventFormatError` says what is wrong with it. Each event type's pydantic
    validator is called directly (every field checked, unknown fields refused): replay and audit decode
    millions of events, so the per-call overhead of a TypeAdapter is worth avoiding."""
    if type(data) is not dict:
        raise EventFormatError(f"an event is a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    entry = _VALIDATORS.get(kind) if isinstance(kind, str) else None
    if entry is None:
        cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise EventFormatError(f"unknown event type {kind!r}")
        entry = _VALIDATORS[cls.TYPE] = (cls, _adapter(cls).validator)
    cls, validator = entry
    version = data.get("v", cls.VERSION)
    if version != cls.VERSION:
        raise EventFormatError(f"{kind} version {version!r} is not supported (this referee reads v{cls.VERSION})")
    body = data.copy()
    for envelope in ("type", "v", "seq", "prev"):
        body.pop(envelope, None)
    try:
        event: Event = validator.validate_python(body, strict=False)
        return event
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or kind
        raise EventFormatError(f"{kind}: {where}: {first['msg']}") from None


def dumps(data: Any) -> bytes:
    """Canonical JSON bytes: sorted keys, no spaces."""
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def loads(text: bytes | str) -> Any:
    return orjson.loads(text)


def event_schema(cls: type[Event]) -> dict[str, Any]:
    """The JSON Schema of one event type, with its `type` and `v` pinned."""
    schema = _adapter(cls).json_schema()
    schema["properties"] = {
        "type": {"const": cls.TYPE},
        "v": {"const": cls.VERSION},
        "seq": {"type": "integer", "minimum": 1},
        "prev": {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "SHA-256 of the line before"},
        **schema.get("properties", {}),
    }
    schema["required"] = ["type", *schema.get("required", [])]
    schema["additionalProperties"] = False
    return schema
