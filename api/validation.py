"""The French of pydantic's validation errors, by each error's `type` (and its `ctx`), and the detail naming the
fields a request got wrong: what `problems.invalid_request` says in both languages."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from loveletter.core.lang import BilingualError, Text, number, plural_en, plural_fr


def fr_int(n: Any) -> str:
    """A whole number as French writes it (« 65 536 », a narrow no-break space between groups); else `str(n)`."""
    return number(n, "fr") if isinstance(n, int) and not isinstance(n, bool) else str(n)


def fields_detail(items: Sequence[Mapping[str, Any]]) -> Text:
    """The detail naming the first five fields: "card: …; target: …" (« card » : … ; « target » : …)."""
    en = "; ".join(f"{e['field'] or 'body'}: {e['message'].en}" for e in items[:5])
    fr = " ; ".join(f"{field_fr(e['field'])} : {e['message'].fr}" for e in items[:5])
    return Text(en, fr)


def field_fr(field: str) -> str:
    """A field's name in a French sentence: quoted, or « corps de la requête » for the whole body."""
    return "corps de la requête" if field in ("", "body") else f"« {field} »"


def quoted_fr(values: Sequence[str]) -> str:
    """« a », « b » ou « c »."""
    quoted = [f"« {v} »" for v in values]
    if len(quoted) <= 1:
        return "".join(quoted)
    return f"{', '.join(quoted[:-1])} ou {quoted[-1]}"


def _listed(expected: Any) -> list[str]:
    """The values of pydantic's "'a', 'b' or 'c'" (a single unquoted value stays as it is)."""
    text = str(expected)
    found = re.findall(r"'((?:[^'\\]|\\.)*)'", text)
    return found or [text]


_JSON_REASONS: tuple[tuple[str, str], ...] = (
    ("eof while parsing", "fin des données inattendue"),
    ("key must be a string", "un nom de champ doit être une chaîne entre guillemets droits"),
    ("expecting property name", "un nom de champ doit être une chaîne entre guillemets droits"),
    ("expected value", "une valeur est attendue"),
    ("expecting value", "une valeur est attendue"),
    ("trailing", "des caractères suivent la valeur"),
    ("extra data", "des caractères suivent la valeur"),
    ("expected `,` or `}`", "« , » ou « } » est attendu"),
    ("expected `,` or `]`", "« , » ou « ] » est attendu"),
    ("expecting ',' delimiter", "« , » est attendu"),
    ("expected `:`", "« : » est attendu"),
    ("expecting ':' delimiter", "« : » est attendu"),
    ("unterminated string", "une chaîne n'est pas fermée"),
    ("control character", "une chaîne contient un caractère de contrôle"),
    ("invalid escape", "une chaîne contient un échappement invalide"),
    ("invalid \\escape", "une chaîne contient un échappement invalide"),
    ("invalid unicode", "une chaîne contient un point de code invalide"),
    ("lone leading surrogate", "une chaîne contient un point de code invalide"),
    ("number out of range", "un nombre est hors limites"),
    ("invalid number", "un nombre est mal écrit"),
)


def _json_fr(err: Mapping[str, Any]) -> str:
    reason = str((err.get("ctx") or {}).get("error", ""))
    lowered = reason.lower()
    said = next((fr for en, fr in _JSON_REASONS if lowered.startswith(en) or en in lowered), "")
    where = ""
    if m := re.search(r"line (\d+) column (\d+)", reason):
        where = f" à la ligne {m[1]}, colonne {m[2]}"
    elif (loc := err.get("loc", ())) and isinstance(loc[-1], int):
        where = f" au caractère {fr_int(loc[-1])}"
    return f"JSON invalide{where}" + (f" ({said})" if said else "")


_CONTAINERS = {"List": "la liste", "Tuple": "la liste", "Set": "l'ensemble", "Dictionary": "l'objet"}


def french_error(err: Mapping[str, Any]) -> str:
    """The French of one pydantic validation error, by its `type` (with its `ctx`); never English."""
    kind = str(err.get("type", ""))
    ctx: Mapping[str, Any] = err.get("ctx") or {}
    if kind == "missing":
        return "champ obligatoire manquant"
    if kind == "extra_forbidden":
        return "champ inconnu"
    if kind in ("string_type", "string_sub_type"):
        return "une chaîne de caractères est attendue"
    if kind in ("int_type", "int_parsing"):
        return "un nombre entier est attendu"
    if kind == "int_from_float":
        return "un nombre entier est attendu, sans partie décimale"
    if kind == "int_parsing_size":
        return "ce nombre entier est trop grand"
    if kind in ("float_type", "float_parsing", "decimal_type", "decimal_parsing"):
        return "un nombre est attendu"
    if kind in ("bool_type", "bool_parsing"):
        return "un booléen est attendu : « true » ou « false »"
    if kind in ("literal_error", "enum"):
        return f"valeur attendue : {quoted_fr(_listed(ctx.get('expected', '')))}"
    if kind in ("too_short", "too_long"):
        container = _CONTAINERS.get(str(ctx.get("field_type", "")), "la valeur")
        bound = ctx.get("min_length" if kind == "too_short" else "max_length", 0)
        actual = ctx.get("actual_length")
        limit = plural_fr(bound, "élément", "éléments") if isinstance(bound, int) else str(bound)
        said = f"{container} doit avoir {'au moins' if kind == 'too_short' else 'au plus'} {limit}"
        return f"{said}, et non {actual}" if actual is not None else said
    if kind == "string_too_short":
        least = ctx.get("min_length", 1)
        if least == 1:
            return "le texte ne peut pas être vide"
        return f"le texte doit avoir au moins {plural_fr(least, 'caractère', 'caractères')}"
    if kind == "string_too_long":
        return f"le texte doit avoir au plus {plural_fr(ctx.get('max_length', 0), 'caractère', 'caractères')}"
    if kind == "string_pattern_mismatch":
        return f"la valeur doit suivre le motif « {ctx.get('pattern', '')} »"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = ctx.get({"greater_than_equal": "ge", "greater_than": "gt", "less_than_equal": "le"}.get(kind, "lt"))
        said = {
            "greater_than_equal": "supérieure ou égale à",
            "greater_than": "strictement supérieure à",
            "less_than_equal": "inférieure ou égale à",
            "less_than": "strictement inférieure à",
        }[kind]
        return f"la valeur doit être {said} {fr_int(bound)}"
    if kind == "multiple_of":
        return f"la valeur doit être un multiple de {ctx.get('multiple_of')}"
    if kind == "json_invalid":
        return _json_fr(err)
    if kind == "json_type":
        return "une chaîne JSON est attendue"
    if kind == "union_tag_invalid":
        name = str(ctx.get("discriminator", "")).strip("'")
        expected = quoted_fr(_listed(ctx.get("expected_tags", "")))
        return f"« {name} » doit valoir {expected}, et non « {ctx.get('tag', '')} »"
    if kind == "union_tag_not_found":
        name = str(ctx.get("discriminator", "")).strip("'")
        return f"champ « {name} » manquant"
    if kind in ("model_type", "model_attributes_type", "dict_type", "dataclass_type"):
        return "un objet JSON est attendu"
    if kind in ("list_type", "tuple_type", "set_type", "frozen_set_type", "iterable_type"):
        return "une liste (un tableau JSON) est attendue"
    if kind == "none_required":
        return "la valeur doit être « null »"
    if kind in ("string_unicode", "bytes_type"):
        return "le texte n'est pas de l'UTF-8 valide"
    if kind in ("value_error", "assertion_error"):
        error = ctx.get("error")
        if isinstance(error, BilingualError):
            return error.message("fr")
        return "valeur invalide"
    return "valeur refusée par le schéma de la requête"


def plural(count: int, one: Text, many: Text) -> Text:
    """« 1 partie », « 2 parties » and "1 game", "2 games" at once."""
    return Text(plural_en(count, one.en, many.en), plural_fr(count, one.fr, many.fr))
