"""Love Letter as a PettingZoo AEC environment (`pip install 'loveletter-referee[env]'`; docs/env.md).

import loveletter.env
game = loveletter.env.env(ruleset="2019", players=4)
game.reset(seed=1)
for agent in game.agent_iter():
    observation, reward, terminated, truncated, info = game.last()
    ...
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from loveletter.env.aec import IllegalAction, LoveLetterEnv

raw_env = LoveLetterEnv


def env(**kwargs: Any) -> OrderEnforcingWrapper:
    """The environment as PettingZoo's own environments are handed out: `step` before `reset` is an error."""
    return OrderEnforcingWrapper(LoveLetterEnv(**kwargs))


__all__ = ["IllegalAction", "LoveLetterEnv", "env", "raw_env"]
