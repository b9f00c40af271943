"""The wheel watch fed from the wheel driver's journaled events, as a live table has them.

The driver journals a state event per state the wheel enters (with the game's spin number), a
``rotor`` event whenever the rotor's speed moves by a rpm or its direction turns, the winning
number, faults and recoveries (drivers/wheel/events.py). Between two such events the rotor ran
as last reported, so each event is one reading of the wheel for the watch: a status line with
the state and the rotor as they stand. A state's last reading (the rotor just before the wheel
left it) is given before the next state's first, so a rotor outside the band from the ball's
launch to no-more-bets is two readings, and a single odd reading, reported back in band by the
next ``rotor`` event, is one. Every reading is timed by its journal entry (the table's clock).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from controller.protection.wheel_watch import WatchAlert, WheelWatch
from drivers.wheel.codec import Status

#: a reading that held from one driver event to the next is sustained (see the module's doc)
LIVE_SPEED_SUSTAIN: Final = 2
STATES: Final[Mapping[str, int]] = {
    "before_game": 1, "place_bets": 2, "ball_in_rim": 3, "no_more_bets": 4, "winning_number": 5, "table_closed": 6,
}


class WheelEventFeed:
    """Turns journaled wheel events (their payloads) into the watch's readings and results."""

    def __init__(self, watch: WheelWatch) -> None:
        self.watch = watch
        self.state: int | None = None
        self.spin = 0
        self.speed = 0
        self.direction = 0
        self.faulted = False

    def event(self, at: float, payload: Mapping[str, Any], dealer: str | None) -> list[WatchAlert]:
        kind = payload.get("type")
        if kind == "rotor":
            self.speed = round(float(payload["rpm"]) * 10)
            self.direction = 1 if payload.get("direction") == "anticlockwise" else 0
        elif kind == "fault":
            self.faulted = True
        else:
            return self._state_event(at, kind, payload, dealer)
        return self._reading(at) if self.state is not None else []

    def _state_event(self, at: float, kind: Any, payload: Mapping[str, Any], dealer: str | None) -> list[WatchAlert]:
        """A state the wheel entered (the winning number's with its result), a recovery, or the
        line going away (what comes back is a fresh baseline)."""
        if kind == "recovered":
            self.faulted = False
        if kind == "offline":
            self.state = None
            return []
        state = STATES.get(str(kind))
        if state is None:
            return []
        alerts: list[WatchAlert] = []
        if self.state is not None and state != self.state:
            alerts += self._reading(at)  # the rotor as it stood to the end of the state it left
        self.state, self.spin = state, int(payload.get("spin", self.spin))
        alerts += self._reading(at)
        if kind == "winning_number":
            alerts += self.watch.result(at, str(payload["number"]), dealer)
        return alerts

    def _reading(self, at: float) -> list[WatchAlert]:
        assert self.state is not None
        flags = Status.FAULT if self.faulted else 0
        return self.watch.status(at, Status(self.state, self.spin, None, flags, self.speed, self.direction))
