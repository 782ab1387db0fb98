"""Issue 25's last rule of abuse on a real server: account creation is rate-limited per client address, challenges
per client address and per account, each with its own code, 429 and Retry-After, refused before the store is
touched; a second client address (127.0.0.2 on the loopback) keeps its own count."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import httpx
import pytest

from loveletter.server.settings import Settings
from tests.servers import ADMIN, open_test_store, serve


@pytest.fixture
def url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A fresh server (its own buckets), so earlier tests' requests do not count."""
    store = open_test_store("sqlite", request)
    settings = Settings(database_url="sqlite:///unused.db", admin_token=ADMIN, log_level="warning", create_rate=0)
    try:
        with serve(settings, store) as base:
            yield base
    finally:
        store.close()


def other_address() -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=30)


def name() -> str:
    return f"L{uuid.uuid4().hex[:8]}"


def test_the_thirty_first_account_from_one_address_is_refused_and_not_made(url: str) -> None:
    start, made = time.monotonic(), 0
    while True:  # a burst of thirty, then one every five seconds: asked until refused, however slow the machine
        refused_name = name()
        refused = httpx.post(f"{url}/accounts", json={"name": refused_name, "kind": "bot"})
        if refused.status_code != 201:
            break
        made += 1
        assert made <= 31 + (time.monotonic() - start) / 5, "no limit"
    assert made >= 30
    assert refused.status_code == 429 and refused.json()["code"] == "accounts_rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 5
    assert "30" in refused.json()["detail"] and refused.json()["title"] == "Too many accounts"
    for _ in range(3):  # a token may come back meanwhile on a slow machine: that one is made, the next refused
        french = httpx.post(f"{url}/accounts", json={"name": name()}, headers={"Accept-Language": "fr"})
        if french.status_code == 429:
            break
    assert french.status_code == 429 and french.json()["title"] == "Trop de comptes"
    assert "cette adresse peut créer des comptes au rythme de 0,2 par seconde" in french.json()["detail"].lower()
    with other_address() as other:  # another address is not affected, and the refused name was never taken
        again = other.post(f"{url}/accounts", json={"name": refused_name, "kind": "bot"})
    assert again.status_code == 201 and again.json()["name"] == refused_name


def challenge(client: httpx.Client, url: str, key: str, to: str) -> httpx.Response:
    return client.post(f"{url}/challenges", json={"key": key, "to": to})


def open_challenges(url: str, account_id: str) -> int:
    return len(httpx.get(f"{url}/accounts/{account_id}/challenges").json()["challenges"])


def test_the_eleventh_challenge_of_one_account_is_refused_and_not_made(url: str) -> None:
    ann, bob, cid = (httpx.post(f"{url}/accounts", json={"name": name()}).json() for _ in range(3))
    with httpx.Client(timeout=30) as here:
        start, made = time.monotonic(), []
        while not made or made[-1].status_code == 201:  # until refused, however slow the machine
            made.append(challenge(here, url, ann["key"], bob["account_id"]))
            assert len(made) <= 40, made[-1].text
        refused = made.pop()
        # a burst of ten, then one every two seconds: the tokens that came back meanwhile, no more
        assert 10 <= len(made) <= 10 + int(0.5 * (time.monotonic() - start)) + 1, len(made)
        assert refused.status_code == 429 and refused.json()["code"] == "challenges_rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 2
        assert "this account may challenge 0.5 times a second" in refused.json()["detail"].lower()
        assert open_challenges(url, bob["account_id"]) == len(made)  # the refused challenge was never made
        # the same address, another account: its own count (the address allows 60 at once)
        assert challenge(here, url, cid["key"], bob["account_id"]).status_code == 201
    with other_address() as other:  # the account's count follows it to another address
        elsewhere = [challenge(other, url, ann["key"], bob["account_id"])]
        while elsewhere[-1].status_code == 201:  # a token came back meanwhile: spent, then refused
            elsewhere.append(challenge(other, url, ann["key"], bob["account_id"]))
            assert len(elsewhere) <= 5
        assert elsewhere[-1].json()["code"] == "challenges_rate_limited"
    assert open_challenges(url, bob["account_id"]) == len(made) + 1 + len(elsewhere) - 1


def test_one_address_challenging_too_often_is_refused_whatever_the_account(url: str) -> None:
    with other_address() as other:
        keys = [other.post(f"{url}/accounts", json={"name": name()}).json()["key"] for _ in range(9)]
    target = httpx.post(f"{url}/accounts", json={"name": name()}).json()
    with httpx.Client(timeout=30) as here:
        start, answers = time.monotonic(), []
        for i in range(80):  # ten from each account, so no account reaches its own limit
            answers.append(challenge(here, url, keys[i // 10], target["account_id"]))
            if answers[-1].status_code != 201:
                break
        refilled = 2 * (time.monotonic() - start)  # the address's 60 refill at two a second
        assert 60 <= len(answers) - 1 <= 60 + refilled
        assert answers[-1].status_code == 429 and answers[-1].json()["code"] == "challenges_rate_limited"
        assert "this address" in answers[-1].json()["detail"].lower()
    made = len(answers) - 1
    with other_address() as other:  # another address is not affected
        assert challenge(other, url, keys[8], target["account_id"]).status_code == 201
    assert open_challenges(url, target["account_id"]) == made + 1
