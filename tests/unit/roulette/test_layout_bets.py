"""The wheel, the layout and the bet names, against facts written out by hand."""

from __future__ import annotations

import itertools

import pytest

from controller.games.base import BetRefused
from controller.games.roulette import roulette_rules
from controller.games.roulette.bets import parse_bet
from controller.games.roulette.layout import WheelKind, colour, wheel

EURO = roulette_rules("european")
AMER = roulette_rules("american")


def test_wheels_hold_each_pocket_once():
    assert sorted(wheel(WheelKind.EUROPEAN).order, key=lambda p: int(p)) == [str(n) for n in range(37)]
    assert set(wheel(WheelKind.AMERICAN).order) == {str(n) for n in range(37)} | {"00"}
    assert len(wheel(WheelKind.AMERICAN).order) == 38


def test_colours():
    assert [colour(p) for p in ("0", "00", "1", "2", "10", "11", "19", "36")] == [
        "green",
        "green",
        "red",
        "black",
        "black",
        "black",
        "red",
        "red",
    ]
    # red and black alternate round the European wheel after 0
    order = wheel(WheelKind.EUROPEAN).order[1:]
    assert all(colour(a) != colour(b) for a, b in itertools.pairwise(order))


def test_neighbours_follow_the_wheel():
    assert wheel(WheelKind.EUROPEAN).neighbours("0", 2) == ("3", "26", "0", "32", "15")
    assert wheel(WheelKind.EUROPEAN).neighbours("17", 1) == ("25", "17", "34")
    assert wheel(WheelKind.AMERICAN).neighbours("00", 2) == ("13", "1", "00", "27", "10")
    assert wheel(WheelKind.AMERICAN).neighbours("2", 1) == ("14", "2", "0")


@pytest.mark.parametrize(
    ("kind", "canonical"),
    [
        ("straight:17", "straight:17"),
        ("split:20-17", "split:17-20"),
        ("split:3-0", "split:0-3"),
        ("street:15-13-14", "street:13-14-15"),
        ("street:0-2-3", "street:0-2-3"),
        ("corner:21-17-20-18", "corner:17-18-20-21"),
        ("six_line:36-35-34-33-32-31", "six_line:31-32-33-34-35-36"),
        ("column:3", "column:3"),
        ("dozen:1", "dozen:1"),
        (" RED ", "red"),
        ("neighbours:17:02", "neighbours:17:2"),
    ],
)
def test_canonical_kinds(kind, canonical):
    assert parse_bet(kind, EURO).kind == canonical


@pytest.mark.parametrize(
    ("kind", "rules", "rule"),
    [
        ("split:1-5", EURO, "roulette.shape"),  # not neighbours on the layout
        ("split:3-4", EURO, "roulette.shape"),  # end of one row, start of the next
        ("split:0-4", EURO, "roulette.shape"),
        ("split:0-00", EURO, "roulette.pocket"),  # no 00 on a European table
        ("straight:00", EURO, "roulette.pocket"),
        ("straight:37", EURO, "roulette.pocket"),
        ("straight:07", EURO, "roulette.pocket"),
        ("split:17-17", EURO, "roulette.shape"),
        ("street:2-3-4", EURO, "roulette.shape"),
        ("street:1-4-7", EURO, "roulette.shape"),  # a column piece, not a row
        ("street:0-1-3", EURO, "roulette.shape"),
        ("street:0-00-3", AMER, "roulette.shape"),
        ("corner:3-4-6-7", EURO, "roulette.shape"),
        ("corner:1-2-3-4", EURO, "roulette.shape"),
        ("corner:0-1-2-3", EURO, "roulette.shape"),  # that is first_four, a bet of its own
        ("six_line:1-2-3-7-8-9", EURO, "roulette.shape"),  # rows 1 and 3 are not adjacent
        ("six_line:1-2-3-4-5", EURO, "roulette.shape"),
        ("first_four", EURO, "roulette.offered"),  # option off
        ("first_four", AMER, "roulette.offered"),
        ("five", EURO, "roulette.offered"),
        ("both_any", EURO, "roulette.offered"),  # double ball only
        ("voisins", AMER, "roulette.offered"),  # European sector
        ("neighbours:17:10", EURO, "roulette.kind"),
        ("neighbours:17:0", EURO, "roulette.kind"),
        ("neighbours:00:1", EURO, "roulette.kind"),
        ("column:4", EURO, "roulette.kind"),
        ("dozen:0", EURO, "roulette.kind"),
        ("purple", EURO, "roulette.kind"),
        ("straight", EURO, "roulette.kind"),
        ("split:1-2-3", EURO, "roulette.shape"),
    ],
)
def test_refused_kinds(kind, rules, rule):
    with pytest.raises(BetRefused) as err:
        parse_bet(kind, rules)
    assert err.value.rule == rule


def test_zero_shapes_as_on_a_real_layout():
    for k in ("split:0-1", "split:0-2", "split:0-3", "street:0-1-2", "street:0-2-3"):
        assert parse_bet(k, EURO).kind == k
    for k in (
        "split:0-1",
        "split:0-2",
        "split:00-2",
        "split:00-3",
        "split:0-00",
        "street:0-1-2",
        "street:0-00-2",
        "street:00-2-3",
    ):
        assert parse_bet(k, AMER).kind == k
    for k in ("split:0-3", "split:00-1", "street:0-2-3"):
        with pytest.raises(BetRefused):
            parse_bet(k, AMER)
    assert parse_bet("first_four", roulette_rules("european", {"first_four": True})).chips[0][0].numbers == {
        "0",
        "1",
        "2",
        "3",
    }
    assert parse_bet("five", AMER).chips[0][0].numbers == {"0", "00", "1", "2", "3"}


def test_number_of_spots_on_the_grid():
    # hand count: splits 12 rows * 2 across + 11 * 3 down = 57 (+3 zero splits), streets 12 (+2 trios),
    # corners 11 * 2 = 22, lines 11; American: zero splits 0-1 0-2 00-2 00-3 0-00, trios 0-1-2 0-00-2 00-2-3
    shapes = wheel(WheelKind.EUROPEAN).shapes
    assert (len(shapes["split"]), len(shapes["street"]), len(shapes["corner"]), len(shapes["six_line"])) == (
        60,
        14,
        22,
        11,
    )
    shapes = wheel(WheelKind.AMERICAN).shapes
    assert (len(shapes["split"]), len(shapes["street"])) == (62, 15)


def _chips(kind: str) -> dict[str, int]:
    return {chip.kind: units for chip, units in parse_bet(kind, EURO).chips}


def test_called_bets_expand_to_the_standard_chip_layouts():
    assert _chips("voisins") == {
        "street:0-2-3": 2,
        "split:4-7": 1,
        "split:12-15": 1,
        "split:18-21": 1,
        "split:19-22": 1,
        "split:32-35": 1,
        "corner:25-26-28-29": 2,
    }
    assert _chips("tiers") == {
        "split:5-8": 1,
        "split:10-11": 1,
        "split:13-16": 1,
        "split:23-24": 1,
        "split:27-30": 1,
        "split:33-36": 1,
    }
    assert _chips("orphelins") == {
        "straight:1": 1,
        "split:6-9": 1,
        "split:14-17": 1,
        "split:17-20": 1,
        "split:31-34": 1,
    }
    assert _chips("jeu_zero") == {"split:0-3": 1, "split:12-15": 1, "straight:26": 1, "split:32-35": 1}
    assert _chips("neighbours:0:2") == {
        "straight:3": 1,
        "straight:26": 1,
        "straight:0": 1,
        "straight:32": 1,
        "straight:15": 1,
    }
    assert [
        parse_bet(k, EURO).units for k in ("voisins", "tiers", "orphelins", "jeu_zero", "neighbours:5:9")
    ] == [9, 6, 5, 4, 19]


def test_sectors_cover_the_european_wheel_once():
    # voisins 17 numbers from 22 to 25 through 0; tiers 12 from 27 to 33; orphelins the other 8
    covered = {
        name: set().union(*(c.numbers for c, _ in parse_bet(name, EURO).chips))
        for name in ("voisins", "tiers", "orphelins")
    }
    assert covered["voisins"] == set("22 18 29 7 28 12 35 3 26 0 32 15 19 4 21 2 25".split())
    assert covered["tiers"] == set(["27", "13", "36", "11", "30", "8", "23", "10", "5", "24", "16", "33"])
    assert covered["orphelins"] == set(["17", "34", "6", "1", "20", "14", "31", "9"])
    assert set().union(*covered.values()) == set(wheel(WheelKind.EUROPEAN).order)
