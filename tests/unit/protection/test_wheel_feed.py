"""The live wheel watch's readings (the driver's journaled events) against the real traces: the
studio's 45,000 lines, through the real driver core, give the watch no cause; and the readings
keep a rotor that stayed out of band apart from a single odd line."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.games.roulette.layout import EUROPEAN_ORDER
from controller.protection.wheel_feed import LIVE_SPEED_SUSTAIN, WheelEventFeed
from controller.protection.wheel_trace import host_mode
from controller.protection.wheel_watch import WatchAlert, WheelWatch, WheelWatchConfig
from drivers.wheel import codec
from drivers.wheel.core import WheelCore
from drivers.wheel.replay import split

TRACES = Path(__file__).resolve().parents[2] / "data" / "wheel"


def through_the_driver(lines: list[str], config: WheelWatchConfig, dealer: str | None = "studio",
                       is_open: bool = True) -> tuple[WheelWatch, list[WatchAlert]]:
    """Each line into the driver's core, each event it gives into the live feed (as journaled)."""
    watch = WheelWatch(EUROPEAN_ORDER, config, open=is_open)
    feed, core, clock, alerts = WheelEventFeed(watch), WheelCore(), 0.0, []
    for line in lines:
        stamp, direction, text = split(line)
        clock = stamp if stamp is not None else clock + 0.5
        if direction == "TX":
            if host_mode(text) is not None:
                watch.set_mode(host_mode(text) or 0)
            continue
        message = codec.parse_line(text)
        if isinstance(message, codec.Operating) and message.mode is not None:
            watch.set_mode(message.mode)
        for event in core.receive(message, clock).events:
            alerts += feed.event(clock, event.model_dump(mode="json"), dealer)
    return watch, alerts


def live_config(**more: float) -> WheelWatchConfig:
    return WheelWatchConfig(speed_sustain=LIVE_SPEED_SUSTAIN, **more)  # type: ignore[arg-type]


@pytest.mark.parametrize("trace", ["cammegh-ss2-studio-faults.log", "cammegh-ss2-six-games.log"])
def test_the_real_traces_give_the_live_watch_no_cause(trace: str) -> None:
    lines = (TRACES / trace).read_text().splitlines()
    # self-test sessions, not play: the table is not open, so the spin rate is not its business
    watch, alerts = through_the_driver(lines, live_config(target_games_per_hour=30), is_open=False)
    assert alerts == []
    if "studio" in trace:
        assert watch.mode == 1159


def game(spin: int, speed: int, direction: int = 0, win: str = "17") -> list[str]:
    s = f"{spin:03d}"
    sp = f"{speed:03d}"
    return [f"*X;2;{s};  ;0;{sp};{direction}", f"*X;3;{s};  ;0;{sp};{direction}",
            f"*X;3;{s};  ;0;{sp};{direction}", f"*X;4;{s};  ;0;{sp};{direction}", f"{win:>2}",
            f"*X;5;{s};{win:>2};0;{sp};{direction}"]


def test_a_rotor_out_of_band_through_the_rim_is_sustained_a_single_odd_line_is_not() -> None:
    _, alerts = through_the_driver(["TX *o 1159", *game(1, 165), *game(2, 80, 1)], live_config())
    assert [a.code for a in alerts] == ["wheel.rotor_speed"]
    blip = ["TX *o 1159", "*X;2;001;  ;0;165;0", "*X;3;001;  ;0;080;0", "*X;3;001;  ;0;165;0",
            "*X;3;001;  ;0;165;0", "*X;4;001;  ;0;165;0"]
    assert through_the_driver(blip, live_config())[1] == []
