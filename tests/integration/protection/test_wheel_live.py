"""The wheel watch at a live roulette table: the simulated Cammegh SS2 on a real pty, the real
driver, the table's loop and journal; each alert of the watch fires on a status sequence made by
hand on the simulator, and normal play raises none."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from controller.config import load
from controller.games.roulette.layout import EUROPEAN_ORDER
from controller.protection.wheel_live import watch_wheel, wheel_mode
from controller.table.core import SETTLING
from simulators.wheel import Timings
from tests.integration.table_roulette.conftest import WheelHarness, write_config
from tests.support.waiting import until

FAST = Timings(before_game=0.2, place_bets=1.0, ball_in_rim=2.0, no_more_bets=2.0, result=0.2)
WATCH_CODES = ("wheel.direction_not_alternated", "wheel.rotor_speed", "wheel.spin_rate", "wheel.dealer_signature")


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Any]:
    made: list[WheelHarness] = []

    async def make(protection: str = "") -> WheelHarness:
        path = write_config(tmp_path)
        path.write_text(path.read_text() + f"\n[protection]\n{protection}\n")
        h = WheelHarness(load(path))
        listener = watch_wheel(h.loop, h.journal, h.config)
        assert listener is not None
        h.loop.listeners.append(listener)
        await h.start(FAST)
        made.append(h)
        return h

    yield make
    for h in made:
        await h.stop()


def watch_alerts(h: WheelHarness) -> list[dict[str, Any]]:
    return [a for a in h.alerts() if a["code"] in WATCH_CODES]


async def game(h: WheelHarness, result: str) -> None:
    """One spin: the round opens (the wheel waits for it: mode bit 2), the wheel gives ``result``."""
    h.sim.queue_results(result)
    await h.cmd("open_round")
    await h.until_phase(SETTLING, timeout=30)
    await h.cmd("settle")


async def test_normal_play_raises_nothing(table) -> None:
    h = await table("signature_min_spins = 10\nspin_rate_target = 20")
    for number in ("17", "4", "32", "0", "25"):
        await game(h, number)
    assert watch_alerts(h) == []


async def test_the_direction_not_alternated_when_the_wheel_mode_asks_for_it(table) -> None:
    h = await table()
    # the mode the wheel reports at connect (1159) asks for alternation: read before it changes
    await until(lambda: wheel_mode(h.loop) == 1159, "the wheel's mode read at connect",
                describe=lambda: f"mode {wheel_mode(h.loop)}")
    h.sim.mode = 1158  # the wheel stops alternating
    for number in ("17", "4", "32"):
        await game(h, number)
    await until(lambda: len(watch_alerts(h)) == 2, "an alert for each of games 2 and 3",
                describe=lambda: str(watch_alerts(h)))
    assert {(a["code"], a["severity"], a["device"]) for a in watch_alerts(h)} == {
        ("wheel.direction_not_alternated", "warning", "wheel")}


async def test_the_rotor_slower_than_the_band_with_the_ball_in_the_rim(table) -> None:
    h = await table("rotor_min_rpm = 12.0")
    await game(h, "17")
    h.sim.speed = 95  # 9.5 rpm from now on
    await game(h, "4")
    await until(lambda: bool(watch_alerts(h)), "the rotor-speed alert", describe=lambda: str(h.alerts()))
    (found,) = watch_alerts(h)
    assert found["code"] == "wheel.rotor_speed" and "9.5 rpm" in found["message"] and "12-40 rpm" in found["message"]


async def test_the_spin_rate_below_target_over_the_window(table) -> None:
    # a game takes 5.4 s of the wheel's protocol time (0.54 s on the table's clock at 10x): far
    # below 100,000 an hour over any full second
    h = await table("spin_rate_target = 100000\nspin_rate_window_s = 1")
    for number in ("17", "4", "32"):
        await game(h, number)
    await until(lambda: bool(watch_alerts(h)), "the spin-rate alert", describe=lambda: str(h.alerts()))
    (found,) = watch_alerts(h)
    assert found["code"] == "wheel.spin_rate" and "below the target of 100000" in found["message"]


async def test_a_dealer_who_lands_the_ball_ten_pockets_on(table) -> None:
    h = await table("signature_min_spins = 10")
    await h.cmd("sign_in", dealer="D7")
    index = 0
    for _ in range(11):
        index = (index + 10) % len(EUROPEAN_ORDER)
        await game(h, EUROPEAN_ORDER[index])
    await until(lambda: bool(watch_alerts(h)), "the dealer-signature alert", describe=lambda: str(h.alerts()))
    (found,) = watch_alerts(h)
    assert (found["code"], found["dealer"], found["device"], found["spins"]) == ("wheel.dealer_signature", "D7", "wheel", 10)


async def test_a_restart_does_not_raise_again_what_the_journal_raised(table) -> None:
    h = await table("rotor_min_rpm = 12.0")
    h.sim.speed = 95
    await game(h, "17")
    await until(lambda: bool(watch_alerts(h)), "the rotor-speed alert", describe=lambda: str(h.alerts()))
    await h.stop()
    again = await table("rotor_min_rpm = 12.0")  # the same journal, replayed; the watch rebuilt from it
    again.sim.speed = 95  # still slow: the same cause, not a new one
    await game(again, "4")
    assert [a["code"] for a in watch_alerts(again)] == ["wheel.rotor_speed"]
    again.sim.speed = 165  # back in the band: the next slow rotor is a new cause
    await game(again, "32")
    again.sim.speed = 95
    await game(again, "0")
    await until(lambda: len(watch_alerts(again)) == 2, "a second rotor-speed alert", describe=lambda: str(again.alerts()))
