import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.cards import BJ_POINTS, DECK, CardError, parse_card
from controller.money import Rounding, parse_ratio, scale, win
from controller.shoe import Composition, ImpossibleCard, Shoe, ShoeEmpty


def test_parse_card_normalises_and_refuses():
    assert parse_card("as") == "AS"
    assert parse_card("10h") == "TH"
    for bad in ("1S", "AX", "", "ASS", "11D"):
        with pytest.raises(CardError):
            parse_card(bad)


def test_deck_and_points():
    assert len(DECK) == 52 and len(set(DECK)) == 52
    assert [BJ_POINTS[r] for r in "23456789TJQKA"] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1]


@pytest.mark.parametrize(
    ("stake", "ratio", "down", "half_up"),
    [
        (1000, "3:2", 2500, 2500),
        (1005, "3:2", 2512, 2513),  # 1507.5 winnings: down 1507, half up 1508
        (333, "6:5", 732, 733),  # 399.6
        (101, "1:2", 151, 152),  # 50.5
        (100, "35:1", 3600, 3600),
        (7, "0:1", 7, 7),
    ],
)
def test_win_rounding(stake, ratio, down, half_up):
    r = parse_ratio(ratio)
    assert win(stake, r) == down
    assert win(stake, r, Rounding.HALF_UP) == half_up


@given(st.integers(0, 10**9), st.integers(0, 1000), st.integers(1, 1000))
def test_scale_matches_exact_fraction(amount, num, den):
    exact = Fraction(amount * num, den)
    down = scale(amount, Fraction(num, den))
    half = scale(amount, Fraction(num, den), Rounding.HALF_UP)
    assert down <= exact < down + 1
    assert abs(half - exact) <= Fraction(1, 2) and (half - exact != Fraction(-1, 2))


def test_parse_ratio_forms():
    assert parse_ratio("3:2") == Fraction(3, 2)
    assert parse_ratio(8) == Fraction(8)
    assert parse_ratio("0.95") == Fraction(19, 20)
    with pytest.raises(ValueError):
        parse_ratio("-1:1")


def test_composition_refuses_the_seventh_ace_of_spades():
    comp = Composition(6)
    for _ in range(6):
        comp.take("AS")
    with pytest.raises(ImpossibleCard, match="all 6 copies"):
        comp.take("AS")
    assert comp.left("AS") == 0 and len(comp) == 6 * 52 - 6


def test_composition_with_removed_ranks_refuses_them():
    comp = Composition(8, removed_ranks="9T")
    assert len(comp) == 8 * 52 - 64
    with pytest.raises(ImpossibleCard, match="removed"):
        comp.take("TH")
    comp.take("JH")
    comp.put_back("JH")
    with pytest.raises(ImpossibleCard):
        comp.put_back("JH")


def test_shoe_is_a_permutation_reproducible_by_seed():
    a = list(Shoe(6, random.Random(7)))
    b = list(Shoe(6, random.Random(7)))
    assert a == b and sorted(a) == sorted(DECK * 6)
    assert a != list(Shoe(6, random.Random(8)))


def test_shoe_cut_card_and_exhaustion():
    shoe = Shoe.with_penetration(6, random.Random(1), 2, 4)
    assert 104 <= shoe.cut_after <= 208
    for _ in range(shoe.cut_after - 1):
        shoe.draw()
    assert not shoe.cut_reached
    shoe.draw()
    assert shoe.cut_reached
    with pytest.raises(ShoeEmpty):
        while True:
            shoe.draw()
    assert shoe.dealt == 312


def test_stacked_shoe_deals_in_order_and_refuses_impossible_stacks():
    assert list(Shoe(1, random.Random(), stacked=["AS", "KD", "2c"])) == ["AS", "KD", "2C"]
    with pytest.raises(ImpossibleCard):
        Shoe(1, random.Random(), stacked=["AS", "AS"])
