"""The audit's checks of the shuffle: the revealed server seed against its commitment, and every deck derived
again from its seeds.

`replays.audit_game` runs them as the audit's checks 4 and 5 (`shuffle.commitment`, `shuffle.derivation`).
"""

from __future__ import annotations

import hashlib
from typing import Any

from loveletter.core.catalogue import GameEnded, GameStarted, PlayerResigned, RoundEnded, RoundStarted, SeedContributed
from loveletter.core.catalogue import SeedRevealed as SeedRevealedEvent
from loveletter.core.chance import ALGORITHM, COMMITTED, commitment, committed_deal, deal, round_seed
from loveletter.core.commands import DealRound
from loveletter.core.evolve import apply
from loveletter.core.lang import plural_fr
from loveletter.core.state import INITIAL, Transient
from loveletter.events.codec import dumps, quoted_fr
from loveletter.events.log import Entry, GameLog
from loveletter.replays.audit_report import GameAudit, Note, make_problem
from loveletter.replays.replay import Problem


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
                make_problem(
                    "shuffle.commitment",
                    "nothing_committed",
                    "a server seed is revealed but game_started committed to none",
                    "une graine du serveur est révélée alors que game_started ne s'était engagé sur aucune graine",
                    reveal,
                )
            ]
        audit.notes.append(
            Note(
                "commitment",
                "no_commitment",
                "the game committed to no server seed (its deals are given or recorded in the clear)",
                "la partie ne s'est engagée sur aucune graine du serveur (ses distributions sont données, ou leurs "
                "graines écrites en clair)",
            )
        )
        return []
    reveal, seed = revealed_seed(game)
    if reveal is None:
        if any(isinstance(e.event, GameEnded) for e in game.entries):
            last = game.entries[-1]
            return [
                make_problem(
                    "shuffle.commitment",
                    "seed_not_revealed",
                    "the game is over but the server seed it committed to was never revealed",
                    "la partie est terminée, mais la graine du serveur promise n'a jamais été révélée",
                    last,
                    expected=f"seed_revealed (SHA-256 {started.seed_commitment})",
                )
            ]
        audit.notes.append(
            Note(
                "commitment",
                "not_yet_revealed",
                "the game is not over: its server seed is not revealed yet, so its decks cannot be checked",
                "la partie n'est pas terminée : sa graine du serveur n'est pas encore révélée, ses paquets ne "
                "peuvent donc pas être vérifiés",
            )
        )
        return []
    if seed is None:
        found = reveal.event.seed  # type: ignore[union-attr]
        try:
            found_hash = hashlib.sha256(bytes.fromhex(found)).hexdigest()
        except ValueError:
            found_hash = dumps(found).decode()  # not hex: the seed itself, as JSON
        return [
            make_problem(
                "shuffle.commitment",
                "seed_mismatch",
                "the revealed server seed does not hash to the commitment made in game_started",
                "la graine du serveur révélée ne correspond pas à l'engagement pris dans game_started",
                reveal,
                expected=started.seed_commitment,
                found=found_hash,
            )
        ]
    return []


_TRACKED = (GameStarted, SeedContributed, RoundStarted, RoundEnded, GameEnded, PlayerResigned)


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
                        f"les paquets après la ligne {entry.line} ne peuvent pas être reconstitués (à cet endroit, "
                        "le journal ne décrit pas une partie possible)",
                    )
                )
                return out
    if given:
        audit.notes.append(
            Note(
                "derivation",
                "deals_given",
                f"deals given (scenario): {given} round(s) dealt by the scenario, not shuffled",
                f"distributions données (scénario) : {plural_fr(given, 'manche distribuée', 'manches distribuées')} "
                "par le scénario, sans mélange",
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
        return make_problem(
            "shuffle.derivation",
            "no_shuffle",
            "the round records no shuffle, so its deck cannot be derived (only a scenario's deals are given)",
            "la manche n'enregistre aucun mélange : son paquet ne peut pas être reconstitué (seul un scénario donne "
            "ses distributions)",
            entry,
        )
    try:
        if shuffle.algorithm == COMMITTED:
            if server_seed is None:
                return None  # not revealed (a note) or not matching (a commitment problem)
            seed = round_seed(server_seed, event.round, state.seat_seeds)
            if seed.hex() != shuffle.seed:
                return make_problem(
                    "shuffle.derivation",
                    "wrong_round_seed",
                    f"round {event.round}'s seed is not HMAC-SHA256(server seed, round and seat seeds given before it)",
                    f"la graine de la manche {event.round} n'est pas HMAC-SHA256(graine du serveur, manche et graines "
                    "des sièges données avant elle)",
                    entry,
                    expected=seed.hex(),
                    found=shuffle.seed,
                )
            want = committed_deal(state, server_seed)
        elif shuffle.algorithm == ALGORITHM:
            want = deal(state, bytes.fromhex(shuffle.seed))
        else:
            return make_problem(
                "shuffle.derivation",
                "unknown_algorithm",
                f"unknown shuffle algorithm {shuffle.algorithm!r} (known: {COMMITTED}, {ALGORITHM})",
                f"algorithme de mélange inconnu {quoted_fr(shuffle.algorithm)} (connus : « {COMMITTED} », "
                f"« {ALGORITHM} »)",
                entry,
                found=shuffle.algorithm,
            )
    except (ValueError, IndexError, KeyError, TypeError) as exc:
        return make_problem(
            "shuffle.derivation",
            "underivable",
            f"the deck cannot be derived from the recorded shuffle ({exc})",
            "le paquet ne peut pas être reconstitué à partir du mélange enregistré",
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
    noms = ", ".join(f"« {k} »" for k in diff)
    return make_problem(
        "shuffle.derivation",
        "deal_mismatch",
        f"round {event.round} is not the deal its shuffle derives ({names} differ)",
        f"la manche {event.round} n'est pas la distribution que donne son mélange ({noms} "
        f"{'diffère' if len(diff) == 1 else 'diffèrent'})",
        entry,
        expected=dumps({k: _plain(w[k]) for k in diff if k in w}).decode(),
        found=dumps({k: _plain(g[k]) for k in diff if k in g}).decode(),
    )
