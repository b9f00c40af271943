"""A journaled entry the core cannot apply never bricks the table: it holds the table with the
``table.entry_unapplicable`` alert naming that entry's seq, the legal way out releases it, and
play goes on. The hostile entries are written straight into the journal, as a disk editor or a
bug in an older version would leave them (the edge refuses them before they are journaled)."""

from __future__ import annotations

import pickle

from controller.games.blackjack.rules import blackjack_rules
from controller.journal import Journal
from controller.runtime.recovery import replay
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.registry import adapter_for
from tests.unit.table.test_core import Live, play_one_round


def fresh() -> TableCore:
    return TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6"), "ru6")


def alerts(journal: Journal, code: str) -> list[dict]:
    return [e.payload for e in journal.entries() if e.kind == inputs.ALERT and e.payload["code"] == code]


def test_a_bet_the_engine_chokes_on_holds_the_replayed_round_and_void_releases_it(tmp_path):
    journal = Journal(tmp_path / "t.journal")
    live = Live(journal)
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    # a card without its count: no device event can be read from it
    hostile = journal.append(inputs.DEVICE, {"type": "card", "device": "shoe", "card": "AH"},
                             source="shoe", round_id="t1-000001")
    journal.append(inputs.COMMAND, {"command": "close_betting"}, source="dealer", round_id="t1-000001")

    core = fresh()
    result = replay(journal, core)  # no exception: the table starts

    assert result.round_id == "t1-000001"
    assert core.hold is not None and core.hold.code == "table.entry_unapplicable"
    assert core.hold.options == ("void_round",) and core.hold.cause == hostile.seq
    assert f"journal entry {hostile.seq} (device)" in core.prompt()
    raised = alerts(journal, "table.entry_unapplicable")
    assert len(raised) == 1 and raised[0]["entry"] == hostile.seq and raised[0]["severity"] == "error"
    # the close_betting behind it was refused by the hold, not applied
    assert alerts(journal, "table.hold")[-1]["refused"] == {"command": "close_betting"}

    again = fresh()
    replay(journal, again)  # the same journal rebuilds the same hold, writes nothing twice
    assert again.hold is not None and again.hold.cause == hostile.seq
    assert len(alerts(journal, "table.entry_unapplicable")) == 1

    live = Live(journal, core, online=True)
    live.cmd("open_round")  # refused: the table holds
    assert core.round_id == "t1-000001"
    live.cmd("void_round", reason="bad entry in the journal")
    assert core.hold is None and core.engine is None
    void = live.rounds()[-1]
    assert void["status"] == "void" and [(b["box"], b["stake"], b["payout"]) for b in void["bets"]] == [(1, 1000, 1000)]
    play_one_round(live)
    assert live.rounds()[-1]["status"] == "settled"


def test_an_unknown_device_event_between_rounds_holds_until_dismissed(tmp_path):
    journal = Journal(tmp_path / "t.journal")
    live = Live(journal)
    bogus = journal.append(inputs.DEVICE, {"type": "teleport", "device": "shoe"}, source="shoe")
    broken = journal.append(inputs.DEVICE, {"type": "card", "device": "shoe", "card": "AH"}, source="shoe")  # no n

    core = fresh()
    replay(journal, core)

    assert core.hold is not None and core.hold.code == "table.entry_unapplicable"
    assert core.hold.options == ("dismiss",) and core.hold.cause == bogus.seq
    assert "NotAnEvent: no device has an event of type 'teleport'" in core.hold.message
    # the second bad entry is alerted by its own seq, the hold stays the first one's
    assert [a["entry"] for a in alerts(journal, "table.entry_unapplicable")] == [bogus.seq, broken.seq]
    assert core.state()["phase"] == "hold" and core.state()["hold"]["options"] == ["dismiss"]

    live = Live(journal, core, online=True)
    live.cmd("burn")  # not a way out of this hold
    assert core.hold is not None and alerts(journal, "table.burn.not_an_option")
    live.cmd("dismiss")
    assert core.hold is None and core.prompt() == "Open betting"
    assert alerts(journal, "table.dismissed")
    play_one_round(live)
    assert live.rounds()[-1]["status"] == "settled" and live.rounds()[-1]["payout_total"] == 1000


def test_dismiss_is_refused_without_a_hold_and_where_the_hold_does_not_offer_it(tmp_path):
    live = Live(Journal(":memory:"))
    live.cmd("dismiss")
    assert live.alerts()[-1]["code"] == "table.dismiss.nothing"
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("close_betting")
    live.card("TS")
    live.card("TS", n=1 + live.core.shoe.last_n + 1)  # a gap: lost card hold (burn or void)
    assert live.core.hold is not None and "dismiss" not in live.core.hold.options
    live.cmd("dismiss")
    assert live.alerts()[-1]["code"] == "table.dismiss.not_an_option" and live.core.hold is not None


def test_the_core_pickles_with_everything_it_holds(tmp_path):
    live = Live(Journal(":memory:"))
    play_one_round(live)
    live.cmd("open_round")
    live.cmd("bet", box=2, amount=500, player="B")
    copy = pickle.loads(pickle.dumps(live.core))
    assert copy.state() == live.core.state() and copy.prompt() == live.core.prompt()
    assert copy.records == live.core.records and copy.shoe.composition.left("TS") == live.core.shoe.composition.left("TS")
