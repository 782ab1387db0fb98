"""The audit's checks of the log's lines themselves: the seq count, the hash chain and the closing signature.

`replays.audit_game` runs them as the audit's checks 1 to 3 (`log.sequence`, `log.chain`, `log.signature`).
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from loveletter.events.log import GameLog
from loveletter.events.signing import ALGORITHM as SIGNATURE_ALGORITHM
from loveletter.events.signing import verify
from loveletter.replays.audit_report import GameAudit, Note, Options, make_problem
from loveletter.replays.replay import Problem, seq_out_of_order


def check_sequence(game: GameLog, lenient: bool) -> list[Problem]:
    out = []
    want = 1
    for entry in game.entries:
        if entry.seq != want:
            en, fr = seq_out_of_order(entry.seq, want)
            out.append(
                make_problem(
                    "log.sequence",
                    "seq_out_of_order",
                    en,
                    fr,
                    entry,
                    expected=str(want),
                    found=str(entry.seq),
                )
            )
            if not lenient:
                return out
        want = entry.seq + 1
    return out


def check_chain(game: GameLog, lenient: bool) -> list[Problem]:
    entries = game.entries
    if entries and all(e.prev is None for e in entries):
        return [
            make_problem(
                "log.chain",
                "unchained",
                "no event carries prev: the log is not hash-chained, so nothing ties its lines together",
                "aucun événement ne porte de champ « prev » : le journal n'a pas de chaîne de hachage, rien ne lie "
                "ses lignes entre elles",
                entries[0],
                expected=game.header_hash,
            )
        ]
    out = []
    last = game.header_hash
    for entry in entries:
        if entry.prev != last:
            what = "the header" if last == game.header_hash and entry is entries[0] else "the line before"
            quoi = "l'en-tête" if what == "the header" else "la ligne précédente"
            if entry.prev is None:
                en = f"prev is missing: it must be the SHA-256 of {what}"
                fr = f"le champ « prev » manque : il doit valoir le SHA-256 de {quoi}"
            else:
                en = f"prev is not the SHA-256 of {what}: a line was changed, removed, added or moved"
                fr = (
                    f"le champ « prev » n'est pas le SHA-256 de {quoi} : une ligne a été modifiée, supprimée, "
                    "ajoutée ou déplacée"
                )
            out.append(make_problem("log.chain", "chain_broken", en, fr, entry, expected=last, found=entry.prev))
            if not lenient:
                return out
        last = entry.hash
    return out


def last_hash(game: GameLog) -> str:
    return game.entries[-1].hash if game.entries else game.header_hash


_VERIFIED: dict[tuple[str, str, str], bool] = {}


def check_signature(game: GameLog, options: Options, audit: GameAudit) -> list[Problem]:
    last_line = game.entries[-1].line if game.entries else game.header_line
    return signature_problems(game.signature, game.signature_line, last_hash(game), last_line, options, audit)


def signature_problems(
    sig: dict[str, Any] | None,
    line: int | None,
    want: str,
    last_line: int,
    options: Options,
    audit: GameAudit,
) -> list[Problem]:
    """The signature check on its own facts: the signature line (or None), its line number, the hash of the
    game's last line and that line's number (where a missing signature is reported)."""
    if sig is None:
        audit.notes.append(Note("signature", "unsigned", "the game is not signed", "la partie n'est pas signée"))
        if options.require_signature:
            return [
                make_problem(
                    "log.signature",
                    "signature_required",
                    "the game has no signature line, and a signature is required",
                    "la partie n'a pas de ligne de signature, alors qu'une signature est exigée",
                    line=last_line,
                    event="signature",
                )
            ]
        return []
    audit.signed = True
    public_key, signature, signed_hash = sig.get("public_key"), sig.get("signature"), sig.get("hash")
    key_id = sig.get("key_id")
    audit.key_id = key_id if isinstance(key_id, str) else None

    def bad(code: str, en: str, fr: str, expected: str | None = None, found: Any = None) -> list[Problem]:
        shown = None if found is None else (found if isinstance(found, str) else orjson.dumps(found).decode())
        return [
            make_problem("log.signature", code, en, fr, line=line, event="signature", expected=expected, found=shown)
        ]

    if sig.get("version") != 1:
        return bad(
            "signature_version",
            "the signature line's version is not 1",
            "la version de la ligne de signature n'est pas 1",
            "1",
            sig.get("version"),
        )
    if sig.get("algorithm") != SIGNATURE_ALGORITHM:
        return bad(
            "signature_algorithm",
            f"the signature's algorithm is not {SIGNATURE_ALGORITHM}",
            f"l'algorithme de la signature n'est pas « {SIGNATURE_ALGORITHM} »",
            SIGNATURE_ALGORITHM,
            sig.get("algorithm"),
        )
    if not isinstance(public_key, str) or not isinstance(signature, str) or not isinstance(signed_hash, str):
        return bad(
            "signature_fields",
            "the signature line needs public_key, signature and hash as hex strings",
            "la ligne de signature doit porter « public_key », « signature » et « hash » en chaînes hexadécimales",
        )
    if signed_hash != want:
        return bad(
            "signature_hash",
            "the signature is over another last line: the log was cut, extended or changed after signing",
            "la signature porte sur une autre dernière ligne : le journal a été coupé, prolongé ou modifié après "
            "sa signature",
            want,
            signed_hash,
        )
    if key_id is not None:
        try:
            real_id = hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[:16]
        except ValueError:
            real_id = None
        if key_id != real_id:
            return bad(
                "signature_key_id",
                "the signature's key_id is not the one of its public key",
                "l'identifiant de clé (« key_id ») de la signature ne correspond pas à sa clé publique",
                real_id,
                key_id,
            )
    cached = (public_key, want, signature)
    ok = _VERIFIED.get(cached)
    if ok is None:
        ok = verify(public_key, want, signature)
        if len(_VERIFIED) > 4096:
            _VERIFIED.clear()
        _VERIFIED[cached] = ok
    if not ok:
        return bad(
            "signature_invalid",
            "the Ed25519 signature does not verify with its public key",
            "la signature Ed25519 n'est pas valide pour sa clé publique",
            None,
            signature,
        )
    if options.key is not None and public_key.lower() != options.key:
        return bad(
            "signature_key",
            "the log is signed with another key than the one given",
            "le journal est signé avec une autre clé que celle indiquée",
            options.key,
            public_key,
        )
    return []
