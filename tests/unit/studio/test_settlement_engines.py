"""A remote bet settles exactly as the same bet placed at the felt: the studio plays the table's
round record into the game's own engine, for random results."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from controller.cards import CARDS
from controller.games.base import CloseBetting, Deal, ExpectKind, PlaceBet, WheelResult
from controller.studio.config import TableSection
from controller.studio.rules import TableRules

ROULETTE = TableRules(TableSection(game="roulette", preset="european"))
BACCARAT = TableRules(TableSection(game="baccarat"))
ROULETTE_KINDS = ["red", "black", "even", "odd", "low", "high", "dozen:1", "dozen:3", "column:2", "straight:0",
                  "straight:17", "split:17-20", "street:16-17-18", "corner:17-18-20-21"]
POCKETS = [str(n) for n in range(37)]


@given(kind=st.sampled_from(ROULETTE_KINDS), units=st.integers(5, 50), number=st.sampled_from(POCKETS),
       others=st.lists(st.tuples(st.sampled_from(ROULETTE_KINDS), st.integers(5, 50)), max_size=5))
def test_a_remote_roulette_bet_pays_what_the_felt_pays(kind: str, units: int, number: str,
                                                       others: list[tuple[str, int]]) -> None:
    amount = units * 100
    felt = ROULETTE.adapter.new_round(ROULETTE.rules)
    for n, (other, other_units) in enumerate(others, start=2):  # other players at the felt, other boxes
        felt.apply(PlaceBet(1 + n % 3, other, other_units * 100, f"felt{n}"))
    felt.apply(PlaceBet(4, kind, amount, "remote"))
    felt.apply(CloseBetting())
    felt.apply(WheelResult((number,)))
    record_outcome = felt.outcome().model_dump(mode="json")
    mine = [s for s in felt.settlements if s.player == "remote"]
    assert ROULETTE.payout(kind, amount, record_outcome) == mine[0].payout


@given(kind=st.sampled_from(["player", "banker", "tie"]), units=st.integers(1, 100), seed=st.integers(0, 2**32))
def test_a_remote_baccarat_bet_pays_what_the_felt_pays(kind: str, units: int, seed: int) -> None:
    amount = units * 100
    shoe = random.Random(seed).sample(sorted(CARDS), 6)
    felt = BACCARAT.adapter.new_round(BACCARAT.rules)
    felt.apply(PlaceBet(2, kind, amount, "remote"))
    felt.apply(PlaceBet(1, "player", 1000, "felt"))
    felt.apply(CloseBetting())
    while felt.expects().kind is ExpectKind.CARD:
        felt.apply(Deal(shoe.pop(0)))
    record_outcome = felt.outcome().model_dump(mode="json")
    mine = [s for s in felt.settlements if s.box == 2]
    assert BACCARAT.payout(kind, amount, record_outcome) == mine[0].payout
