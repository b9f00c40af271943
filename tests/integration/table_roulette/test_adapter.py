"""The roulette adapter's pure parts: the seeded multiplier draw, balls arriving one at a time,
open bets as void refunds, and what each wheel event means to the table."""

from __future__ import annotations

import secrets

import pytest

from controller.games.base import (
    CloseBetting,
    PhaseError,
    PlaceBet,
    Settlement,
    VoidRound,
)
from controller.games.roulette.adapter import (
    KeyedBall,
    RouletteAdapter,
    WheelBall,
    multiplier_draw,
)
from controller.table.events import parse_event

ADAPTER = RouletteAdapter()


def test_draw_is_a_function_of_its_seed_and_within_the_feature():
    rules = ADAPTER.rules("lightning", {}, {})
    feature = rules.multipliers
    assert feature is not None
    for _ in range(200):
        seed = secrets.token_bytes(32)
        draw = multiplier_draw(rules, seed)
        assert draw == multiplier_draw(rules, seed)
        numbers = [n for n, _ in draw]
        assert feature.numbers[0] <= len(draw) <= feature.numbers[1] and len(set(numbers)) == len(numbers)
        assert all(n in {str(p) for p in range(37)} and m in feature.values for n, m in draw)
    assert multiplier_draw(rules, b"\x00" * 32) != multiplier_draw(rules, b"\x01" * 32)


def test_single_ball_result_comes_from_the_wheel_only():
    round_ = ADAPTER.new_round(ADAPTER.rules("european", {}, {}))
    round_.apply(PlaceBet(1, "red", 500, "A"))
    assert round_.open_bets() == [Settlement(1, 1, "red", "A", 500, 500)]
    round_.apply(CloseBetting())
    with pytest.raises(PhaseError):
        round_.apply(KeyedBall("3"))
    round_.apply(WheelBall("3", 12))
    assert round_.numbers == ("3",) and round_.settlements == [Settlement(1, 1, "red", "A", 500, 1000)]
    assert round_.open_bets() == []


def test_double_ball_void_drops_the_first_ball():
    round_ = ADAPTER.new_round(ADAPTER.rules("double-ball", {}, {}))
    round_.apply(PlaceBet(1, "straight:5", 100, "A"))
    round_.apply(CloseBetting())
    round_.apply(WheelBall("5"))
    assert ADAPTER.prompt(round_, round_.expects()) == "Ball 1: 5 red — key in ball 2"
    round_.apply(VoidRound("miss_spin"))
    assert round_.balls == [] and ADAPTER.prompt(round_, round_.expects()) == "Spin void (miss-spin) — bets stay, re-spin"


@pytest.mark.parametrize(("event", "close_on", "meaning"), [
    ({"type": "no_more_bets", "spin": 3}, "no_more_bets", "close"),
    ({"type": "ball_in_rim", "spin": 3}, "no_more_bets", "nothing"),
    ({"type": "ball_in_rim", "spin": 3}, "ball_in_rim", "close"),
    ({"type": "table_closed", "spin": 3}, "no_more_bets", "power_on"),
    ({"type": "fault", "reason": "state_6", "spin": 3, "state": 6}, "no_more_bets", "fault"),
])
def test_wheel_events_while_betting(event, close_on, meaning):
    rules = ADAPTER.rules("european", {"close_bets_on": close_on}, {})
    step = ADAPTER.device_step(ADAPTER.new_round(rules), rules, parse_event({"device": "wheel", **event}))
    got = ("close" if isinstance(step.action, CloseBetting) else "power_on" if step.commands == ("power_on",)
           else "fault" if step.fault else "nothing")
    assert got == meaning
