"""Every shell example of the docs is run, and its answer checked (issue 36: examples that cannot rot).

Every ```sh block of README.md and docs/*.md is cut into commands (tests/docs_shell.py). Each block is walked by a
function of `WALKS`, as a reader following the page walks it: against a real referee of its own (SQLite, 127.0.0.1, a
free port, no rate limits: a walk may make games in a loop), in a working folder of its own holding `examples/`
(the repository's) and the files the page has the reader make (game.jsonl from a real game of that referee, mybot.py
from the page's own block). The walk sets the variables the page uses ($GAME, $TOKEN, $KEY, …) from the real
answers of earlier commands, runs each command with bash, and checks its exit code or, for curl, its HTTP status
(never a 5xx; a problem+json only where a refusal is expected) and the fields of the answer that the page's prose
names. A command that must not run here is in `EXEMPT`, with its reason; a command run with smaller numbers (or a
placeholder filled in) is in `OVERRIDES`, with its reason. Every command is run or exempted, or the test fails.

Which pages: all of them. Those docs/generate.py writes (rules.md, events.md) hold no ```sh block; operations.md's
blocks are written by hand (only its settings table is generated) and are walked here. ```console blocks are not
```sh blocks and are not run here: those after `<!-- checked -->` are tests/test_docs_console.py's, those of
api-walkthrough.md and api-errors.md are written from real runs by docs/api_walkthrough.py (and replayed by
tests/test_api_walkthrough.py); the other console blocks (audit.md, cli.md, …) are not run by any test yet.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `pytest FILE` as well as `python -m pytest`

from tests import docs_shell as ds
from tests.docs_shell import Line, Shell, has, post
from tests.needs import need

TOURNAMENT = "loveletter tournament --bots heuristic,random,mybot.py:Bot --games 200"
EXEMPT: dict[str, str] = {
    "make run": "starts a referee on port 8000 until stopped: the test's own referee, on a free port, stands in",
    "make test": "the whole suite, this test included",
    "make bench": "benchmarks lasting minutes (tests/test_bench_scripts.py runs each script on a tiny workload)",
    "nice -n": "bench/engine.py and bench/solve.py: minutes to hours of CPU (--cards 8, --seconds 600), the figures "
    "the page quotes; tests/test_bench_scripts.py runs the scripts small",
    "for n in": "bench/engine.py at six budgets: tens of minutes",
    "git worktree add /tmp/before": "checks out the tree the rollouts are measured against, for the benchmark below",
    "python bench/rollouts.py --against": "a benchmark of two trees, minutes of CPU (tests/test_bench_scripts.py runs "
    "bench/rollouts.py small)",
    "(cd /tmp/before && python bench/engine.py": "the expert's games at the tree of /tmp/before: a minute of CPU "
    "(tests/test_bench_scripts.py runs bench/engine.py small)",
    "python bench/engine.py --games 40": "the expert's 40 games at two or four players: a minute of CPU "
    "(tests/test_bench_scripts.py runs bench/engine.py small)",
    "python3 -m venv": "builds a virtual environment and installs from the package index (the network, minutes)",
    "pip install": "installs from the package index (the network); the tests run in the checkout's .venv",
    "loveletter serve": "a referee on port 8000 until stopped: the test's own referee, on a free port, stands in",
    "LOVELETTER_HOST=0.0.0.0": "a referee for the world: every interface, /etc and /var/lib, until stopped",
    "pg_dump": "needs a PostgreSQL server named db; tests/test_backup.py dumps and restores a throwaway cluster",
    "createdb": "needs a PostgreSQL server named db; tests/test_backup.py dumps and restores a throwaway cluster",
    "pg_restore": "needs a PostgreSQL server named db; tests/test_backup.py dumps and restores a throwaway cluster",
    f"{TOURNAMENT} --server https://referee.example": "the line before it with a referee elsewhere (a placeholder "
    "host): that line plays the tournament over HTTP against the referee it starts, 10 s for one game, and "
    "tests/test_tournament_http.py plays --server against a running referee",
}
"""Commands never run here, by the start of their text, each with its reason."""

OVERRIDES: dict[str, tuple[str, str, str]] = {
    "loveletter simulate --ruleset 2019 --players 4 --games 10000 --seed 1 --bots heuristic,random,random,random": (
        "--games 10000", "--games 20", "10,000 games take a minute; 20 print the same table"),
    "loveletter tournament --bots heuristic,random,examples.bots.careful:Bot --games 1000": (
        "--games 1000", "--games 12", "1,000 games take 20 s; 12 rank the same bots, the same way"),
    "loveletter bot run mybot.py:Bot --stay": (
        "--stay", "--stay --games 1 --server http://127.0.0.1:8000", "a staying bot stays until stopped: --games 1 "
        "stops it after the game the walk plays against it; the default --server is port 8000, the test's is free"),
    "loveletter bot run mybot.py:Bot --stay --seek --rated --at-once 3": (
        "--at-once 3", "--at-once 3 --games 1 --server http://127.0.0.1:8000", "as the line before"),
    "loveletter bot run heuristic --join-open --wait --ruleset 2012 --players 2": (
        "--players 2", "--players 2 --server http://127.0.0.1:8000", "the default --server is port 8000"),
    f"{TOURNAMENT} --serve --turn-seconds 5": (
        "--games 200", "--games 1", "a process per seat and game over HTTP: 200 games take minutes, one seconds"),
    "loveletter simulate --players 2 --bots expert,heuristic --games 100": (
        "--games 100", "--games 2", "the expert thinks a second a game: two games print the same table"),
    "loveletter tournament --bots expert,heuristic,random --players 2 --games 60": (
        "--games 60", "--games 3", "the expert thinks a second a game: three games rank the same bots"),
    "loveletter solve --cards 7 --seconds 600 --target 1": (
        "--cards 7", "--cards 5", "the 7-card game takes 12 s of CPU to reach 1%, the 5-card game a second"),
    "loveletter analyse game.jsonl [--seat NAME] [--budget N] [--seed S] [--game K] [--json] [--lang fr]": (
        "[--seat NAME] [--budget N] [--seed S] [--game K] [--json] [--lang fr]",
        "--seat Alice --budget 5 --seed 1 --game 1 --json", "a synopsis: each option given a value, the budget small"),
    """curl -si -X POST localhost:8000/analyses -H 'Content-Type: application/json'      -d "$(jq -Rs '{log: ., """
    """seat: "Alice", budget: 100}' game.jsonl)\"""": (
        "budget: 100", "budget: 5", "100 rollouts a move keep two engine processes busy 10 s: 5 make the same job"),
}  # fmt: skip
"""Commands run otherwise than printed: the page's command → (a part of it, what runs instead of that part, why)."""


def exemption(line: Line) -> str | None:
    return next((why for start, why in EXEMPT.items() if line.bare.startswith(start)), None)


# -- the walks ----------------------------------------------------------------------------------------------------


def readme_tour(sh: Shell) -> None:
    """The tour: a game against the heuristic, then Alice's move as printed, a Guard on Bob naming the Priest. The
    deal is the shuffle's, so the reader makes games until Alice may play it; the first time she may not, the move
    must be refused by a rule (422, with the rule's id), not for its shape. game.jsonl is a real game of Alice and
    Bob on the same referee, its signed log."""
    wanted, refused = {"card": "guard", "target_name": "Bob", "guess": "priest"}, False
    for _ in range(60):
        game = sh.run('{"name": "Alice"}', 201, ruleset="2019", game_id=str).json()
        assert [s["name"] for s in game["seats"]] == ["Alice", "Bob"] and game["seats"][1]["token"] is None, game
        sh.set(GAME=game["game_id"], TOKEN=game["seats"][0]["token"])
        view = sh.run("games/$GAME -H", 200, your_turn=True, over=False, legal_moves=list).json()
        legal = any(wanted.items() <= m.items() for m in view["legal_moves"])
        if legal or not refused:
            move = sh.run("games/$GAME/moves", 200 if legal else 422).json()
            if not legal:
                has(move, code=str, rule_id=str)
            refused = True
        if legal:
            played = move["events"][0]
            has(played, type="card_played", card="guard", target=1, guess="priest")
            break
    else:
        raise AssertionError("Alice never held a Guard against Bob in 60 games")
    opened = sh.run('"on_timeout": "bot"', 201, public=True).json()
    assert all(s["open"] and s["invite"] for s in opened["seats"]), opened
    lobby = sh.run("status=open", 200, next=None).json()
    assert [g["game_id"] for g in lobby["games"]] == [opened["game_id"]], lobby
    ds.game_log(sh.url, sh.cwd)
    assert "verified — " in sh.run("loveletter replay game.jsonl").out
    has(sh.run("loveletter replay game.jsonl --lenient --json").json(), verdict="verified", kind="log")
    assert ": vérifiée — 10 événements" in sh.run("examples/reader-question.json --lang fr").out
    assert "1 game, 1 valid, 0 invalid" in sh.run("--require-signature").out
    judged = sh.run("--at 41 --move", exits=(0, 1))
    assert judged.out.startswith(("ILLEGAL", "LEGAL")[judged.code == 0] + " — Alice, after event 41"), judged
    assert "Alice is to play a card (after event 41)" in sh.run("--nearest after").out
    assert sh.run("loveletter show game.jsonl --lang fr").out.startswith("Partie 2019 : Alice, Bob.")
    assert "The position is possible" in sh.run("loveletter situation").out
    assert "20 games of 2019, 4 players, seed 1" in sh.run("loveletter simulate").out
    assert "12 games of 2019, 4 players" in sh.run("loveletter tournament").out


def accounts(sh: Shell) -> None:
    """An account made, read, its key rotated (the reader keeps the new one; the old one is refused from then on),
    then revoked."""
    made = sh.run("/accounts -H", 201, name="Zoé", kind="person", account_id=str).json()
    assert made["key"].startswith("ak_"), made
    sh.set(ACCOUNT=made["account_id"], KEY=made["key"])
    sh.run("curl -s localhost:8000/accounts/$ACCOUNT", 200, name="Zoé", kind="person", active=True, games=[])
    rotated = sh.run("$ACCOUNT/key -H", 200).json()
    assert rotated["key"].startswith("ak_") and rotated["key"] != made["key"], rotated
    sh.run("$ACCOUNT/key -H", 403, code="account_key_rejected")  # "the old one stops"
    sh.set(KEY=rotated["key"])
    sh.run("key/revoke", 200, active=False, name="Zoé")


def ladder(sh: Shell) -> None:
    """Two rated games, each between two new accounts, their logs downloaded into games/: the ladder, and the same
    ladder from the logs."""
    (sh.cwd / "games").mkdir()
    for n, stem in enumerate(("Ann", "Cy")):
        log = httpx.get(f"{sh.url}/games/{ds.rated_game(sh.url, stem)}/log", timeout=30)
        (sh.cwd / "games" / f"{n}.jsonl").write_bytes(log.content)
    served = sh.run("ladder?ruleset=2019", 200, ruleset="2019", players=2, games=2, next=None).json()
    assert [r["rank"] for r in served["ratings"]] == [1, 2, 3, 4], served
    (folded,) = sh.run("loveletter ratings games/*.jsonl --json").json()["ladders"]
    assert folded == {k: served[k] for k in ("ruleset", "players", "games", "ratings")}, (folded, served)


def challenges(sh: Shell) -> None:
    """Ann challenges Bob, Bob accepts, Ann reads the challenge and takes the seat kept for her."""
    ann, bob = post(sh.url, "/accounts", {"name": "Ann"}), post(sh.url, "/accounts", {"name": "Bob", "kind": "bot"})
    sh.set(ANN_KEY=ann["key"], BOB=bob["account_id"], BOB_KEY=bob["key"])
    made = sh.run("/challenges -H", 201, status="open", rated=True, players=2).json()
    assert made["challenged"]["name"] == "Bob" and made["challenger"]["name"] == "Ann", made
    sh.set(C=made["challenge_id"])
    listed = sh.run("accounts/$BOB/challenges", 200).json()
    assert [c["challenge_id"] for c in listed["challenges"]] == [made["challenge_id"]], listed
    accepted = sh.run("$C/accept", 200, challenge_id=made["challenge_id"], seat=1, name="Bob", token=str).json()
    sh.set(GAME=accepted["game_id"])
    sh.run("curl -s localhost:8000/challenges/$C", 200, status="accepted", game_id=accepted["game_id"])
    sh.run("$GAME/join", 200, game_id=accepted["game_id"], seat=0, name="Ann", token=str, account=ann["account_id"])


def seeks(sh: Shell) -> None:
    """A seek, read, withdrawn; then another account seeks, the reader seeks again and is paired at once (the
    page's "or already paired"), and takes the seat."""
    me, other = post(sh.url, "/accounts", {"name": "Me"}), post(sh.url, "/accounts", {"name": "Other"})
    sh.set(KEY=me["key"])
    seek = sh.run("/seeks -H", 201, status="open", rating=25.0, rated=True, players=2, ruleset="2019").json()
    sh.set(SEEK=seek["seek_id"])
    sh.run("curl -s localhost:8000/seeks/$SEEK", 200, status="open", seek_id=seek["seek_id"])
    sh.run("-X DELETE", 200, status="cancelled")
    post(sh.url, "/seeks", {"key": other["key"], "ruleset": "2019", "players": 2, "rated": True})
    paired = sh.run("/seeks -H", 201, status="paired", game_id=str, seat=int).json()
    sh.set(GAME=paired["game_id"])
    sh.run("$GAME/join", 200, game_id=paired["game_id"], seat=paired["seat"], name="Me", token=str)


def account_stream(sh: Shell) -> None:
    """Ann challenges Bob twice; Bob's stream tells both, and resumed after the first, the second only."""
    ann, bob = post(sh.url, "/accounts", {"name": "Ann"}), post(sh.url, "/accounts", {"name": "Bob", "kind": "bot"})
    sent = [post(sh.url, "/challenges", {"key": ann["key"], "to": "Bob"})["challenge_id"] for _ in range(2)]
    sh.set(BOB=bob["account_id"], BOB_KEY=bob["key"])
    told = sh.run("# everything", 200).events()
    assert [(e["event"], e["data"]["challenge"]["challenge_id"]) for e in told] == [
        ("challenge_received", c) for c in sent
    ], told
    sh.fill("Last-Event-ID: 41", f"Last-Event-ID: {told[0]['id']}")
    assert sh.run("Last-Event-ID", 200).events() == told[1:]


def api_health(sh: Shell) -> None:
    sh.run("curl -s http://127.0.0.1:8000/healthz", 200, status="ok", store="SqliteStore")


def api_stream(sh: Shell) -> None:
    """A seat's stream from the start: the game's first event, then the round dealt with the seat's own hand."""
    game = post(sh.url, "/games", {"players": [{"name": "Alice"}, {"name": "Bob", "bot": "heuristic"}]})
    sh.set(GAME=game["game_id"], TOKEN=game["seats"][0]["token"])
    events = sh.run("/stream?after=0", 200).events()
    assert (events[0]["id"], events[0]["event"]) == ("1", "game_started"), events[0]
    dealt = next(e["data"] for e in events if e["event"] == "round_started")
    assert isinstance(dealt["hand"], str) and "hands" not in dealt, dealt  # her own card, nobody else's


def bots_install(sh: Shell) -> None:
    """From the checkout: activating the virtual environment puts its `loveletter` first on the PATH."""
    sh.cwd = ds.ROOT
    sh.env["PATH"] = os.environ["PATH"].replace(f"{ds.BIN}{os.pathsep}", "")
    sh.run(". .venv/bin/activate")
    assert Path(sh.env["PATH"].split(os.pathsep)[0], "loveletter").samefile(ds.BIN / "loveletter"), sh.env["PATH"]


def bots_run(sh: Shell) -> None:
    """Each bot takes its seat (the lobby's open seat, or the one it was invited to) and plays it to the end; the
    waiting bot waits, and takes the game of its ruleset and size only."""
    for select, name, public in [("first:choose", "First", True), ("careful:Bot", "bot", False),
                                 ("--seed 7", "bot", True)]:  # fmt: skip
        game = ds.table(sh.url, public=public)
        sh.fill("g_…", game["game_id"])
        sh.fill("--invite …", f"--invite {game['invite']}")
        assert f"game {game['game_id']} over, winners: " in sh.run(select).out
        ds.over(sh.url, game["game_id"], name)
    other = ds.table(sh.url, public=True)
    waiting = sh.start("--wait")
    sh.said(waiting, "waiting for a public game with an open seat (ruleset 2012, 2 players)", "err")
    game = ds.table(sh.url, public=True, ruleset="2012")
    sh.finish(waiting)
    ds.over(sh.url, game["game_id"], "bot")
    lobby = httpx.get(f"{sh.url}/games", params={"status": "open"}).json()
    assert [g["game_id"] for g in lobby["games"]] == [other["game_id"]], lobby  # not its ruleset: left open


def bots_online(sh: Shell) -> None:
    """The bot's account, its key exported, and the page's mybot.py online: it accepts a challenge and plays it;
    then it seeks rated games and plays the one the walk's own seek pairs it with."""
    (sh.cwd / "mybot.py").write_text(ds.python_block("docs/bots.md", "# mybot.py"))
    made = sh.run("/accounts -H", 201, name="MyBot", kind="bot", account_id=str).json()
    sh.fill("ak_…", made["key"])
    sh.run("export LOVELETTER_ACCOUNT_KEY")
    assert sh.env["LOVELETTER_ACCOUNT_KEY"] == made["key"]
    me = post(sh.url, "/accounts", {"name": "Me"})
    bot = sh.start("loveletter bot run mybot.py:Bot --stay")
    sh.said(bot, f"online as MyBot ({made['account_id']}) at {sh.url}\n")
    challenge = post(sh.url, "/challenges", {"key": me["key"], "to": "MyBot"})["challenge_id"]
    game_id = ds.until(lambda: httpx.get(f"{sh.url}/challenges/{challenge}").json()["game_id"], "the bot accepts")
    seat = post(sh.url, f"/games/{game_id}/join", {"name": "Me", "account_key": me["key"]}, 200)
    ds.play(sh.url, game_id, seat["token"])
    said = sh.finish(bot).out.splitlines()
    assert said[1:3] == [f"game {game_id}: started", f"game {game_id} over (1 finished)"], said
    bot = sh.start("--at-once 3")
    sh.said(bot, "online as MyBot")
    sought = post(sh.url, "/seeks", {"key": me["key"], "ruleset": "2019", "players": 2, "rated": True})
    game_id = ds.until(lambda: httpx.get(f"{sh.url}/seeks/{sought['seek_id']}").json()["game_id"], "a pairing")
    seat = post(sh.url, f"/games/{game_id}/join", {"name": "Me", "account_key": me["key"]}, 200)
    assert ds.play(sh.url, game_id, seat["token"])["view"]["seats"][1 - seat["seat"]]["name"] == "MyBot"
    assert f"game {game_id} over (2 finished)" in sh.finish(bot).out  # its state file counts the first run's game


def bots_challenge(sh: Shell) -> None:
    """The reader challenges the page's bot, online (started here as the block before starts it); once it accepts,
    the challenge names the game, and the reader takes seat 0, then plays it out (the bot stops after one game)."""
    (sh.cwd / "mybot.py").write_text(ds.python_block("docs/bots.md", "# mybot.py"))
    bot, me = post(sh.url, "/accounts", {"name": "MyBot", "kind": "bot"}), post(sh.url, "/accounts", {"name": "Me"})
    online = sh.start(f"LOVELETTER_ACCOUNT_KEY={bot['key']} loveletter bot run mybot.py:Bot --stay --games 1 "
                      f"--server {sh.url}", own=True)  # fmt: skip
    sh.said(online, "online as MyBot")
    sh.set(MY_KEY=me["key"])
    made = sh.run("/challenges -H", 201, status="open", rated=False).json()
    assert made["challenged"]["name"] == "MyBot", made
    sh.set(C=made["challenge_id"])
    ds.until(lambda: httpx.get(f"{sh.url}/challenges/{made['challenge_id']}").json()["game_id"], "the bot accepts")
    game_id = sh.run("challenges/$C", 200, status="accepted", game_id=str).json()["game_id"]
    sh.set(GAME=game_id)
    seat = sh.run("$GAME/join", 200, seat=0, token=str, game_id=game_id).json()
    ds.play(sh.url, game_id, seat["token"])
    assert f"game {game_id} over (1 finished)" in sh.finish(online).out


def bots_tournaments(sh: Shell) -> None:
    """The page's mybot.py ranked over HTTP, by a referee the command starts."""
    (sh.cwd / "mybot.py").write_text(ds.python_block("docs/bots.md", "# mybot.py"))
    ranked = sh.run("--serve --turn-seconds 5").out
    assert "1 games of 2019, 4 players" in ranked and "│ mybot:Bot " in ranked, ranked  # it took a seat


def engine_bots(sh: Shell) -> None:
    assert "2 games of 2019, 2 players" in sh.run("loveletter simulate").out
    assert "3 games of 2019, 2 players" in sh.run("loveletter tournament").out
    game = ds.table(sh.url, public=True)
    sh.run("loveletter bot run expert")
    ds.over(sh.url, game["game_id"], "bot")


def engine_analyse(sh: Shell) -> None:
    ds.game_log(sh.url, sh.cwd)
    review = sh.run("loveletter analyse", seat="Alice", rollouts=5, seed=1).json()
    assert review["decisions"] and all(d["player"] == "Alice" for d in review["decisions"]), review


def engine_solve(sh: Shell) -> None:
    assert "solution: 100 iterations" in sh.run("loveletter solve --cards 4").out
    assert "exploitability" in sh.run("--target 1").out
    solved = sh.run("--json", nodes=int, infosets=int, exploitability=float, north_best=float).json()
    assert list(solved["bots"]) == ["heuristic", "expert"], solved["bots"]
    for figures in solved["bots"].values():  # "each bot with the same four figures"
        has(figures, exploitability=float, north_best=float, south_best=float, value=float)


def engine_analyses(sh: Shell) -> None:
    """A review job sent as a log (jq reads the file into the body), then read until it is done."""
    need("curl", None if shutil.which("jq") else "jq is not installed (docs/engine.md sends a log with it)")
    ds.game_log(sh.url, sh.cwd)
    sent = sh.run("/analyses -H", 202)
    job = sent.json()
    assert sent.header("Location") == f"/analyses/{job['id']}" and job["status"] in ("queued", "running"), job
    sh.fill("q0Zk3v9aT1cB", job["id"])
    again = "curl -s localhost:8000/analyses/q0Zk3v9aT1cB"  # read until done
    read = ds.until(lambda: (a := sh.run(again, 200).json())["status"] == "done" and a, "the review done")
    assert read["done"] == read["total"] == len(read["analysis"]["decisions"]) > 0, read


WALKS: dict[tuple[str, int], Callable[[Shell], None]] = {
    ("README.md", 2): readme_tour,
    ("docs/accounts.md", 1): accounts,
    ("docs/accounts.md", 2): ladder,
    ("docs/accounts.md", 3): challenges,
    ("docs/accounts.md", 4): seeks,
    ("docs/accounts.md", 5): account_stream,
    ("docs/api.md", 1): api_health,
    ("docs/api.md", 2): api_stream,
    ("docs/bots.md", 1): bots_install,
    ("docs/bots.md", 2): bots_run,
    ("docs/bots.md", 3): bots_online,
    ("docs/bots.md", 4): bots_challenge,
    ("docs/bots.md", 5): bots_tournaments,
    ("docs/engine.md", 1): engine_bots,
    ("docs/engine.md", 5): engine_analyse,
    ("docs/engine.md", 7): engine_solve,
    ("docs/engine.md", 9): engine_analyses,
}
"""(page, its n-th ```sh block) → the walk a reader of that block makes."""

LINES = ds.commands()
BLOCKS = {(x.page, x.block): [y for y in LINES if (y.page, y.block) == (x.page, x.block)] for x in LINES}


def test_every_command_of_the_docs_is_walked_or_exempt() -> None:
    assert len(LINES) > 80 and len(BLOCKS) > 25  # the docs' blocks are read, not none
    unwalked = [str(x) for x in LINES if exemption(x) is None and (x.page, x.block) not in WALKS]
    assert unwalked == [], "add a walk to WALKS, or an exemption with its reason to EXEMPT"
    assert [k for k in WALKS if k not in BLOCKS or all(exemption(x) for x in BLOCKS[k])] == []
    assert [start for start in EXEMPT if not any(x.bare.startswith(start) for x in LINES)] == []
    runnable = {x.bare for x in LINES if exemption(x) is None}
    assert [c for c, (part, _, _) in OVERRIDES.items() if c not in runnable or part not in c] == []


@pytest.mark.parametrize("block", sorted(WALKS), ids=lambda k: f"{k[0]}#{k[1]}")
def test_a_shell_block_runs_as_its_page_says(block: tuple[str, int], tmp_path: Path) -> None:
    need("curl", None if shutil.which("curl") else "curl is not installed")
    folder = tmp_path / "reader"
    folder.mkdir()
    (folder / "examples").symlink_to(ds.ROOT / "examples")
    lines = BLOCKS[block]
    with ds.referee(tmp_path) as url:
        sh = Shell(lines, url, folder, OVERRIDES)
        try:
            WALKS[block](sh)
        finally:
            sh.close()
    assert [str(x) for x in lines if x in sh.ran and exemption(x)] == [], "an exempt command ran"
    assert [str(x) for x in lines if x not in sh.ran and not exemption(x)] == [], "the walk left commands out"
