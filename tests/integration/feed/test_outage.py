"""Store-and-forward: the broker goes away while the table keeps journaling; once it is back the
feed sends what the pit missed, in journal order, nothing missing.

The outage lasts ``FEED_OUTAGE_SECONDS`` (default 3). The product requirement is 30 s:
``FEED_OUTAGE_SECONDS=30 pytest tests/integration/feed/test_outage.py``.
"""

from __future__ import annotations

import asyncio
import os
import time

from controller.journal import Journal
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import Pit, first_occurrences, make_feed, round_record
from tests.support.waiting import until

OUTAGE = float(os.environ.get("FEED_OUTAGE_SECONDS", "3"))
INTERVAL = 0.02  # the table journals an entry every 20 ms: 50 entries/s, far busier than a real table


async def test_broker_outage_is_caught_up_in_order(mosquitto: MosquittoBroker, journal: Journal, pit: Pit) -> None:
    appended = 0

    async def table(seconds: float) -> None:
        nonlocal appended
        end = time.monotonic() + seconds
        while time.monotonic() < end:  # a busy table for a span of wall time: the outage under test
            appended += 1
            rid = f"r{appended // 10}"
            if appended % 10 == 9:
                journal.append("round_closed", round_record(rid, "settled", 100, 150), source="table", round_id=rid)
            elif appended % 25 == 0:
                journal.append("alert", {"severity": "warning", "code": "spot_offline", "message": "spot 3"},
                               source="spots", round_id=rid)
            else:
                journal.append("press", {"spot": 3, "button": "hit", "n": appended}, source="spot-3", round_id=rid)
            feed.notify()
            await asyncio.sleep(INTERVAL)  # the table's pace (the behaviour under test), not a wait

    # window below the outage's entry count: the journal, not the outbox, holds the backlog
    async with make_feed(mosquitto, journal, window=50, backoff_max=0.5) as feed:
        await asyncio.wait_for(feed.link.wait_connected(), 5)
        await table(0.5)
        mosquitto.stop()
        stopped = journal.last_seq()
        await table(OUTAGE)
        during = journal.last_seq() - stopped
        # the feed settles what it can (nothing, the broker is away): two more failed attempts
        # to reach the broker, both after the last entry, before the cursor is checked
        failures = feed.link.reconnect.failures
        await until(lambda: feed.link.reconnect.failures >= failures + 2 and not feed.link.connected,
                    "two more failed attempts to reach the stopped broker", within=10)
        assert journal.cursor("feed") <= stopped and feed.stats.cursor <= stopped  # acknowledged only
        assert feed.link.pending <= 50 * 2 + 3  # bounded: window entries (+ their round/alert) + snapshots
        mosquitto.start()
        restarted = time.monotonic()
        await table(0.5)
        last = journal.last_seq()
        await pit.wait_seqs(last, timeout=OUTAGE + 30)
        caught_up = time.monotonic() - restarted
        await feed.wait_caught_up()
        assert journal.cursor("feed") == last or feed.stats.cursor == last

    print(f"\noutage {OUTAGE:.0f} s: {during} entries journaled during it, all {last} delivered "
          f"{caught_up:.2f} s after the broker came back, duplicates {len(pit.seqs()) - last}")
    seqs = pit.seqs()
    assert first_occurrences(seqs) == list(range(1, last + 1))  # in order, nothing missing
    assert sorted(set(seqs)) == list(range(1, last + 1))
    events = {e["seq"]: e for e in pit.on("event")}
    for entry in journal.entries():
        assert events[entry.seq]["payload"] == entry.payload and events[entry.seq]["kind"] == entry.kind
    rounds = [e.seq for e in journal.entries() if e.kind == "round_closed"]
    alerts = [e.seq for e in journal.entries() if e.kind == "alert"]
    assert first_occurrences(pit.seqs("round")) == rounds
    assert first_occurrences(pit.seqs("alert")) == alerts
    ledger = pit.on("ledger")[-1]
    assert ledger["rounds_settled"] == len(rounds) and ledger["stake_total"] == 100 * len(rounds)
    assert ledger["payout_total"] == 150 * len(rounds) and ledger["seq"] == rounds[-1]


async def test_the_newest_state_survives_an_outage_and_only_it_is_queued(
    mosquitto: MosquittoBroker, journal: Journal
) -> None:
    async with make_feed(mosquitto, journal, backoff_max=0.3) as feed:
        await asyncio.wait_for(feed.link.wait_connected(), 5)
        mosquitto.stop()
        await until(lambda: not feed.link.connected and feed.link.reconnect.failures >= 1,
                    "the feed's link finds the broker gone", within=10)
        for i in range(1000):
            feed.set_state({"phase": "dealing", "cards": i})
            feed.set_prompt({"text": f"card {i}"})
            await asyncio.sleep(0)  # a turn for the feed between updates, not a wait
        assert feed.link.pending <= 3  # one state, one prompt, one ledger at most
        mosquitto.start()
        await asyncio.wait_for(feed.wait_caught_up(), 10)
    async with Pit(mosquitto, "pit-after") as late:
        await late.wait_for(lambda: bool(late.on("state")) and bool(late.on("prompt")))
    assert late.on("state")[-1]["cards"] == 999 and late.on("prompt")[-1]["text"] == "card 999"
