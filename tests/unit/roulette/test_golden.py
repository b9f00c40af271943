"""Hand-worked spins: every settlement in cents, the arithmetic in the comments.

A win returns stake + stake * pay; a loss returns 0 (docs/rules.md §4 and money.py).
"""

from __future__ import annotations

from controller.games.base import ExpectKind
from controller.games.roulette import RouletteRound, roulette_rules
from tests.unit.roulette.helpers import spin


def test_01_every_bet_type_wins_on_17():
    # 17 is black, odd, low, column 2 ((17-1) % 3 == 1), dozen 2 (13-24).
    got = spin(
        "european",
        [
            ("straight:17", 1000),  # 1000 + 35*1000 = 36000
            ("split:17-20", 500),  # 500 + 17*500 = 9000
            ("street:16-17-18", 300),  # 300 + 11*300 = 3600
            ("corner:17-18-20-21", 200),  # 200 + 8*200 = 1800
            ("six_line:13-14-15-16-17-18", 600),  # 600 + 5*600 = 3600
            ("column:2", 1000),  # 1000 + 2*1000 = 3000
            ("dozen:2", 1000),  # 3000
            ("black", 1000),  # 1000 + 1000 = 2000
            ("odd", 1000),  # 2000
            ("low", 1000),  # 2000
        ],
        ("17",),
    )
    assert got == {
        "straight:17": (1000, 36000),
        "split:17-20": (500, 9000),
        "street:16-17-18": (300, 3600),
        "corner:17-18-20-21": (200, 1800),
        "six_line:13-14-15-16-17-18": (600, 3600),
        "column:2": (1000, 3000),
        "dozen:2": (1000, 3000),
        "black": (1000, 2000),
        "odd": (1000, 2000),
        "low": (1000, 2000),
    }


def test_02_every_bet_type_loses_on_17():
    # None of these holds 17: each returns 0.
    bets = [
        ("straight:18", 1000),
        ("split:16-19", 500),
        ("street:19-20-21", 300),
        ("corner:22-23-25-26", 200),
        ("six_line:19-20-21-22-23-24", 600),
        ("column:1", 1000),
        ("dozen:3", 1000),
        ("red", 1000),
        ("even", 1000),
        ("high", 1000),
    ]
    got = spin("european", bets, ("17",))
    assert got == {kind: (amount, 0) for kind, amount in bets}


def test_03_zero_loses_every_outside_bet_and_pays_zero_shapes():
    got = spin(
        "european",
        [
            ("red", 1000),
            ("black", 1000),
            ("odd", 1000),
            ("even", 1000),
            ("low", 1000),
            ("high", 1000),
            ("column:1", 1000),
            ("dozen:1", 1000),
            ("straight:0", 100),  # 100 + 35*100 = 3600
            ("split:0-3", 200),  # 200 + 17*200 = 3600
            ("street:0-1-2", 300),  # trio pays as a street: 300 + 11*300 = 3600
        ],
        ("0",),
    )
    outside = {k: (1000, 0) for k in ("red", "black", "odd", "even", "low", "high", "column:1", "dozen:1")}
    assert got == outside | {"straight:0": (100, 3600), "split:0-3": (200, 3600), "street:0-1-2": (300, 3600)}


def test_04_first_four_option():
    bets = [("first_four", 500)]
    assert spin("european", bets, ("2",), first_four=True) == {"first_four": (500, 4500)}  # 500 + 8*500
    assert spin("european", bets, ("0",), first_four=True) == {"first_four": (500, 4500)}
    assert spin("european", bets, ("4",), first_four=True) == {"first_four": (500, 0)}


def test_05_la_partage_even_money_loses_half_on_zero():
    got = spin(
        "la-partage",
        [
            ("red", 1000),  # half back: 500
            ("odd", 1001),  # half of 1001 = 500.5, rounded down: 500
            ("dozen:1", 1000),  # not even money: lost, 0
            ("straight:0", 100),  # 3600
        ],
        ("0",),
    )
    assert got == {"red": (1000, 500), "odd": (1001, 500), "dozen:1": (1000, 0), "straight:0": (100, 3600)}
    # on a number the even-money bets settle as usual: 5 is red and odd
    assert spin("la-partage", [("red", 1000), ("even", 1000)], ("5",)) == {
        "red": (1000, 2000),
        "even": (1000, 0),
    }
    # rounding half up gives the 501
    assert spin("la-partage", [("odd", 1001)], ("0",), rounding="half_up") == {"odd": (1001, 501)}


def test_06_american_five_bet_and_double_zero():
    got = spin(
        "american",
        [
            ("five", 1000),  # 1000 + 6*1000 = 7000
            ("straight:00", 100),  # 3600
            ("split:00-3", 100),  # 100 + 17*100 = 1800
            ("street:0-00-2", 100),  # 100 + 11*100 = 1200
            ("red", 1000),  # 0
            ("dozen:1", 1000),  # 0
        ],
        ("00",),
    )
    assert got == {
        "five": (1000, 7000),
        "straight:00": (100, 3600),
        "split:00-3": (100, 1800),
        "street:0-00-2": (100, 1200),
        "red": (1000, 0),
        "dozen:1": (1000, 0),
    }
    assert spin("american", [("five", 1000)], ("4",)) == {"five": (1000, 0)}
    assert spin("american", [("five", 1000)], ("3",)) == {"five": (1000, 7000)}


def test_07_double_ball_one_ball_in_each_of_two_bets():
    # balls 17 and 20: both black, both column 2; 17 odd/low, 20 even/high. Pays: straight 17:1,
    # split 8:1, corner 7:2, outside: both balls needed, even money 3:1, column 8:1.
    got = spin(
        "double-ball",
        [
            ("straight:17", 1000),  # one ball: 1000 + 17*1000 = 18000
            ("straight:20", 1000),  # the other ball: 18000 as well
            ("split:17-20", 1000),  # both balls in it: 1000 + 2*8*1000 = 17000
            ("corner:16-17-19-20", 101),  # both balls: 101 + 2*(7/2)*101 = 101 + 707 = 808
            ("corner:13-14-16-17", 101),  # one ball: 101 + floor(353.5) = 454
            ("black", 1000),  # both black: 1000 + 3*1000 = 4000
            ("column:2", 1000),  # both in column 2: 1000 + 8*1000 = 9000
            ("low", 1000),  # 20 is high: 0
            ("odd", 1000),  # 20 is even: 0
            ("straight:5", 1000),  # 0
            ("both_any", 100),  # different numbers: 0
        ],
        ("17", "20"),
    )
    assert got == {
        "straight:17": (1000, 18000),
        "straight:20": (1000, 18000),
        "split:17-20": (1000, 17000),
        "corner:16-17-19-20": (101, 808),
        "corner:13-14-16-17": (101, 454),
        "black": (1000, 4000),
        "column:2": (1000, 9000),
        "low": (1000, 0),
        "odd": (1000, 0),
        "straight:5": (1000, 0),
        "both_any": (100, 0),
    }


def test_08_double_ball_both_on_one_number_and_the_extra_bets():
    got = spin(
        "double-ball",
        [
            ("straight:17", 100),  # both balls: 100 + 2*17*100 = 3500
            ("both_any", 100),  # 100 + 34*100 = 3500
            ("both_on:17", 100),  # 100 + 1300*100 = 130100
            ("both_on:5", 100),  # 0
            ("odd", 500),  # both odd: 500 + 3*500 = 2000
        ],
        ("17", "17"),
    )
    assert got == {
        "straight:17": (100, 3500),
        "both_any": (100, 3500),
        "both_on:17": (100, 130100),
        "both_on:5": (100, 0),
        "odd": (500, 2000),
    }


def test_09_double_ball_with_a_zero():
    # balls 0 and 5: an outside bet needs both balls, 0 is in none of them
    got = spin("double-ball", [("red", 1000), ("straight:0", 100), ("split:0-3", 100)], ("0", "5"))
    assert got == {
        "red": (1000, 0),
        "straight:0": (100, 1800),
        "split:0-3": (100, 900),
    }  # 100+17*100, 100+8*100


def test_10_voisins_du_zero():
    # 900 = 9 unit chips of 100: 0-2-3 x2 (200), 4-7, 12-15, 18-21, 19-22, 32-35 (100 each),
    # 25-26-28-29 corner x2 (200)
    bet = [("voisins", 900)]
    assert spin("european", bet, ("0",)) == {"voisins": (900, 2400)}  # trio 200 + 11*200
    assert spin("european", bet, ("26",)) == {"voisins": (900, 1800)}  # corner 200 + 8*200
    assert spin("european", bet, ("4",)) == {"voisins": (900, 1800)}  # split 100 + 17*100
    assert spin("european", bet, ("1",)) == {"voisins": (900, 0)}  # an orphelin


def test_11_tiers_du_cylindre():
    bet = [("tiers", 600)]  # 6 splits of 100
    assert spin("european", bet, ("36",)) == {"tiers": (600, 1800)}  # 33-36: 100 + 17*100
    assert spin("european", bet, ("0",)) == {"tiers": (600, 0)}


def test_12_orphelins():
    bet = [("orphelins", 500)]  # 1, 6-9, 14-17, 17-20, 31-34 at 100 each
    assert spin("european", bet, ("17",)) == {"orphelins": (500, 3600)}  # two splits: 2 * 1800
    assert spin("european", bet, ("1",)) == {"orphelins": (500, 3600)}  # straight: 100 + 35*100
    assert spin("european", bet, ("6",)) == {"orphelins": (500, 1800)}


def test_13_jeu_zero():
    bet = [("jeu_zero", 400)]  # 0-3, 12-15, 26, 32-35 at 100 each
    assert spin("european", bet, ("26",)) == {"jeu_zero": (400, 3600)}
    assert spin("european", bet, ("0",)) == {"jeu_zero": (400, 1800)}
    assert spin("european", bet, ("32",)) == {"jeu_zero": (400, 1800)}
    assert spin("european", bet, ("19",)) == {"jeu_zero": (400, 0)}


def test_14_neighbours():
    # 17 and two each side on the European wheel: 2 25 [17] 34 6
    assert spin("european", [("neighbours:17:2", 500)], ("34",)) == {"neighbours:17:2": (500, 3600)}
    assert spin("european", [("neighbours:17:2", 1000)], ("6",)) == {
        "neighbours:17:2": (1000, 7200)
    }  # 200 + 35*200
    assert spin("european", [("neighbours:17:2", 500)], ("27",)) == {"neighbours:17:2": (500, 0)}
    # American wheel: 00 sits between 1 and 27
    assert spin("american", [("neighbours:00:1", 300)], ("27",)) == {"neighbours:00:1": (300, 3600)}


def test_15_multiplier_pays_instead_of_the_reduced_base():
    bets = [("straight:17", 100), ("straight:5", 100), ("split:17-20", 100), ("red", 500)]
    got = spin("lightning", bets, ("17",), multipliers={"17": 200, "8": 50})
    # 17 drawn at 200x: 100 + 200*100 = 20100; split keeps 17:1 = 1800; 17 is black
    assert got == {
        "straight:17": (100, 20100),
        "straight:5": (100, 0),
        "split:17-20": (100, 1800),
        "red": (500, 0),
    }
    got = spin("lightning", bets, ("5",), multipliers={"17": 200})
    # 5 not drawn: the base 29:1 = 100 + 2900 = 3000; 5 is red: 500 + 500 = 1000
    assert got == {
        "straight:17": (100, 0),
        "straight:5": (100, 3000),
        "split:17-20": (100, 0),
        "red": (500, 1000),
    }
    # a called bet's straight-ups are straight-ups: jeu zero's 26 drawn at 500x -> 100 + 50000
    assert spin("lightning", [("jeu_zero", 400)], ("26",), multipliers={"26": 500}) == {
        "jeu_zero": (400, 50100)
    }


def test_16_misspin_void_keeps_bets_reopens_and_respins():
    rnd = RouletteRound(roulette_rules("lightning"))
    rnd.place_bet(1, "straight:17", 100)
    rnd.place_bet(2, "red", 1000)
    rnd.close_betting()
    rnd.set_multipliers({"17": 100})
    rnd.void_round("miss-spin")
    assert rnd.expects().kind is ExpectKind.BETS
    assert [(b.box, b.spec.kind, b.amount) for b in rnd.bets] == [(1, "straight:17", 100), (2, "red", 1000)]
    assert rnd.multipliers == {}  # the draw belongs to the voided spin
    rnd.clear_bets(1)  # box 1 changes its mind
    rnd.place_bet(1, "straight:20", 100)
    rnd.close_betting()
    rnd.set_multipliers({"20": 50})
    rnd.wheel_result(("20",))
    # 20 drawn at 50x: 100 + 5000 = 5100; 20 is black: red loses
    assert [(s.box, s.kind, s.stake, s.payout) for s in rnd.settlements] == [
        (2, "red", 1000, 0),
        (1, "straight:20", 100, 5100),
    ]
    assert rnd.outcome().record() == {
        "wheel": "european",
        "numbers": ["20"],
        "colours": ["black"],
        "multipliers": {"20": 50},
        "voids": ["miss-spin"],
    }


def test_17_bets_on_one_spot_add_up():
    rnd = RouletteRound(roulette_rules("european"))
    rnd.place_bet(3, "split:20-17", 300)
    rnd.place_bet(3, "split:17-20", 200)  # same spot: one bet of 500
    rnd.place_bet(3, "split:17-20", 100, player="guest")  # another player's chips stay apart
    rnd.close_betting()
    rnd.wheel_result(("20",))
    # 500 + 17*500 = 9000; 100 + 1700 = 1800
    assert [(s.player, s.stake, s.payout) for s in rnd.settlements] == [("", 500, 9000), ("guest", 100, 1800)]
