"""Accounts without passwords (issue 25, docs/accounts.md), on a real server over both stores: names unique ignoring
case and Unicode forms, invisible characters refused by rule, a key shown once, rotated and revoked, never stored as
it is, and never in a log line or an answer but the two that make it."""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from loveletter.referee.accounts import normalize_name
from loveletter.referee.refusals import Refusal
from loveletter.referee.tokens import digest
from tests.servers import Server, ServerProcess, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)


def unique(stem: str) -> str:
    """A name no other test of the module's shared server takes."""
    return f"{stem} {uuid.uuid4().hex[:8]}"


def create(url: str, name: str, kind: str = "person") -> httpx.Response:
    return httpx.post(f"{url}/accounts", json={"name": name, "kind": kind})


# -- names, by hand -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "stored", "key"),
    [
        ("Zoé", "Zoé", "zoé"),
        ("Zoe\u0301", "Zoé", "zoé"),  # e + combining acute: NFKC composes it
        ("ＺＯＥ", "ZOE", "zoe"),  # fullwidth letters: NFKC makes them ASCII
        ("  Anne   Marie ", "Anne Marie", "anne marie"),
        ("Straße", "Straße", "strasse"),  # case folding: ß is ss
        ("ﬁona", "fiona", "fiona"),  # the fi ligature
    ],
)
def test_a_name_is_stored_in_nfkc_and_compared_case_folded(given: str, stored: str, key: str) -> None:
    assert normalize_name(given) == (stored, key)


@pytest.mark.parametrize(
    ("given", "rule", "code"),
    [
        ("Bob\u200b", "format", "U+200B"),  # zero-width space
        ("\u202eevil", "format", "U+202E"),  # right-to-left override
        ("Al\u00adice", "format", "U+00AD"),  # soft hyphen
        ("Bo\tb", "control", "U+0009"),
        ("Bo\x07b", "control", "U+0007"),
        ("Ed\u2028", "separator", "U+2028"),
        ("\ue000Pat", "private_use", "U+E000"),
        ("\u3164", "invisible", "U+3164"),  # the Hangul filler: a letter that draws nothing
        ("Ann\u2800", "invisible", "U+2800"),
        ("\U000e0041Kim", "format", "U+E0041"),  # a tag character
    ],
)
def test_invisible_and_control_characters_are_refused_by_rule(given: str, rule: str, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        normalize_name(given)
    assert refused.value.code == "account_name_refused"
    assert refused.value.extra == {"name_rule": rule}
    assert code in refused.value.detail.en and code in refused.value.detail.fr


def test_an_empty_or_long_name_is_refused() -> None:
    for given, rule in (("   ", "empty"), ("x" * 41, "too_long")):
        with pytest.raises(Refusal) as refused:
            normalize_name(given)
        assert refused.value.extra == {"name_rule": rule}
    assert normalize_name("x" * 40)[0] == "x" * 40


# -- over HTTP, both stores --------------------------------------------------------------------------------------


def test_an_account_is_created_read_and_its_name_taken_once(server: Server) -> None:
    name = unique("Zoé")
    made = create(server.url, name, "bot")
    assert made.status_code == 201, made.text
    body = made.json()
    assert body.keys() == {"account_id", "name", "kind", "key"} and body["name"] == name and body["kind"] == "bot"
    assert made.headers["location"] == f"/accounts/{body['account_id']}"
    assert made.headers["cache-control"] == "no-store"
    assert body["key"].startswith("ak_") and len(body["key"]) == 46
    read = httpx.get(f"{server.url}/accounts/{body['account_id']}")
    assert read.status_code == 200
    assert read.json() == {
        "account_id": body["account_id"],
        "name": name,
        "kind": "bot",
        "created": read.json()["created"],
        "active": True,
        "games": [],
        "ratings": [],
    }
    for same in (name.upper(), name.replace("é", "e\u0301"), "  " + name.lower()):
        again = create(server.url, same)
        assert again.status_code == 409, (same, again.text)
        assert again.json()["code"] == "account_name_taken"
        assert again.headers["content-type"] == "application/problem+json"


def test_a_refused_name_is_a_problem_naming_its_rule(server: Server) -> None:
    answer = create(server.url, "Mallory\u200d")
    assert answer.status_code == 422
    problem = answer.json()
    assert problem["code"] == "account_name_refused" and problem["name_rule"] == "format"
    assert "U+200D" in problem["detail"]
    french = httpx.post(
        f"{server.url}/accounts", json={"name": "Mallory\u200d"}, headers={"Accept-Language": "fr"}
    ).json()
    assert french["name_rule"] == "format" and "mise en forme" in french["detail"]


def test_no_such_account(server: Server) -> None:
    for path in ("/accounts/a_AAAAAAAAAAAAAAAA", "/accounts/nonsense"):
        answer = httpx.get(server.url + path)
        assert answer.status_code == 404 and answer.json()["code"] == "account_not_found", path


def test_a_key_is_rotated_then_revoked_and_acts_only_for_its_account(server: Server) -> None:
    mine = create(server.url, unique("Rotor")).json()
    other = create(server.url, unique("Other")).json()
    url = f"{server.url}/accounts/{mine['account_id']}"
    wrong = httpx.post(f"{url}/key", json={"key": other["key"]})  # another account's key
    assert wrong.status_code == 403 and wrong.json()["code"] == "account_key_rejected"
    rotated = httpx.post(f"{url}/key", json={"key": mine["key"]})
    assert rotated.status_code == 200 and rotated.headers["cache-control"] == "no-store"
    new = rotated.json()["key"]
    assert rotated.json() == {"account_id": mine["account_id"], "key": new} and new != mine["key"]
    stale = httpx.post(f"{url}/key", json={"key": mine["key"]})  # the old key works no more
    assert stale.status_code == 403 and stale.json()["code"] == "account_key_rejected"
    revoked = httpx.post(f"{url}/key/revoke", json={"key": new})
    assert revoked.status_code == 200 and revoked.json()["active"] is False
    for key in (new, mine["key"]):
        after = httpx.post(f"{url}/key", json={"key": key})
        assert after.status_code == 403 and after.json()["code"] == "account_key_rejected"
    assert httpx.get(url).json()["name"] == mine["name"]  # the account stays, with its name
    assert httpx.post(f"{server.url}/accounts/{other['account_id']}/key", json={"key": other["key"]}).status_code == 200


def test_the_store_keeps_the_keys_digest_never_the_key(server: Server) -> None:
    made = create(server.url, unique("Digest")).json()
    row = server.store.account(made["account_id"])
    assert row is not None and row.key_digest == digest(made["key"])
    assert server.store.account_by_key(digest(made["key"])) == row


# -- the key in no log line and no answer ----------------------------------------------------------------------


def test_a_key_never_appears_in_a_log_line_an_answer_or_the_database(tmp_path: Path) -> None:
    """A whole session against a referee process logging everything (debug, every request line): each key appears in
    the one answer that made it and nowhere else: not in another answer, not in the referee's output, not in the
    database file."""
    database = tmp_path / "keys.db"
    answers: list[tuple[str, bytes]] = []
    with ServerProcess(f"sqlite:///{database}", log_level="debug", request_log_level="info", log_format="json") as p:

        def call(method: str, path: str, **kw: Any) -> httpx.Response:
            r = httpx.request(method, p.url + path, **kw)
            answers.append((f"{method} {path}", r.content + str(r.headers).encode()))
            return r

        made = call("POST", "/accounts", json={"name": "Keyholder", "kind": "bot"}).json()
        first = made["key"]
        account = f"/accounts/{made['account_id']}"
        call("GET", account)
        call("POST", f"{account}/key", json={"key": "ak_wrong"})
        second = call("POST", f"{account}/key", json={"key": first}).json()["key"]
        call("POST", f"{account}/key", json={"key": first})  # refused: the old key
        call("POST", "/accounts", json={"name": "keyholder"})  # refused: taken
        call("GET", account)
        call("POST", f"{account}/key/revoke", json={"key": second})
        call("POST", f"{account}/key/revoke", json={"key": second})  # refused: revoked
        call("GET", account)
        p.proc.terminate()  # uvicorn stops cleanly: every buffered log line is written
        p.proc.wait(timeout=20)
        assert p.proc.stderr is not None
        output = p.proc.stderr.read()
    assert b'"route":"/accounts/{account_id}/key"' in output  # the request lines were logged
    makers = {0: first, 3: second}
    for key in (first, second):
        assert key.encode() not in output
        for number, (what, content) in enumerate(answers):
            if makers.get(number) == key:
                assert key.encode() in content
            else:
                assert key.encode() not in content, what
        for path in (database, Path(f"{database}-wal")):
            if path.exists():
                assert key.encode() not in path.read_bytes()
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT key_digest FROM accounts").fetchall() == [(None,)]
