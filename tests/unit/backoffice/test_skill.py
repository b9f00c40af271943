"""Reading a blackjack hand's decisions back from its final cards, status and multiplier."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from controller.backoffice.skill import box_decisions, hand_decisions

RANKS = "23456789TJQKA"


def test_each_card_past_the_second_is_a_hit_and_a_stand_ends_it() -> None:
    assert hand_decisions(["5S", "6H", "9D"], "live", 1) == [(("5S", "6H"), "hit"), (("5S", "6H", "9D"), "stand")]


def test_a_bust_ends_on_the_hit_and_a_21_stands_by_itself() -> None:
    assert hand_decisions(["TS", "6H", "9D"], "bust", 1) == [(("TS", "6H"), "hit")]
    assert hand_decisions(["TS", "5H", "6D"], "live", 1) == [(("TS", "5H"), "hit")]
    assert hand_decisions(["AS", "KH"], "blackjack", 1) == []


def test_a_double_and_a_surrender_are_taken_on_the_first_two_cards() -> None:
    assert hand_decisions(["5S", "6H", "9D"], "live", 2) == [(("5S", "6H"), "double")]
    assert hand_decisions(["TS", "6H"], "surrendered", 1) == [(("TS", "6H"), "surrender")]


def test_a_split_box_is_rated_at_its_pair_only() -> None:
    box = {"box": 2, "hands": [{"hand": 1, "cards": ["8S", "3H", "TD"], "status": "live", "multiplier": 1},
                               {"hand": 2, "cards": ["8D", "9C"], "status": "live", "multiplier": 1}]}
    assert [(hand, d.cards, d.action) for hand, d in box_decisions(box, "TC")] == [(1, ("8S", "8D"), "split")]


@given(st.lists(st.sampled_from(RANKS), min_size=2, max_size=7), st.sampled_from(["live", "bust", "hit"]))
def test_no_decision_is_read_at_21_or_more_and_each_has_the_cards_seen(ranks: list[str], status: str) -> None:
    cards = [r + "S" for r in ranks]
    for at, _action in hand_decisions(cards, status, 1):
        assert 2 <= len(at) <= len(cards) and list(at) == cards[: len(at)]
        hard = sum(1 if c[0] == "A" else 10 if c[0] in "TJQK" else int(c[0]) for c in at)
        assert min(hard + 10 if "A" in "".join(at) and hard + 10 <= 21 else hard, 99) < 21
