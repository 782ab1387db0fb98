"""`loveletter audit` and `POST /audits`: everything a log's reader can check, game by game.

For each game of a JSONL log (format and schema are already enforced by the reader: an unreadable file is
`FileAudit.error`), the audit checks, in this order:

1. `sequence` — seq counts 1, 2, 3… without gap or repeat (`log.sequence`);
2. `chain` — the first event's `prev` is the header's hash, each later `prev` the previous line's (`log.chain`);
3. `signature` — the closing signature line verifies with its public key, over the hash of the game's last line,
   and that key is the pinned one when the caller pins a key (`log.signature`); an unsigned game is a note, and a
   problem only when a signature is required;
4. `commitment` — the revealed server seed hashes to `game_started.seed_commitment`; a finished game that
   committed and never revealed is a problem (`shuffle.commitment`);
5. `derivation` — every deck is re-derived: `commit-hmac-sha256-fy/1` from the revealed server seed and the seat
   seeds given before the round, `hmac-sha256-fy/1` from the seed recorded in the clear; every zone, the first
   player and the shuffle seed must be equal (`shuffle.derivation`); a scenario's deals are given, not derived;
6. `rules` — every move and every consequence is judged again by `decide` (`replays.replay.check`).

Strict (the default) stops a game's audit at the first check that finds a problem; lenient reports them all.
Reading is the log's own reader (`events.log.read_games`); a file with many games is cut at header lines into
chunks that `audit_file` hands to worker processes.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import orjson

from loveletter.core.catalogue import GameEnded, GameStarted, RoundEnded, RoundStarted, SeedContributed
from loveletter.core.catalogue import SeedRevealed as SeedRevealedEvent
from loveletter.core.chance import ALGORITHM, COMMITTED, commitment, committed_deal, deal, round_seed
from loveletter.core.commands import DealRound
from loveletter.core.evolve import apply
from loveletter.core.state import INITIAL, Transient
from loveletter.events.codec import dumps
from loveletter.events.log import (
    FORMAT,
    Entry,
    GameLog,
    LogFormatError,
    read_games,
)
from loveletter.events.signing import ALGORITHM as SIGNATURE_ALGORITHM
from loveletter.events.signing import verify
from loveletter.replays.regenerate import regenerate
from loveletter.replays.replay import Problem, check, describe

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
CHECKS = ("sequence", "chain", "signature", "commitment", "derivation", "rules")
HEADER_PREFIX = b'{"format":"' + FORMAT.encode() + b'"'


@dataclass(frozen=True, slots=True)
class Note:
    """Something worth saying that is not a problem (an unsigned game, deals given by a scenario…)."""

    check: str
    code: str
    en: str
    fr: str

    def as_dict(self, lang: str = "en") -> dict[str, str]:
        return {"check": self.check, "code": self.code, "message": self.fr if lang == "fr" else self.en}


@dataclass(frozen=True, slots=True)
class Options:
    lenient: bool = False
    key: str | None = None
    """A pinned public key (64 hex digits): a signed game must be signed by it."""
    require_signature: bool = False
    fast_path: bool = True
    """Offer each game to `replays.regenerate` first; False audits every game in full (the tests compare both)."""


@dataclass(slots=True)
class GameAudit:
    number: int
    header_line: int
    ruleset: str
    players: tuple[str, ...]
    game_id: str | None
    events: int = 0
    rounds: int = 0
    finished: bool = False
    winners: tuple[str, ...] = ()
    signed: bool = False
    key_id: str | None = None
    checks: dict[str, str] = field(default_factory=dict)
    """check name -> "ok", "problem", "note" (ok, with a note) or "skipped"."""
    problems: list[Problem] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "game": self.number,
            "game_id": self.game_id,
            "line": self.header_line,
            "ruleset": self.ruleset,
            "players": list(self.players),
            "verdict": "valid" if self.valid else "invalid",
            "events": self.events,
            "rounds": self.rounds,
            "finished": self.finished,
            "winners": list(self.winners),
            "signed": self.signed,
            "key_id": self.key_id,
            "checks": dict(self.checks),
            "problems": [p.as_dict(lang) for p in self.problems],
            "notes": [n.as_dict(lang) for n in self.notes],
        }


@dataclass(slots=True)
class FileAudit:
    path: str
    games: list[GameAudit] = field(default_factory=list)
    error: str | None = None
    error_line: int | None = None
    lines: int = 0

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return EXIT_UNREADABLE
        return EXIT_VALID if all(g.valid for g in self.games) else EXIT_INVALID

    @property
    def verdict(self) -> str:
        return {EXIT_VALID: "valid", EXIT_INVALID: "invalid", EXIT_UNREADABLE: "unreadable"}[self.exit_code]

    def counts(self) -> dict[str, int]:
        return {
            "games": len(self.games),
            "valid": sum(g.valid for g in self.games),
            "invalid": sum(not g.valid for g in self.games),
            "events": sum(g.events for g in self.games),
            "problems": sum(len(g.problems) for g in self.games),
            "signed": sum(g.signed for g in self.games),
        }

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "file": self.path,
            "verdict": self.verdict,
            "error": self.error,
            "error_line": self.error_line,
            "counts": self.counts(),
            "games": [g.as_dict(lang) for g in self.games],
        }


# -- reading -------------------------------------------------------------------------------------------------


# -- the checks ----------------------------------------------------------------------------------------------


def _problem(
    rule_id: str,
    code: str,
    en: str,
    fr: str,
    entry: Entry | None = None,
    *,
    line: int | None = None,
    event: str | None = None,
    expected: str | None = None,
    found: str | None = None,
) -> Problem:
    if entry is not None:
        return Problem(
            rule_id,
            code,
            en,
            fr,
            line=entry.line,
            seq=entry.seq,
            event=type(entry.event).TYPE,
            expected=expected,
            found=found,
        )
    return Problem(rule_id, code, en, fr, line=line, event=event, expected=expected, found=found)


def check_sequence(game: GameLog, lenient: bool) -> list[Problem]:
    out = []
    want = 1
    for entry in game.entries:
        if entry.seq != want:
            kind = "repeats" if entry.seq < want else "skips"
            out.append(
                _problem(
                    "log.sequence",
                    "seq_out_of_order",
                    f"seq {entry.seq} {kind} the count: seq {want} was expected here",
                    f"le seq {entry.seq} rompt la numérotation : seq {want} était attendu ici",
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
            _problem(
                "log.chain",
                "unchained",
                "no event carries prev: the log is not hash-chained, so nothing ties its lines together",
                "aucun événement ne porte prev : le journal n'est pas chaîné, rien ne lie ses lignes entre elles",
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
                fr = f"prev manque : ce doit être le SHA-256 de {quoi}"
            else:
                en = f"prev is not the SHA-256 of {what}: a line was changed, removed, added or moved"
                fr = f"prev n'est pas le SHA-256 de {quoi} : une ligne a été modifiée, supprimée, ajoutée ou déplacée"
            out.append(_problem("log.chain", "chain_broken", en, fr, entry, expected=last, found=entry.prev))
            if not lenient:
                return out
        last = entry.hash
    return out


def last_hash(game: GameLog) -> str:
    return game.entries[-1].hash if game.entries else game.header_hash


def normalise_key(key: str) -> str:
    """A pinned key as 64 lowercase hex digits; `ValueError` if it is not one."""
    text = key.strip().lower()
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise ValueError("a public key is 32 bytes written as 64 hex digits")
    return text


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
                _problem(
                    "log.signature",
                    "signature_required",
                    "the game has no signature line, and a signature is required",
                    "la partie n'a pas de ligne de signature, et une signature est exigée",
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
        return [_problem("log.signature", code, en, fr, line=line, event="signature", expected=expected, found=shown)]

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
            f"l'algorithme de la signature n'est pas {SIGNATURE_ALGORITHM}",
            SIGNATURE_ALGORITHM,
            sig.get("algorithm"),
        )
    if not isinstance(public_key, str) or not isinstance(signature, str) or not isinstance(signed_hash, str):
        return bad(
            "signature_fields",
            "the signature line needs public_key, signature and hash as hex strings",
            "la ligne de signature doit porter public_key, signature et hash en hexadécimal",
        )
    if signed_hash != want:
        return bad(
            "signature_hash",
            "the signature is over another last line: the log was cut, extended or changed after signing",
            "la signature porte sur une autre dernière ligne : le journal a été coupé, prolongé ou modifié après "
            "signature",
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
                "le key_id de la signature ne correspond pas à sa clé publique",
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
            "la signature Ed25519 ne se vérifie pas avec sa clé publique",
            None,
            signature,
        )
    if options.key is not None and public_key.lower() != options.key:
        return bad(
            "signature_key",
            "the log is signed with another key than the one given",
            "le journal est signé avec une autre clé que celle donnée",
            options.key,
            public_key,
        )
    return []


def _started(game: GameLog) -> GameStarted | None:
    first = game.entries[0].event if game.entries else None
    return first if isinstance(first, GameStarted) else None


def revealed_seed(game: GameLog) -> tuple[Entry | None, bytes | None]:
    """The entry revealing the server seed, and the seed if it opens the commitment."""
    started = _started(game)
    for entry in game.entries:
        if isinstance(entry.event, SeedRevealedEvent):
            seed = entry.event.seed
            try:
                raw = bytes.fromhex(seed)
            except ValueError:
                return entry, None
            ok = started is not None and len(raw) == 32 and commitment(raw) == started.seed_commitment
            return entry, raw if ok else None
    return None, None


def check_commitment(game: GameLog, audit: GameAudit) -> list[Problem]:
    started = _started(game)
    if started is None or started.seed_commitment is None:
        reveal, _ = revealed_seed(game)
        if reveal is not None:
            return [
                _problem(
                    "shuffle.commitment",
                    "nothing_committed",
                    "a server seed is revealed but game_started committed to none",
                    "une graine serveur est révélée mais game_started ne s'était engagé sur aucune",
                    reveal,
                )
            ]
        audit.notes.append(
            Note(
                "commitment",
                "no_commitment",
                "the game committed to no server seed (its deals are given or recorded in the clear)",
                "la partie ne s'est engagée sur aucune graine serveur (distributions données ou graines en clair)",
            )
        )
        return []
    reveal, seed = revealed_seed(game)
    if reveal is None:
        if any(isinstance(e.event, GameEnded) for e in game.entries):
            last = game.entries[-1]
            return [
                _problem(
                    "shuffle.commitment",
                    "seed_not_revealed",
                    "the game is over but the server seed it committed to was never revealed",
                    "la partie est finie mais la graine serveur promise n'a jamais été révélée",
                    last,
                    expected=f"seed_revealed with SHA-256 {started.seed_commitment}",
                )
            ]
        audit.notes.append(
            Note(
                "commitment",
                "not_yet_revealed",
                "the game is not over: its server seed is not revealed yet, so its decks cannot be checked",
                "la partie n'est pas finie : sa graine serveur n'est pas encore révélée, ses paquets ne peuvent "
                "pas être vérifiés",
            )
        )
        return []
    if seed is None:
        found = reveal.event.seed  # type: ignore[union-attr]
        try:
            found_hash = hashlib.sha256(bytes.fromhex(found)).hexdigest()
        except ValueError:
            found_hash = "not hex"
        return [
            _problem(
                "shuffle.commitment",
                "seed_mismatch",
                "the revealed server seed does not hash to the commitment made in game_started",
                "la graine serveur révélée ne correspond pas à l'engagement de game_started",
                reveal,
                expected=started.seed_commitment,
                found=found_hash,
            )
        ]
    return []


_TRACKED = (GameStarted, SeedContributed, RoundStarted, RoundEnded, GameEnded)


def _zones(d: DealRound) -> dict[str, Any]:
    return {
        "set_aside": d.set_aside,
        "face_up": d.face_up,
        "hands": d.hands,
        "deck": d.deck,
        "first_player": d.first_player,
        "shuffle_seed": d.shuffle.seed if d.shuffle else None,
    }


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return getattr(value, "value", value)


def check_derivation(game: GameLog, lenient: bool, audit: GameAudit) -> list[Problem]:
    started = _started(game)
    out: list[Problem] = []
    if started is None:
        return out
    _, server_seed = revealed_seed(game)
    state: Transient = INITIAL.thaw()
    given = 0
    for entry in game.entries:
        event = entry.event
        if isinstance(event, RoundStarted):
            problem = _derive(state, event, entry, started, server_seed)
            if isinstance(problem, str):
                given += 1
            elif problem is not None:
                out.append(problem)
                if not lenient:
                    return out
        if isinstance(event, _TRACKED):
            try:
                apply(state, event)
            except Exception:  # a log the rules check refuses anyway: stop deriving here
                audit.notes.append(
                    Note(
                        "derivation",
                        "derivation_stopped",
                        f"the decks after line {entry.line} cannot be derived (the log is not a game there)",
                        f"les paquets après la ligne {entry.line} ne peuvent pas être recalculés",
                    )
                )
                return out
    if given:
        audit.notes.append(
            Note(
                "derivation",
                "deals_given",
                f"deals given (scenario): {given} round(s) dealt by the scenario, not shuffled",
                f"distributions données (scénario) : {given} manche(s) distribuée(s) par le scénario, sans mélange",
            )
        )
    return out


def _derive(
    state: Transient, event: RoundStarted, entry: Entry, started: GameStarted, server_seed: bytes | None
) -> Problem | str | None:
    shuffle = event.shuffle
    if shuffle is None:
        if started.scenario:
            return "given"
        return _problem(
            "shuffle.derivation",
            "no_shuffle",
            "the round records no shuffle, so its deck cannot be derived (only a scenario's deals are given)",
            "la manche n'enregistre aucun mélange : son paquet ne peut pas être recalculé (seul un scénario donne "
            "ses distributions)",
            entry,
        )
    try:
        if shuffle.algorithm == COMMITTED:
            if server_seed is None:
                return None  # not revealed (a note) or not matching (a commitment problem)
            seed = round_seed(server_seed, event.round, state.seat_seeds)
            if seed.hex() != shuffle.seed:
                return _problem(
                    "shuffle.derivation",
                    "wrong_round_seed",
                    f"round {event.round}'s seed is not HMAC-SHA256(server seed, round and seat seeds given before it)",
                    f"la graine de la manche {event.round} n'est pas HMAC-SHA256(graine serveur, manche et graines "
                    "des sièges données avant)",
                    entry,
                    expected=seed.hex(),
                    found=shuffle.seed,
                )
            want = committed_deal(state, server_seed)
        elif shuffle.algorithm == ALGORITHM:
            want = deal(state, bytes.fromhex(shuffle.seed))
        else:
            return _problem(
                "shuffle.derivation",
                "unknown_algorithm",
                f"unknown shuffle algorithm {shuffle.algorithm!r} (known: {COMMITTED}, {ALGORITHM})",
                f"algorithme de mélange inconnu {shuffle.algorithm!r} (connus : {COMMITTED}, {ALGORITHM})",
                entry,
                found=shuffle.algorithm,
            )
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        return _problem(
            "shuffle.derivation",
            "underivable",
            f"the deck cannot be derived from the recorded shuffle ({exc})",
            f"le paquet ne peut pas être recalculé à partir du mélange enregistré ({exc})",
            entry,
        )
    got = DealRound(event.set_aside, event.face_up, event.hands, event.deck, event.first_player, event.shuffle)
    if got == want:
        return None
    w, g = _zones(want), _zones(got)
    diff = [k for k in w if w[k] != g[k]]
    if not diff:
        diff = ["shuffle"]
    names = ", ".join(diff)
    return _problem(
        "shuffle.derivation",
        "deal_mismatch",
        f"round {event.round} is not the deal its shuffle derives ({names} differ)",
        f"la manche {event.round} n'est pas la distribution que donne son mélange ({names} diffèrent)",
        entry,
        expected=dumps({k: _plain(w[k]) for k in diff if k in w}).decode(),
        found=dumps({k: _plain(g[k]) for k in diff if k in g}).decode(),
    )


def audit_game(game: GameLog, number: int, options: Options) -> GameAudit:
    """Every check of one game (see the module's docstring)."""
    header = game.header
    audit = GameAudit(number, game.header_line, header.ruleset, header.players, header.game_id)
    audit.events = len(game.entries)
    audit.rounds = sum(1 for e in game.entries if type(e.event) is RoundStarted)
    lenient = options.lenient
    problems = audit.problems
    steps: list[tuple[str, Callable[[], list[Problem]]]] = [
        ("sequence", lambda: check_sequence(game, lenient)),
        ("chain", lambda: check_chain(game, lenient)),
        ("signature", lambda: check_signature(game, options, audit)),
        ("commitment", lambda: check_commitment(game, audit)),
        ("derivation", lambda: check_derivation(game, lenient, audit)),
        ("rules", lambda: _rules(game, audit, lenient, problems)),
    ]
    for name, run in steps:
        if problems and not lenient:
            audit.checks[name] = "skipped"
            continue
        notes_before = len(audit.notes)
        found = run()
        problems.extend(found)
        audit.checks[name] = "problem" if found else ("note" if len(audit.notes) > notes_before else "ok")
    if lenient:
        problems.sort(key=lambda p: (p.line or 0, CHECKS.index(_check_of(p))))
    return audit


def _check_of(problem: Problem) -> str:
    rule = problem.rule_id
    if rule == "log.chain":
        return "chain"
    if rule == "log.signature":
        return "signature"
    if rule == "shuffle.commitment":
        return "commitment"
    if rule == "shuffle.derivation":
        return "derivation"
    if rule == "log.sequence" and problem.code == "seq_out_of_order":
        return "sequence"
    return "rules"


def _rules(game: GameLog, audit: GameAudit, lenient: bool, earlier: Sequence[Problem]) -> list[Problem]:
    result = check(game, lenient=lenient)
    state = result.state
    audit.finished = state.over
    audit.winners = state.winner_names()
    seen = {(p.line, p.rule_id) for p in earlier}
    return [p for p in result.problems if not (p.code == "seq_out_of_order" and (p.line, p.rule_id) in seen)]


# -- files ---------------------------------------------------------------------------------------------------


def audit_lines(lines: Sequence[bytes], options: Options, first_line: int = 1, first_game: int = 1) -> list[GameAudit]:
    """Audit every game of `lines` (numbered from `first_line`); `LogFormatError` if one is unreadable.

    Each stretch from one canonical header line to the next is first offered to the fast path
    (`replays.regenerate`); what it cannot prove clean is read and audited in full."""
    out: list[GameAudit] = []
    number = first_game
    for start, stop in _spans(lines):
        proved = _proved(lines[start:stop], first_line + start, number, options) if options.fast_path else None
        if proved is not None:
            out.append(proved)
            number += 1
            continue
        for game in read_games(lines[start:stop], first_line + start, final=False):
            out.append(audit_game(game, number, options))
            number += 1
    return out


def _spans(lines: Sequence[bytes]) -> list[tuple[int, int]]:
    """[start, stop) of each stretch of `lines` that begins at a canonical header line (the first stretch may
    begin with anything: the full reader then says what is wrong with it)."""
    starts = [i for i, line in enumerate(lines) if line.startswith(HEADER_PREFIX)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    return list(zip(starts, [*starts[1:], len(lines)], strict=True))


def _proved(lines: Sequence[bytes], first_line: int, number: int, options: Options) -> GameAudit | None:
    """The report of a game the fast path proves clean, exactly as the full audit would write it; None when the
    fast path cannot prove it, or when its signature has a problem (the full audit then reports it in order)."""
    proof = regenerate(lines, first_line)
    if proof is None:
        return None
    header = proof.header
    audit = GameAudit(number, first_line, header.ruleset, header.players, header.game_id, proof.events, proof.rounds)
    if signature_problems(proof.signature, proof.signature_line, proof.last_hash, proof.last_line, options, audit):
        return None
    audit.checks = dict.fromkeys(CHECKS, "ok")
    if audit.notes:
        audit.checks["signature"] = "note"
    state = proof.state
    audit.finished = state.over
    audit.winners = state.winner_names()
    return audit


_SHARED: list[bytes] = []
"""The file being audited, inherited by forked workers (so chunks travel as offsets, not copies)."""


def _chunk_job(args: tuple[bytes | tuple[int, int], int, Options]) -> tuple[list[GameAudit], int | None, str | None]:
    where, first_line, options = args
    data = where if isinstance(where, bytes) else _SHARED[0][where[0] : where[1]]
    try:
        return audit_lines(data.splitlines(), options, first_line), None, None
    except LogFormatError as exc:
        return [], exc.line, str(exc)


def chunks(data: bytes, pieces: int) -> list[tuple[bytes, int]]:
    """`data` cut at header lines into about `pieces` parts, each with the number of its first line.

    Only lines starting exactly like a canonical header are cut at; files with bare CRs are not cut."""
    if pieces <= 1 or b"\r" in data:
        return [(data, 1)]
    starts = []
    at = data.find(b"\n" + HEADER_PREFIX)
    while at != -1:
        starts.append(at + 1)
        at = data.find(b"\n" + HEADER_PREFIX, at + 1)
    if not starts:
        return [(data, 1)]
    target = max(1, len(data) // pieces)
    out: list[tuple[bytes, int]] = []
    begin, line = 0, 1
    for start in starts:
        if start - begin >= target:
            out.append((data[begin:start].removesuffix(b"\n"), line))
            line += data.count(b"\n", begin, start)
            begin = start
    out.append((data[begin:], line))
    return out


def audit_bytes(
    data: bytes,
    path: str = "-",
    options: Options | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
) -> FileAudit:
    """Audit every game of a log held in memory; never raises for bad input (`FileAudit.error`)."""
    options = options or Options()
    report = FileAudit(path)
    if jobs <= 1:
        parts = [(data, 1)]
    else:
        parts = chunks(data, jobs * 8)
    total = len(parts)
    if jobs <= 1 or total == 1:
        results = []
        for i, (part, first) in enumerate(parts):
            results.append(_chunk_job((part, first, options)))
            if on_progress:
                on_progress(i + 1, total)
    else:
        results = []
        fork = "fork" in multiprocessing.get_all_start_methods()
        jobs_args: list[tuple[bytes | tuple[int, int], int, Options]] = []
        offset = 0
        for part, first in parts:
            start = data.index(part, offset) if fork else 0
            jobs_args.append(((start, start + len(part)) if fork else part, first, options))
            offset = start + len(part)
        _SHARED[:] = [data]
        try:
            context = multiprocessing.get_context("fork" if fork else None)
            with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
                for i, result in enumerate(pool.map(_chunk_job, jobs_args)):
                    results.append(result)
                    if on_progress:
                        on_progress(i + 1, total)
        finally:
            _SHARED.clear()
    number = 0
    for games, error_line, error in results:
        if error is not None:
            report.error, report.error_line = error, error_line
            break
        for game in games:
            number += 1
            game.number = number
            report.games.append(game)
    if report.error is None and not report.games:
        report.error, report.error_line = "line 1: no game in this log (it has no header line)", 1
    return report


def audit_file(
    path: str, options: Options | None = None, jobs: int = 1, on_progress: Callable[[int, int], None] | None = None
) -> FileAudit:
    try:
        with open(path, "rb") as fp:
            data = fp.read()
    except OSError as exc:
        return FileAudit(path, error=f"cannot read {path}: {exc.strerror or exc}")
    return audit_bytes(data, path, options, jobs, on_progress)


def default_jobs() -> int:
    return os.cpu_count() or 1


# -- rendering -----------------------------------------------------------------------------------------------


def render_text(report: FileAudit, lang: str = "en") -> str:
    fr = lang == "fr"
    if report.error is not None:
        return f"{report.path}: {'illisible' if fr else 'unreadable'} — {report.error}"
    lines = []
    c = report.counts()
    for g in report.games:
        head = f"{report.path} [{'partie' if fr else 'game'} {g.number}{', ' + g.game_id if g.game_id else ''}]"
        if g.valid:
            word = "valide" if fr else "valid"
            notes = "; ".join(n.fr if fr else n.en for n in g.notes)
            lines.append(
                f"{head}: {word} — {g.events} {'événements' if fr else 'events'}" + (f" ({notes})" if notes else "")
            )
            continue
        for p in g.problems:
            at = (f"ligne {p.line}" if fr else f"line {p.line}") if p.line else "-"
            if p.seq is not None:
                at += f", seq {p.seq}"
            lines.append(
                f"{head}: {'invalide' if fr else 'invalid'} at {at} ({p.event}): [{p.rule_id}] {p.message(lang)}"
            )
            if p.expected is not None:
                lines.append(f"    {'attendu' if fr else 'expected'}: {p.expected}")
            if p.found is not None:
                lines.append(f"    {'trouvé' if fr else 'found'}:    {p.found}")
    if fr:
        lines.append(
            f"{report.path}: {c['games']} parties, {c['valid']} valides, {c['invalid']} invalides, "
            f"{c['events']} événements, {c['problems']} problèmes"
        )
    else:
        lines.append(
            f"{report.path}: {c['games']} games, {c['valid']} valid, {c['invalid']} invalid, "
            f"{c['events']} events, {c['problems']} problems"
        )
    return "\n".join(lines)


def render_json(reports: Sequence[FileAudit], lang: str = "en") -> str:
    body: Any = reports[0].as_dict(lang) if len(reports) == 1 else {"files": [r.as_dict(lang) for r in reports]}
    return orjson.dumps(body, option=orjson.OPT_INDENT_2).decode()


__all__ = [
    "FileAudit",
    "GameAudit",
    "Note",
    "Options",
    "audit_bytes",
    "audit_file",
    "audit_game",
    "describe",
]
