"""The built-in bots' names as the help pages of the commands that seat bots list them: read from the registry,
so a new built-in bot is listed everywhere (a module of its own: `loveletter` itself must not load the bots)."""

from __future__ import annotations

from loveletter.play.bots import BOTS, STAND_IN

BUILT_IN_BOTS = ", ".join(sorted(BOTS))
__all__ = ["BUILT_IN_BOTS", "STAND_IN"]
