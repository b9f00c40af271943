"""Replay a wheel trace through codec + core without a port: how the trace tests run, and how a
studio log can be re-read to see what the driver would have decided.

Accepted line shapes: ``2025-09-10 06:19:38.174 RX *X;...`` (timestamped, with direction),
``RX *X;...`` and bare wire lines. A bare line that parses as a host command (``*P 1``) is taken
as sent by the host: the wheel never sends one. Untimed lines are spaced ``interval`` apart, the
wheel's automatic-status period.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from drivers.events import DeviceEvent
from drivers.wheel import codec
from drivers.wheel.core import Rules, Step, WheelCore

_TIMED = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) (RX|TX) ?(.*)")
_DIRECTED = re.compile(r"(RX|TX) (.*)")


@dataclass
class Replay:
    events: list[tuple[float, DeviceEvent]] = field(default_factory=list)
    commands: list[tuple[float, codec.Command]] = field(default_factory=list)
    """What the driver itself would have sent (``*R`` after a miss-spin)."""
    core: WheelCore = field(default_factory=WheelCore)

    def of_type(self, kind: str) -> list[DeviceEvent]:
        return [e for _, e in self.events if e.type == kind]


def split(line: str) -> tuple[float | None, str | None, str]:
    """A trace line to (timestamp or None, "RX"/"TX"/None, wire text)."""
    line = line.rstrip("\r\n")
    if m := _TIMED.fullmatch(line):
        stamp = datetime.fromisoformat(m.group(1))
        return stamp.replace(tzinfo=UTC).timestamp(), m.group(2), m.group(3)
    if m := _DIRECTED.fullmatch(line):
        return None, m.group(1), m.group(2)
    return None, None, line


def replay(lines: Iterable[str | bytes], rules: Rules | None = None, interval: float = 0.5) -> Replay:
    """Feed every line to a fresh core in order, running its deadlines in between."""
    result = Replay(core=WheelCore(rules=rules or Rules()))
    core = result.core
    clock = 0.0
    for index, raw in enumerate(lines):
        text = raw.decode("latin-1") if isinstance(raw, bytes) else raw
        stamp, direction, wire = split(text)
        now = stamp if stamp is not None else index * interval
        clock = max(clock, now)
        while (deadline := core.next_deadline()) is not None and deadline <= clock:
            _collect(result, deadline, core.tick(deadline))
        if (step := _feed(core, direction, wire, clock)) is not None:
            _collect(result, clock, step)
    return result


def _feed(core: WheelCore, direction: str | None, wire: str, clock: float) -> Step | None:
    """One line to the core: what the host sent (``TX``, or an undirected line that is a command
    and no wheel line) is ``sent``; what the wheel sent is received, and its step returned."""
    if direction == "TX":
        command = codec.parse_command(wire)
        if not isinstance(command, codec.Unknown):
            core.sent(command, clock)
        return None
    message = codec.parse_line(wire)
    if direction is None and isinstance(message, codec.Unknown):
        command = codec.parse_command(wire)
        if not isinstance(command, codec.Unknown):
            core.sent(command, clock)
            return None
    return core.receive(message, clock)


def _collect(result: Replay, now: float, step: Step) -> None:
    result.events.extend((now, e) for e in step.events)
    result.commands.extend((now, c) for c in step.commands)
