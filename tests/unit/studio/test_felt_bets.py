"""The studio's felt bets (docs/studio.md, "Seats", "Bet Behind"): which book kinds the table's
engine plays, and what each is paid from the round record's rows: for any cards and decisions,
a seated player's bet and a Bet Behind are paid exactly what the engine settled for them, and
what a double, split or insurance added is the stake beyond the accepted bet."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from controller.studio.seats import felt_payout
from controller.studio.sides import felt_kind
from controller.table.record import bet_rows
from tests.unit.studio.test_behind_presets import AMOUNT, BEHIND, CHOICES, OWNER, PRESETS, SHOE, play


@pytest.mark.parametrize(("game", "kind", "felt"), [
    ("blackjack", "main@3", ("main", 3)), ("blackjack", "behind@2", ("behind", 2)),
    ("blackjack", "behind@2+double+insurance", ("behind+double+insurance", 2)),
    ("blackjack", "behind_stay@7", ("behind_stay", 7)), ("blackjack", "21+3@3", None),
    ("blackjack", "perfect_pairs@1", None), ("blackjack", "behind@2+split+double", None),
    ("blackjack", "main", None), ("blackjack", "main@0", None), ("blackjack", "main@x", None),
    ("three-card-blackjack", "ante@2", ("ante", 2)), ("russian-poker", "ante@1", ("ante", 1)),
    ("russian-poker", "behind@1", None), ("roulette", "red@1", None), ("roulette", "straight:17", None),
])
def test_the_kinds_played_on_the_felt(game: str, kind: str, felt: tuple[str, int] | None) -> None:
    assert felt_kind(game, kind) == felt


@settings(max_examples=200, deadline=None)
@given(presets=PRESETS, cards=SHOE, choices=CHOICES)
def test_a_felt_bet_is_paid_what_the_engine_settled_for_it(presets: tuple[bool, bool, bool], cards: list[str],
                                                           choices: list[int]) -> None:
    engine = play(cards, choices, presets)
    record = {"bets": bet_rows(engine.settlements), "remote": {"seats": {"refunded": []}}}
    for player, kind in ((OWNER, "main"), (BEHIND, "behind")):
        mine = [s for s in engine.settlements if s.player == player]
        paid, added = felt_payout(record, player, kind, 1, AMOUNT)
        assert paid == sum(s.payout for s in mine)
        assert added == sum(s.stake for s in mine) - AMOUNT >= 0


def test_no_row_or_a_refunded_box_returns_the_bet() -> None:
    rows = [{"box": 1, "hand": 1, "kind": "main", "player": "a/b", "stake": 2000, "payout": 0}]
    assert felt_payout({"bets": rows}, "a/b", "main", 2, 1000) == (1000, 0)  # the table took none on box 2
    refunded = {"bets": rows, "remote": {"seats": {"refunded": [1]}}}
    assert felt_payout(refunded, "a/b", "main", 1, 1000) == (1000, 0)
    assert felt_payout({"bets": rows}, "a/b", "main", 1, 1000) == (0, 1000)  # doubled and lost
