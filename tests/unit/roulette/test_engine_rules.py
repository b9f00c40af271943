"""Flow and refusals: each refusal names its rule and changes nothing."""

from __future__ import annotations

import pickle

import pytest

from controller.games.base import (
    BetRefused,
    ClearBets,
    CloseBetting,
    Deal,
    ExpectKind,
    PhaseError,
    PlaceBet,
    RuleError,
    VoidRound,
    WheelResult,
)
from controller.games.roulette import ResultRefused, RouletteRound, SetMultipliers, roulette_rules


def _refused(rnd: RouletteRound, action, error: type[RuleError], rule: str) -> None:
    before = pickle.dumps(rnd)
    with pytest.raises(error) as err:
        rnd.apply(action)
    assert err.value.rule == rule
    assert pickle.dumps(rnd) == before


def test_flow_and_expects():
    rnd = RouletteRound(roulette_rules("european"))
    assert rnd.expects().kind is ExpectKind.BETS
    rnd.apply(PlaceBet(1, "red", 1000))
    rnd.apply(CloseBetting())
    assert rnd.expects().kind is ExpectKind.RESULT
    rnd.apply(WheelResult(("3",)))
    assert rnd.expects().kind is ExpectKind.DONE
    assert rnd.settlements[0].payout == 2000  # 3 is red: 1000 + 1000


def test_bet_after_close_and_result_before_close():
    rnd = RouletteRound(roulette_rules("european"))
    _refused(rnd, WheelResult(("3",)), PhaseError, "roulette.phase")
    _refused(rnd, VoidRound("ball out"), PhaseError, "roulette.void")
    rnd.apply(PlaceBet(1, "red", 1000))
    rnd.apply(CloseBetting())
    _refused(rnd, PlaceBet(1, "black", 1000), BetRefused, "roulette.closed")
    _refused(rnd, ClearBets(1), BetRefused, "roulette.closed")
    _refused(rnd, CloseBetting(), PhaseError, "roulette.phase")
    _refused(rnd, Deal("AS"), PhaseError, "roulette.action")
    rnd.apply(WheelResult(("3",)))
    _refused(rnd, VoidRound("too late"), PhaseError, "roulette.void")
    _refused(rnd, WheelResult(("4",)), PhaseError, "roulette.phase")


def test_results_not_on_this_wheel_are_refused():
    rnd = RouletteRound(roulette_rules("european"))
    rnd.apply(CloseBetting())
    for balls in (("00",), ("37",), ("",), ("17", "20"), ()):
        _refused(rnd, WheelResult(balls), ResultRefused, "roulette.result")
    double = RouletteRound(roulette_rules("double-ball"))
    double.apply(CloseBetting())
    _refused(double, WheelResult(("17",)), ResultRefused, "roulette.result")
    american = RouletteRound(roulette_rules("american"))
    american.apply(CloseBetting())
    american.apply(WheelResult(("00",)))  # fine there
    assert american.outcome()["numbers"] == ["00"]


def test_limits_per_bet_type():
    rnd = RouletteRound(roulette_rules("european"))  # straight 100..10000, red 500..200000
    _refused(rnd, PlaceBet(1, "straight:17", 10_001), BetRefused, "roulette.limits")
    _refused(rnd, PlaceBet(1, "red", 400), BetRefused, "roulette.limits")
    rnd.apply(PlaceBet(1, "straight:17", 6000))
    _refused(rnd, PlaceBet(1, "straight:17", 5000), BetRefused, "roulette.limits")  # total 11000 over max
    assert rnd.bets[0].amount == 6000
    for amount in (0, -100, 10.5, True):
        _refused(rnd, PlaceBet(1, "straight:17", amount), BetRefused, "roulette.amount")
    _refused(rnd, PlaceBet(13, "red", 1000), BetRefused, "roulette.box")  # 12 boxes
    _refused(rnd, PlaceBet(0, "red", 1000), BetRefused, "roulette.box")
    # a table may set its own limits by bet type
    small = RouletteRound(roulette_rules("european", {"limits": {"straight": {"min": 500, "max": 1000}}}))
    with pytest.raises(BetRefused):
        small.place_bet(1, "straight:1", 200)
    small.place_bet(1, "split:1-2", 200)  # no split limit at this table: any positive amount


def test_called_bets_split_into_equal_chips_within_limits():
    rnd = RouletteRound(roulette_rules("european"))
    _refused(rnd, PlaceBet(1, "voisins", 1000), BetRefused, "roulette.chips")  # 9 chips
    _refused(rnd, PlaceBet(1, "voisins", 450), BetRefused, "roulette.limits")  # 50 a chip, inside min 100
    _refused(rnd, PlaceBet(1, "neighbours:17:2", 55_000), BetRefused, "roulette.limits")  # 11000 a straight
    rnd.apply(PlaceBet(1, "voisins", 900))
    capped = RouletteRound(roulette_rules("european", {"limits": {"voisins": {"min": 1800, "max": 9000}}}))
    with pytest.raises(BetRefused) as err:
        capped.place_bet(1, "voisins", 900)
    assert err.value.rule == "roulette.limits"


def test_clear_bets():
    rnd = RouletteRound(roulette_rules("european"))
    _refused(rnd, ClearBets(1), BetRefused, "roulette.clear")
    rnd.place_bet(1, "red", 1000, player="a")
    rnd.place_bet(1, "black", 1000, player="b")
    rnd.place_bet(2, "odd", 1000)
    rnd.apply(ClearBets(1, "a"))
    assert [(b.box, b.player, b.spec.kind) for b in rnd.bets] == [(1, "b", "black"), (2, "", "odd")]
    rnd.apply(ClearBets(1))
    assert [b.box for b in rnd.bets] == [2]


def test_multiplier_draw_rules():
    rnd = RouletteRound(roulette_rules("lightning"))  # 1 to 5 numbers, 50..500x
    rnd.place_bet(1, "straight:17", 100)
    _refused(rnd, SetMultipliers((("17", 100),)), PhaseError, "roulette.phase")  # before close
    rnd.close_betting()
    assert rnd.expects().note.startswith("multiplier draw")
    _refused(rnd, WheelResult(("17",)), PhaseError, "roulette.multipliers_due")
    _refused(rnd, SetMultipliers(()), RuleError, "roulette.multipliers")
    _refused(rnd, SetMultipliers(tuple((str(n), 50) for n in range(6))), RuleError, "roulette.multipliers")
    _refused(
        rnd, SetMultipliers((("17", 75),)), RuleError, "roulette.multipliers"
    )  # not a value of the table
    _refused(rnd, SetMultipliers((("00", 50),)), RuleError, "roulette.multipliers")
    rnd.apply(SetMultipliers((("17", 100),)))
    _refused(rnd, SetMultipliers((("5", 100),)), PhaseError, "roulette.multipliers")  # one draw a spin
    rnd.apply(WheelResult(("17",)))
    assert rnd.settlements[0].payout == 100 + 100 * 100
    plain = RouletteRound(roulette_rules("european"))
    plain.close_betting()
    _refused(plain, SetMultipliers((("17", 100),)), PhaseError, "roulette.multipliers")


def test_void_then_second_result_attempt_works():
    rnd = RouletteRound(roulette_rules("european"))
    rnd.place_bet(1, "straight:0", 100)
    rnd.close_betting()
    rnd.void_round("ball out of the wheel")
    rnd.place_bet(1, "straight:0", 100)  # players may change bets: add to the spot
    rnd.close_betting()
    rnd.void_round("miss-spin")
    rnd.close_betting()
    rnd.wheel_result(("0",))
    assert [(s.stake, s.payout) for s in rnd.settlements] == [(200, 7200)]  # 200 + 35*200
    assert rnd.outcome()["voids"] == ["ball out of the wheel", "miss-spin"]


def test_rule_sets_refuse_nonsense():
    from controller.games.base import RulesConfigError

    for preset, overrides in [
        ("american", {"first_four": True}),
        ("double-ball", {"la_partage": True}),
        ("european", {"balls": 3}),
        ("european", {"multipliers": {"values": {10: 1}}}),
        ("european", {"multipliers": {"numbers": [1, 21]}}),
        ("european", {"wheel": "triple"}),
        ("nope", {}),
    ]:
        with pytest.raises(RulesConfigError):
            roulette_rules(preset, overrides)
    assert roulette_rules("double-ball", {"paytable": {"both_on": "1200:1"}}).paytable["straight"] == 17
