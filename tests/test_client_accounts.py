"""The client library's account calls (`loveletter.client.account_calls`) against a real referee over both stores:
a challenge declined and one accepted, a seek withdrawn and two paired, each told on the account's stream read with
`Client.account_events` (resumed after an id), and the same calls through `AsyncClient`."""

from __future__ import annotations

import asyncio
import itertools

from loveletter.client import AccountEvent, AsyncClient, Client
from tests.servers import Server, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)
from tests.test_challenges import account


def events(client: Client, who: dict[str, str], n: int, after: int = 0) -> list[AccountEvent]:
    return list(itertools.islice(client.account_events(who["account_id"], who["key"], after=after), n))


def test_challenges_and_seeks_through_the_client(server: Server) -> None:
    ann, bob = account(server.url, "Cann"), account(server.url, "Cbob")
    with Client(server.url) as c:
        first = c.challenge(ann["key"], bob["name"], rated=True)
        assert (first.status, first.challenged.account_id, first.rated) == ("open", bob["account_id"], True)
        assert c.decline(first.challenge_id, bob["key"]).status == "declined"
        second = c.challenge(ann["key"], bob["account_id"])
        accepted = c.accept(second.challenge_id, bob["key"])
        assert c.get_challenge(second.challenge_id).game_id == accepted.game_id
        joined = c.join_as(accepted.game_id, ann["key"])
        assert (joined.seat, joined.name) == (0, ann["name"])

        told = events(c, ann, 3)
        assert [e.type for e in told] == ["challenge_declined", "challenge_accepted", "game_started"]
        assert (told[2].game_id, told[2].seat, told[2].joined) == (accepted.game_id, 0, False)
        assert [e.id for e in events(c, ann, 2, after=told[0].id)] == [told[1].id, told[2].id]

        waiting = c.seek(ann["key"], ruleset="2019-classic", players=3)
        assert c.cancel_seek(waiting.seek_id, ann["key"]).status == "cancelled"
        mine = c.seek(ann["key"], ruleset="2019-classic")
        theirs = c.seek(bob["key"], ruleset="2019-classic")
        assert (theirs.status, theirs.seat, c.seek(ann["key"], ruleset="2012", players=4).status) == (
            "paired",
            1,
            "open",
        )
        paired = [e for e in events(c, bob, 5) if e.type == "seek_paired"]
        assert [(e.seek_id, e.game_id, e.seat) for e in paired] == [(theirs.seek_id, theirs.game_id, 1)]
        assert c.join_as(theirs.game_id, bob["key"]).seat == 1 and mine.status == "open"


def test_the_async_client_has_the_same_calls(server: Server) -> None:
    ann, bob = account(server.url, "Aann"), account(server.url, "Abob")

    async def run() -> list[str]:
        async with AsyncClient(server.url) as c:
            made = await c.challenge(ann["key"], bob["account_id"])
            await c.accept(made.challenge_id, bob["key"])
            got: list[str] = []
            async for e in c.account_events(bob["account_id"], bob["key"]):
                got.append(e.type)
                if len(got) == 2:
                    return got
        return got

    assert asyncio.run(run()) == ["challenge_received", "game_started"]
