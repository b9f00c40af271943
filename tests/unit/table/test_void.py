"""A void returns only what still rides (issue 17 item 12; RULES.md, docs/rules.md): a bet the
round settled before the void stands with its real payout, every bet still on the layout is
refunded, and the record says which is which."""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.config import load
from controller.games.base import ExpectKind, VoidRound
from controller.games.blackjack.rules import blackjack_rules
from controller.journal import Entry, Journal
from controller.process import build_core
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.effects import Record
from controller.table.registry import adapter_for
from tests.support.configs import write_table_config
from tests.unit.table.test_core import Live

DECK = [r + s for r in "23456789TJQKA" for s in "SHDC"]


def ru6_round_with_early_settlements() -> Live:
    """Four boxes of 1000 against a dealer's 6: box 1 hits to a bust, box 2 surrenders, box 3's
    blackjack is paid at once (no hole card, the dealer cannot have one), box 4 waits on 18."""
    live = Live(Journal(":memory:"))
    live.cmd("open_round")
    for box, player in ((1, "A"), (2, "B"), (3, "C"), (4, "D")):
        live.cmd("bet", box=box, amount=1000, player=player)
    live.cmd("close_betting")
    for card in ("TS", "TH", "AS", "9D", "6C", "6S", "6H", "KD", "9C"):
        live.card(card)
    live.cmd("decide", box=1, action="hit", player="A")
    live.card("TD")
    live.cmd("decide", box=2, action="surrender", player="B")
    assert live.core.engine is not None and live.core.engine.expects().box == 4
    return live


@pytest.mark.parametrize("way", ["dealer", "pit", "restart"])
def test_a_void_keeps_the_bust_the_surrender_and_the_paid_blackjack(way: str) -> None:
    live = ru6_round_with_early_settlements()
    if way == "dealer":
        live.cmd("void_round", reason="misdeal")
    elif way == "pit":
        live.put(inputs.PIT_COMMAND, {"v": 1, "id": "c1", "sender": "boss", "command": "void_round",
                                      "round": "t1-000001"}, "pit:boss")
    else:  # the table restarted with the round open: the dealer voids it instead of resuming
        live.core.restarted()
        live.cmd("void_round")
    record = live.rounds()[-1]
    bets = {b["box"]: (b["stake"], b["payout"]) for b in record["bets"]}
    assert record["status"] == "void"
    assert bets == {1: (1000, 0), 2: (1000, 500), 3: (1000, 2500), 4: (1000, 1000)}
    assert record["payout_total"] == 4000 and record["stake_total"] == 4000
    void = record["outcome"]["void"]
    assert [record["bets"][i]["box"] for i in void["returned"]] == [4]
    assert sorted(record["bets"][i]["box"] for i in void["stands"]) == [1, 2, 3]
    assert void["returned_total"] == 1000 and void["stands_payout_total"] == 3000
    said = next(a for a in live.alerts() if a["code"] == "table.round.void")
    assert "1 bet returned (10.00 EUR); 3 settled bets stand (paid 30.00 EUR)" in said["message"]


def test_a_void_after_everything_settled_returns_nothing() -> None:
    live = ru6_round_with_early_settlements()
    live.cmd("decide", box=4, action="stand", player="D")
    live.card("TC")  # the dealer: 6 T, then a card to 17 or more
    while live.core.phase != "settling":
        live.card("7H")
    live.cmd("void_round", reason="the pit asked")
    record = live.rounds()[-1]
    assert record["outcome"]["void"]["returned"] == [] and record["outcome"]["void"]["returned_total"] == 0
    assert [b["payout"] for b in sorted(record["bets"], key=lambda b: b["box"])][:3] == [0, 500, 2500]


def test_even_money_taken_stands_through_a_void() -> None:
    """am8: box 1's blackjack against the dealer's ace takes even money (paid 1:1 at once); the
    round is voided at box 2's insurance question: box 1 keeps its even money, box 2 is refunded."""
    core = TableCore("t1", adapter_for("blackjack"), blackjack_rules("am8"), "am8")
    live = Live(Journal(":memory:"), core)
    live.cmd("open_round")
    live.cmd("bet", box=1, amount=1000, player="A")
    live.cmd("bet", box=2, amount=1000, player="B")
    live.cmd("close_betting")
    for card in ("AS", "9H", "AC", "KD", "7C"):
        live.card(card)
    live.cmd("decide", box=1, action="even_money", player="A")
    live.cmd("void_round", reason="card exposed")
    record = live.rounds()[-1]
    assert [(b["box"], b["stake"], b["payout"]) for b in record["bets"]] == [(1, 1000, 2000), (2, 1000, 1000)]
    assert record["outcome"]["void"]["stands"] == [0] and record["outcome"]["void"]["returned"] == [1]


# ------------------------------------------------------------------ every shoe game, at any moment
GAMES = ("blackjack", "three-card-blackjack", "catch-a-wave", "russian-poker", "baccarat")
#: (game, preset, limits) besides each game's own test table: even money and the side bets of
#: am8, the exchange fee of Russian poker's exchange preset
VARIANTS = [(g, None, None) for g in GAMES] + [
    ("blackjack", "am8", 'main = { min = 100, max = 500000 }\nperfect_pairs = { min = 100, max = 10000 }\n'
                         '"21+3" = { min = 100, max = 10000 }'),
    ("russian-poker", "exchange", 'ante = { min = 100, max = 100000 }'),
]


def variant_config(tmp_path: Path, game: str, preset: str | None, limits: str | None) -> Path:
    """The validation suite's table of ``game``, with another preset and limits where given."""
    return write_table_config(tmp_path, game, name=f"{game}.toml", table_id="v1", journal=f"{game}.journal",
                              preset=preset, limits=limits)


class Driver:
    """A table core played by chance: bets of every kind the limits name, random legal choices,
    cards from a shuffled shoe; outputs kept as the loop would journal them."""

    def __init__(self, core: TableCore, rng: random.Random) -> None:
        self.core, self.rng, self.seq, self.records = core, rng, 0, []
        self.deck = DECK * 8
        rng.shuffle(self.deck)
        self.put(inputs.DEVICE, {"type": "online", "device": "shoe"})

    def put(self, kind: str, payload: dict[str, Any]) -> None:
        self.seq += 1
        entry = Entry(self.seq, f"2026-01-01T00:00:{self.seq % 60:02d}Z", self.core.round_id, kind, "test", payload)
        for effect in self.core.step(entry):
            if isinstance(effect, Record) and effect.kind == inputs.ROUND_CLOSED:
                self.records.append(effect.payload)

    def cmd(self, name: str, **args: Any) -> None:
        self.put(inputs.COMMAND, inputs.command(name, **args))

    def bets(self) -> None:
        core = self.core
        for box in (1, 2, 3):
            for kind, limit in core.rules.limits.items():
                if self.rng.random() < 0.7:
                    self.cmd("bet", box=box, amount=limit.min, kind=kind, player=f"P{box}")

    def act(self) -> None:
        core, engine = self.core, self.core.engine
        assert engine is not None
        expect = engine.expects()
        if expect.kind is ExpectKind.BETS:
            self.cmd("close_betting")
        elif expect.kind is ExpectKind.DECISION:
            if self.rng.random() < 0.5 and expect.options:
                option = self.rng.choice(expect.options)
                player = expect.players[0] if expect.players else None
                self.cmd("decide", box=expect.box, hand=expect.hand or 1, action=option, player=player)
            if core.engine is engine and engine.expects() == expect:  # refused, or not tried: as a player would
                self.put(inputs.COMMAND, core.adapter.simulated_command(engine, expect, core.rules,
                                                                        core.shoe.composition))
        else:
            card = next(c for c in self.deck if core.shoe.composition.left(c) > 0)
            self.deck.remove(card)
            self.put(inputs.DEVICE, {"type": "card", "device": "shoe", "card": card, "n": core.shoe.last_n + 1})


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 10**6), steps=st.integers(0, 30))
def test_every_game_voids_as_its_engine_does_keeping_what_was_settled(
        tmp_path: Path, variant: tuple[str, str | None, str | None], seed: int, steps: int) -> None:
    core = build_core(load(variant_config(tmp_path, *variant)))
    play = Driver(core, random.Random(seed))
    play.cmd("open_round")
    play.bets()
    for _ in range(steps):
        if core.engine is None or core.hold is not None or core.phase == "settling":
            break
        play.act()
    if core.engine is None:
        return
    settled_before = list(core.engine.settlements)
    engine_void = copy.deepcopy(core.engine)
    try:
        engine_void.apply(VoidRound("test"))
        by_engine: list[Any] | None = list(engine_void.settlements)
    except Exception:
        by_engine = None
    play.cmd("void_round", reason="test")
    (record,) = play.records
    rows = [(b["box"], b["hand"], b["kind"], b["player"], b["stake"], b["payout"]) for b in record["bets"]]
    kept = [(s.box, s.hand, s.kind, s.player, s.stake, s.payout) for s in settled_before]
    assert rows[:len(kept)] == kept, "a settled bet was changed by the void"
    assert all(b["stake"] == b["payout"] for b in record["bets"][len(kept):]), "an open bet was not refunded"
    assert record["outcome"]["void"]["stands"] == list(range(len(kept)))
    if by_engine is not None:
        engine_rows = [(s.box, s.hand, s.kind, s.player, s.stake, s.payout) for s in by_engine]
        assert Counter(rows) == Counter(engine_rows), "the table's void differs from the engine's own"
