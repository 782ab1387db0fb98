"""The spectator delay as people meet it (issue 24): a spectator's page, in its own browser context, shows the game as
it was N moves ago while the players' pages are live, and everything once the game is over. The delayed version is
worked out here from the seat's own event list (the event before the N-th last move), not read from the page."""

from __future__ import annotations

from typing import Any, Callable

import httpx

from tests.browser.conftest import Site, wait_until
from tests.browser.test_web_seat import open_seat, version

MOVES = ("card_played", "chancellor_returned")
DELAY = 2


def _play_first_legal_move(site: Site, game: str, tokens: list[str]) -> None:
    for token in tokens:
        seen = httpx.get(f"{site.url}/games/{game}", headers={"Authorization": f"Bearer {token}"}).json()
        if seen["your_turn"]:
            move = {"type": "code", "action_code": seen["legal_moves"][0]["action_code"]}
            auth = {"Authorization": f"Bearer {token}"}
            answer = httpx.post(f"{site.url}/games/{game}/moves", json=move, headers=auth)
            assert answer.status_code == 200, answer.text
            return
    raise AssertionError("nobody is to move")


def _delayed(site: Site, game: str, token: str) -> tuple[int, int]:
    """(the whole game's version, the version a spectator may see) from the seat's own list of every event."""
    events = httpx.get(f"{site.url}/games/{game}/events", headers={"Authorization": f"Bearer {token}"}).json()
    events = events["events"] if isinstance(events, dict) else events
    moves = [e["seq"] for e in events if e["type"] in MOVES]
    last = events[-1]["seq"]
    if len(moves) < DELAY:
        return last, (moves[0] - 1 if moves else last)
    return last, moves[-DELAY] - 1


def test_a_spectator_sees_the_game_n_moves_behind_while_the_seats_are_live(
    site: Site, new_page: Callable[..., Any]
) -> None:
    created = site.create(
        {"players": [{"name": "Alice"}, {"name": "Bob"}], "first_player": "Alice", "spectator_delay": DELAY}
    )
    game, tokens = created["game_id"], [seat["token"] for seat in created["seats"]]
    alice, watcher = new_page(), new_page(locale="fr-FR")
    open_seat(alice, site, game, tokens[0])
    watcher.goto(f"{site.url}/play/{game}")
    wait_until(watcher, "() => document.body.dataset.version")

    for _ in range(4):
        _play_first_legal_move(site, game, tokens)
        live, seen = _delayed(site, game, tokens[0])
        assert seen < live
        wait_until(alice, f"() => Number(document.body.dataset.version) === {live}")
        wait_until(watcher, f"() => Number(document.body.dataset.version) === {seen}")
        assert version(watcher) == seen  # and it stays there: never the live game
        assert httpx.get(f"{site.url}/games/{game}").json()["version"] == seen

    # the game ends (Bob resigns): the spectator sees everything at once
    answer = httpx.post(f"{site.url}/games/{game}/resign", headers={"Authorization": f"Bearer {tokens[1]}"})
    assert answer.status_code == 200, answer.text
    live, _ = _delayed(site, game, tokens[0])
    wait_until(watcher, f"() => Number(document.body.dataset.version) === {live}")
