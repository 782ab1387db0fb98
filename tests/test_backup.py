"""Backups (issue 34, docs/operations.md): `loveletter backup` copies a live SQLite store while players keep moving,
and the copy audits whole with every move acknowledged before the backup began in it; a copy altered by one byte
fails `loveletter verify-store`, naming the game; a PostgreSQL store dumped with `pg_dump` and restored with
`pg_restore` audits whole too."""

from __future__ import annotations

import random
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.cli import loveletter
from tests.servers import ADMIN, ServerProcess
from tests.stores import fresh_database, pg_url  # noqa: F401  (fixture)
from tests.test_bots_online import Served


class Player(threading.Thread):
    """Plays two-seat games with random legal moves until told to stop, noting each acknowledged move."""

    def __init__(self, url: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.url, self.rng = url, random.Random(seed)
        self.acked: list[tuple[float, str, int]] = []
        """(when the answer came, game id, the version it acknowledged)."""
        self.stop = threading.Event()
        self.failure: str | None = None

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.url, timeout=30) as http:
                while not self.stop.is_set():
                    self.game(http)
        except Exception as exc:  # said by the test
            self.failure = repr(exc)

    def game(self, http: httpx.Client) -> None:
        made = http.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        gid, tokens = made["game_id"], [s["token"] for s in made["seats"]]
        self.acked.append((time.monotonic(), gid, made["version"]))
        while not self.stop.is_set():
            seen = http.get(f"/games/{gid}").json()
            active = seen["view"]["active"]
            if seen["over"] or active is None:
                return
            mine = http.get(f"/games/{gid}", headers={"Authorization": f"Bearer {tokens[active]}"}).json()
            move = self.rng.choice(mine["legal_moves"])
            done = http.post(f"/games/{gid}/moves", json={"type": "code", "action_code": move["action_code"]},
                             headers={"Authorization": f"Bearer {tokens[active]}"})  # fmt: skip
            assert done.status_code == 200, done.text
            self.acked.append((time.monotonic(), gid, done.json()["version"]))


def versions(database: Path) -> dict[str, int]:
    with sqlite3.connect(database) as db:
        return dict(db.execute("SELECT game_id, MAX(seq) FROM events GROUP BY game_id").fetchall())


def test_a_backup_under_load_holds_every_acknowledged_move_and_audits_whole(tmp_path: Path) -> None:
    live = tmp_path / "live.db"
    served = Served(live).start()
    players = [Player(served.url, seed) for seed in range(2)]
    try:
        for p in players:
            p.start()
        while sum(len(p.acked) for p in players) < 60:
            assert all(p.failure is None for p in players), [p.failure for p in players]
            time.sleep(0.05)
        began = time.monotonic()
        copy = tmp_path / "backup.db"
        made = loveletter("backup", str(copy), "--database-url", f"sqlite:///{live}")
        after = sum(len(p.acked) for p in players)
    finally:
        for p in players:
            p.stop.set()
        for p in players:
            p.join(30)
        served.stop()
    assert all(p.failure is None for p in players), [p.failure for p in players]
    assert made.returncode == 0, made.stdout + made.stderr
    assert made.stdout.startswith("whole: "), made.stdout
    assert "audited" in made.stderr and "bytes in" in made.stderr
    kept = versions(copy)
    before = [(gid, v) for p in players for when, gid, v in p.acked if when < began]
    assert before and all(kept.get(gid, 0) >= v for gid, v in before), "a move acknowledged before the backup is lost"
    assert after > len(before)  # the players went on while it was taken
    # the copy is a store the referee opens: it serves the games it holds
    again = Served(copy).start()
    try:
        gid = before[-1][0]
        assert httpx.get(f"{again.url}/games/{gid}").json()["version"] == kept[gid]
    finally:
        again.stop()
    # one changed byte in one event: the copy no longer audits, and the game is named
    tampered = tmp_path / "tampered.db"
    shutil.copy(copy, tampered)
    with sqlite3.connect(tampered) as db:
        for (trigger,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'"):
            db.execute(f"DROP TRIGGER {trigger}")  # the store's own guard against changes, gone with file access
        gid, seq, body = db.execute(
            "SELECT game_id, seq, body FROM events WHERE type = 'card_played' ORDER BY game_id, seq LIMIT 1"
        ).fetchone()
        raw = bytes(body)
        changed = (raw.replace(b'"player":0', b'"player":1', 1) if b'"player":0' in raw
                   else raw.replace(b'"player":1', b'"player":0', 1))  # fmt: skip
        assert changed != raw
        db.execute("UPDATE events SET body = ? WHERE game_id = ? AND seq = ?", (changed, gid, seq))
    checked = loveletter("verify-store", "--database-url", f"sqlite:///{tampered}")
    assert checked.returncode == 1 and "NOT whole" in checked.stdout and gid in checked.stdout, checked.stdout
    refused = loveletter("backup", str(copy), "--database-url", f"sqlite:///{live}")
    assert refused.returncode == 2 and "exists already" in refused.stderr


@pytest.fixture
def own_database(pg_url: str) -> Iterator[tuple[str, str]]:  # noqa: F811
    """A database of its own, and another to restore it into."""
    with fresh_database(pg_url, "backup") as source, fresh_database(pg_url, "restored") as restored:
        yield source, restored


def test_a_postgresql_store_dumped_and_restored_audits_whole(own_database: tuple[str, str], tmp_path: Path) -> None:
    source, restored = own_database
    with ServerProcess(source, admin_token=ADMIN) as worker:
        player = Player(worker.url, 5)
        with httpx.Client(base_url=worker.url, timeout=30) as http:
            for _ in range(2):
                player.game(http)
    bin_dir = next(Path("/usr/lib/postgresql").glob("*/bin"))
    dump = tmp_path / "referee.dump"
    subprocess.run([str(bin_dir / "pg_dump"), "--format=custom", f"--file={dump}", source], check=True)
    subprocess.run([str(bin_dir / "pg_restore"), "--no-owner", f"--dbname={restored}", str(dump)], check=True)
    checked = loveletter("verify-store", "--database-url", restored)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("whole: 2 games (2 finished)"), checked.stdout
