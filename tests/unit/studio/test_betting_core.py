"""The betting time and the studio's seal in the pure core: a timer's close, the seal, the grace,
a late seal, the remote totals; and no sequence of entries reopens or closes betting twice."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.journal import Journal
from controller.runtime.recovery import replay
from controller.table import inputs
from controller.table.betting import CLOSED, NONE, OPEN, SEAL_TIMER, SEALING, TIMER, BettingTime, later
from controller.table.effects import Deadline, Draw, Gate
from tests.unit.studio.table_helpers import ball, codes, roulette_core, roulette_live, seal, settled
from tests.unit.table.test_core import Live, new_core


def timer_close(live: Live, source: str = TIMER) -> list[Any]:
    return live.put(inputs.COMMAND, inputs.command("close_betting"), source)


def test_opening_with_a_betting_time_asks_for_its_deadline_from_the_journaled_open() -> None:
    live = roulette_live(BettingTime(betting_s=15))
    effects = live.cmd("open_round")
    opened = [e for e in live.journal.entries() if e.kind == inputs.COMMAND][-1]
    assert Deadline("rl-000001", TIMER, later(opened.ts, 15)) in effects
    assert live.core.betting.deadline == later(opened.ts, 15)
    assert live.core.betting.status == OPEN


def test_no_betting_time_no_deadline() -> None:
    live = roulette_live(BettingTime())
    assert not [e for e in live.cmd("open_round") if isinstance(e, Deadline)]
    assert live.core.betting.deadline is None


def test_the_timer_closes_and_a_second_close_after_it_is_a_no_op() -> None:
    live = roulette_live(BettingTime(betting_s=15))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=500, kind="red")
    timer_close(live)
    assert live.core.betting.status == CLOSED
    before = codes(live)
    assert timer_close(live) == []  # the same timer again (a crash between journal and step)
    assert codes(live) == before


def test_a_timer_close_after_the_dealers_is_no_refusal() -> None:
    core = new_core()
    core.betting.set_time(BettingTime(betting_s=15))
    live = Live(Journal(":memory:"), core)
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    effects = live.cmd("close_betting")
    assert Gate(locked=False) in effects  # a table without remote bets deals at once
    assert timer_close(live) == []
    assert not [a for a in live.alerts() if a["severity"] != "info"]


def test_a_timer_journaled_in_the_last_round_does_not_close_the_next() -> None:
    live = roulette_live(BettingTime(betting_s=15))
    live.cmd("open_round")
    live.cmd("close_betting")
    ball(live)
    live.cmd("settle")
    live.cmd("open_round")
    stale = live.journal.append(inputs.COMMAND, inputs.command("close_betting"), source=TIMER, round_id="rl-000001")
    assert live.core.step(stale) == []
    assert live.core.betting.status == OPEN and live.core.betting.round_id == "rl-000002"


def test_remote_close_waits_for_the_seal_then_closes_with_it() -> None:
    live = roulette_live(BettingTime(betting_s=15, seal_grace_s=3, remote=True))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=500, kind="red")
    effects = live.cmd("close_betting")
    assert live.core.betting.status == SEALING
    assert next(e for e in effects if isinstance(e, Deadline)).source == SEAL_TIMER
    assert "studio's seal" in live.core.prompt()
    live.cmd("bet", box=1, amount=500, kind="black")
    assert codes(live)[-1] == "roulette.closed"  # the felt is closed while the table waits
    effects = live.put(inputs.STUDIO, seal("rl-000001"), "studio")
    assert live.core.betting.status == CLOSED and live.core.betting.sealed
    assert "studio.sealed" in codes(live)
    assert timer_close(live, SEAL_TIMER) == [] and timer_close(live) == []
    ball(live)
    live.cmd("settle")
    record = live.rounds()[-1]
    assert record["remote"]["sealed"] is True
    assert record["remote"]["seal"]["digest"] == "ab" * 32 and record["remote"]["seal"]["stake"] == 500
    assert live.core.betting.status == NONE


def test_no_seal_within_the_grace_closes_without_it_and_a_late_seal_changes_nothing() -> None:
    live = roulette_live(BettingTime(betting_s=15, seal_grace_s=3, remote=True))
    live.cmd("open_round")
    timer_close(live)
    assert live.core.betting.status == SEALING
    timer_close(live, SEAL_TIMER)
    assert live.core.betting.status == CLOSED and not live.core.betting.sealed
    missing = [a for a in live.alerts() if a["code"] == "studio.seal_missing"]
    assert missing and missing[0]["severity"] == "error" and "returned" in missing[0]["message"]
    live.put(inputs.STUDIO, seal("rl-000001"), "studio")
    assert codes(live)[-1] == "studio.seal_late"
    assert not live.core.betting.sealed
    ball(live)
    live.cmd("settle")
    assert live.rounds()[-1]["remote"] == {"sealed": False, "seal": None, "settled": None}


def test_a_result_before_the_seal_ends_the_wait_without_it() -> None:
    live = roulette_live(BettingTime(remote=True))
    live.cmd("open_round")
    live.cmd("close_betting")
    ball(live)
    assert live.core.betting.status == CLOSED and not live.core.betting.sealed
    assert "studio.seal_missing" in codes(live)
    live.put(inputs.STUDIO, seal("rl-000001"), "studio")
    assert codes(live)[-1] == "studio.seal_late"


def test_a_seal_of_another_round_or_while_betting_is_open_is_late() -> None:
    live = roulette_live(BettingTime(remote=True))
    live.cmd("open_round")
    live.put(inputs.STUDIO, seal("rl-000001"), "studio")
    assert codes(live)[-1] == "studio.seal_late" and live.core.betting.status == OPEN
    live.cmd("close_betting")
    live.put(inputs.STUDIO, seal("rl-000099"), "studio")
    assert codes(live)[-1] == "studio.seal_late" and live.core.betting.status == SEALING


def test_a_seal_sent_at_the_deadline_before_the_tables_timer_closes_betting_with_it() -> None:
    live = roulette_live(BettingTime(betting_s=15, remote=True))
    live.cmd("open_round")
    assert live.core.betting.deadline is not None
    entry = live.journal.append(inputs.STUDIO, seal("rl-000001"), source="studio", round_id="rl-000001",
                                ts=live.core.betting.deadline)
    live.core.step(entry)
    assert live.core.betting.status == CLOSED and live.core.betting.sealed
    assert timer_close(live) == []  # the table's own timer, just after: nothing left to close


def test_the_same_seal_again_is_a_no_op_and_another_seal_after_the_close_is_late() -> None:
    """The studio sends its seal again when the table's ``sealing`` leaf crosses the seal it sent at
    the deadline: the copy (another message id) says nothing; a different seal still alerts."""
    live = roulette_live(BettingTime(betting_s=15, remote=True))
    live.cmd("open_round")
    timer_close(live)
    live.put(inputs.STUDIO, seal("rl-000001", "s1"), "studio")
    assert live.core.betting.sealed
    before = codes(live)
    assert live.put(inputs.STUDIO, seal("rl-000001", "s2"), "studio") == []
    assert codes(live) == before and live.core.betting.seal["id"] == "s1"  # type: ignore[index]
    live.put(inputs.STUDIO, seal("rl-000001", "s3", stake=700), "studio")
    assert codes(live)[-1] == "studio.seal_late"
    ball(live)
    live.cmd("settle")
    before = codes(live)
    live.put(inputs.STUDIO, seal("rl-000001", "s4"), "studio")  # after the record too
    assert codes(live) == before
    live.put(inputs.STUDIO, seal("rl-000001", "s5", stake=900), "studio")
    assert codes(live)[-1] == "studio.seal_late"
    assert live.rounds()[-1]["remote"]["seal"]["id"] == "s1"


def test_no_draw_while_sealing_the_draw_once_sealed() -> None:
    live = roulette_live(BettingTime(remote=True))
    live.core.started_with(live.core.adapter.rules("lightning", {}, {}))
    live.cmd("open_round")
    assert not [e for e in live.cmd("close_betting") if isinstance(e, Draw)]
    effects = live.put(inputs.STUDIO, seal("rl-000001"), "studio")
    assert [e for e in effects if isinstance(e, Draw)]


def test_settled_totals_are_journaled_beside_the_round_and_kept_in_its_record() -> None:
    live = roulette_live(BettingTime(remote=True))
    live.cmd("open_round")
    live.cmd("close_betting")
    live.put(inputs.STUDIO, seal("rl-000001"), "studio")
    ball(live)
    live.cmd("settle")
    live.put(inputs.STUDIO, settled("rl-000001", paid=1000), "studio")
    totals = [e.payload for e in live.journal.entries() if e.kind == inputs.REMOTE_SETTLED]
    assert totals[-1]["drop"] == 500 and totals[-1]["win"] == -500
    assert live.core.book.records["rl-000001"]["remote"]["settled"]["paid"] == 1000
    live.put(inputs.STUDIO, settled("rl-000002"), "studio")
    assert codes(live)[-1] == "studio.settled_unknown"


def test_a_restart_replays_the_same_betting_status() -> None:
    journal = Journal(":memory:")
    live = roulette_live(BettingTime(betting_s=15, remote=True), journal)
    live.cmd("open_round")
    timer_close(live)
    fresh = roulette_core(BettingTime(betting_s=15, remote=True))
    replay(journal, fresh, snapshots=False)
    assert fresh.betting == live.core.betting
    assert fresh.betting.deadlines() == live.core.betting.deadlines()


# -- no entry sequence reopens or double-closes betting; replay equals live -----------------------
STEPS = st.sampled_from(["dealer", "timer", "timer:seal", "seal", "seal_other", "bet", "ball", "settle", "open"])


@settings(max_examples=150, deadline=None)
@given(remote=st.booleans(), steps=st.lists(STEPS, max_size=14))
def test_no_sequence_reopens_or_closes_betting_twice(remote: bool, steps: list[str]) -> None:
    journal = Journal(":memory:")
    live = roulette_live(BettingTime(betting_s=10, seal_grace_s=3, remote=remote), journal)
    closes: dict[str, int] = {}
    order = {NONE: 0, OPEN: 1, SEALING: 2, CLOSED: 3}
    for step in steps:
        desk = live.core.betting
        round_id, status = desk.round_id, desk.status
        if step == "open":
            live.cmd("open_round")
        elif step == "dealer":
            live.cmd("close_betting")
        elif step in ("timer", "timer:seal"):
            timer_close(live, step)
        elif step in ("seal", "seal_other"):
            live.put(inputs.STUDIO, seal(round_id or "rl-000001" if step == "seal" else "rl-999999"),
                     "studio")
        elif step == "bet":
            live.cmd("bet", box=1, amount=500, kind="red")
        elif step == "ball":
            ball(live)
        else:
            live.cmd("settle")
        after = live.core.betting
        if after.round_id == round_id and round_id is not None:
            assert order[after.status] >= order[status], f"{step}: {status} -> {after.status}"
            if after.status == CLOSED and status != CLOSED:
                closes[round_id] = closes.get(round_id, 0) + 1
        if after.status in (SEALING, CLOSED):  # the felt takes no bet after its close
            assert live.core.phase != "betting"
    assert all(n == 1 for n in closes.values())
    for record in live.rounds():
        assert ("remote" in record) is remote
    fresh = roulette_core(BettingTime(betting_s=10, seal_grace_s=3, remote=remote))
    written = replay(journal, fresh, snapshots=False).written
    assert written == 0  # every output replay derives is the one live wrote
    assert fresh.betting == live.core.betting
    assert fresh.book.records == live.core.book.records
