"""The fault schedule: every selected kind at its rate (at least once), inside the run, the same
for the same seed; a kind the game cannot have, or that does not exist, is refused by name."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.hil.schedule import ALL, COMMON, LANES, SHOE, WHEEL, kinds_for, lanes, plan


@given(rounds=st.integers(1, 3000), rate=st.floats(0.0, 1.0), seed=st.integers(0, 2**32))
def test_every_kind_at_its_rate_inside_the_run(rounds: int, rate: float, seed: int) -> None:
    kinds = COMMON + SHOE
    schedule = plan(kinds, rounds, rate, random.Random(seed))
    counts = Counter(p.kind for p in schedule)
    assert counts == {k: max(1, round(rate * rounds)) for k in kinds}
    assert all(0 < p.at < rounds for p in schedule)
    assert [p.at for p in schedule] == sorted(p.at for p in schedule)
    assert schedule == plan(kinds, rounds, rate, random.Random(seed))


def test_a_thousand_rounds_at_the_default_rate_has_a_hundred_of_each() -> None:
    counts = Counter(p.kind for p in plan(COMMON + WHEEL, 1000, 0.1, random.Random(1)))
    assert set(counts.values()) == {100}
    assert min(p.at for p in plan(COMMON, 1000, 0.1, random.Random(1))) >= 1.0  # after the first round


def test_all_is_what_the_game_can_have() -> None:
    assert kinds_for("all", uses_shoe=True) == COMMON + SHOE
    assert kinds_for("all", uses_shoe=False) == COMMON + WHEEL
    assert kinds_for(" usb_unplug , controller_sigkill", uses_shoe=True) == ("usb_unplug", "controller_sigkill")
    assert set(ALL) == set(COMMON + SHOE + WHEEL)


@pytest.mark.parametrize(("selection", "shoe", "words"), [
    ("usb_unplug,gremlins", True, "unknown fault kind(s) gremlins"),
    ("wheel_miss_spin", True, "cannot happen at a shoe table"),
    ("shoe_line_noise", False, "cannot happen at a wheel table"),
])
def test_a_kind_that_cannot_happen_is_refused_by_name(selection: str, shoe: bool, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        kinds_for(selection, uses_shoe=shoe)


def test_faults_on_one_part_of_the_rig_share_a_lane_in_run_order() -> None:
    schedule = plan(COMMON + SHOE, 200, 0.1, random.Random(5))
    split = lanes(schedule)
    assert set(LANES) == set(ALL)
    assert sorted(p for lane in split.values() for p in lane) == schedule  # every fault, once
    assert all(lane == sorted(lane) for lane in split.values())
    # a restart never meets a full disk; a hostile burst never a stopped broker
    assert {p.kind for p in split["table"]} == {"controller_sigkill", "disk_full"}
    assert {p.kind for p in split["broker"]} == {"mosquitto_restart", "mqtt_hostile", "press_out_of_turn"}
    assert {p.kind for p in split["device"]} == set(SHOE)
