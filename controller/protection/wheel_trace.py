"""Run the wheel watch over a wheel trace (``RX``/``TX`` lines, as drivers.wheel.replay reads
them): how the watch is checked against a real wheel, and how a studio log can be re-read."""

from __future__ import annotations

from collections.abc import Iterable

from controller.protection.wheel_watch import WatchAlert, WheelWatch
from drivers.wheel import codec
from drivers.wheel.replay import split


def host_mode(text: str) -> int | None:
    """The mode of a host's ``*o <mode>`` line (None for any other line)."""
    command = text.split()
    return int(command[1]) if len(command) == 2 and command[0] == "*o" and command[1].isdigit() else None


def watch_trace(watch: WheelWatch, lines: Iterable[str], dealer: str | None = None,
                interval: float = 0.5) -> list[WatchAlert]:
    """Every alert the watch raises over the trace; untimed lines are ``interval`` apart."""
    alerts: list[WatchAlert] = []
    clock = 0.0
    for line in lines:
        stamp, direction, text = split(line)
        clock = stamp if stamp is not None else clock + interval
        if direction == "TX":
            _host_line(watch, text)
        else:
            alerts += _wheel_line(watch, clock, text, dealer)
    return alerts


def _host_line(watch: WheelWatch, text: str) -> None:
    """What the host sent: only a mode it set matters to the watch."""
    mode = host_mode(text)
    if mode is not None:
        watch.set_mode(mode)


def _wheel_line(watch: WheelWatch, clock: float, text: str, dealer: str | None) -> list[WatchAlert]:
    """What the wheel sent: a status line, a winning number, or the mode it is in."""
    message = codec.parse_line(text)
    if isinstance(message, codec.Status):
        return watch.status(clock, message)
    if isinstance(message, codec.WinningNumber):
        return watch.result(clock, message.number, dealer)
    if isinstance(message, codec.Operating) or (isinstance(message, codec.ModeReply) and message.mode is not None):
        assert message.mode is not None
        watch.set_mode(message.mode)
    return []
