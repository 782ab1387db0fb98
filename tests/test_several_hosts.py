"""Several hosts (issue 34, docs/operations.md): two referees on two addresses (127.0.0.2 and 127.0.0.3), one
PostgreSQL database, behind a real HAProxy (Debian's package: round robin, no sticky sessions, health checks on
`/readyz`). Through the balancer the limits hold as one; seeks sent to one host and to the other pair; a game is
played with its event stream open, the host serving that stream is SIGKILLed mid-game, and the game goes on through
the other while the stream resumes there with `Last-Event-ID`, missing no event and repeating none."""

from __future__ import annotations

import random
import signal
import threading
import time
import uuid
from pathlib import Path

import httpx

from tests.balancer import HAProxy, installed
from tests.needs import need
from tests.servers import ADMIN, ServerProcess, admin_log, log_events
from tests.stores import own_database, pg_url  # noqa: F401  (fixtures)


class Follower(threading.Thread):
    """A seat's event stream read through the balancer, reconnecting with `Last-Event-ID` whenever it breaks."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.ids: list[int] = []
        self.hosts: list[str] = []
        """The host that served each connection of the stream (`X-Served-By`)."""
        self.ended = threading.Event()

    def run(self) -> None:
        deadline = time.monotonic() + 300
        while not self.ended.is_set() and time.monotonic() < deadline:
            headers = {"Authorization": f"Bearer {self.token}"}
            if self.ids:
                headers["Last-Event-ID"] = str(self.ids[-1])
            try:
                with httpx.stream("GET", self.url, headers=headers, timeout=httpx.Timeout(10, read=40)) as answer:
                    self.hosts.append(answer.headers.get("x-served-by", "?"))
                    current, kind = None, None
                    for line in answer.iter_lines():
                        if line.startswith("id:"):
                            current = int(line[3:].strip())
                        elif line.startswith("event:"):
                            kind = line[6:].strip()
                        elif line == "" and current is not None:
                            self.ids.append(current)
                            if kind == "game_ended":
                                self.ended.set()
                            current, kind = None, None
            except httpx.HTTPError:
                pass  # the host went away: connect again, through the balancer
            time.sleep(0.1)


def move(url: str, gid: str, tokens: list[str], rng: random.Random) -> bool:
    """One legal move of the seat to play, each request on a new connection (any host may take it): False once the
    game is over."""
    seen = httpx.get(f"{url}/games/{gid}", timeout=30).json()
    active = seen["view"]["active"]
    if seen["over"] or active is None:
        return False
    auth = {"Authorization": f"Bearer {tokens[active]}"}
    mine = httpx.get(f"{url}/games/{gid}", headers=auth, timeout=30).json()
    if mine["version"] != seen["version"] or not mine["legal_moves"]:
        return True  # the two reads were answered by hosts a move apart (either one behind): ask again
    chosen = rng.choice(mine["legal_moves"])
    done = httpx.post(f"{url}/games/{gid}/moves", json={"type": "code", "action_code": chosen["action_code"]},
                      headers={**auth, "If-Match": f'"{mine["version"]}"'}, timeout=30)  # fmt: skip
    assert done.status_code in (200, 412), done.text  # 412: another host's answer was a step behind; read again
    return True


def test_two_hosts_behind_haproxy_survive_one_killed(own_database: str, tmp_path: Path) -> None:  # noqa: F811
    need("haproxy", installed())
    settings = {"admin_token": ADMIN, "shared_limits": "true", "create_rate": "0", "move_rate": "0",
                "creation_refill": "0.0001"}  # fmt: skip
    hosts = {"host1": ServerProcess(own_database, host="127.0.0.2", **settings),
             "host2": ServerProcess(own_database, host="127.0.0.3", **settings)}  # fmt: skip
    balancer = None
    try:
        for host in hosts.values():
            host.wait_ready()
        balancer = HAProxy(tmp_path, [f"{h.host}:{h.port}" for h in hosts.values()]).wait_ready()
        url = balancer.url

        # the limits hold as one: the accounts' 30 at once per address, whichever host takes each request
        made = [httpx.post(f"{url}/accounts", json={"name": f"H{uuid.uuid4().hex[:8]}"}, timeout=30) for _ in range(40)]
        assert [m.status_code for m in made].count(201) == 30, [m.status_code for m in made]
        assert {m.headers["x-served-by"] for m in made} == set(hosts)  # both hosts answered
        ann, bob = made[0].json(), made[1].json()

        # seeks sent to one host and to the other pair into one game
        first = httpx.post(f"{hosts['host1'].url}/seeks", json={"key": ann["key"]}).json()
        httpx.post(f"{hosts['host2'].url}/seeks", json={"key": bob["key"]})
        deadline = time.monotonic() + 60
        while (paired := httpx.get(f"{url}/seeks/{first['seek_id']}").json())["game_id"] is None:
            assert time.monotonic() < deadline, "the seeks of two hosts did not pair"
            time.sleep(0.1)
        assert paired["status"] == "paired"

        # a game through the balancer, its stream open; the stream's host is killed mid-game
        created = httpx.post(f"{url}/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
        gid, tokens = created["game_id"], [s["token"] for s in created["seats"]]
        follower = Follower(f"{url}/games/{gid}/stream", tokens[0])
        follower.start()
        rng = random.Random(11)
        while not follower.hosts or len(follower.ids) < 8:
            assert move(url, gid, tokens, rng), "the game ended before the kill"
        victim = follower.hosts[0]
        hosts[victim].proc.send_signal(signal.SIGKILL)
        hosts[victim].proc.wait(30)
        while move(url, gid, tokens, rng):
            pass
        assert follower.ended.wait(120), (follower.ids, follower.hosts)
        follower.join(30)
        assert follower.hosts[0] == victim and follower.hosts[-1] != victim, follower.hosts
        last = follower.ids[-1]
        assert follower.ids == list(range(1, last + 1)), follower.ids  # none missed, none repeated
        events = log_events(admin_log(url, gid))
        assert last == len(events) and "GameEnded" in {type(e).__name__ for e in events}  # the whole log, streamed
    finally:
        if balancer is not None:
            balancer.stop()
        for host in hosts.values():
            host.stop()
