"""The PettingZoo environment `loveletter.env` (docs/env.md): PettingZoo's own API test for every ruleset and table
size, masks equal to core's legal moves, observations that leak nothing, logs that replay and audit clean."""

from __future__ import annotations

import io
import pickle
import random
import re
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from loveletter.core.cards import CARD_ORDER, Card
from loveletter.core.catalogue import RoundEnded, RoundStarted
from loveletter.core.chance import COMMITTED
from loveletter.core.legal import action_code, legal_moves
from loveletter.core.rulesets import RULESETS
from loveletter.core.state import GameState
from loveletter.env import IllegalAction, LoveLetterEnv, env, raw_env
from loveletter.env.observation import fields
from loveletter.events.log import Header, write_game
from loveletter.replays.audit import audit_bytes
from loveletter.replays.replay import check
from tests.french import not_french

# PettingZoo warns about every environment whose observation is a dict holding the action mask, unless it is one of
# its own classic games listed by name: these two warnings are that and nothing else.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}
TABLES = [
    ("2019", 2),
    ("2019", 4),
    ("2019", 6),
    ("princess-princess", 2),
    ("princess-princess", 4),
    ("princess-princess", 6),
    ("2019-classic", 2),
    ("2019-classic", 3),
    ("2019-classic", 4),
    ("2012", 2),
    ("2012", 3),
    ("2012", 4),
]


def test_every_ruleset_and_its_player_counts_are_tried() -> None:
    for ruleset in RULESETS.values():
        counts = {n for rs, n in TABLES if rs == ruleset.id}
        assert {ruleset.min_players, ruleset.max_players} <= counts


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_pettingzoo_api_test_passes(ruleset: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(ruleset=ruleset, players=players), num_cycles=300)
        api_test(raw_env(ruleset=ruleset, players=players, episode="round", reward="favors"), num_cycles=100)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS


def rollout(game: LoveLetterEnv, seed: int, visit=None) -> None:  # type: ignore[no-untyped-def]
    """Plays one episode with uniformly random legal actions; `visit(game)` before each step."""
    rng = random.Random(seed)
    game.reset(seed=seed)
    for _agent in game.agent_iter():
        observation, _reward, terminated, truncated, _info = game.last()
        if visit is not None:
            visit(game)
        if terminated or truncated:
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def decoded_mask(game: LoveLetterEnv, seat: int, mask: np.ndarray) -> set[int]:
    hand = game.game_state.hands[seat]
    return {action_code(game.actions.command(int(i), seat, hand)) for i in np.flatnonzero(mask)}


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_each_seats_mask_is_exactly_its_legal_moves(ruleset: str, players: int) -> None:
    options = {"guard_unknown": "miss"} if ruleset == "2012" and players == 3 else {}
    game = raw_env(ruleset=ruleset, players=players, options=options)
    seen = Counter()

    def visit(game: LoveLetterEnv) -> None:
        state = game.game_state
        for agent in game.agents:
            seat = int(agent.split("_")[1])
            mask = game.observe(agent)["action_mask"]
            # legal_moves builds the commands one by one (not the cached codes the mask comes from)
            legal = legal_moves(state, seat)
            assert decoded_mask(game, seat, mask) == {action_code(m) for m in legal}
            assert mask.sum() == len(legal)  # one index per legal move, and one legal move per index
            if mask.any():
                seen["masks"] += 1
                assert agent == game.agent_selection
                seen["chancellor"] += state.phase == "chancellor"

    for seed in range(4):
        rollout(game, seed, visit)
    assert seen["masks"] > 40
    if RULESETS[ruleset].has(Card.CHANCELLOR):
        assert seen["chancellor"] > 0


def hidden_shuffle(state: GameState, seat: int, rng: random.Random) -> GameState:
    """`state` with every card `seat` cannot know dealt again at random among the places it cannot see:
    other seats' hands it was not shown, the draw pile's cards it did not put there, the set-aside card."""
    places: list[tuple[str, int, int]] = []
    for other, hand in enumerate(state.hands):
        if other != seat and state.knows[seat][other] is None:
            places += [("hand", other, i) for i in range(len(hand))]
    known_positions = {pos - state.drawn for pos, _ in state.deck_known[seat]}
    places += [("deck", 0, i) for i in range(len(state.deck)) if i not in known_positions]
    if state.set_aside is not None and state.round > 0:
        places.append(("aside", 0, 0))
    hands = [list(h) for h in state.hands]
    deck = list(state.deck)

    def card(place: tuple[str, int, int]) -> Card:
        kind, who, i = place
        return hands[who][i] if kind == "hand" else deck[i] if kind == "deck" else state.set_aside  # type: ignore[return-value]

    cards = [card(p) for p in places]
    rng.shuffle(cards)
    aside = state.set_aside
    for (kind, who, i), new in zip(places, cards, strict=True):
        if kind == "hand":
            hands[who][i] = new
        elif kind == "deck":
            deck[i] = new
        else:
            aside = new
    work = state.thaw()
    work.hands = tuple(tuple(h) for h in hands)
    work.deck = tuple(deck)
    work.set_aside = aside
    return work.freeze()


@pytest.mark.parametrize(("ruleset", "players"), [("2019", 2), ("2019", 5), ("2012", 4), ("princess-princess", 3)])
def test_an_observation_is_the_same_whatever_the_seat_cannot_know(ruleset: str, players: int) -> None:
    game = raw_env(ruleset=ruleset, players=players)
    rng = random.Random(5)
    tally = Counter()

    def visit(game: LoveLetterEnv) -> None:
        state = game.game_state
        if state.phase not in ("play", "chancellor"):
            return
        for seat in range(players):
            other = hidden_shuffle(state, seat, rng)
            mine = game.observation_of(state, seat)
            theirs = game.observation_of(other, seat)
            assert np.array_equal(mine["observation"], theirs["observation"])
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            if other.hands != state.hands:
                tally["hidden hands moved"] += 1
                # the same change is seen by a seat whose hand it touched: the encoding does read the hands
                changed = next(s for s in range(players) if other.hands[s] != state.hands[s])
                if Counter(other.hands[changed]) != Counter(state.hands[changed]):
                    before = game.observation_of(state, changed)["observation"]
                    after = game.observation_of(other, changed)["observation"]
                    assert not np.array_equal(before, after)
                    tally["seen by the holder"] += 1

    for seed in range(3):
        rollout(game, seed, visit)
    assert tally["hidden hands moved"] > 20 and tally["seen by the holder"] > 10


def test_the_observation_of_a_hand_checked_deal() -> None:
    # 2019, two players, seed 11: read the deal from the log, then check seat 0's first observation cell by cell.
    game = raw_env(ruleset="2019", players=2)
    game.reset(seed=11)
    deal = next(e for e in game.log if isinstance(e, RoundStarted))
    first = deal.first_player
    assert game.agent_selection == f"player_{first}"
    observation = game.observe(f"player_{first}")["observation"]
    offsets, at = {}, 0
    for field in fields(2):
        offsets[field.name] = (at, at + field.size)
        at += field.size
    assert observation.shape == (at,) == (58 + 36 * 2,)

    def cells(name: str) -> list[float]:
        lo, hi = offsets[name]
        return observation[lo:hi].tolist()

    slot = {card: i for i, card in enumerate(CARD_ORDER)}
    hand = [0.0] * 10
    drawn = game.game_state.hands[first][1]  # the card turn_started gave the first player
    for card in (deal.hands[first], drawn):
        hand[slot[card]] += 1
    face_up = [0.0] * 10
    for card in deal.face_up:
        face_up[slot[card]] += 1
    assert cells("to_move") == [1.0]
    assert cells("phase") == [1.0, 0.0, 0.0]
    assert cells("active") == [1.0, 0.0]  # the observer itself
    assert cells("hand") == hand
    assert cells("face_up") == face_up
    copies = [2, 6, 2, 2, 2, 2, 2, 1, 1, 1]  # the 2019 deck in CARD_ORDER
    assert cells("unseen") == [c - h - f for c, h, f in zip(copies, hand, face_up, strict=True)]
    assert cells("deck_known") == [0.0] * 10 and cells("deck_top") == [0.0] * 10
    assert cells("deck_size") == [21 - 1 - 3 - 2 - 1]  # set aside, face up, two hands, one drawn
    assert cells("set_aside") == [1.0] and cells("round") == [1.0] and cells("favors_to_win") == [6.0]
    assert cells("seat0.hand_size") == [2.0] and cells("seat1.hand_size") == [1.0]
    assert cells("seat1.known_hand") == [0.0] * 10  # the other hand is hidden
    assert cells("seat0.in_round") == cells("seat1.in_round") == [1.0]
    assert game.observation_space(game.agent_selection)["observation"].contains(observation)


@pytest.mark.parametrize(("ruleset", "players"), [("2019", 4), ("2012", 2), ("princess-princess", 6)])
def test_a_random_rollouts_log_replays_and_audits_clean(ruleset: str, players: int) -> None:
    game = raw_env(ruleset=ruleset, players=players)
    rollout(game, 3)
    log = game.log
    result = check(log)
    assert result.problems == [] and result.complete
    assert result.state == game.game_state and result.state.over
    assert all(e.shuffle.algorithm == COMMITTED for e in log if isinstance(e, RoundStarted))  # type: ignore[union-attr]
    data = io.BytesIO()
    write_game(data, log, Header(ruleset, tuple(game.possible_agents), game.options))
    report = audit_bytes(data.getvalue())
    assert report.error is None
    (audited,) = report.games
    assert audited.problems == [] and audited.finished
    # the seed commitment is kept and every deal derives from the revealed seed, as the referee's do (unsigned: a note)
    assert audited.checks == {
        "sequence": "ok",
        "chain": "ok",
        "signature": "note",
        "commitment": "ok",
        "derivation": "ok",
        "rules": "ok",
    }


def test_reset_with_a_seed_replays_the_same_games() -> None:
    logs = []
    for _ in range(2):
        game = raw_env(ruleset="2019", players=3)
        rollout(game, 7)
        first = game.log
        game.reset()  # the next game of the same seed
        logs.append((first, game.log))
    assert logs[0] == logs[1]
    assert logs[0][0][:3] != logs[0][1][:3]  # the second game is dealt differently
    other = raw_env(ruleset="2019", players=3)
    other.reset(seed=8)
    assert other.log[:3] != logs[0][0][:3]


def test_rewards_go_to_the_winners_of_the_game() -> None:
    game = raw_env(ruleset="2019", players=3)
    totals = Counter()
    rng = random.Random(1)
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, terminated, _truncated, _info = game.last()
        totals[agent] += reward
        game.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    winners = game.game_state.winners
    assert winners and totals == Counter({f"player_{w}": 1.0 for w in winners})


def test_favor_rewards_add_up_to_the_favor_tokens() -> None:
    game = raw_env(ruleset="princess-princess", players=4, reward="favors")
    totals = Counter()
    rng = random.Random(2)
    game.reset(seed=2)
    for agent in game.agent_iter():
        observation, reward, terminated, _truncated, _info = game.last()
        totals[agent] += reward
        game.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    favors = game.game_state.favors
    assert sum(favors) >= 4  # a princess-princess game of four is won with four favors
    assert {a: totals[a] for a in game.possible_agents} == {f"player_{i}": float(f) for i, f in enumerate(favors)}


def test_a_round_episode_stops_at_the_end_of_the_first_round() -> None:
    game = raw_env(ruleset="2019", players=4, episode="round")
    totals = Counter()
    rng = random.Random(4)
    game.reset(seed=4)
    for agent in game.agent_iter():
        observation, reward, terminated, _truncated, _info = game.last()
        totals[agent] += reward
        game.step(None if terminated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    rounds = [e for e in game.log if isinstance(e, RoundStarted)]
    (ended,) = [e for e in game.log if isinstance(e, RoundEnded)]
    assert len(rounds) == 1 and ended.winners
    assert totals == Counter({f"player_{w}": 1.0 for w in ended.winners})
    assert check(game.log).problems == []


def test_an_illegal_action_is_refused_with_its_rule_and_changes_nothing() -> None:
    game = raw_env(ruleset="2019", players=2)
    game.reset(seed=3)
    before = game.log
    mask = game.observe(game.agent_selection)["action_mask"]
    refused = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction) as caught:
        game.step(refused)
    assert caught.value.rule_id and caught.value.code
    assert not_french(caught.value.message("fr"), allowed=game.possible_agents) == []
    for wrong in (-1, game.actions.size, "2", 1.5, True):
        with pytest.raises(IllegalAction) as caught:
            game.step(wrong)  # type: ignore[arg-type]
        assert caught.value.rule_id == "turn.order"
        assert not_french(caught.value.message("fr")) == []
    assert game.log == before


def test_a_chancellor_return_has_one_index_per_order_and_a_repeated_order_is_refused() -> None:
    game = raw_env(ruleset="2019", players=2)
    actions = game.actions
    found = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, _reward, terminated, _truncated, _info = game.last()
            if terminated:
                game.step(None)
                continue
            mask = observation["action_mask"]
            legal = np.flatnonzero(mask)
            state = game.game_state
            if state.phase == "chancellor":
                assert all(actions.is_return(int(i)) for i in legal)
                hand = state.hands[state.active]
                for i in legal:
                    command = actions.command(int(i), state.active, hand)
                    bottom = [c.value for c in command.bottom]  # type: ignore[union-attr]
                    order = sorted(bottom, key=[c.value for c in CARD_ORDER].index)
                    assert bottom == (order[::-1] if actions.is_descending(int(i)) else order)
                lone = [int(i) for i in legal if not actions.is_descending(int(i)) and not mask[i + 1]]
                if lone:
                    before = game.log
                    with pytest.raises(IllegalAction) as caught:
                        game.step(lone[0] + 1)  # the same move in the other order
                    assert caught.value.rule_id == "chancellor.return"
                    assert not_french(caught.value.message("fr")) == []
                    assert game.log == before
                    found["refused"] += 1
                found["returns"] += 1
            game.step(int(rng.choice(legal)))
        if found["refused"] >= 3:
            break
    assert found["refused"] >= 3 and found["returns"] > found["refused"]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"ruleset": "1999"},
        {"ruleset": "2012", "players": 5},
        {"players": 1},
        {"options": {"tie": "all"}},
        {"options": {"guard_unknown": "maybe"}},
        {"episode": "turn"},
        {"reward": "points"},
        {"render_mode": "rgb_array"},
        {"lang": "de"},
    ],
)
def test_a_table_that_cannot_be_set_is_refused_in_both_languages(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError) as caught:
        raw_env(**kwargs)  # type: ignore[arg-type]
    message = caught.value.message("fr")  # type: ignore[attr-defined]
    assert message != caught.value.message("en")  # type: ignore[attr-defined]
    assert not_french(message, allowed=["episode", "reward", "lang", "render_mode"]) == []


@pytest.mark.parametrize(("lang", "first_round"), [("en", "Round 1"), ("fr", "Manche 1")])
def test_render_tells_the_game_in_english_or_french(lang: str, first_round: str) -> None:
    game = raw_env(ruleset="2019", players=2, render_mode="ansi", lang=lang)
    game.reset(seed=9)
    told = game.render()
    assert told is not None and first_round in told
    assert game.render() == ""  # nothing new since
    agent = game.agent_selection
    game.step(int(np.flatnonzero(game.observe(agent)["action_mask"])[0]))
    news = game.render()
    assert news and first_round in news and news not in told


def test_nothing_is_rendered_without_a_render_mode() -> None:
    game = raw_env()
    game.reset(seed=1)
    assert game.render() is None


def test_the_documented_observation_layout_is_the_encoders() -> None:
    """docs/env.md's table lists `fields(n)` in order, with each group's size (n for `active`)."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "env.md").read_text()
    rows = re.findall(r"^\| `([a-z_.]+)` \| (\w+) \|", text, flags=re.MULTILINE)
    head = [(name, size) for name, size in rows if not name.startswith("seatk.")]
    seat = [(name.removeprefix("seatk."), size) for name, size in rows if name.startswith("seatk.")]
    for n in (2, 5):
        want = [(f.name, f.size) for f in fields(n)]
        documented = [(name, n if size == "n" else int(size)) for name, size in head]
        documented += [(f"seat{k}.{name}", int(size)) for k in range(n) for name, size in seat]
        assert documented == want


def test_an_environment_survives_pickling_mid_game() -> None:
    """Vectorised runners copy environments into worker processes by pickling them."""
    game = raw_env(ruleset="2019", players=3)
    game.reset(seed=6)
    agent = game.agent_selection
    game.step(int(np.flatnonzero(game.observe(agent)["action_mask"])[0]))
    copy = pickle.loads(pickle.dumps(game))
    assert copy.log == game.log and copy.agent_selection == game.agent_selection
    mine, theirs = game.observe(game.agent_selection), copy.observe(copy.agent_selection)
    assert np.array_equal(mine["observation"], theirs["observation"])
    assert np.array_equal(mine["action_mask"], theirs["action_mask"])


def test_the_documented_examples_play_whole_games() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "env.md").read_text()
    examples = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert len(examples) == 2  # a random game; the built-in bots as opponents
    for example in examples:
        scope: dict[str, object] = {}
        exec(compile(example, "docs/env.md", "exec"), scope)
        game = scope["game"]
        assert game.agents == [] and game.unwrapped.game_state.over  # type: ignore[attr-defined]


@pytest.mark.parametrize(("ruleset", "sizes"), [("2019", (56, 69, 82, 95, 108)), ("2012", (34, 47, 60))])
def test_the_action_space_has_the_documented_size(ruleset: str, sizes: tuple[int, ...]) -> None:
    # 2019: ten cards without a target, 13 cells a seat (Guard × 9 guesses, Priest, Baron, Prince, King), and
    # 2 × 10 Chancellor returns; 2012: eight cards, the same 13 a seat, no Chancellor
    low = RULESETS[ruleset].min_players
    assert (
        tuple(raw_env(ruleset=ruleset, players=low + i).action_space("player_0").n for i in range(len(sizes))) == sizes
    )


def test_human_render_prints_each_steps_story(capsys: pytest.CaptureFixture[str]) -> None:
    game = raw_env(ruleset="2012", players=2, render_mode="human", lang="fr")
    game.reset(seed=2)
    assert game.render() is None
    first = capsys.readouterr().out
    assert first.startswith("Partie 2012") and "Manche 1" in first
    game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    printed = capsys.readouterr().out
    assert "Manche 1, tour 1" in printed and "Partie" not in printed


def test_the_built_in_bots_are_the_environments_opponents() -> None:
    """`bot_action` plays any built-in bot from the seat's view: every action it gives is in the seat's mask, a game
    of the expert against the heuristic and random runs to its end, and the same seeds replay it exactly."""

    def play(seed: int) -> tuple[int, ...]:
        game = raw_env(ruleset="2019", players=3)
        game.reset(seed=seed)
        rng = random.Random(seed)
        bots = {agent: bot for agent, bot in zip(game.possible_agents, ("expert", "heuristic", "random"), strict=True)}
        taken: list[int] = []
        while game.agents:
            agent = game.agent_selection
            if game.terminations[agent] or game.truncations[agent]:
                game.step(None)
                continue
            action = game.bot_action(agent, bots[agent], rng)
            assert game.observe(agent)["action_mask"][action] == 1
            taken.append(action)
            game.step(action)
        assert any(event.TYPE == "game_ended" for event in game.log)
        return tuple(taken)

    first = play(7)
    assert len(first) > 10 and play(7) == first
