"""Why the referee says no: a `Refusal` is a stable code, a title and a detail in both languages, the rule broken
(if a rule was), and any facts a client needs to try again (the game's version, the seat's legal moves).

A refusal knows no transport: the HTTP layer maps each code to a status in one table (`api/problems.py`), and any
other transport may do the same with its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from loveletter.core.lang import Text
from loveletter.core.rules import RuleViolation

OUT_OF_TURN = frozenset({"not_your_turn", "chancellor_pending"})
"""The rules' codes of a move made when it was not the seat's to make (a wait, not a mistake)."""

RULE_TITLES: Mapping[str, Text] = {
    "out_of_turn": Text("Move out of turn", "Hors de votre tour"),
    "illegal_move": Text("Illegal move", "Coup illégal"),
    "invalid_game": Text("Invalid game", "Partie invalide"),
}
"""The title of a rules refusal (whose code is the rules' own): a move out of turn, any other move the rules
refuse (with the seat's legal moves), or a game the rules refuse to create."""


class Refusal(Exception):
    """The referee's no: `code` is stable (clients branch on it); `title` None means the usual title of that code
    (the transport's table has it); `extra` are facts in the answer, any `Text` in them said in both languages."""

    def __init__(
        self,
        code: str,
        detail: Text,
        *,
        title: Text | None = None,
        rule_id: str | None = None,
        about: Mapping[str, Any] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail.en)
        self.code = code
        self.detail = detail
        self.title = title
        self.rule_id = rule_id
        self.about = dict(about or {})
        """Facts a transport may word the refusal with (which credential was missing, say), not part of the answer:
        the referee names no header, and the HTTP layer words its own (`api.problems.of_refusal`)."""
        self.extra = extra


def ruled_out(v: RuleViolation, legal_moves: list[dict[str, Any]] | None = None) -> Refusal:
    """A rules refusal with its rule id; a refused move carries the seat's legal moves (a refused game none)."""
    if v.code in OUT_OF_TURN:
        kind = "out_of_turn"
    elif legal_moves is not None:
        kind = "illegal_move"
    else:
        kind = "invalid_game"
    extra: dict[str, Any] = {} if legal_moves is None else {"legal_moves": legal_moves}
    return Refusal(v.code, Text(v.en, v.fr), title=RULE_TITLES[kind], rule_id=v.rule_id, **extra)


def game_not_found(value: str) -> Refusal:
    return Refusal("game_not_found", Text(f"there is no game {value!r}", f"il n'y a pas de partie « {value} »"))


def token_required(en: str, fr: str) -> Refusal:
    """No token where one is needed; `en`/`fr` say which (`seat token`, `organiser token`…)."""
    return Refusal(
        "token_required",
        Text(f"this needs a {en}", f"il y faut un {fr}"),
        about={"credential": Text(en, fr)},
    )


def not_a_seat_token() -> Refusal:
    return Refusal(
        "token_rejected",
        Text("this token is not a seat token of this game", "ce jeton n'est celui d'aucun siège de cette partie"),
    )


def kept_changing(version: int) -> Refusal:
    return Refusal(
        "conflict",
        Text("the game kept changing; try again", "la partie n'a pas cessé de changer ; réessayez"),
        version=version,
    )


def unknown_player(ref: int | str, what: str) -> Refusal:
    return Refusal(
        "unknown_player",
        Text(
            f"{what}: {ref!r} is not a player of this game",
            f"« {what} » : « {ref} » ne désigne aucun joueur de cette partie",
        ),
    )


def account_not_found(account_id: str) -> Refusal:
    return Refusal(
        "account_not_found",
        Text(f"there is no account {account_id!r}", f"il n'y a pas de compte « {account_id} »"),
    )


def key_rejected() -> Refusal:
    return Refusal(
        "account_key_rejected",
        Text(
            "this key is not the current key of this account",
            "cette clé n'est pas la clé en vigueur de ce compte",
        ),
    )


def challenge_not_found(challenge_id: str) -> Refusal:
    return Refusal(
        "challenge_not_found",
        Text(f"there is no challenge {challenge_id!r}", f"il n'y a pas de défi « {challenge_id} »"),
    )


def seek_not_found(seek_id: str) -> Refusal:
    return Refusal("seek_not_found", Text(f"there is no seek {seek_id!r}", f"il n'y a pas de recherche « {seek_id} »"))
