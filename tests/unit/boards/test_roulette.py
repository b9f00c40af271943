"""Roulette's boards against spins worked by hand."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.games.roulette import RouletteRound, roulette_rules
from controller.games.roulette.board import from_outcomes, from_records, from_spins
from controller.games.roulette.layout import EUROPEAN_ORDER, WheelKind

SPINS = "17 0 32 17 5 32 17 36 2 0".split()


def single(numbers: list[str]) -> list[tuple[str]]:
    return [(n,) for n in numbers]


def test_last_spins_newest_first_with_the_newest_marked():
    boards = from_spins(single([str(n) for n in range(1, 26)]))
    assert [s.balls[0].number for s in boards.last] == [str(n) for n in range(25, 5, -1)]
    assert [s.newest for s in boards.last] == [True] + [False] * 19
    assert (boards.spins, boards.window, boards.balls) == (25, 25, 1)
    assert [s.balls[0].number for s in from_spins(single(SPINS), last=3).last] == ["0", "2", "36"]


def test_hot_numbers_break_ties_by_the_most_recent_hit():
    # hits: 17 x3; 32 x2 (last 4 spins ago) and 0 x2 (the newest); 2, 36, 5 once (1, 2, 5 ago)
    hot = from_spins(single(SPINS)).hot
    assert [(h.number, h.hits) for h in hot] == [("17", 3), ("0", 2), ("32", 2), ("2", 1), ("36", 1)]
    assert [h.colour for h in hot] == ["black", "green", "red", "black", "red"]


def test_cold_numbers_are_the_least_hit_and_longest_ago():
    # every pocket once in layout order, then 5, 5, 17: 0, 1, 2 were hit once and longest ago
    spins = single([str(n) for n in range(37)] + ["5", "5", "17"])
    boards = from_spins(spins, top=3)
    assert [(c.number, c.hits) for c in boards.cold] == [("0", 1), ("1", 1), ("2", 1)]
    assert [(h.number, h.hits) for h in boards.hot] == [("5", 3), ("17", 2), ("36", 1)]
    # over the last three spins only there is not enough history to call a number cold
    narrow = from_spins(spins, top=3, window=3)
    assert narrow.cold == () and narrow.cold_after == 37
    assert narrow.window == 3 and narrow.spins == 40 and narrow.counts.spins == 3


def test_cold_lists_only_numbers_seen_and_waits_for_enough_history():
    # one spin: "cold" would be 36 numbers never seen; nothing is told until 37 spins
    assert from_spins(single(["17"])).cold == ()
    spins = single(["17"] * 36 + ["5"])
    boards = from_spins(spins)
    assert [(c.number, c.hits) for c in boards.cold] == [("5", 1), ("17", 36)]  # never a number not hit


def test_a_cold_tie_within_one_double_ball_spin_falls_to_layout_order():
    # 3 and 1 land together, then 4 and 6 in each of 36 spins: 1 and 3 (one hit, same spin:
    # layout order), then 4 and 6 (tied: layout order); the pockets never hit are not cold
    cold = from_spins([("3", "1")] + [("4", "6")] * 36, top=40).cold
    assert [(c.number, c.hits) for c in cold] == [("1", 1), ("3", 1), ("4", 36), ("6", 36)]


def test_counts_by_colour_dozen_column_and_even_chances():
    c = from_spins(single(SPINS)).counts
    # 17 black x3, 0 x2, 32 red x2, 5 red, 36 red, 2 black
    assert (c.spins, c.balls, c.red, c.black, c.zero) == (10, 10, 4, 4, 2)
    assert (c.odd, c.even, c.low, c.high) == (4, 4, 5, 3)
    assert c.dozen == (2, 3, 3)  # 5 2 | 17 17 17 | 32 32 36
    assert c.column == (0, 7, 1)  # 17, 32, 5, 2 are column 2; 36 column 3


def test_american_zeros_count_as_zero_and_00_follows_0():
    boards = from_spins(single(["00", "0", "27", "00"]), WheelKind.AMERICAN, top=2)
    assert boards.counts.zero == 3 and boards.counts.red == 1
    assert [(h.number, h.hits) for h in boards.hot] == [("00", 2), ("27", 1)]  # 27 hit after 0
    assert boards.cold == ()  # four spins of a 38-pocket wheel: not enough to call a number cold
    assert boards.wheel is WheelKind.AMERICAN


def test_a_pocket_off_the_wheel_is_refused_by_name():
    with pytest.raises(ValueError, match=r"spin 2: \['00'\] is not a spin of the european wheel"):
        from_spins([("1",), ("00",)])
    with pytest.raises(ValueError, match="at least 1"):
        from_spins([], top=0)


def spun(numbers: tuple[str, ...], preset: str = "european") -> dict[str, object]:
    rules = roulette_rules(preset)
    game = RouletteRound(rules)
    game.close_betting()
    game.wheel_result(numbers)
    return {"game": "roulette", "status": "settled", "outcome": game.outcome().record()}


def test_double_ball_records_keep_both_numbers_of_each_spin():
    records = [spun(("7", "7"), "double-ball"), spun(("0", "36"), "double-ball")]
    boards = from_records(records)
    assert boards.balls == 2
    assert [[b.number for b in s.balls] for s in boards.last] == [["0", "36"], ["7", "7"]]
    assert (boards.counts.balls, boards.counts.red, boards.counts.zero, boards.counts.spins) == (4, 3, 1, 2)
    assert [(h.number, h.hits) for h in boards.hot][:1] == [("7", 2)]


def test_void_records_and_outcomes_that_do_not_fit_are_skipped():
    records = [spun(("5",)), {**spun(("6",)), "status": "void"}, spun(("00",), "american")]
    records.append({"game": "roulette", "status": "settled",
                    "outcome": {"wheel": "european", "numbers": ["00"], "colours": ["green"], "multipliers": {},
                                "voids": []}})
    records.append({"game": "roulette", "status": "settled", "outcome": {"numbers": "junk"}})
    boards = from_records(records)
    assert [s.balls[0].number for s in boards.last] == ["00", "5"]
    assert boards.wheel is WheelKind.AMERICAN


def test_no_spins_give_empty_boards_as_plain_json():
    data = from_outcomes([]).as_json()
    assert data["last"] == [] and data["hot"] == [] and data["cold"] == [] and data["spins"] == 0
    assert data["balls"] == 0 and data["counts"]["balls"] == 0
    text = json.dumps(from_records([spun(("17",))]).as_json())
    assert "null" not in text
    assert json.loads(text)["last"] == [{"balls": [{"number": "17", "colour": "black"}], "newest": True}]


@given(st.lists(st.sampled_from(EUROPEAN_ORDER), max_size=150), st.integers(1, 120))
def test_counts_add_up_over_the_window(numbers: list[str], window: int):
    boards = from_spins(single(numbers), window=window)
    c = boards.counts
    assert c.spins == boards.window == min(window, len(numbers))
    assert c.red + c.black + c.zero == c.balls == c.odd + c.even + c.zero == c.low + c.high + c.zero
    assert sum(c.dozen) == sum(c.column) == c.balls - c.zero
    assert sum(h.hits for h in boards.hot) <= c.balls
    assert len({h.number for h in boards.hot}) == len(boards.hot) <= 5
    counted = Counter(numbers[-window:])
    assert {h.number: h.hits for h in boards.hot}.items() <= counted.items()
    hot = {h.number for h in boards.hot}
    assert min((h.hits for h in boards.hot), default=0) >= max((counted[n] for n in counted if n not in hot), default=0)
    cold = {c.number for c in boards.cold}
    enough = boards.window >= boards.cold_after
    assert len(cold) == (min(5, len(counted)) if enough else 0)
    assert all(counted[n] > 0 for n in cold)  # only numbers seen in the window
    assert max((counted[n] for n in cold), default=0) <= min((counted[n] for n in counted if n not in cold), default=10**6)
