"""The seed strategy table read as docs/rules.md §3 states it."""

from __future__ import annotations

from controller.cards import RANK_INDEX
from controller.games.catch_a_wave import SEED_TABLE, SeedStrategy, parse_range
from controller.shoe import Composition

IX = RANK_INDEX  # "2" -> 0 ... "A" -> 12
FULL = Composition(8)


def test_ranges_parse_to_rank_indices():
    assert parse_range("6-10") == (IX["6"], IX["T"])
    assert parse_range("4-Q") == (2, 10)
    assert parse_range("8") == (6, 6)
    assert parse_range("none") is None


def test_table_has_every_up_card_and_six_columns():
    assert set(SEED_TABLE) == {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
    assert all(len(row) == 6 for row in SEED_TABLE.values())


def test_stand_inside_the_range_call_towards_it_outside():
    s = SeedStrategy()
    # dealer 7, 0 right calls: stand on 4..Q
    assert [s.decide(IX["7"], 0, IX[r], FULL) for r in "34QK"] == ["higher", "stand", "stand", "lower"]
    # dealer 4, 3 right calls: 5-J
    assert [s.decide(IX["4"], 3, IX[r], FULL) for r in "45JQ"] == ["higher", "stand", "stand", "lower"]
    # dealer 10 (row "10"), 5 right calls: stand only on 8
    assert [s.decide(IX["T"], 5, IX[r], FULL) for r in "789"] == ["higher", "stand", "lower"]


def test_none_hits_and_an_eight_is_called_towards_more_unseen_cards():
    s = SeedStrategy()
    # dealer A, 0 right calls: always hit; 7 -> higher, 9 -> lower
    assert s.decide(IX["A"], 0, IX["7"], FULL) == "higher"
    assert s.decide(IX["A"], 0, IX["9"], FULL) == "lower"
    # an 8: with two low cards gone, more cards above 8 are unseen -> higher
    low_gone = Composition(8)
    low_gone.take("2S")
    low_gone.take("3S")
    assert s.decide(IX["A"], 0, IX["8"], low_gone) == "higher"
    high_gone = Composition(8)
    high_gone.take("KS")
    assert s.decide(IX["7"], 5, IX["8"], high_gone) == "lower"
    # full shoe: 24 * 8 either side, the tie rule decides
    assert SeedStrategy(tie_call="lower").decide(IX["2"], 0, IX["8"], FULL) == "lower"
