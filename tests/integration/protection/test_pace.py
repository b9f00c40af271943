"""The pace at a live table: the ``state``'s ``pace`` from the table's own clock (the same after a
replay of the journal), and ``protection.pace`` when the table stays below its target."""

from __future__ import annotations

from pathlib import Path

from controller.config import load
from controller.process import build_core
from controller.protection.pace_live import watch_pace
from controller.runtime.recovery import replay
from controller.table.core import SETTLING
from simulators.wheel import Timings
from tests.integration.table_roulette.conftest import WheelHarness, write_config
from tests.support.waiting import until

FAST = Timings(before_game=0.2, place_bets=1.0, ball_in_rim=2.0, no_more_bets=2.0, result=0.2)


async def test_pace_in_the_state_and_its_alert(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    # a round takes 5.4 s of the wheel's time (0.54 s of the table's): never 100,000 an hour
    path.write_text(path.read_text() + "\n[protection]\npace_target = 100000\npace_window_s = 1\n")
    h = WheelHarness(load(path))
    h.core.pace_goal = (100000, 1)  # as the table's process sets them
    h.loop.listeners.append(watch_pace(h.loop, h.journal, h.config))
    await h.start(FAST)
    try:
        assert h.core.state()["pace"] == {"rounds_per_hour": None, "target": 100000, "window_s": 1}
        for number in ("17", "4", "32"):
            h.sim.queue_results(number)
            await h.cmd("open_round")
            await h.until_phase(SETTLING, timeout=30)
            await h.cmd("settle")
        await until(lambda: any(a["code"] == "protection.pace" for a in h.alerts()), "the pace alert",
                    describe=lambda: str(h.alerts()))
        (found,) = [a for a in h.alerts() if a["code"] == "protection.pace"]
        assert found["severity"] == "warning" and found["target"] == 100000 and found["rounds_per_hour"] < 100000
        live = h.core.state()["pace"]
        assert isinstance(live["rounds_per_hour"], float) and live["rounds_per_hour"] <= 3600 * 2
    finally:
        await h.stop()
    again = build_core(h.config)
    again.pace_goal = (100000, 1)
    replay(type(h.journal)(h.config.journal_path), again)
    assert again.state()["pace"] == live  # the table's own clock: a replay shows the same pace


def test_the_default_target_is_the_game_s() -> None:
    from controller.table.core import TableCore
    from controller.table.registry import adapter_for

    core = TableCore("t", adapter_for("roulette"), adapter_for("roulette").rules("european", {}, {}))
    assert core.state()["pace"] == {"rounds_per_hour": None, "target": 40, "window_s": 1800}
