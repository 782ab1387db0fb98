"""Rebuild `tests/old_database/schema3.db`: a small SQLite database written by the referee as it was before schema
versions (commit BEFORE below: SQLite's `user_version` 3, no `schema_versions` table), for the migration tests.

The database must be written by the old code, not by today's (which would write the new schema), so by default this
script extracts that commit with `git archive` into a temporary directory and runs itself there with `--here`:

    python tests/old_database/make_schema3.py            # writes tests/old_database/schema3.db
    python tests/old_database/make_schema3.py --out x.db # elsewhere

With `--here` it writes the database with whatever `loveletter` is importable. The games go through the HTTP app
(in process): finished bot games, a public game joined by a person who moves with idempotency keys, a game left
open in the lobby, a clocked game under way, an aborted one, in three rulesets.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

BEFORE = "ecf51e5"
"""The last commit whose stores knew no schema versions."""
HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "schema3.db"))
    parser.add_argument("--commit", default=BEFORE)
    parser.add_argument("--here", action="store_true", help="write with the importable loveletter, not the commit's")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    if args.here:
        write(out)
        return
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=HERE, capture_output=True, text=True, check=True)
    with tempfile.TemporaryDirectory(prefix="loveletter-old-") as old:
        archive = subprocess.run(
            ["git", "archive", "--format=tar", args.commit], cwd=root.stdout.strip(), capture_output=True, check=True
        )
        tar_path = Path(old) / "old.tar"
        tar_path.write_bytes(archive.stdout)
        with tarfile.open(tar_path) as tar:
            tar.extractall(old, filter="fully_trusted")  # our own commit: its package links its rooms by symlink
        env = {**os.environ, "PYTHONPATH": old}
        script = Path(old) / "make_schema3.py"
        script.write_text(Path(__file__).read_text())
        subprocess.run([sys.executable, str(script), "--here", "--out", out], cwd=old, env=env, check=True)


def write(out: str) -> None:
    """Play the games into a new database at `out` with the importable referee."""
    from starlette.testclient import TestClient

    import loveletter.events.sqlite_store as sqlite_store
    from loveletter.server.app import create_app
    from loveletter.server.settings import Settings

    print("writing with", sqlite_store.__file__, file=sys.stderr)
    for stale in (out, out + "-wal", out + "-shm", out + ".lock"):
        if os.path.exists(stale):
            os.remove(stale)
    with tempfile.TemporaryDirectory() as keys:
        settings = Settings(
            database_url=f"sqlite:///{out}",
            key_path=os.path.join(keys, "signing.key"),
            create_rate=0,
            move_rate=0,
        )
        store = sqlite_store.SqliteStore(out)
        try:
            with TestClient(create_app(settings, store)) as http:
                play(http)
        finally:
            store.close()
    os.remove(out + ".lock")
    with contextlib.closing(sqlite3.connect(out)) as db:
        db.execute("VACUUM")  # smaller in git; every row stays as the referee wrote it
    print("wrote", out, file=sys.stderr)


def play(http: Any) -> None:
    def post(path: str, body: dict[str, Any], **headers: str) -> dict[str, Any]:
        answer = http.post(path, json=body, headers=headers)
        assert answer.status_code < 300, (path, answer.status_code, answer.text)
        return dict(answer.json())

    bots = {"players": [{"name": "Heu", "bot": "heuristic"}, {"name": "Ran", "bot": "random"}]}
    post("/games", bots)
    post("/games", {**bots, "ruleset": "2012", "public": True})
    four = [{"name": n, "bot": "random"} for n in ("Ann", "Bea", "Cy", "Dee")]
    post("/games", {"players": four, "ruleset": "2019-classic", "public": True})
    # a public game: Alice creates it, Zoé takes the open seat, both move with idempotency keys to the end
    made = post("/games", {"players": [{"name": "Alice"}, {"open": True}], "public": True})
    game = made["game_id"]
    tokens = {0: made["seats"][0]["token"]}
    joined = post(f"/games/{game}/join", {"name": "Zoé"})
    tokens[joined["seat"]] = joined["token"]
    moves = 0
    while True:
        seen = {seat: http.get(f"/games/{game}", headers={"Authorization": f"Bearer {t}"}).json()
                for seat, t in tokens.items()}  # fmt: skip
        turn = [seat for seat, v in seen.items() if v["legal_moves"]]
        if seen[0]["over"] or not turn:
            break
        seat = turn[0]
        first = seen[seat]["legal_moves"][0]
        post(
            f"/games/{game}/moves",
            {"type": "code", "action_code": first["action_code"]},
            Authorization=f"Bearer {tokens[seat]}",
            **{"Idempotency-Key": f"move-{moves}"},
        )
        moves += 1
    # a game left open in the lobby, a clocked game under way, an aborted one
    post("/games", {"players": [{"name": "Lou"}, {"open": True}, {"open": True}], "public": True})
    clocked = post(
        "/games",
        {"players": [{"name": "Max"}, {"name": "Bot", "bot": "random"}], "turn_seconds": 3600, "on_timeout": "bot"},
    )
    aborted = post("/games", {"players": [{"name": "Ned"}, {"name": "Oda"}]})
    post(f"/games/{aborted['game_id']}/abort", {}, Authorization=f"Bearer {aborted['organiser_token']}")
    assert clocked["game_id"]


if __name__ == "__main__":
    main()
