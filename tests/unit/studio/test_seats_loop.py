"""A seated box's decision time on the loop's injected clock: the table's decision is journaled
at the deadline of the turn's journaled start, not before; and after a restart mid-decision the
deadline is re-armed from the journal (one already past decides at once, once the dealer resumes)."""

from __future__ import annotations

from pathlib import Path

from controller.journal import Journal
from controller.runtime.recovery import replay
from controller.table import inputs
from controller.table.betting import BettingTime, later
from controller.table.seats import DECISION_TIMER
from tests.support.waiting import until
from tests.unit.studio.test_betting_loop import Table
from tests.unit.studio.test_seats_core import bets, seat, seated_core


def decisions(journal: Journal) -> list[tuple[str, str]]:
    return [(e.source, e.payload["action"]) for e in journal.entries()
            if e.kind == inputs.COMMAND and e.payload["command"] == "decide"]


async def test_the_table_decides_at_the_turns_deadline_and_not_before(tmp_path: Path) -> None:
    core = seated_core("default")
    with Journal(tmp_path / "table.journal") as journal:
        async with Table(journal, core) as table:
            table.online()
            table.loop.submit(inputs.STUDIO, seat(), "studio")
            table.loop.command("open_round")
            await table.loop.settled()
            round_id = core.round_id or ""
            table.loop.submit(inputs.STUDIO, bets(round_id), "studio")
            table.loop.command("close_betting")
            await table.loop.settled()
            for card in ("TS", "9H", "6D"):
                table.loop.submit(inputs.DEVICE, {"type": "card", "device": "shoe", "card": card,
                                                  "n": core.shoe.last_n + 1}, "shoe")
                await table.loop.settled()
            await until(lambda: core.seats.turn is not None, "Anna's turn", within=30, clock=table.clock)
            turn = core.seats.turn
            assert turn is not None
            started = table.clock.monotonic()
            await until(lambda: core.seats.decisions, "the table's decision", within=300, clock=table.clock)
            assert table.clock.monotonic() - started >= 10 - 0.5
            assert decisions(journal) == [(DECISION_TIMER, "stand")]
            assert core.seats.decisions[-1]["cause"] == "timeout"  # the journal's ts is the wall's, not the scaled clock's


async def test_a_restart_mid_decision_rearms_the_deadline_from_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "table.journal"
    long_ago = "2026-01-01T10:00:00.000Z"
    with Journal(path) as journal:
        journal.append(inputs.TABLE_STARTED, {"betting": BettingTime(decision_s=10).dump(), "hold_open_round": True},
                       source="table")
        journal.append(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "test"}, source="shoe")
        journal.append(inputs.STUDIO, seat(), source="studio", ts=long_ago)
        journal.append(inputs.COMMAND, {"command": "open_round"}, source="dealer", ts=long_ago)
        journal.append(inputs.STUDIO, bets("bj1-000001"), source="studio", round_id="bj1-000001", ts=long_ago)
        journal.append(inputs.COMMAND, {"command": "close_betting"}, source="dealer", round_id="bj1-000001",
                       ts=long_ago)
        for n, card in enumerate(("TS", "9H", "6D"), 1):
            journal.append(inputs.DEVICE, {"type": "card", "device": "shoe", "card": card, "n": n}, source="shoe",
                           round_id="bj1-000001", ts=long_ago)
    with Journal(path) as journal:
        core = seated_core()
        replay(journal, core)
        turn = core.seats.turn
        assert turn is not None and turn.deadline == later(long_ago, 10)
        core.restarted()  # the restart holds: the dealer resumes the round, then the past deadline decides
        async with Table(journal, core) as table:
            await table.loop.settled()
            assert decisions(journal) == []
            table.loop.command("resume", "dealer")
            await until(lambda: core.seats.decisions, "the table's decision at once", within=150, clock=table.clock)
            assert decisions(journal) == [(DECISION_TIMER, "stand")]
            assert core.seats.decisions[-1]["refunded"]
