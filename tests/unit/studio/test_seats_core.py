"""Seats at the table's core (docs/studio.md, "Seats"): a remote player's box waits for the
player's decision with a deadline from the journal; the table's own decision at the deadline or
on a lost connection is journaled with its cause before the engine takes it, the policy returns
the box's remote bets or plays the game's default, and a replay (a restart mid-decision) rebuilds
the very turn and deadline."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.console.view import table_view
from controller.games.base import ExpectKind
from controller.journal import Journal
from controller.runtime import snapshot
from controller.runtime.recovery import replay
from controller.table import inputs
from controller.table.betting import BettingTime, later
from controller.table.core import TableCore
from controller.table.effects import Deadline
from controller.table.registry import adapter_for
from controller.table.seats import DECISION_TIMER, DISCONNECT_TIMER, default_decision, timeout_order
from tests.unit.table.test_core import Live

ANNA = "casino-a/anna"


def seated_core(policy: str = "refund", game: str = "blackjack", preset: str | None = "am8") -> TableCore:
    adapter = adapter_for(game)
    core = TableCore("bj1", adapter, adapter.rules(preset, {}, {}), preset)
    core.betting.set_time(BettingTime(decision_s=10, decision_policy=policy))
    return core


def seat(box: int = 3, player: str = ANNA, name: str = "Anna", seated: bool = True, connected: bool = True,
         ident: str = "seat-1") -> dict[str, Any]:
    return {"v": 1, "id": ident, "type": "seat", "box": box, "player": player, "name": name, "seated": seated,
            "connected": connected}


def bets(round_id: str, box: int = 3, player: str = ANNA, kind: str = "main", amount: int = 1000,
         ident: str = "bets-1") -> dict[str, Any]:
    return {"v": 1, "id": ident, "type": "bets", "round": round_id, "box": box, "player": player,
            "request": f"r-{ident}", "bets": [{"kind": kind, "amount": amount}]}


def decide(round_id: str, decision: str, box: int = 3, hand: int = 1, player: str = ANNA,
           ident: str = "d-1") -> dict[str, Any]:
    return {"v": 1, "id": ident, "type": "decide", "round": round_id, "box": box, "hand": hand,
            "decision": decision, "player": player, "request": f"req-{ident}"}


def dealt_to_a_decision(live: Live, first: str = "TS", up: str = "9H", second: str = "6D") -> str:
    """Anna sits at box 3, bets through the studio, and her 16 against a 9 waits for her."""
    live.put(inputs.STUDIO, seat(), "studio")
    live.cmd("open_round")
    round_id = live.core.round_id or ""
    live.put(inputs.STUDIO, bets(round_id), "studio")
    live.cmd("close_betting")
    for card in (first, up, second):
        live.card(card)
    return round_id


def timer_decision(live: Live, deadline: Deadline) -> list[Any]:
    """What the loop journals at the turn's deadline: the table's decision from the timer's source."""
    order = timeout_order(live.core, deadline)
    assert order is not None
    return live.put(inputs.COMMAND, order.journal_form(), deadline.source)


def deadlines(effects: list[Any]) -> list[Deadline]:
    return [e for e in effects if isinstance(e, Deadline)]


def test_the_seated_box_waits_for_its_player_with_a_deadline_from_the_journal() -> None:
    live = Live(Journal(":memory:"), seated_core())
    round_id = dealt_to_a_decision(live)
    turn = live.core.seats.turn
    last = list(live.journal.entries())[-1]
    assert turn is not None and (turn.box, turn.hand, turn.player) == (3, 1, ANNA)
    assert turn.deadline == later(last.ts, 10) and turn.source == DECISION_TIMER
    assert Deadline(round_id, DECISION_TIMER, turn.deadline, last.seq) in live.effects
    assert live.core.prompt() == "Box 3: Anna decides, 10 s"
    live.cmd("decide", box=3, action="hit")  # the dealer does not decide for her
    assert live.alerts()[-1]["code"] == "table.seat.remote_decides"
    assert live.core.engine is not None and live.core.engine.expects().kind is ExpectKind.DECISION
    live.put(inputs.STUDIO, decide(round_id, "hit"), "studio")
    assert live.core.engine.expects().kind is ExpectKind.CARD
    assert live.core.seats.turn is None and live.core.seats.decisions[-1]["cause"] == "player"
    live.card("2C")  # 18: her next decision is a new turn with its own deadline
    again = live.core.seats.turn
    assert again is not None and again.seq != turn.seq
    live.put(inputs.STUDIO, decide(round_id, "stand", ident="d-2"), "studio")
    live.card("8C")  # the dealer 9-8 stands on 17: her 18 wins
    live.cmd("settle")
    record = live.rounds()[-1]
    assert record["remote"]["seats"]["players"] == {"3": ANNA}
    assert [d["cause"] for d in record["remote"]["seats"]["decisions"]] == ["player", "player"]
    row = next(b for b in record["bets"] if b["player"] == ANNA)
    assert (row["stake"], row["payout"]) == (1000, 2000)


@pytest.mark.parametrize(("policy", "refunded"), [("refund", [3]), ("default", [])])
def test_at_the_deadline_the_table_decides_the_default_and_journals_the_cause_first(policy: str,
                                                                                     refunded: list[int]) -> None:
    live = Live(Journal(":memory:"), seated_core(policy))
    round_id = dealt_to_a_decision(live)
    turn = live.core.seats.turn
    assert turn is not None
    timer_decision(live, turn.deadline_effect())
    entries = list(live.journal.entries())
    decided = next(e for e in entries if e.source == DECISION_TIMER)
    assert decided.kind == inputs.COMMAND and decided.payload["action"] == "stand"  # journaled before the engine took it
    said = live.core.seats.decisions[-1]
    assert (said["decision"], said["cause"], said["refunded"], said["seq"]) == ("stand", "timeout", bool(refunded),
                                                                              decided.seq)
    assert live.alerts()[-1]["code"] == "table.seat.timeout"
    live.card("8C")
    live.cmd("settle")
    record = live.rounds()[-1]
    assert record["round"] == round_id and record["remote"]["seats"]["refunded"] == refunded


def test_a_timer_after_the_players_decision_does_nothing() -> None:
    live = Live(Journal(":memory:"), seated_core())
    round_id = dealt_to_a_decision(live)
    turn = live.core.seats.turn
    assert turn is not None
    live.put(inputs.STUDIO, decide(round_id, "double"), "studio")
    assert timeout_order(live.core, turn.deadline_effect()) is None  # the loop's timer finds nothing due
    live.put(inputs.COMMAND, {"command": "decide", "box": 3, "action": "stand"}, DECISION_TIMER)  # journaled anyway
    assert [d["decision"] for d in live.core.seats.decisions] == ["double"]
    assert live.core.engine is not None and live.core.engine.expects().kind is ExpectKind.CARD


def test_a_lost_connection_decides_at_once_and_a_late_decision_changes_nothing() -> None:
    live = Live(Journal(":memory:"), seated_core())
    round_id = dealt_to_a_decision(live)
    effects = live.put(inputs.STUDIO, seat(connected=False, ident="seat-2"), "studio")
    turn = live.core.seats.turn
    last = list(live.journal.entries())[-1]
    assert turn is not None and turn.source == DISCONNECT_TIMER and turn.deadline == last.ts
    assert deadlines(effects) == [turn.deadline_effect()]
    timer_decision(live, turn.deadline_effect())
    assert live.core.seats.decisions[-1]["cause"] == "disconnect" and live.core.seats.decisions[-1]["refunded"]
    live.put(inputs.STUDIO, decide(round_id, "hit", ident="d-late"), "studio")
    assert live.alerts()[-1]["code"] == "studio.decision_late"
    assert [d["decision"] for d in live.core.seats.decisions] == ["stand"]


def test_a_disconnected_players_next_turn_is_decided_at_once() -> None:
    live = Live(Journal(":memory:"), seated_core())
    live.put(inputs.STUDIO, seat(connected=False), "studio")
    live.cmd("open_round")
    round_id = live.core.round_id or ""
    live.put(inputs.STUDIO, bets(round_id), "studio")
    live.cmd("close_betting")
    for card in ("TS", "9H", "6D"):
        live.card(card)
    turn = live.core.seats.turn
    assert turn is not None and turn.source == DISCONNECT_TIMER


def test_a_restart_mid_decision_rebuilds_the_turn_and_its_deadline() -> None:
    journal = Journal(":memory:")
    live = Live(journal, seated_core())
    dealt_to_a_decision(live)
    fresh = seated_core()
    assert replay(journal, fresh, snapshots=False).written == 0
    assert fresh.seats == live.core.seats and fresh.seats.turn is not None
    assert fresh.deadlines() == live.core.deadlines() == [fresh.seats.turn.deadline_effect()]


def test_bets_on_another_players_seat_and_after_betting_are_refused_and_named() -> None:
    live = Live(Journal(":memory:"), seated_core())
    live.put(inputs.STUDIO, seat(), "studio")
    live.put(inputs.STUDIO, seat(player="casino-a/ben", name="Ben", ident="seat-b"), "studio")
    assert live.alerts()[-1]["code"] == "studio.seat_refused" and live.core.seats.seats[3].name == "Anna"
    live.cmd("open_round")
    round_id = live.core.round_id or ""
    live.put(inputs.STUDIO, bets(round_id, player="casino-a/ben", ident="b-ben"), "studio")
    assert live.alerts()[-1]["code"] == "studio.bet_refused"
    live.cmd("close_betting")
    live.put(inputs.STUDIO, bets(round_id, ident="b-late"), "studio")
    assert live.alerts()[-1]["code"] == "studio.bet_refused"


def test_roulette_seats_nobody() -> None:
    adapter = adapter_for("roulette")
    live = Live(Journal(":memory:"), TableCore("rl", adapter, adapter.rules("european", {}, {})), online=False)
    live.put(inputs.STUDIO, seat(box=1), "studio")
    assert live.alerts()[-1]["code"] == "studio.seat_refused" and not live.core.seats.seats


# -- every game that seats: the table's decision is always one the engine takes -------------------------
GAMES = [("blackjack", "ru6"), ("blackjack", "am8"), ("three-card-blackjack", None), ("russian-poker", None),
         ("catch-a-wave", None)]
RANKS = "23456789TJQKA"
CARDS = st.lists(st.sampled_from([r + s for r in RANKS for s in "SHDC"]), min_size=40, max_size=40, unique=True)


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), cards=CARDS, policy=st.sampled_from(["refund", "default"]))
def test_every_timeout_is_a_legal_default_and_the_round_ends(game: tuple[str, str | None], cards: list[str],
                                                              policy: str) -> None:
    name, preset = game
    core = seated_core(policy, name, preset)
    live = Live(Journal(":memory:"), core)
    live.put(inputs.STUDIO, seat(box=1), "studio")
    live.cmd("open_round")
    round_id = core.round_id or ""
    kind = core.adapter.bet_kind
    amount = core.rules.limits[kind].min
    live.put(inputs.STUDIO, bets(round_id, box=1, kind=kind, amount=amount), "studio")
    live.cmd("close_betting")
    decided = 0
    for card in cards:
        if core.engine is None or core.phase == "settling":
            break
        turn = core.seats.turn
        if turn is not None:
            assert default_decision(core.adapter, turn.options) in turn.options
            timer_decision(live, turn.deadline_effect())
            decided += 1
            assert core.seats.decisions[-1]["cause"] == "timeout"
            continue
        live.card(card)
    assert core.phase == "settling", live.alerts()[-3:]
    live.cmd("settle")
    record = live.rounds()[-1]
    assert len(record["remote"]["seats"]["decisions"]) == decided  # none for a blackjack on the deal
    assert record["remote"]["seats"]["refunded"] == ([1] if policy == "refund" and decided else [])
    assert not [a for a in live.alerts() if a["severity"] != "info"]


def test_a_player_who_leaves_mid_round_is_decided_for_and_the_seat_goes_with_the_round() -> None:
    live = Live(Journal(":memory:"), seated_core())
    round_id = dealt_to_a_decision(live)
    live.put(inputs.STUDIO, seat(seated=False, ident="seat-leave"), "studio")
    turn = live.core.seats.turn
    assert turn is not None and turn.source == DISCONNECT_TIMER and turn.round_id == round_id
    timer_decision(live, turn.deadline_effect())
    live.card("8C")
    live.cmd("settle")
    assert live.rounds()[-1]["remote"]["seats"]["refunded"] == [3]
    assert live.core.seats.seats == {}


def test_the_console_counts_the_waiting_seat_down_to_the_tables_deadline() -> None:
    live = Live(Journal(":memory:"), seated_core())
    dealt_to_a_decision(live)
    turn = live.core.seats.turn
    assert turn is not None
    assert table_view(live.core)["waiting"] == {"box": 3, "name": "Anna", "deadline": turn.deadline}
    live.put(inputs.STUDIO, decide(live.core.round_id or "", "stand"), "studio")
    assert table_view(live.core)["waiting"] is None


def test_a_snapshot_taken_mid_decision_keeps_the_turn() -> None:
    live = Live(Journal(":memory:"), seated_core())
    dealt_to_a_decision(live)
    restored = snapshot.load(snapshot.dump(live.core), live.core.adapter)
    assert restored.seats == live.core.seats and restored.deadlines() == live.core.deadlines()
