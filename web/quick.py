"""The lobby's quick pairing grid (issue 35, docs/web.md "Quick pairing"): a few rated games a person may ask for
with one button, as lichess's pairing grid offers a few clocks. Each button posts a seek (`POST /seeks`, rated) with
the account key this browser keeps; the page then waits for the seek to be paired.

Why these: two players is the game most people play online, so the 2019 rules get three clocks (20 seconds a turn,
a minute, a day for a game played over days); four players, the 2019 classic deck and the 2012 rules get one (a
minute). A clocked seek's game resigns a seat that lets its turn run out (docs/accounts.md), so a short clock is a
promise to stay. A seek pairs only with seeks of the very same kind, so fewer buttons also means fuller queues.
"""

from __future__ import annotations

from typing import Any

from loveletter.core.lang import Lang
from loveletter.core.rulesets import RULESETS
from loveletter.web.words_accounts import ACCOUNT_WORDS

QUICK: tuple[tuple[str, int, int], ...] = (
    ("2019", 2, 20),
    ("2019", 2, 60),
    ("2019", 2, 86_400),
    ("2019", 4, 60),
    ("2019-classic", 2, 60),
    ("2012", 2, 60),
)
"""(ruleset, table size, seconds a turn) of each button, in the grid's order."""


def clock(seconds: int, lang: Lang) -> str:
    """A turn's clock as people say it: 20 s, 1 min, 1 day (« 1 jour »)."""
    if seconds % 86_400 == 0:
        days = seconds // 86_400
        word = ACCOUNT_WORDS["quick.day"](lang)
        return f"{days}\u00a0{word}" if days == 1 else f"{days}\u00a0{word}s"
    if seconds % 60 == 0:
        return f"{seconds // 60}\u00a0min"
    return f"{seconds}\u00a0s"


def quick_pairings(lang: Lang) -> list[dict[str, Any]]:
    """Each button of the grid: its seek's ruleset, players and clock, and its two lines of text in `lang`."""
    words = ACCOUNT_WORDS
    buttons = []
    for ruleset, players, seconds in QUICK:
        table = f"{players} {words['quick.players'](lang)} · {clock(seconds, lang)} {words['quick.per_turn'](lang)}"
        buttons.append(
            {
                "ruleset": ruleset,
                "players": players,
                "turn_seconds": seconds,
                "title": RULESETS[ruleset].title_in(lang),
                "table": table,
            }
        )
    return buttons


def titles(lang: Lang) -> dict[str, str]:
    """Every ruleset's title in `lang`: what every page's account bar names a challenge's game by."""
    return {rs.id: rs.title_in(lang) for rs in RULESETS.values()}
