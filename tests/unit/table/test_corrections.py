"""Corrections of closed rounds, acknowledged alerts and burns out of a new shoe, in the core
alone: journal entries in, effects out, and replay rebuilding exactly what live built."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.config import ConfigError, load
from controller.games.blackjack.rules import blackjack_rules
from controller.journal import Journal
from controller.runtime.recovery import device_sync, replay
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.effects import Gate, LoadShoe, Record
from controller.table.registry import adapter_for
from tests.support.configs import write_table_config
from tests.unit.table.test_core import refused_at_the_edge


def new_core(burn: int = 0) -> TableCore:
    return TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6"), "ru6", burn)


class Live:
    """The loop's order without its I/O: journal the input, step, write the outputs (the core
    told each output's seq, as the loop does)."""

    def __init__(self, journal: Journal, core: TableCore | None = None) -> None:
        self.journal = journal
        self.core = core or new_core()
        self.effects: list[Any] = []
        self.put(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "test"}, "shoe")

    def put(self, kind: str, payload: dict[str, Any], source: str = "dealer", write: bool = True) -> list[Any]:
        entry = self.journal.append(kind, payload, source=source, round_id=self.core.round_id)
        effects = self.core.step(entry)
        self.effects = effects
        if write:
            for e in effects:
                if isinstance(e, Record):
                    self.core.written(self.journal.append(e.kind, e.payload, source="table", round_id=e.round_id))
        return effects

    def cmd(self, name: str, **args: Any) -> list[Any]:
        payload = inputs.command(name, **args)
        return [] if refused_at_the_edge(self.journal, payload) else self.put(inputs.COMMAND, payload)

    def pit(self, command: str, sender: str = "boss", write: bool = True, **args: Any) -> list[Any]:
        payload = {"v": 1, "id": f"c{self.journal.last_seq() + 1}", "sender": sender, "command": command, **args}
        return self.put(inputs.PIT_COMMAND, payload, f"pit:{sender}", write)

    def card(self, card: str) -> list[Any]:
        n = self.core.shoe.last_n + 1
        return self.put(inputs.DEVICE, {"type": "card", "device": "shoe", "card": card, "n": n}, "shoe")

    def alerts(self) -> list[dict[str, Any]]:
        return [e.payload for e in self.journal.entries() if e.kind == inputs.ALERT]

    def alert_entries(self, code: str) -> list[Any]:
        return [e for e in self.journal.entries() if e.kind == inputs.ALERT and e.payload["code"] == code]

    def rounds(self) -> list[dict[str, Any]]:
        return [e.payload for e in self.journal.entries() if e.kind == inputs.ROUND_CLOSED]


def two_box_round(live: Live) -> None:
    """Box 1 (A, 1000) A-K blackjack, paid 3:2 at once: 2500. Box 2 (B, 500) T-8 stands on 18;
    dealer 9-9 stands on 18: a push, 500."""
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("bet", box=2, amount=500, player="B")
    live.cmd("close_betting")
    for c in ("AS", "TD", "9H", "KC", "8S"):
        live.card(c)
    live.cmd("decide", box=2, action="stand", player="B")
    live.card("9C")
    live.cmd("settle")


BOX2_WINS = [{"box": 2, "hand": 1, "kind": "main", "player": "B", "payout": 1000}]


def test_correction_waits_for_the_pit_then_writes_a_new_record():
    live = Live(Journal(":memory:"))
    two_box_round(live)
    (original,) = live.rounds()
    assert [(b["box"], b["stake"], b["payout"]) for b in original["bets"]] == [(1, 1000, 2500), (2, 500, 500)]
    assert (original["stake_total"], original["payout_total"]) == (1500, 3000)

    live.cmd("correct", round="t1-000001", changes=BOX2_WINS, reason="box 2 held 9S, read as 8S: 19 beats 18")
    seq = live.journal.last_seq() - 1  # the command; its alert follows it
    assert [type(e) for e in live.effects] == [Record] and live.rounds() == [original]  # nothing changed yet
    pending = live.alerts()[-1]
    assert pending["code"] == "round.correction_pending" and pending["severity"] == "warning"
    assert pending["correction"] == seq and pending["changes"] == [
        {"box": 2, "hand": 1, "kind": "main", "player": "B", "stake": 500, "before": 500, "after": 1000}]
    assert live.core.state()["corrections_pending"] == [  # the pit sees each change's amounts before and after
        {"correction": seq, "round": "t1-000001", "reason": "box 2 held 9S, read as 8S: 19 beats 18",
         "requested_by": "dealer", "changes": pending["changes"]}]

    live.pit("approve_correction", sender="pitboss-ana", correction=str(seq))
    first, corrected = live.rounds()
    assert first == original and first["corrections"] == []  # the first record is left as it was
    assert corrected["round"] == "t1-000001" and corrected["status"] == "settled"
    assert corrected["opened"] == original["opened"] and corrected["closed"] == original["closed"]
    assert corrected["outcome"] == original["outcome"]
    assert [(b["box"], b["player"], b["stake"], b["payout"]) for b in corrected["bets"]] == [
        (1, "A", 1000, 2500), (2, "B", 500, 1000)]
    assert (corrected["stake_total"], corrected["payout_total"]) == (1500, 3500)
    (c,) = corrected["corrections"]
    assert c["seq"] == seq and c["requested_by"] == "dealer" and c["approved_by"] == "pitboss-ana"
    assert c["reason"] == "box 2 held 9S, read as 8S: 19 beats 18"
    assert c["changes"] == [{"box": 2, "hand": 1, "kind": "main", "player": "B", "stake": 500,
                             "before": 500, "after": 1000}]
    assert (c["payout_total_before"], c["payout_total_after"]) == (3000, 3500)
    assert live.alerts()[-1]["code"] == "round.correction_applied"
    assert live.core.state()["corrections_pending"] == []

    # applied once: a second approval, and an unknown correction, are refused
    live.pit("approve_correction", correction=str(seq))
    assert live.alerts()[-1]["code"] == "pit.approve_correction.applied" and len(live.rounds()) == 2
    live.pit("approve_correction", correction="9999")
    assert live.alerts()[-1]["code"] == "pit.approve_correction.unknown"
    live.pit("approve_correction", correction="x7")
    assert live.alerts()[-1]["code"] == "pit.approve_correction.unknown" and len(live.rounds()) == 2

    # a second correction builds on the corrected record
    live.cmd("correct", round="t1-000001", reason="blackjack paid 1:1 by mistake, then fixed",
             changes=[{"box": 1, "hand": 1, "kind": "main", "payout": 2000}])
    seq2 = live.journal.last_seq() - 1
    live.pit("approve_correction", sender="pitboss-bo", correction=str(seq2))
    third = live.rounds()[-1]
    assert [b["payout"] for b in third["bets"]] == [2000, 1000] and third["payout_total"] == 3000
    assert [c["seq"] for c in third["corrections"]] == [seq, seq2]
    assert third["corrections"][1]["payout_total_before"] == 3500


@pytest.mark.parametrize(
    ("round_id", "changes", "reason", "code"),
    [
        ("t1-000007", BOX2_WINS, "why", "table.correct.unknown_round"),
        ("t1-000001", [{"box": 3, "hand": 1, "kind": "main", "payout": 10}], "why", "table.correct.no_bet"),
        ("t1-000001", [{"box": 2, "hand": 1, "kind": "main", "payout": 500}], "why", "table.correct.unchanged"),
        ("t1-000001", [{"box": 2, "hand": 1, "kind": "main", "payout": -5}], "why", "input.refused"),
        ("t1-000001", [{"box": 2, "hand": 1, "kind": "main", "payout": True}], "why", "input.refused"),
        ("t1-000001", [{"box": 2, "kind": "main", "payout": 900}], "why", "input.refused"),
        ("t1-000001", [{"box": 2, "hand": 1, "kind": "main", "payout": 900, "stake": 1}], "why", "input.refused"),
        ("t1-000001", BOX2_WINS + BOX2_WINS, "why", "table.correct.changes"),
        ("t1-000001", [], "why", "input.refused"),
        ("t1-000001", BOX2_WINS, " ", "input.refused"),
    ],
)
def test_correction_refusals_change_nothing(round_id, changes, reason, code):
    live = Live(Journal(":memory:"))
    two_box_round(live)
    live.cmd("correct", round=round_id, changes=changes, reason=reason)
    assert live.alerts()[-1]["code"] == code and live.alerts()[-1]["severity"] == "warning"
    assert live.core.corrections == {} and len(live.rounds()) == 1


def test_one_pending_correction_per_round_and_none_of_a_void_round():
    live = Live(Journal(":memory:"))
    two_box_round(live)
    live.cmd("correct", round="t1-000001", changes=BOX2_WINS, reason="misread")
    live.cmd("correct", round="t1-000001", changes=BOX2_WINS, reason="again")
    assert live.alerts()[-1]["code"] == "table.correct.pending" and len(live.core.corrections) == 1
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=300, player="A")
    live.cmd("void_round")
    live.cmd("correct", round="t1-000002", reason="void", changes=[{"box": 1, "hand": 1, "kind": "main", "payout": 0}])
    assert live.alerts()[-1]["code"] == "table.correct.void"


def test_replay_rebuilds_corrections_and_writes_a_missing_corrected_record(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    live = Live(journal)
    two_box_round(live)
    live.cmd("correct", round="t1-000001", changes=BOX2_WINS, reason="misread")
    applied = journal.last_seq() - 1
    live.pit("approve_correction", correction=str(applied))
    live.cmd("correct", round="t1-000001", reason="pending one",
             changes=[{"box": 1, "hand": 1, "kind": "main", "player": "A", "payout": 2000}])
    pending = journal.last_seq() - 1
    before = (live.core.state(), live.core.corrections, live.core.records)
    count = journal.last_seq()

    fresh = new_core()
    assert replay(journal, fresh).written == 0 and journal.last_seq() == count
    assert (fresh.state(), fresh.corrections, fresh.records) == before
    assert fresh.corrections[applied]["status"] == "applied" and fresh.corrections[pending]["status"] == "pending"

    # the process died after journaling the approval, before the corrected record: written once
    live.pit("approve_correction", sender="boss", write=False, correction=str(pending))
    assert len(live.rounds()) == 2
    for _ in range(2):
        replay(journal, new_core())
    records = live.rounds()
    assert len(records) == 3 and [b["payout"] for b in records[-1]["bets"]] == [2000, 1000]
    assert [c["seq"] for c in records[-1]["corrections"]] == [applied, pending]


def test_acknowledge_alert_by_seq():
    live = Live(Journal(":memory:"))
    live.card("QS")  # a card with no round: an error hold
    (held,) = live.alert_entries("table.card.no_round")
    state = live.core.state()
    assert state["alerts_open"] == [{"seq": held.seq, "code": "table.card.no_round",
                                     "message": held.payload["message"], "round": None}]
    live.cmd("burn")
    assert [a["seq"] for a in live.core.state()["alerts_open"]] == [held.seq]  # resolved, not yet acknowledged

    live.pit("acknowledge_alert", alert=999)
    assert live.alerts()[-1]["code"] == "pit.acknowledge_alert.unknown"
    live.pit("acknowledge_alert", sender="pitboss-ana", alert=held.seq)
    assert live.core.state()["alerts_open"] == [] and live.core.acknowledged == {held.seq: "pitboss-ana"}
    assert live.alerts()[-1]["code"] == "pit.alert_acknowledged" and live.alerts()[-1]["alert"] == held.seq
    live.pit("acknowledge_alert", alert=held.seq)
    assert live.alerts()[-1]["code"] == "pit.acknowledge_alert.already"
    # a warning may be acknowledged too; it never was an open error
    warning = live.alert_entries("pit.acknowledge_alert.unknown")[0]
    live.pit("acknowledge_alert", alert=warning.seq)
    assert live.alerts()[-1]["code"] == "pit.alert_acknowledged"

    fresh = new_core()
    replay(live.journal, fresh)
    assert fresh.state() == live.core.state() and fresh.acknowledged == live.core.acknowledged


def test_alerts_the_table_did_not_write_are_unknown(tmp_path):
    """A refused pit command is journaled by the feed itself (source ``pit-command``): the table
    never raised it, live or on replay."""
    journal = Journal(tmp_path / "j.sqlite")
    live = Live(journal)
    other = journal.append(inputs.ALERT, {"severity": "error", "code": "command_refused", "message": "x"},
                           source="pit-command")
    live.pit("acknowledge_alert", alert=other.seq)
    assert live.alerts()[-1]["code"] == "pit.acknowledge_alert.unknown"
    fresh = new_core()
    replay(journal, fresh)
    assert fresh.state()["alerts_open"] == [] == live.core.state()["alerts_open"]


def test_burn_on_new_shoe():
    live = Live(Journal(":memory:"), new_core(burn=1))
    assert live.core.prompt() == "Burn 1 card" and live.core.state()["shoe"]["to_burn"] == 1
    assert device_sync(live.core)[0] == Gate(locked=False)  # the burn card must come out
    live.cmd("open_round")
    assert live.alerts()[-1]["code"] == "table.shoe.burn" and live.core.engine is None
    assert live.card("5H")[-1] == Gate(locked=True)
    assert live.alerts()[-1]["code"] == "shoe.burn" and live.alerts()[-1]["card"] == "5H"
    assert live.core.prompt() == "Open betting" and live.core.shoe.composition.left("5H") == 5
    assert live.core.shoe.burned == ["5H"] and live.core.shoe.last_n == 1
    two_box_round(live)
    (r,) = live.rounds()
    assert r["outcome"]["burned"] == [] and r["payout_total"] == 3000

    assert live.cmd("new_shoe") == [LoadShoe("t1-shoe-2", 6), Gate(locked=False)]
    assert live.core.prompt() == "Burn 1 card"
    live.put(inputs.DEVICE, {"type": "noread", "device": "shoe", "n": 1}, "shoe")
    assert live.core.prompt() == "Card 1 not read: key it in"
    live.cmd("key_card", card="AS")
    assert live.core.prompt() == "Open betting" and live.core.shoe.burned == ["AS"]

    fresh = new_core(burn=1)
    replay(live.journal, fresh)
    assert fresh.state() == live.core.state() and fresh.shoe.burned == ["AS"]


def test_burned_card_is_checked_against_the_shoe():
    core = TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6", {"decks": 1}), "ru6", 2)
    live = Live(Journal(":memory:"), core)
    live.card("AS")
    live.card("AS")  # a one-deck shoe holds one ace of spades
    assert core.hold is not None and core.hold.code == "shoe.impossible_card" and core.shoe.burn_left == 1
    live.cmd("burn")
    assert core.prompt() == "Burn 1 card"
    live.card("2D")
    assert core.prompt() == "Open betting"


def test_burn_setting_journaled_at_start_rules_replay(tmp_path):
    """A table started with burn 1 and nothing has left the shoe yet; the config now says 0.
    Replay burns as the table did then; the start after it burns as the config says."""
    journal = Journal(tmp_path / "j.sqlite")
    journal.append(inputs.TABLE_STARTED, {"burn_on_new_shoe": 1}, source="table")
    core = new_core(burn=0)
    replay(journal, core)
    assert core.shoe.burn_left == 1 and core.prompt() == "Burn 1 card"
    core.set_burn(0)
    assert core.prompt() == "Open betting"


def test_burn_config(tmp_path: Path):
    def burning(name: str, game: str = "blackjack", **table: int) -> Path:
        return write_table_config(tmp_path, game, name=name, table_id="b1", journal="j", limits={}, table=table)

    assert load(burning("a.toml")).table.burn_on_new_shoe == 0
    assert load(burning("b.toml", burn_on_new_shoe=1)).table.burn_on_new_shoe == 1
    with pytest.raises(ConfigError, match="table.burn_on_new_shoe"):
        load(burning("c.toml", burn_on_new_shoe=-1))
    with pytest.raises(ConfigError, match="burn_on_new_shoe: a roulette table has no shoe"):
        load(burning("d.toml", "roulette", burn_on_new_shoe=1))


def test_keyed_correction_line():
    from controller.terminal.keyboard import parse_line

    line = ("correct round=t1-000004 changes='[{\"box\": 2, \"hand\": 1, \"kind\": \"main\", \"payout\": 1000}]' "
            "reason=\"box 2 held 9S, read as 8S\"")
    assert parse_line(line) == {"command": "correct", "round": "t1-000004", "reason": "box 2 held 9S, read as 8S",
                                "changes": [{"box": 2, "hand": 1, "kind": "main", "payout": 1000}]}
    with pytest.raises(ValueError):
        parse_line("correct reason='unclosed")


# --------------------------------------------------------------------------- four eyes and the bound
def test_the_pit_boss_who_asked_for_a_correction_cannot_approve_it():
    """A pit boss at the console asked (``console:pit``) and approves as ``pit``: refused, the
    round stays as it was; another person's approval applies it. Replay decides the same."""
    journal = Journal(":memory:")
    live = Live(journal)
    two_box_round(live)
    payload = inputs.command("correct", round="t1-000001", changes=BOX2_WINS, reason="misread 9S")
    live.put(inputs.COMMAND, payload, source="console:pit")
    seq = live.journal.last_seq() - 1
    live.pit("approve_correction", sender="PIT", correction=seq)
    refused = live.alerts()[-1]
    assert refused["code"] == "pit.approve_correction.same_person"
    assert "another person must approve it" in refused["message"] and len(live.rounds()) == 1
    assert live.core.state()["corrections_pending"][0]["correction"] == seq
    live.pit("approve_correction", sender="pitboss-ana", correction=seq)
    assert live.alerts()[-1]["code"] == "round.correction_applied" and len(live.rounds()) == 2
    replayed = new_core()
    for entry in journal.entries():
        if entry.kind in inputs.INPUT_KINDS:
            replayed.step(entry)
    assert replayed.book.records["t1-000001"] == live.core.book.records["t1-000001"]


def test_a_payout_more_than_the_bet_can_return_is_refused_in_the_core_too():
    # box 2's 500 main at ru6 (blackjack 3:2) returns at most 1250; 10^12 is refused, said in EUR
    live = Live(Journal(":memory:"))
    two_box_round(live)
    too_much = [{**BOX2_WINS[0], "payout": 10**12}]
    live.put(inputs.COMMAND, inputs.command("correct", round="t1-000001", changes=too_much, reason="x"))
    refused = live.alerts()[-1]
    assert refused["code"] == "table.correct.too_much"
    assert refused["message"] == ("box 2.1 main: a payout of 10,000,000,000.00 EUR is more than a bet of 5.00 EUR "
                                  "can return at this table (at most 12.50 EUR)")
    assert live.core.state()["corrections_pending"] == []
    live.cmd("correct", round="t1-000001", changes=[{**BOX2_WINS[0], "payout": 1250}], reason="blackjack")
    assert live.alerts()[-1]["code"] == "round.correction_pending"
