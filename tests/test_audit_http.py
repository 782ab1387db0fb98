"""POST /audits against a real uvicorn server: reports, unreadable logs, its own body limit, languages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from loveletter.api.routes.audits import MAX_AUDIT_BYTES
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.audit_helpers import signed_log, signing_key
from tests.servers import client, serve

NDJSON = {"Content-Type": "application/x-ndjson"}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("audit") / "referee.db"))
    try:
        with serve(Settings(database_url="sqlite:///unused.db", log_level="warning"), store) as url:
            yield url
    finally:
        store.close()


@pytest.fixture(scope="module")
def log() -> bytes:
    data = signed_log(4, seed=11)
    assert len(data) > 64 * 1024  # above the other routes' limit, below the audit's
    return data


def test_a_clean_log_is_valid(base: str, log: bytes) -> None:
    with client(base) as c:
        r = c.post("/audits", content=log, headers=NDJSON, params={"key": signing_key().public_key})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["verdict"] == "valid" and body["counts"]["games"] == 4 and body["counts"]["signed"] == 4
    assert all(g["checks"]["derivation"] == "ok" for g in body["games"])


def test_an_edited_log_is_invalid_in_french_and_lenient(base: str, log: bytes) -> None:
    edited = log.replace(b'"seq":12,', b'"seq":13,', 1)
    with client(base, **{"Accept-Language": "fr-FR,fr;q=0.9"}) as c:
        strict = c.post("/audits", content=edited, headers={"Content-Type": "text/plain; charset=utf-8"}).json()
        lenient = c.post("/audits", content=edited, headers=NDJSON, params={"lenient": "true"}).json()
        english = c.post("/audits", content=edited, headers=NDJSON, params={"lang": "en"}).json()
    assert strict["verdict"] == "invalid"
    (bad,) = [g for g in strict["games"] if g["verdict"] == "invalid"]
    assert len(bad["problems"]) == 1 and "numérotation" in bad["problems"][0]["message"]
    (bad_lenient,) = [g for g in lenient["games"] if g["verdict"] == "invalid"]
    assert len(bad_lenient["problems"]) > 1
    assert "expected" in next(g for g in english["games"] if g["problems"])["problems"][0]["message"]


def test_an_unreadable_log_is_422_with_its_line(base: str, log: bytes) -> None:
    lines = log.splitlines()
    with client(base) as c:
        r = c.post("/audits", content=b"\n".join([*lines[:4], lines[4][:30]]), headers=NDJSON)
    assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["line"] == 5 and "line 5" in r.json()["detail"]


def test_the_audit_limit_is_its_own(base: str, log: bytes) -> None:
    with client(base) as c:
        big = c.post("/audits", content=b"\n" * (MAX_AUDIT_BYTES + 1), headers=NDJSON)
        assert big.status_code == 413 and big.headers["content-type"].startswith("application/problem+json")

        def chunked() -> Iterator[bytes]:
            for _ in range(9):
                yield b"\n" * (1024 * 1024)

        streamed = c.post("/audits", content=chunked(), headers=NDJSON)
        assert streamed.status_code == 413
        other = c.post("/games", content=b" " * (64 * 1024 + 1), headers={"Content-Type": "application/json"})
        assert other.status_code == 413  # the other routes keep settings.max_body_bytes
        assert c.post("/audits", content=log, headers={"Content-Type": "application/json"}).status_code == 415
