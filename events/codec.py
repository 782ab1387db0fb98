"""Events to and from JSON: hand-written encoding on the way out, pydantic validation on the way in.

Encoding is lossless (`decode(encode(e)) == e`) and canonical (keys sorted, no spaces), so equal
events always give equal bytes. Decoding trusts nothing: every field is validated by pydantic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields
from enum import Enum
from typing import Any

import orjson
from pydantic import TypeAdapter, ValidationError

from loveletter.core.catalogue import EVENT_TYPES, Event, SeatAccount, SeatBot, Shuffle
from loveletter.core.lang import BilingualError, Text, plural_fr


class EventFormatError(BilingualError):
    """An event that cannot be read: unknown type or version, or a field that is wrong."""


def quoted_fr(value: Any) -> str:
    """A value as French prose quotes it: « guard » for a text, « 7 » or « null » (its JSON) for anything else."""
    if isinstance(value, str):
        return f"« {value} »"
    try:
        shown = orjson.dumps(value).decode()
    except TypeError:
        shown = type(value).__name__
    return f"« {shown} »"


def _choices_fr(expected: str) -> str:
    """pydantic's "'a', 'b' or 'c'" as « a », « b » ou « c »."""
    names = [f"« {name} »" for name in re.findall(r"'([^']*)'", expected)]
    if len(names) < 2:
        return names[0] if names else "une des valeurs admises"
    return ", ".join(names[:-1]) + " ou " + names[-1]


# What a pydantic type error expects, in French (by the prefix of its error type: int_type, string_type…).
_EXPECTED_FR = {
    "int": "un entier",
    "string": "une chaîne de caractères",
    "str": "une chaîne de caractères",
    "bool": "un booléen",
    "float": "un nombre",
    "tuple": "une liste",
    "list": "une liste",
    "dict": "un objet JSON",
    "dataclass": "un objet JSON",
    "model": "un objet JSON",
    "none": "null",
}
_MISSING = frozenset({"missing", "missing_keyword_argument", "missing_positional_argument"})
_UNKNOWN = frozenset({"extra_forbidden", "unexpected_keyword_argument", "unexpected_positional_argument"})
_BOUNDS_FR = {
    "greater_than": ("gt", "supérieur à"),
    "greater_than_equal": ("ge", "supérieur ou égal à"),
    "less_than": ("lt", "inférieur à"),
    "less_than_equal": ("le", "inférieur ou égal à"),
}


def _field_error_fr(kind: str, error: Any) -> str:
    """One pydantic error as a French sentence: every kind of error says what is wrong without English."""
    loc = [str(p) for p in error["loc"]]
    field = f"le champ « {'.'.join(loc)} »" if loc else "l'événement"
    etype: str = error["type"]
    ctx = error.get("ctx") or {}
    if etype in _MISSING:
        text = f"il manque {field}"
    elif etype in _UNKNOWN:
        text = f"champ inconnu « {'.'.join(loc)} »" if loc else "champ inconnu"
    elif etype in ("enum", "literal_error"):
        text = f"{field} doit valoir {_choices_fr(str(ctx.get('expected', '')))}"
    elif etype in _BOUNDS_FR:
        key, words = _BOUNDS_FR[etype]
        text = f"{field} doit être {words} {ctx.get(key)}"
    elif etype in ("too_short", "too_long"):
        size = ctx.get("min_length" if etype == "too_short" else "max_length", 0)
        least = "au moins" if etype == "too_short" else "au plus"
        text = f"{field} doit compter {least} {plural_fr(int(size), 'élément', 'éléments')}"
    elif etype == "int_from_float":
        text = f"{field} doit être un entier, sans partie décimale"
    elif etype.endswith(("_type", "_parsing")) and etype.split("_")[0] in _EXPECTED_FR:
        text = f"{field} doit être {_EXPECTED_FR[etype.split('_')[0]]}"
    else:
        text = f"{field} a une valeur refusée (erreur « {etype} »)"
    return f"{kind} : {text}"


# orjson's reasons (the part before the colon of its message), in French.
_JSON_REASONS_FR = (
    ("unexpected end of data", "fin de données inattendue"),
    ("unexpected character", "caractère inattendu"),
    ("unexpected content after document", "contenu en trop après le document"),
    ("input is a zero-length", "document vide"),
    ("invalid literal", "valeur littérale invalide"),
    ("str is not valid utf-8", "texte qui n'est pas de l'UTF-8 valide"),
    ("invalid escape", "séquence d'échappement invalide"),
    ("surrogate", "séquence d'échappement Unicode invalide"),
    ("control character", "caractère de contrôle non échappé"),
    ("number out of range", "nombre hors limites"),
    ("recursion limit", "imbrication trop profonde"),
)


def json_reason(exc: orjson.JSONDecodeError) -> Text:
    """Why a text is not JSON, shortly: orjson's reason in English ("unexpected end of data"), and in French."""
    en = str(exc.args[0]).split(":")[0]
    low = en.lower()
    fr = next((fr for start, fr in _JSON_REASONS_FR if start in low), "syntaxe invalide")
    return Text(en, fr)


# How a JSON value that is not an object is named in French ("not list": « pas un tableau »).
_JSON_KINDS_FR = {
    "list": "un tableau",
    "str": "une chaîne de caractères",
    "int": "un nombre",
    "float": "un nombre",
    "bool": "un booléen",
    "NoneType": "null",
}


_SCALARS = frozenset((int, str, bool, float, type(None)))
"""The types most fields hold, returned at once: one look-up, not the four `isinstance` below (hot: every field
of every event the referee answers)."""


def _plain(value: Any) -> Any:
    if type(value) in _SCALARS:
        return value
    if isinstance(value, Enum):
        return value._value_  # the member's value, without the descriptor `.value` goes through
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Shuffle):
        return {"algorithm": value.algorithm, "seed": value.seed}
    if isinstance(value, SeatAccount):
        return {"account": value.account, "kind": value.kind}
    if isinstance(value, SeatBot):
        return {"name": value.name, "rollouts": value.rollouts}
    return value


_FIELDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in EVENT_TYPES.values()}
_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


_OMITTED: dict[type, dict[str, Any]] = {
    cls: {f.name: f.default for f in fields(cls) if f.name in getattr(cls, "OPTIONAL", ())}
    for cls in EVENT_TYPES.values()
}
"""Per event type, the fields left out of a line while they hold their default (added after logs existed)."""


def encode(event: Event) -> dict[str, Any]:
    """The JSON form of an event: `type`, `v`, then its fields (an optional field only when it is set)."""
    out: dict[str, Any] = {"type": event.TYPE, "v": event.VERSION}
    omitted = _OMITTED[type(event)]
    for name in _FIELDS[type(event)]:
        value = getattr(event, name)
        if name in omitted and value == omitted[name]:
            continue
        out[name] = _plain(value)
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
    """Events holding a mapping (rule options) or optional fields are written the slow way, by `encode`."""
    return any("dict" in str(f.type) for f in fields(cls)) or bool(_OMITTED[cls])


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
        name = type(data).__name__
        raise EventFormatError(
            Text(
                f"an event is a JSON object, not {name}",
                f"un événement est un objet JSON, pas {_JSON_KINDS_FR.get(name, quoted_fr(name))}",
            )
        )
    kind = data.get("type")
    entry = _VALIDATORS.get(kind) if isinstance(kind, str) else None
    if entry is None:
        cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
        if cls is None:
            fr = "l'événement n'a pas de type" if kind is None else f"type d'événement inconnu {quoted_fr(kind)}"
            raise EventFormatError(Text(f"unknown event type {kind!r}", fr))
        entry = _VALIDATORS[cls.TYPE] = (cls, _adapter(cls).validator)
    cls, validator = entry
    version = data.get("v", cls.VERSION)
    if version != cls.VERSION:
        raise EventFormatError(
            Text(
                f"{kind} version {version!r} is not supported (this referee reads v{cls.VERSION})",
                f"{kind} : la version {quoted_fr(version)} n'est pas prise en charge "
                f"(cet arbitre lit la version {cls.VERSION})",
            )
        )
    body = data.copy()
    for envelope in ("type", "v", "seq", "prev"):
        body.pop(envelope, None)
    try:
        event: Event = validator.validate_python(body, strict=False)
        return event
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or kind
        raise EventFormatError(Text(f"{kind}: {where}: {first['msg']}", _field_error_fr(cls.TYPE, first))) from None


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
