"""`LoveLetterEnv`: a PettingZoo AEC environment over the referee's own rules.

Every move goes through `core.decide` and `core.evolve`, and chance moves by `core.chance.chance_move`, exactly as
the referee and `loveletter simulate` do, so the environment's log (`env.log`) is a game the referee would have
recorded: it replays and audits clean. Agents `player_0…player_{n-1}` are the seats; only the seat that must
decide is ever selected. Chance's moves (the deals, the closing seed reveal) happen inside `reset` and `step`.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from loveletter.core.catalogue import Event, FavorGained, GameEnded, RoundEnded
from loveletter.core.chance import chance_move, commitment
from loveletter.core.commands import Command, PlayerCommand, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all
from loveletter.core.lang import BilingualError, Text
from loveletter.core.legal import legal_codes, legal_moves
from loveletter.core.rules import RuleViolation
from loveletter.core.rulesets import RULESETS, Options
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_DEAL, PHASE_OVER, PHASE_PLAY, GameState, Transient
from loveletter.core.views import view
from loveletter.env.actions import ActionTable, descending
from loveletter.env.observation import Encoder
from loveletter.play.bots import get_bot
from loveletter.replays.narrative import narrate

Observation = dict[str, npt.NDArray[Any]]
EPISODES = ("game", "round")
REWARDS = ("win", "favors")
SEED_DOMAIN = b"loveletter-env/1:"


class IllegalAction(BilingualError):
    """An action the rules refuse now (its mask cell is 0): nothing happened. Carries core's `code` and `rule_id`."""

    def __init__(self, text: Text, code: str, rule_id: str) -> None:
        super().__init__(text)
        self.code = code
        self.rule_id = rule_id


def _config_error(en: str, fr: str) -> BilingualError:
    return BilingualError(Text(en, fr))


class LoveLetterEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """Love Letter for `players` seats under `ruleset`; see docs/env.md.

    `episode` "game" plays a whole game, "round" stops at the end of the first round. `reward` "win" gives +1 to
    each winner of the episode (the game's winners, or the round's), "favors" +1 to a seat each time it gains a
    favor token. `options` are core's rule options (`tie_2012`, `guard_unknown`). `render_mode` "ansi" makes
    `render()` return the story told since the last call, in `lang` ("en" or "fr"); "human" prints it.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "loveletter_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: str = "2019",
        players: int = 2,
        options: Mapping[str, str] | None = None,
        *,
        episode: str = "game",
        reward: str = "win",
        render_mode: str | None = None,
        lang: str = "en",
    ) -> None:
        super().__init__()
        rs = RULESETS.get(ruleset)
        if rs is None:
            known = ", ".join(RULESETS)
            raise _config_error(
                f"unknown ruleset {ruleset!r} (known: {known})",
                f"jeu de règles inconnu « {ruleset} » (connus : {', '.join(f'« {r} »' for r in RULESETS)})",
            )
        if type(players) is not int or not rs.min_players <= players <= rs.max_players:
            low, high = rs.min_players, rs.max_players
            raise _config_error(
                f"ruleset {ruleset} is played by {low} to {high} players, not {players}",
                f"le jeu de règles « {ruleset} » se joue de {low} à {high} joueurs, pas {players}",
            )
        self.options = Options.from_dict(options).as_dict()  # a BilingualError names a wrong option
        if episode not in EPISODES:
            raise _config_error(
                f"episode must be game or round, not {episode!r}",
                f"l'option episode vaut « game » ou « round », pas « {episode} »",
            )
        if reward not in REWARDS:
            raise _config_error(
                f"reward must be win or favors, not {reward!r}",
                f"l'option reward vaut « win » ou « favors », pas « {reward} »",
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise _config_error(
                f"render_mode must be ansi or human, not {render_mode!r}",
                f"l'option render_mode vaut « ansi » ou « human », pas « {render_mode} »",
            )
        if lang not in ("en", "fr"):
            raise _config_error(
                f"lang must be en or fr, not {lang!r}", f"l'option lang vaut « en » ou « fr », pas « {lang} »"
            )
        self.ruleset = ruleset
        self.players = players
        self.episode = episode
        self.reward = reward
        self.render_mode = render_mode
        self.lang = lang
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents: list[str] = []
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.actions = ActionTable(rs, players)
        self.encoder = Encoder(rs, players)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(0.0, self.encoder.high, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.actions.size) for agent in self.possible_agents}
        self._key = b""
        self._game = 0
        self._state: Transient = INITIAL.thaw()
        self._server_seed = b""
        self._log: list[Event] = []
        self._told = 0
        self._rewarded = False

    # -- the PettingZoo API --------------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """`agent`'s observation space: its encoded view and its action mask (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """`agent`'s action space: one dense index per move of the table (the same for every agent)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` makes it and the games of later seedless resets reproducible; `options` is ignored
        (the table is set when the environment is made)."""
        if seed is not None:
            self._key = hashlib.sha256(SEED_DOMAIN + str(int(seed)).encode()).digest()
            self._game = 0
        elif not self._key:
            self._key = secrets.token_bytes(32)
        self._server_seed = hmac.new(self._key, b"game:%d" % self._game, hashlib.sha256).digest()
        self._game += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._rewarded = False  # whether `rewards` holds anything but zeros
        self._state = INITIAL.thaw()
        self._log = []
        self._told = 0
        names = tuple(self.possible_agents)
        self._advance(StartGame(self.ruleset, names, dict(self.options), seed_commitment=commitment(self._server_seed)))
        self.agent_selection = self.possible_agents[self._state.active]

    def step(self, action: int | np.integer[Any] | None) -> None:
        """The selected agent plays `action` (a dense index), then chance moves until a seat must decide; an agent
        whose episode is over steps with None to leave. `IllegalAction` for an action its mask refuses: nothing
        changes."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        plays = self.actions.plays[seat]
        if type(action) is int and 0 <= action < len(plays):  # the common case: a play
            command = plays[action]
        else:
            command = self._command(action, seat)
        try:
            events = decide(self._state, command)
        except RuleViolation as refused:
            raise IllegalAction(Text(refused.en, refused.fr), refused.code, refused.rule_id) from None
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:
            self._rewarded = False
            for other in self.rewards:
                self.rewards[other] = 0.0
        self._take(events)
        state = self._state
        if state.phase not in (PHASE_PLAY, PHASE_CHANCELLOR):  # chance moves next, or the episode is over
            self._advance(None)
            if self._episode_over():
                for other in self.agents:
                    self.terminations[other] = True
        if not self.terminations[agent]:
            self.agent_selection = self.possible_agents[state.active]
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        """What `agent` sees now: its view encoded (`observation`) and the mask of its legal actions (`action_mask`)."""
        seat = self._seat[agent]
        state = self._state
        return {
            "observation": self.encoder.encode(view(state, seat)),
            "action_mask": self.actions.mask(legal_codes(state, seat)),
        }

    def render(self) -> str | None:
        """The story since the last call (the whole game so far on the first one), as the table saw it."""
        if self.render_mode is None:
            return None
        lines = narrate(self._log, self.lang)
        text = "\n".join(lines[self._told :])
        self._told = len(lines)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no file, process or window."""

    # -- beyond the API ------------------------------------------------------------------------------------------

    @property
    def log(self) -> tuple[Event, ...]:
        """Every event of the game so far, as the referee would record it."""
        return tuple(self._log)

    @property
    def game_state(self) -> GameState:
        """The whole truth of the game now, hidden cards included (for tests and analysis, never for a policy)."""
        return self._state.thaw().freeze()

    def observation_of(self, state: GameState, seat: int) -> Observation:
        """What `seat` would observe in `state` (any state of a game of this table): its view encoded, and its mask.
        The same computation as `observe`, which is kept apart to save a call on every step."""
        return {
            "observation": self.encoder.encode(view(state, seat)),
            "action_mask": self.actions.mask(legal_codes(state, seat)),
        }

    def legal_actions(self, agent: str) -> list[int]:
        """The dense indices of `agent`'s legal moves now, in core's order (`legal_action_codes`)."""
        return self.actions.indices(legal_codes(self._state, self._seat[agent]))

    def bot_action(self, agent: str, bot: str = "heuristic", rng: random.Random | None = None) -> int:
        """The dense index of the move the built-in bot `bot` (`random`, `heuristic` or `expert`) would make for
        `agent` now, decided from `agent`'s view alone: the environment's opponents, the same bots as everywhere
        else. `rng` makes the choice repeatable (the expert searches with it)."""
        seat = self._seat[agent]
        state = self.game_state  # a frozen copy: the policy cannot touch the game
        choice = get_bot(bot).choose(view(state, seat), legal_moves(state, seat), rng or random.Random())
        return self.actions.index(choice)

    # -- pickling: the table and the log; the state is folded again from the log (event sourcing) ----------------

    _KEPT = (
        "_key",
        "_game",
        "_server_seed",
        "_log",
        "_told",
        "_rewarded",
        "agents",
        "rewards",
        "_cumulative_rewards",
        "terminations",
        "truncations",
        "infos",
        "agent_selection",
        "_skip_agent_selection",
    )

    def __getstate__(self) -> dict[str, Any]:
        table = {
            "ruleset": self.ruleset,
            "players": self.players,
            "options": self.options,
            "episode": self.episode,
            "reward": self.reward,
            "render_mode": self.render_mode,
            "lang": self.lang,
        }
        return {"table": table, **{name: getattr(self, name) for name in self._KEPT if hasattr(self, name)}}

    def __setstate__(self, saved: dict[str, Any]) -> None:
        self.__init__(**saved.pop("table"))  # type: ignore[misc]
        for name, value in saved.items():
            setattr(self, name, value)
        apply_all(self._state, self._log)

    # -- inside ----------------------------------------------------------------------------------------------------

    def _command(self, action: object, seat: int) -> PlayerCommand:
        """The command a dense action stands for; `IllegalAction` for anything that is not one of them."""
        if type(action) is not int:
            if not isinstance(action, int | np.integer) or isinstance(action, bool):
                raise IllegalAction(
                    Text(f"an action is an integer, not {action!r}", f"une action est un entier, pas « {action!r} »"),
                    "invalid_action",
                    "turn.order",
                )
            action = int(action)
        try:
            command = self.actions.command(action, seat, self._state.hands[seat])
        except ValueError:
            top = self.actions.size - 1
            raise IllegalAction(
                Text(f"action {action} is outside 0…{top}", f"l'action {action} n'est pas entre 0 et {top}"),
                "invalid_action",
                "turn.order",
            ) from None
        actions = self.actions
        if actions.is_return(action) and actions.is_descending(action) and not descending(command.bottom):  # type: ignore[union-attr]
            same = action - 1
            raise IllegalAction(
                Text(
                    f"with fewer than two different cards to return, their order is action {same} only",
                    f"avec moins de deux cartes différentes à rendre, leur ordre est l'action {same} seulement",
                ),
                "invalid_action",
                "chancellor.return",
            )
        return command

    def _take(self, events: tuple[Event, ...] | list[Event]) -> None:
        """Apply and record the events of one command, and give each seat what they reward it with."""
        apply_all(self._state, events)
        self._log += events
        if len(events) <= 2:  # a plain turn (card_played, turn_started) gives nobody anything
            return
        agents, rewards = self.possible_agents, self.rewards
        for event in events:
            kind = type(event)
            if self.reward == "favors":
                if kind is FavorGained:
                    rewards[agents[event.player]] += 1.0  # type: ignore[union-attr]
                    self._rewarded = True
            elif kind is (GameEnded if self.episode == "game" else RoundEnded):
                for seat in event.winners:  # type: ignore[union-attr]
                    rewards[agents[seat]] += 1.0
                    self._rewarded = True

    def _advance(self, command: Command | None) -> None:
        """Judge `command` (the start) if given, then let chance move (the deals, the seed revealed at the end) until a
        seat must decide or the episode is over."""
        state = self._state
        while True:
            if command is not None:
                self._take(decide(state, command))
            phase = state.phase
            if phase in (PHASE_PLAY, PHASE_CHANCELLOR):
                return
            if phase == PHASE_DEAL and self.episode == "round" and state.round >= 1:
                return  # a one-round episode ends before the second deal
            command = chance_move(state, self._server_seed)  # the next deal, the seed revealed, or None: the end
            if command is None:
                return

    def _episode_over(self) -> bool:
        """The game is over, or a one-round episode has played its round."""
        phase = self._state.phase
        return phase == PHASE_OVER or (phase == PHASE_DEAL and self.episode == "round")
