"""Pairing latency with many seeks waiting (issue 25): the referee in process on a throwaway SQLite store, `--waiting`
open seeks whose ratings are too far apart to pair with one another, then `--pairs` times a
new seek that pairs with one of them: the time from the seek sent to the game started and both accounts told (the
whole `SeekQueue.seek`: the account's key, its rating, the store's queue read, the pairing, the claim, the game's
creation, the two accounts' events).

    .venv/bin/python bench/seeks.py --waiting 1000 --pairs 50
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from loveletter.events.accounts import SeekRow
from loveletter.events.sqlite_store import SqliteStore
from loveletter.referee.referee import Referee


async def run(waiting: int, pairs: int, path: Path) -> list[float]:
    store = SqliteStore(str(path))
    try:
        referee = Referee(store)
        referee._tables.bind_loop()  # the bench reaches behind the face to time the queue alone
        accounts = referee._accounts
        queue = referee._seeks
        # Every waiting seek is dated in the future, so its window stays at its narrowest (2) however long the set-up
        # takes, and the ratings keep them apart: 1,000 seeks that pair with nothing. One account holds `pairs` of them
        # at 26 (an account never pairs with itself); each new seek, at 25, pairs with one of those.
        later = referee._judge.now() + 10**9
        partner = (await accounts.create("partner", "bot"))["account_id"]
        for i in range(waiting):
            if i < pairs:
                owner, mu = partner, 26.0
            else:
                owner, mu = (await accounts.create(f"waiting {i}", "bot"))["account_id"], 40.0 + 10.0 * i
            store.create_seek(SeekRow(f"s_bench{i:011d}", owner, "2019", 2, None, False, mu, "open", None, later))
        took: list[float] = []
        for i in range(pairs):
            key = (await accounts.create(f"pairing {i}", "bot"))["key"]
            start = time.perf_counter()
            made = await queue.seek(key, "2019", 2, None, False)
            took.append(time.perf_counter() - start)
            assert made["status"] == "paired", made
        return took
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiting", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        took = asyncio.run(run(args.waiting, min(args.pairs, args.waiting), Path(tmp) / "seeks.db"))
    ms = sorted(t * 1000 for t in took)
    print(f"{args.waiting} seeks waiting, {len(ms)} seeks paired on arrival (SQLite, in process)")
    print(f"pairing latency: median {statistics.median(ms):.1f} ms, worst {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
