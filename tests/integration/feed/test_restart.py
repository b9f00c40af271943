"""A new Feed over the same journal file (a process restart) resumes from the saved cursor: a
clean stop sends nothing twice; a killed process may resend, only with the same seq and content."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

from controller.journal import Journal
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import Pit, first_occurrences, make_feed, round_record

ROOT = Path(__file__).parents[3]


def append(journal: Journal, n: int) -> None:
    for _ in range(n):
        seq = journal.last_seq() + 1
        rid = f"r{seq // 5}"
        if seq % 5 == 4:
            journal.append("round_closed", round_record(rid, "settled", 200, 400), source="table", round_id=rid)
        else:
            journal.append("card", {"card": "9C", "n": seq}, source="shoe", round_id=rid)


async def test_a_restarted_feed_resumes_from_its_cursor(
    mosquitto: MosquittoBroker, journal_path: Path, pit: Pit
) -> None:
    with Journal(journal_path) as journal:
        append(journal, 10)
        async with make_feed(mosquitto, journal) as feed:
            feed.notify()
            await pit.wait_seqs(10)
        assert journal.cursor("feed") == 10
        append(journal, 15)  # the controller journals on while no feed runs (between two processes)

    with Journal(journal_path) as journal:  # a new process: new journal connection, new feed, new link
        append(journal, 5)
        async with make_feed(mosquitto, journal) as feed:
            assert feed.stats.cursor == 10
            feed.notify()
            await pit.wait_seqs(30)
            await feed.wait_caught_up()
        assert journal.cursor("feed") == 30

    assert pit.seqs() == list(range(1, 31))  # a clean stop: nothing twice
    assert pit.seqs("round") == [4, 9, 14, 19, 24, 29]
    ledger = pit.on("ledger")[-1]
    totals = (ledger["rounds_settled"], ledger["stake_total"], ledger["payout_total"], ledger["seq"])
    assert totals == (6, 1200, 2400, 29)


FEED_PROCESS = """
import asyncio, sys
from controller.feed import Feed
from controller.journal import Journal

async def main():
    journal = Journal(sys.argv[2])
    # A long cursor interval: the process dies with acknowledged entries its cursor does not show.
    feed = Feed.connect(sys.argv[1], journal, "bj1", cursor_interval=3600, window=20)
    await feed.start()
    for i in range(100000):
        rid = f"r{i // 5}"
        if i % 5 == 4:
            journal.append("round_closed", {"v": 1, "round": rid, "status": "void", "stake_total": 50,
                           "payout_total": 50, "bets": [], "corrections": []}, source="table", round_id=rid)
        else:
            journal.append("card", {"card": "2D", "i": i}, source="shoe", round_id=rid)
        feed.notify()
        await asyncio.sleep(0.005)  # the busy table's pace until it is killed (the behaviour under test)

asyncio.run(main())
"""


async def test_a_killed_feed_resends_only_with_the_same_seq(
    mosquitto: MosquittoBroker, journal_path: Path, pit: Pit
) -> None:
    with Journal(journal_path):
        pass  # create it before two processes open it
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", FEED_PROCESS, mosquitto.tcp_url(), str(journal_path),
        cwd=ROOT,
    )
    try:
        await pit.wait_for(lambda: len(pit.seqs()) >= 150, timeout=20)
    finally:
        process.send_signal(signal.SIGKILL)
        await process.wait()

    with Journal(journal_path) as journal:
        killed_at, saved = journal.last_seq(), journal.cursor("feed")
        before = len(pit.seqs())
        assert saved < before  # the kill left acknowledged entries behind the cursor
        async with make_feed(mosquitto, journal) as feed:
            feed.notify()
            await pit.wait_seqs(killed_at)
            await feed.wait_caught_up()
        assert journal.cursor("feed") == killed_at
        entries = {e.seq: e for e in journal.entries()}

    seqs = pit.seqs()
    print(f"\nkilled at journal seq {killed_at}, cursor {saved}, pit had {before}; resent {len(seqs) - killed_at}")
    assert first_occurrences(seqs) == list(range(1, killed_at + 1))
    assert sorted(set(seqs)) == list(range(1, killed_at + 1))
    for event in pit.on("event"):  # a duplicate is the same message: same seq, same content
        e = entries[event["seq"]]
        assert (event["kind"], event["payload"], event["ts"], event["round"]) == (e.kind, e.payload, e.ts, e.round_id)
    assert len(seqs) - killed_at <= before - saved + 1
    ledger = pit.on("ledger")[-1]  # the ledger is rebuilt, not double counted by the resend
    voids = sum(1 for e in entries.values() if e.kind == "round_closed")
    assert ledger["rounds_void"] == voids and ledger["void_stake_total"] == 50 * voids and ledger["stake_total"] == 0
