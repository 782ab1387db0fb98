"""The JSON Schemas of the events as the HTTP API sends them (views, moves, `/events`, the game stream) and of a
log line, for the OpenAPI document. Both come from the event catalogue through `events.codec.event_schema`, the
schema of the log: an event seen over HTTP is the log's event without `prev`, and, for a seat that may not see it
whole, only the fields `core.views.redact` keeps (docs/events.md) — here the fields it may leave out are optional.
tests/test_openapi_answers.py checks real answers against these schemas."""

from __future__ import annotations

import copy
import re
from typing import Any

from loveletter.core.catalogue import EVENT_TYPES
from loveletter.core.sources import cite_on_referee
from loveletter.events.codec import event_schema
from loveletter.events.log_schema import build_schema

REF = "#/components/schemas/"

KEPT: dict[str, tuple[str, ...]] = {
    "round_started": ("round", "first_player", "first_player_rule", "face_up"),
    "turn_started": ("player",),
    "card_drawn": ("player", "source"),
    "chancellor_drew": ("player",),
    "chancellor_returned": ("player",),
    "hand_seen": ("player", "target"),
    "hands_compared": ("player", "target"),
    "hands_traded": ("player", "target"),
}
"""The events some seats see redacted (`core.views.visible_to`), and the fields `redact` keeps for every seat."""

ONLY_REDACTED: dict[str, dict[str, Any]] = {
    "round_started": {
        "deck_size": {"type": "integer", "description": "cards in the draw pile after the deal"},
        "hand": {
            "anyOf": [{"$ref": REF + "Card"}, {"type": "null"}],
            "description": "the card dealt to the viewer's seat (absent for a spectator)",
        },
    },
    "chancellor_drew": {"count": {"type": "integer", "description": "how many cards were drawn"}},
    "chancellor_returned": {"count": {"type": "integer", "description": "how many cards went under the deck"}},
}
"""Fields a redacted event has that the whole one does not (counts instead of the cards)."""

ALWAYS_REDACTED = {"round_started"}
"""Events nobody receives whole over HTTP: the deal is secret until the log is published."""


def _pointing_here(schema: Any, prefix: str) -> Any:
    """`schema` with its `#/$defs/X` references pointing at `#/components/schemas/<prefix>X`."""
    if isinstance(schema, dict):
        return {
            k: (REF + prefix + v.removeprefix("#/$defs/") if k == "$ref" else _pointing_here(v, prefix))
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [_pointing_here(v, prefix) for v in schema]
    return schema


def _cited(schema: Any) -> Any:
    """`schema` with each `RULINGS §N` of its descriptions a link on the referee, as refusals give it
    (`[Rulings §12](/rulings#s12)`): the catalogue's docstrings cite the rulings by their ids."""
    if isinstance(schema, dict):
        return {
            k: re.sub(r"RULINGS §\d+", _link, v) if k == "description" and isinstance(v, str) else _cited(v)
            for k, v in schema.items()
        }
    if isinstance(schema, list):
        return [_cited(v) for v in schema]
    return schema


def _link(found: re.Match[str]) -> str:
    (cited,) = cite_on_referee([found[0]])
    return f"[{cited['text']}]({cited['href']})"


def seen_event_schemas() -> dict[str, Any]:
    """Components: one schema per event kind as the API sends it (`<Title>Event`), their shared definitions
    (`Card`, `Shuffle`), and `Event`, the union of every kind told apart by `type`."""
    out: dict[str, Any] = {}
    mapping: dict[str, str] = {}
    for kind, cls in EVENT_TYPES.items():
        schema = _cited(_pointing_here(event_schema(cls), ""))
        for name, sub in schema.pop("$defs", {}).items():
            out[name] = sub
        props = dict(schema["properties"])
        del props["prev"]
        required = ["type", "v", "seq", *(r for r in schema["required"] if r != "type")]
        if kind in KEPT:
            props |= ONLY_REDACTED.get(kind, {})
            if kind in ALWAYS_REDACTED:
                props = {k: v for k, v in props.items() if k in ("type", "v", "seq", *KEPT[kind], *ONLY_REDACTED[kind])}
                required = ["type", "v", "seq", *KEPT[kind], "deck_size"]
            else:
                required = ["type", "v", "seq", *KEPT[kind]]
            schema["description"] += " Seats that may not see it whole receive only the required fields."
        name = f"{schema['title']}Event"
        out[name] = {**schema, "title": name, "properties": props, "required": required}
        mapping[kind] = REF + name
    out["Event"] = {
        "title": "Event",
        "description": "One event as the caller may see it (docs/events.md), told apart by its `type`.",
        "oneOf": [{"$ref": ref} for ref in mapping.values()],
        "discriminator": {"propertyName": "type", "mapping": mapping},
    }
    return out


def log_line_schemas() -> dict[str, Any]:
    """Components: `LogLine`, the JSON Schema of one line of a log (docs/schema/log.schema.json), and its
    definitions as `Log<Name>`."""
    schema = _cited(_pointing_here(copy.deepcopy(build_schema()), "Log"))
    out = {f"Log{name}": {**sub, "title": f"Log{name}"} for name, sub in schema.pop("$defs").items()}
    schema.pop("$schema", None)
    out["LogLine"] = schema
    return out
