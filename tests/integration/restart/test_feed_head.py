"""The pit feed's side of the journal: the retained ``state`` carries the journal's head (seq and
chain hash), and the feed's ledger restarts from the state saved beside its cursor."""

from __future__ import annotations

import sqlite3

from controller.feed.feed import LEDGER_CURSOR
from controller.journal import Journal
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE, Pit, make_feed, round_record


async def test_state_carries_the_journal_head(mosquitto: MosquittoBroker, tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    for i in range(3):
        journal.append("command", {"command": "open_round", "i": i}, source="dealer")
    async with Pit(mosquitto) as pit, make_feed(mosquitto, journal) as feed:
        feed.set_state({"phase": "idle", "round": None})
        await pit.wait_for(lambda: any(isinstance(b, dict) and "journal" in b for b in pit.on("state")))
    state = next(b for b in pit.on("state") if isinstance(b, dict) and "journal" in b)
    seq, digest = journal.head()
    assert state["journal"] == {"seq": seq, "hash": digest} and seq == 3 and len(digest or "") == 64
    journal.close()


async def test_ledger_restarts_from_its_saved_state_not_from_the_journal(mosquitto: MosquittoBroker, tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    for i in range(1, 4):
        journal.append("round_closed", round_record(f"{TABLE}-{i:06d}", "settled", 1000, 2000 * (i % 2)),
                       source="table", round_id=f"{TABLE}-{i:06d}")
    async with make_feed(mosquitto, journal) as feed:
        await feed.wait_caught_up()
    saved, state = journal.cursor_state(LEDGER_CURSOR)
    assert saved == 3 and state is not None and state["totals"]["rounds_settled"] == 3
    journal.close()
    # Rows before the saved point can no longer be read back (dropped here on purpose): a restart
    # that still counts them took its totals from the saved state.
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_append_only_delete")
    db.execute("DELETE FROM events WHERE seq <= 2")
    db.commit()
    db.close()
    journal = Journal(path)
    journal.append("round_closed", round_record(f"{TABLE}-000004", "void", 500, 500), source="table",
                   round_id=f"{TABLE}-000004")
    async with make_feed(mosquitto, journal) as feed:
        await feed.wait_caught_up()
        totals = feed._ledger.totals
    assert (totals.rounds_settled, totals.rounds_void, totals.stake_total, totals.payout_total) == (3, 1, 3000, 4000)
    journal.close()
