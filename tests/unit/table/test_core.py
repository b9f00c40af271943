"""The table core on its own: journal entries in, effects out (the loop adds only I/O)."""

from __future__ import annotations

from typing import Any

from controller.commands.parse import parse_order
from controller.games.blackjack.rules import blackjack_rules
from controller.journal import Journal
from controller.runtime.recovery import replay
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.effects import Gate, LoadShoe, Record
from controller.table.inputs import InputRefused
from controller.table.registry import adapter_for


def new_core() -> TableCore:
    return TableCore("t1", adapter_for("blackjack"), blackjack_rules("ru6"), "ru6")


def refused_at_the_edge(journal: Journal, payload: dict[str, Any]) -> bool:
    """As the loop's edge: a command that is no command of the model is refused before it is
    journaled (an ``input.refused`` alert instead)."""
    try:
        parse_order(payload)
    except InputRefused as refused:
        journal.append(inputs.ALERT, {"severity": "warning", "code": "input.refused", "cause": 0,
                                      "message": refused.message}, source="table")
        return True
    return False


class Live:
    """The loop's order without its I/O: journal the input, step, journal the outputs."""

    def __init__(self, journal: Journal, core: TableCore | None = None, write_outputs: bool = True,
                 online: bool = True) -> None:
        self.journal = journal
        self.core = core or new_core()
        self.write_outputs = write_outputs
        self.effects: list[Any] = []
        if online:
            self.put(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "test"}, "shoe")

    def put(self, kind: str, payload: dict[str, Any], source: str = "test") -> list[Any]:
        entry = self.journal.append(kind, payload, source=source, round_id=self.core.round_id)
        effects = self.core.step(entry)
        self.effects += effects
        if self.write_outputs:
            for e in effects:
                if isinstance(e, Record):
                    self.journal.append(e.kind, e.payload, source="table", round_id=e.round_id)
        return effects

    def cmd(self, name: str, **args: Any) -> list[Any]:
        payload = inputs.command(name, **args)
        return [] if refused_at_the_edge(self.journal, payload) else self.put(inputs.COMMAND, payload)

    def card(self, card: str, n: int | None = None) -> list[Any]:
        if n is None:
            n = self.core.shoe.last_n + 1
        return self.put(inputs.DEVICE, {"type": "card", "device": "shoe", "card": card, "n": n}, "shoe")

    def alerts(self) -> list[dict[str, Any]]:
        return [e.payload for e in self.journal.entries() if e.kind == inputs.ALERT]

    def rounds(self) -> list[dict[str, Any]]:
        return [e.payload for e in self.journal.entries() if e.kind == inputs.ROUND_CLOSED]


def play_one_round(live: Live) -> None:
    """Box 1 (A, 1000): T-8 stands; dealer 9-9 stands on 18: a push."""
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("close_betting")
    for c in ("TS", "9H", "8D"):
        live.card(c)
    live.cmd("decide", box=1, action="stand", player="A")
    live.card("9C")
    live.cmd("settle")


def test_round_effects_and_record():
    live = Live(Journal(":memory:"))
    assert live.cmd("open_round") == [Gate(locked=True)]
    live.cmd("bet", box=1, amount=1000, player="A")
    assert live.cmd("close_betting") == [Gate(locked=False)]
    for c in ("TS", "9H", "8D"):
        live.card(c)
    live.cmd("decide", box=1, action="stand", player="A")
    live.card("9C")
    assert live.core.prompt() == "Dealer stands on 18 — settle"
    effects = live.cmd("settle")
    assert [type(e) for e in effects] == [Record, Gate]
    (r,) = live.rounds()
    assert r["bets"] == [{"box": 1, "hand": 1, "kind": "main", "player": "A", "stake": 1000, "payout": 1000}]
    assert live.core.prompt() == "Open betting"


def test_duplicate_read_same_card_is_ignored_other_card_holds():
    live = Live(Journal(":memory:"))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("close_betting")
    live.card("TS", 1)
    serial = live.core.serial
    assert live.card("TS", 1) == [] and live.core.serial == serial  # the shoe's resend: applied once
    live.card("9H", 1)
    assert live.core.hold is not None and live.core.hold.code == "shoe.duplicate_read"
    assert live.alerts()[-1]["code"] == "shoe.duplicate_read" and live.alerts()[-1]["hold"]


def test_gap_in_n_seen_by_the_table_holds():
    live = Live(Journal(":memory:"))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("close_betting")
    live.card("TS", 1)
    live.card("9H", 3)
    hold = live.core.hold
    assert hold is not None and hold.code == "shoe.lost_card" and hold.cards == [("?", 2), ("9H", 3)]
    assert live.core.shoe.last_n == 3


def test_card_with_no_round_can_only_be_burned():
    live = Live(Journal(":memory:"))
    live.card("QS")
    assert live.core.hold is not None and live.core.hold.options == ("burn",)
    live.cmd("void_round")
    assert live.alerts()[-1]["code"] == "table.round.none"
    live.cmd("burn")
    assert live.core.hold is None and live.core.prompt() == "Open betting"
    assert live.core.shoe.composition.left("QS") == 5  # it did leave the shoe


def test_malformed_and_unknown_commands_are_refused_at_the_edge_and_hold_when_journaled():
    live = Live(Journal(":memory:"))
    serial = live.core.serial
    assert live.cmd("shuffle") == [] and live.cmd("bet", box=1) == []
    assert [a["code"] for a in live.alerts()] == ["input.refused"] * 2 and live.core.serial == serial
    assert "unknown command 'shuffle'" in live.alerts()[0]["message"]
    # written into the journal behind the edge's back: the table holds on it, naming the entry
    bad = live.journal.append(inputs.COMMAND, {"command": "bet", "box": 1}, source="editor")
    live.core.step(bad)
    hold = live.core.hold
    assert hold is not None and hold.code == "table.entry_unapplicable" and hold.cause == bad.seq
    assert "bet needs 'amount'" in hold.message and hold.options == ("dismiss",)


def test_pit_void_and_close_after_round():
    live = Live(Journal(":memory:"))
    live.cmd("open_round")
    live.cmd("bet", box=2, amount=700, player="A")
    live.put(inputs.PIT_COMMAND, {"v": 1, "id": "c1", "sender": "boss", "command": "void_round", "round": "t1-000009"})
    assert live.alerts()[-1]["code"] == "pit.void_round.not_open"
    live.put(inputs.PIT_COMMAND, {"v": 1, "id": "c2", "sender": "boss", "command": "close_after_round"})
    live.put(inputs.PIT_COMMAND, {"v": 1, "id": "c3", "sender": "boss", "command": "void_round", "round": "t1-000001"})
    (r,) = live.rounds()
    assert r["status"] == "void" and r["stake_total"] == r["payout_total"] == 700
    assert live.core.prompt() == "Table closed"
    live.cmd("open_round")
    assert live.alerts()[-1]["code"] == "table.closing"


def test_new_shoe_only_between_rounds():
    live = Live(Journal(":memory:"))
    live.cmd("open_round")
    live.cmd("new_shoe")
    assert live.alerts()[-1]["code"] == "table.round.open"
    live.cmd("void_round")
    effects = live.cmd("new_shoe")
    assert effects == [LoadShoe("t1-shoe-2", 6), Gate(locked=True)]


def test_replay_rebuilds_an_open_round_and_writes_only_missing_outputs(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    live = Live(journal)
    play_one_round(live)
    live.cmd("open_round")
    live.cmd("bet", box=3, amount=500, player="B")
    live.cmd("close_betting")
    live.card("AS")
    live.card("7D")
    live.card("AH")  # box 3 holds A-A against a 7: a decision is due
    before = (live.core.prompt(), live.core.state(), live.core.engine.outcome())
    count = journal.last_seq()

    fresh = new_core()
    result = replay(journal, fresh)
    assert result.round_id == "t1-000002" and result.written == 0 and journal.last_seq() == count
    assert (fresh.prompt(), fresh.state(), fresh.engine.outcome()) == before
    assert fresh.shoe.composition.left("AS") == 5 and fresh.closed_rounds == 1

    # the process died after journaling "settle" but before its round record: replay writes it once
    crashed = Live(Journal(tmp_path / "k.sqlite"), write_outputs=False)
    play_one_round(crashed)
    assert crashed.rounds() == []
    first, second = (replay(crashed.journal, new_core()) for _ in range(2))
    assert (first.rounds_closed, second.rounds_closed) == (1, 0)  # `--rounds` counts it for the run that wrote it
    (r,) = crashed.rounds()
    assert r["round"] == "t1-000001" and r["payout_total"] == 1000


def test_keyed_command_lines():
    from controller.terminal.keyboard import parse_line

    assert parse_line("bet box=1 amount=500 player=A") == {"command": "bet", "box": 1, "amount": 500, "player": "A"}
    assert parse_line("key_card card=AH") == {"command": "key_card", "card": "AH"}
    assert parse_line("  ") is None
    for bad in ("shuffle", "bet 1 500"):
        try:
            parse_line(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")


def test_replay_uses_the_rules_journaled_at_each_start(tmp_path):
    """Round 1 was played with a 100 minimum; the config now says 2000. Replay must not refuse
    the old 1000 bet (and write alerts or a different record), new rounds take the new limit."""
    journal = Journal(tmp_path / "j.sqlite")
    old_rules = blackjack_rules("ru6", {"limits": {"main": {"min": 100, "max": 10000}}})
    journal.append(inputs.TABLE_STARTED, {"rules": old_rules.model_dump(mode="json")}, source="table")
    live = Live(journal, TableCore("t1", adapter_for("blackjack"), old_rules))
    play_one_round(live)
    count = journal.last_seq()

    new_rules = blackjack_rules("ru6", {"limits": {"main": {"min": 2000, "max": 10000}}})
    core = TableCore("t1", adapter_for("blackjack"), new_rules)
    result = replay(journal, core)
    assert result.written == 0 and journal.last_seq() == count and core.closed_rounds == 1
    assert core.rules is new_rules
    again = Live(journal, core)
    again.cmd("open_round")
    again.cmd("bet", box=1, amount=1000, player="A")
    assert again.alerts()[-1]["code"] == "blackjack.bet.limits"


def test_driver_refusing_a_conflicting_read_holds():
    live = Live(Journal(":memory:"))
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("close_betting")
    live.card("TS", 1)
    live.put(inputs.DEVICE, {"type": "refused", "device": "shoe", "reason": "n=1 conflicts with TS", "raw": "CARD;9H;1"})
    hold = live.core.hold
    assert hold is not None and hold.code == "shoe.duplicate_read" and hold.cards == [("9H", None)]
    live.put(inputs.DEVICE, {"type": "refused", "device": "shoe", "reason": "bad STATUS", "raw": "x"})
    assert live.alerts()[-1]["code"] == "device.refused" and not live.alerts()[-1]["hold"]


def test_no_round_until_the_shoe_reports_healthy():
    live = Live(Journal(":memory:"), online=False)
    live.cmd("open_round")
    assert live.alerts()[-1]["code"] == "device.shoe.offline"
    live.put(inputs.DEVICE, {"type": "online", "device": "shoe", "detail": "pty"}, "shoe")
    live.put(inputs.DEVICE, {"type": "fault", "device": "shoe", "code": 21, "text": "OPTICAL"}, "shoe")
    live.cmd("open_round")
    assert live.alerts()[-1]["code"] == "device.fault"
    live.put(inputs.DEVICE, {"type": "shoe_status", "device": "shoe", "state": "READY", "n": 0, "shoe_id": "S1"}, "shoe")
    live.core.restarted()  # a process restart: online again only once the shoe says so
    live.cmd("open_round")
    assert live.alerts()[-1]["code"] == "device.shoe.offline"
    live.put(inputs.DEVICE, {"type": "shoe_status", "device": "shoe", "state": "LOCKED", "n": 0, "shoe_id": "S1"}, "shoe")
    assert live.cmd("open_round") == [Gate(locked=True)]
    assert live.core.state()["devices"] == {"shoe": {"online": True, "fault": None}}
