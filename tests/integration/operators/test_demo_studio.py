"""``croupier demo`` runs a studio with a reference operator and its queue on a throwaway RabbitMQ:
it prints a link per demo player whose token the studio accepts once, its simulated remote players
keep the remote tables busy (the operator's wallet is debited and credited; at the blackjack table
some sit at a box and decide it, and a turn left to run out waits for the table's timer: the demo's
dealer does not decide it), and the operator's consumer receives the tables' feed. Without RabbitMQ
it says so in one line and plays on."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import websockets

from tests.integration.backoffice.floor import wait_until
from tests.integration.backoffice.test_demo import lines_until, start_demo, stop

LINK = re.compile(r"^player (?P<table>[\w-]+): (?P<url>http://\S+/play/(?P=table)\?token=\S+)  "
                  r"\((?P<player>[\w-]+), balance (?P<balance>\d+\.\d\d) EUR\)$")


async def join(url: str) -> list[dict[str, object]]:
    """Join with a link's token twice: the studio's answers."""
    parts = urlsplit(url)
    table, token = parts.path.rsplit("/", 1)[-1], parse_qs(parts.query)["token"][0]
    answers = []
    for _ in range(2):
        async with websockets.connect(f"ws://{parts.netloc}/v1/play") as ws:
            await ws.send(json.dumps({"v": 1, "type": "join", "token": token, "table": table}))
            answers.append(json.loads(await asyncio.wait_for(ws.recv(), 20)))
    return answers


def sim_books(directory: Path) -> dict[str, int]:
    path = directory / "studio" / "operator-sim.sqlite"
    if not path.exists():
        return {}
    with sqlite3.connect(path) as db:
        return {str(k): int(n) for k, n in db.execute("SELECT kind, count(*) FROM txs GROUP BY kind")}


def journal_count(journal: Path, where: str) -> int:
    if not journal.exists():
        return 0
    with contextlib.closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True, timeout=10)) as db:
        row = db.execute(f"SELECT count(*) FROM events WHERE {where}").fetchone()
    return int(row[0])


#: round records whose remote seats list a decision their player took (not the table's timer)
PLAYER_DECIDED = """payload LIKE '%"seats":%"cause":"player"%'"""
#: a remote seat's turn that ran out: the table's timer decided it
TIMER_DECIDED = "kind = 'command' AND source LIKE 'timer:%' AND json_extract(payload, '$.command') = 'decide'"
#: a decision the felt's simulated people gave for a box the felt's players do not sit at (a remote seat's)
FELT_ON_SEATS = ("kind = 'command' AND source LIKE 'player:%' AND json_extract(payload, '$.command') = 'decide' "
                 "AND json_extract(payload, '$.box') NOT IN (1, 3, 5)")


def studio_lines(demo: subprocess.Popen[str]) -> list[str]:
    """The demo's lines up to its players' links and its feed's line (in either order)."""
    seen = lines_until(demo, "players: ", timeout=180)
    if not any(s.startswith("feed: ") for s in seen):
        seen += lines_until(demo, "feed: ", timeout=180)
    return seen


def test_the_demo_runs_a_studio_with_an_operator_and_its_queue(tmp_path: Path) -> None:
    where = tmp_path / "demo"
    demo = start_demo(where)
    try:
        seen = studio_lines(demo)
        links = [m for s in seen if (m := LINK.match(s))]
        assert {m["table"] for m in links} == {"bj-ru6", "rl-eu", "baccarat"}, seen
        assert len({m["url"] for m in links}) == len(links) >= 4  # a fresh token per printed line
        assert all(m["balance"] == "1000.00" for m in links)
        assert any("joins once" in s for s in seen)
        (feed,) = [s for s in seen if s.startswith("feed: ")]
        assert feed.startswith("feed: amqp://") and "croupier.demo-casino" in feed
        first, again = asyncio.run(join(links[0]["url"]))
        assert first["type"] == "joined" and first["player"] == links[0]["player"], first
        assert again["type"] == "refused" and again["reason"] == "token_replayed", again
        wait_until(lambda: sim_books(where).get("credit", 0) >= 3, 180,
                   "the remote players' bets debited and settled at the operator")
        assert sim_books(where)["debit"] >= 3
        journal = where / "bj-ru6.journal"
        wait_until(lambda: journal_count(journal, PLAYER_DECIDED) >= 1, 240,
                   "a seated remote player's own decision in the blackjack table's journal")
        wait_until(lambda: journal_count(journal, TIMER_DECIDED) >= 1, 240, "a remote seat's turn that ran out")
        assert journal_count(journal, FELT_ON_SEATS) == 0, "the demo's dealer decided for a remote seat"
    finally:
        stop(demo)


def test_without_rabbitmq_the_demo_says_so_in_one_line_and_plays_on(tmp_path: Path) -> None:
    demo = start_demo(tmp_path / "demo", {"CROUPIER_RABBITMQ_SERVER": str(tmp_path / "no-rabbitmq")})
    try:
        seen = studio_lines(demo)
        notes = [s for s in seen if s.startswith("feed: ")]
        assert len(notes) == 1 and "not running" in notes[0], seen
        assert any(LINK.match(s) for s in seen)
        wait_until(lambda: sim_books(tmp_path / "demo").get("credit", 0) >= 1, 180, "remote bets without the feed")
    finally:
        stop(demo)
