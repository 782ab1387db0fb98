"""`loveletter analyse` and the engine's review (play/engine/review.py): hand-built positions whose best move is known
by hand, figures that never depend on a card the seat cannot see, and the command run end to end with its errors."""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest

from loveletter.core.commands import PlayCard
from loveletter.core.legal import legal_moves
from loveletter.core.views import view
from loveletter.events.log import read_path
from loveletter.play.engine.review import (
    BLUNDER,
    WIDEN,
    Trial,
    decisions,
    judge,
    review,
    round_verdict,
    settle,
    verdict,
    worse,
)
from tests.cli import loveletter
from tests.helpers import CO, PR, PS, B, C, G, H, K, P, S, position
from tests.test_engine import _full_deck, _rearranged


def _by_move(state, rollouts: int = 12, seed: int = 1) -> dict:
    seat = state.active
    values = review(view(state, seat), legal_moves(state, seat), random.Random(seed), rollouts)
    assert all(v.rollouts == rollouts for v in values)
    return {v.move: v for v in values}


def test_a_guard_with_one_possible_card_is_a_certain_hit_and_a_wrong_name_a_blunder() -> None:
    # Deck empty; the only cards Ann has not seen are the two Priests (Bob's hand and the set-aside card). Ann has 4
    # favors and Bob 5 of the 6 needed: naming the Priest wins the round, and with her Spy the game; any other name
    # goes to a showdown her Spy loses to Bob's Priest, which gives Bob the game.
    front = ((G, B, H, P, C, G, S), (G, G, B, H, P, C, G))
    state = position(((G, S), (PR,)), (), set_aside=PR, face_up=(PS, K, CO), front=front, favors=(4, 5))
    values = _by_move(state)
    hit = values[PlayCard(0, G, 1, PR)]
    assert (hit.game, hit.round) == (1.0, 1.0)
    assert max(values.values(), key=lambda v: v.game) is hit
    for move, value in values.items():
        if move != hit.move:
            assert value.game == 0.0
            assert verdict(hit.game - value.game) == "blunder"


def test_the_verdicts_follow_the_stated_thresholds() -> None:
    assert verdict(0.0) is None
    assert verdict(0.049) is None
    assert verdict(0.05) == "inaccuracy"
    assert verdict(0.10) == "mistake"
    assert verdict(0.199) == "mistake"
    assert verdict(BLUNDER) == "blunder"
    assert verdict(1.0) == "blunder"
    # the round's: twice the game's, no inaccuracy
    assert round_verdict(0.199) is None
    assert round_verdict(0.20) == "mistake"
    assert round_verdict(0.399) == "mistake"
    assert round_verdict(0.40) == "blunder"
    assert worse(None, "inaccuracy") == worse("inaccuracy", None) == "inaccuracy"
    assert worse("blunder", "mistake") == "blunder"


def test_more_worlds_only_where_the_mark_is_in_doubt_and_the_first_ones_kept() -> None:
    # Moves tried in the same worlds: the figures after 8 worlds are those of the first 8 of 64, whichever move asked
    # for a world first.
    hands = ((G, P), (PR,))
    state = position(hands, _full_deck(hands, (), H), set_aside=H)
    seen, moves = view(state, 0), legal_moves(state, 0)
    few = Trial(seen, moves, random.Random(3)).more(8)
    many = Trial(seen, moves, random.Random(3)).more(64)
    assert [g[:8] for g in many.game] == few.game and [w[:8] for w in many.won] == few.won
    assert review(seen, moves, random.Random(3), 8) == few.values()
    one_by_one = Trial(seen, moves, random.Random(3))
    for i in reversed(range(len(moves))):
        one_by_one.play(i, 64 if i == 1 else 8)
    assert one_by_one.game[1] == many.game[1] and one_by_one.game[0] == few.game[0]
    # settle: the same as the trial judged at its end, the worlds a power of two times the budget, at most WIDEN
    for played in range(len(moves)):
        trial = Trial(seen, moves, random.Random(played))
        settled = settle(trial, played, 4)
        assert settled.worlds in [4 * 2**k for k in range(WIDEN.bit_length())] and settled == judge(trial, played)
        assert settled.worlds == settled.played.rollouts == max(v.rollouts for v in settled.values)
        assert all(v.rollouts >= 4 for v in settled.values)  # the others: as many as when they last mattered
        if settled.worlds < WIDEN * 4:
            assert not settled.uncertain  # stopped early: the mark no longer in doubt
        assert settled.drop == pytest.approx(settled.best.game - settled.played.game)
        assert settled.round_drop == pytest.approx(settled.round_best.round - settled.played.round)
        assert settled.verdict == worse(settled.round_verdict, settled.game_verdict)


@pytest.mark.parametrize("other", [G, P])
def test_the_princess_is_the_worst_move_never_the_best(other) -> None:
    hands = ((PS, other), (PR,))
    state = position(hands, _full_deck(hands, (), H), set_aside=H)
    values = _by_move(state, rollouts=30)
    discards = {m for m in values if m.card is PS or (m.card is P and m.target == 0)}
    assert PlayCard(0, PS) in discards
    worst = min(v.game for v in values.values())
    assert {m for m, v in values.items() if v.game == worst} <= discards
    assert max(v.game for m, v in values.items() if m not in discards) > max(values[m].game for m in discards)
    assert all(values[m].round == 0.0 for m in discards)  # out of the round at once


@pytest.fixture(scope="module")
def one_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analyse") / "one.jsonl"
    result = loveletter("simulate", "--games", "1", "--players", "2", "--seed", "3", "--log", str(path))
    assert result.returncode == 0, result.stderr
    return path


def test_the_review_never_depends_on_a_card_the_seat_cannot_see(one_game: Path) -> None:
    (log,) = read_path(str(one_game))
    events = log.events
    rng = random.Random(5)
    checked = changed = 0
    for d in decisions(events):
        moves = legal_moves(d.state, d.seat)
        if len(moves) < 2:
            continue
        other = _rearranged(d.state, d.seat, rng)
        changed += other != d.state
        assert view(other, d.seat) == view(d.state, d.seat)
        assert legal_moves(other, d.seat) == moves
        first = review(view(d.state, d.seat), moves, random.Random(checked), 4)
        again = review(view(other, d.seat), legal_moves(other, d.seat), random.Random(checked), 4)
        assert first == again
        checked += 1
    assert checked > 5
    assert changed > checked // 2


def _decisions_in_log(path: Path, seat: int) -> int:
    """Counted straight from the log's lines: the cards the seat played and its Chancellor's returns."""
    count = 0
    for line in path.read_text().splitlines():
        record = orjson.loads(line)
        if record.get("type") in ("card_played", "chancellor_returned") and record.get("player") == seat:
            count += 1
    return count


def test_a_whole_game_analysed_through_the_command_line(one_game: Path) -> None:
    header = orjson.loads(one_game.read_text().splitlines()[0])
    bob = header["players"][1]
    result = loveletter("analyse", str(one_game), "--seat", bob, "--budget", "3", "--json")
    assert result.returncode == 0, result.stderr
    review_ = orjson.loads(result.stdout)
    doublings = [3 * 2**k for k in range(WIDEN.bit_length())]
    assert review_["seat"] == bob and review_["rollouts"] == 3 and review_["others"] == "heuristic"
    assert review_["thresholds"] == {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
    assert review_["round_thresholds"] == {"mistake": 0.20, "blunder": 0.40} and review_["max_rollouts"] == 3 * WIDEN
    entries = review_["decisions"]
    assert len(entries) == _decisions_in_log(one_game, 1) > 0
    assert [e["at"] for e in entries] == sorted(e["at"] for e in entries)
    assert any(not e["forced"] for e in entries)
    for e in entries:
        assert e["player"] == bob
        if e["forced"]:
            assert "moves" not in e
            continue
        games = [m["game"] for m in e["moves"]]
        assert games == sorted(games, reverse=True) and all(0.0 <= g <= 1.0 for g in games)
        assert e["rollouts"] in doublings and (e["rollouts"] == 3 * WIDEN or not e["uncertain"])
        assert all(3 <= m["rollouts"] <= e["rollouts"] and 0.0 <= m["round"] <= 1.0 for m in e["moves"])
        assert e["best"]["action_code"] == e["moves"][0]["action_code"]
        played = next(m for m in e["moves"] if m["action_code"] == e["played"]["action_code"])
        assert e["drop"] == pytest.approx(e["moves"][0]["game"] - played["game"])
        assert played["rollouts"] == e["rollouts"]  # the moves that may change the verdict: in as many worlds
        no_worse = [m["round"] for m in e["moves"] if m["game"] >= played["game"]]
        assert e["round_drop"] == pytest.approx(max(no_worse) - played["round"])
        assert e["game_verdict"] == verdict(e["drop"]) and e["round_verdict"] == round_verdict(e["round_drop"])
        floor = "inaccuracy" if e["by"] == "floor" else None
        assert e["verdict"] == worse(floor, worse(e["round_verdict"], e["game_verdict"]))
        mark, by_round, by_game = e["verdict"], e["round_verdict"], e["game_verdict"]
        assert e["by"] == (
            None if mark is None else "round" if mark == by_round else "game" if mark == by_game else "floor"
        )
        assert e["loses_round"] == (played["round"] == 0.0 < max(no_worse))
    again = loveletter("analyse", str(one_game), "--seat", bob, "--budget", "3", "--json")
    assert again.stdout == result.stdout  # the same seed gives the same figures
    text = loveletter("analyse", str(one_game), "--seat", "1", "--budget", "2", "--lang", "fr")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith(f"Revue de {one_game}") and "Modèle : " in text.stdout
    assert text.stdout.count("après l'événement") == len(entries)


@pytest.mark.parametrize(
    ("lang", "unknown", "several"),
    [
        ("en", "error: --seat 'Zoé' is not a player", "holds 2 games; pick one with --game"),
        ("fr", "erreur : --seat « Zoé » n'est pas un joueur", "contient 2 parties ; choisissez-en une avec --game"),
    ],
)
def test_errors_are_one_line_in_either_language(tmp_path: Path, lang: str, unknown: str, several: str) -> None:
    two = tmp_path / "two.jsonl"
    assert loveletter("simulate", "--games", "2", "--players", "2", "--log", str(two)).returncode == 0
    result = loveletter("analyse", str(two), "--game", "1", "--seat", "Zoé", "--lang", lang)
    assert result.returncode == 2 and result.stderr.startswith(unknown), result.stderr
    result = loveletter("analyse", str(two), "--lang", lang)
    assert result.returncode == 2 and several in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_guess_that_cannot_hit_is_named_as_such_from_what_the_seat_knew() -> None:
    from loveletter.play.engine.analysis import cannot_succeed

    # Both Barons lie in front of Ann: from her seat no Baron is left unseen, so naming one cannot hit Bob.
    hands, front = ((G, H), (PR,)), ((B,), (B,))
    state = position(hands, _full_deck(hands, (), CO, front=front), set_aside=CO, front=front)
    seen = view(state, 0)
    assert cannot_succeed(seen, PlayCard(0, G, 1, B), "en") == "no Baron is left unseen: this guess cannot hit"
    assert cannot_succeed(seen, PlayCard(0, G, 1, B), "fr") == (
        "plus aucun exemplaire de Baron n'est inconnu de ce siège : cette supposition ne peut pas toucher"
    )
    assert cannot_succeed(seen, PlayCard(0, G, 1, PR), "en") is None  # a Priest may be there (it is)
    assert cannot_succeed(seen, PlayCard(0, G, 1, K), "en") is None  # may be: one is unseen
    assert cannot_succeed(seen, PlayCard(0, H), "en") is None
    # Ann knows Bob's hand (a Priest of hers showed it): any other name cannot hit, the Priest can.
    knowing = seen._replace(seats=(seen.seats[0], seen.seats[1]._replace(known_hand=PR)))
    said = cannot_succeed(knowing, PlayCard(0, G, 1, K), "en")
    assert said == "Bob holds the Priest, as this seat knew: this guess cannot hit"
    assert cannot_succeed(knowing, PlayCard(0, G, 1, K), "fr") == (
        "Bob a le Prêtre, ce que ce siège savait : cette supposition ne peut pas toucher"
    )
    assert cannot_succeed(knowing, PlayCard(0, G, 1, PR), "en") is None


def test_the_review_names_the_guess_that_cannot_hit_where_it_was_played() -> None:
    from loveletter.play.engine.analysis import entry
    from loveletter.play.engine.review import Decision

    hands, front = ((G, H), (PR,)), ((B,), (B,))
    state = position(hands, _full_deck(hands, (), CO, front=front), set_aside=CO, front=front)
    wrong = Decision(0, state, 0, PlayCard(0, G, 1, B))
    said = entry(wrong, [], 8, 1, "en")
    assert said["played"]["cannot_succeed"] == "no Baron is left unseen: this guess cannot hit"
    rows = {(m["card"], m.get("guess")): m["cannot_succeed"] for m in said["moves"]}
    assert rows[("guard", "baron")] == said["played"]["cannot_succeed"] and rows[("guard", "priest")] is None
    assert entry(Decision(0, state, 0, PlayCard(0, G, 1, PR)), [], 8, 1, "en")["played"]["cannot_succeed"] is None
