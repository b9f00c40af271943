"""Dealer sign-in and the round record's dealer, shoe and index in the shoe; the pit's reopen
surviving a restart; and the resume-or-void hold on a round found open after a restart."""

from __future__ import annotations

from typing import Any

from controller.journal import Journal
from controller.people.players import DEALER, SimulatedTable
from controller.runtime.recovery import device_sync, replay
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.effects import Gate
from tests.unit.table.test_core import Live, new_core, play_one_round


def pit(live: Live, command: str, **args: Any) -> None:
    live.put(inputs.PIT_COMMAND, {"v": 1, "id": f"c{len(live.effects)}", "sender": "pit-anna", "command": command,
                                  **args}, "pit:pit-anna")


def started(live: Live) -> None:
    """A process start as ``run_table`` journals it, then the core told so."""
    live.journal.append(inputs.TABLE_STARTED, {"burn_on_new_shoe": 0, "hold_open_round": True}, source="table",
                        round_id=live.core.round_id)
    live.core.restarted()


def test_the_signed_in_dealer_shoe_and_index_in_the_shoe_are_on_every_round_record():
    live = Live(Journal(":memory:"))
    play_one_round(live)
    live.cmd("sign_in", dealer="dlr-07")
    assert live.core.state()["dealer"] == "dlr-07"
    play_one_round(live)
    live.cmd("sign_in", dealer="dlr-12")  # a relief dealer takes over
    live.cmd("new_shoe")
    play_one_round(live)
    live.cmd("sign_out")
    assert live.core.state()["dealer"] is None
    play_one_round(live)
    assert [(r["dealer"], r["shoe"], r["shoe_round"]) for r in live.rounds()] == [
        (None, "t1-shoe-1", 1), ("dlr-07", "t1-shoe-1", 2), ("dlr-12", "t1-shoe-2", 1), (None, "t1-shoe-2", 2)]


def test_sign_in_is_taken_during_a_hold_and_a_bad_id_is_refused():
    live = Live(Journal(":memory:"))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("close_betting")
    live.card("TS", n=2)  # card 1 never arrived: a hold
    assert live.core.hold is not None
    live.cmd("sign_in", dealer="dlr-07")
    assert live.core.dealer == "dlr-07" and live.core.hold is not None
    live.cmd("sign_in", dealer="no spaces allowed")
    assert live.alerts()[-1]["code"] == "input.refused" and live.core.dealer == "dlr-07"
    live.cmd("sign_out")
    live.cmd("sign_out")
    assert live.alerts()[-1]["code"] == "table.sign_out.nobody"


def test_reopen_clears_close_after_round_and_survives_a_restart():
    journal = Journal(":memory:")
    live = Live(journal)
    pit(live, "reopen")
    assert live.alerts()[-1]["code"] == "pit.reopen.not_closed"
    pit(live, "close_after_round")
    assert live.core.prompt() == "Table closed"
    live.cmd("open_round")
    assert live.alerts()[-1]["code"] == "table.closing"

    closed = new_core()
    replay(journal, closed)
    assert closed.closing and closed.state()["closing"]

    pit(live, "reopen")
    assert live.alerts()[-1]["code"] == "pit.reopened" and live.core.prompt() == "Open betting"
    reopened = new_core()
    replay(journal, reopened)
    assert not reopened.closing and reopened.prompt() == "Open betting"
    play_one_round(Live(journal, reopened))


def test_a_round_open_at_a_restart_holds_until_resumed_and_replays_the_same():
    journal = Journal(":memory:")
    live = Live(journal)
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    started(live)
    core = live.core
    assert core.hold is not None and core.hold.code == "table.restart"
    assert core.hold.options == ("resume", "void_round")
    assert core.prompt().startswith("HOLD table.restart: the table restarted with round t1-000001 open")
    live.put(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "again"}, "shoe")
    live.cmd("close_betting")
    assert live.alerts()[-1]["code"] == "table.hold"  # nothing goes on before the dealer decides
    live.cmd("burn")
    assert live.alerts()[-1]["code"] == "table.burn.not_an_option"

    rebuilt = new_core()
    replay(journal, rebuilt)  # the hold comes back from the journal
    assert rebuilt.hold is not None and rebuilt.hold.code == "table.restart"

    live.cmd("resume")
    assert core.hold is None and live.alerts()[-1]["code"] == "table.resumed"
    live.cmd("close_betting")
    for c in ("TS", "9H", "8D"):
        live.card(c)
    live.cmd("decide", box=1, action="stand", player="A")
    live.card("9C")
    live.cmd("settle")
    assert live.rounds()[-1]["status"] == "settled" and live.rounds()[-1]["payout_total"] == 1000

    again = new_core()
    replay(journal, again)
    assert again.hold is None and again.engine is None and again.closed_rounds == 1


def test_void_is_the_other_way_out_and_a_restart_between_rounds_holds_nothing():
    live = Live(Journal(":memory:"))
    started(live)
    assert live.core.hold is None
    live.put(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "again"}, "shoe")
    live.cmd("open_round")
    live.cmd("bet", box=3, amount=500, player="C")
    started(live)
    live.cmd("void_round", reason="layout disturbed")
    record = live.rounds()[-1]
    assert record["status"] == "void" and [(b["stake"], b["payout"]) for b in record["bets"]] == [(500, 500)]
    assert live.core.hold is None and live.core.prompt() == "Open betting"


class Commands:
    """Stands in for the loop: what the simulated dealer says, and the core it looks at."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.quiet_hooks: list[Any] = []
        self.said: list[tuple[str, str]] = []

    def command(self, name: str, source: str = "dealer", **args: Any) -> None:
        self.said.append((name, source))


def test_the_simulated_dealer_resumes_or_voids_on_a_seeded_coin():
    core = new_core()
    answers = []
    for void_on_restart in (0.0, 1.0, 0.5):
        loop = Commands(core)
        sim = SimulatedTable(loop, None, [], 1)  # type: ignore[arg-type]
        sim.void_on_restart = void_on_restart
        for _ in range(20):
            sim._answer_hold("table.restart", ("resume", "void_round"))
        answers.append({name for name, _ in loop.said})
        assert {source for _, source in loop.said} == {DEALER}
    assert answers == [{"resume"}, {"void_round"}, {"resume", "void_round"}]
    # the same seed gives the same answers
    first, second = Commands(core), Commands(core)
    for loop in (first, second):
        sim = SimulatedTable(loop, None, [], 1)  # type: ignore[arg-type]
        sim.void_on_restart = 0.5
        for _ in range(10):
            sim._answer_hold("table.restart", ("resume", "void_round"))
    assert first.said == second.said


def test_the_gate_stays_locked_through_the_restart_hold_and_resume_opens_it_again():
    live = Live(Journal(":memory:"))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    assert Gate(locked=False) in live.cmd("close_betting")  # cards are being dealt
    live.card("TS")
    started(live)
    assert device_sync(live.core)[0] == Gate(locked=True)  # nobody deals through the resume prompt
    live.put(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "again"}, "shoe")
    assert Gate(locked=False) in live.cmd("resume")
    for c in ("9H", "8D"):
        live.card(c)
    assert live.core.engine is not None and live.core.engine.expects().kind.name == "DECISION"
