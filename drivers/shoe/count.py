"""The shoe's own count of cards dealt, from its ``STATUS`` frames: what it vouches for, and
what the table hears of it.

A noisy line can forge a CRC-16-valid frame about once in 65,536 corrupted ones, so one STATUS
proves nothing: the count the shoe vouches for is the lower of its last two (one a second)."""

from __future__ import annotations

from collections import deque

from drivers.events import DeviceEvent, Refused
from drivers.shoe import codec
from drivers.shoe.events import ShoeStatus


class ShoeCount:
    """The last two STATUS counts, each with the arrival number it came at, and the last one
    reported (STATUS is reported on change only)."""

    def __init__(self, device: str) -> None:
        self.device = device
        #: the last two STATUS frames, as (arrival number, n): the shoe's own count, twice
        self._statuses: deque[tuple[int, int]] = deque(maxlen=2)
        self._reported: tuple[str, int, str] | None = None

    def clear(self) -> None:
        """A new shoe: its count starts again (what was reported stays, to report on change)."""
        self._statuses.clear()

    def heard(self, arrival: int, n: int) -> None:
        self._statuses.append((arrival, n))

    @property
    def latest(self) -> int | None:
        """The count in the last STATUS, vouched for or not (None: none since the shoe loaded)."""
        return self._statuses[-1][1] if self._statuses else None

    @property
    def since(self) -> int:
        """The arrival number the older of the two STATUS frames came after (with ``confirmed``)."""
        return self._statuses[0][0]

    def confirmed(self) -> int | None:
        """The count the shoe vouches for: the lower of its last two STATUS counts (one forged
        STATUS cannot move it), or None before two have come."""
        if len(self._statuses) < 2:
            return None
        return min(n for _, n in self._statuses)

    def report_again(self) -> None:
        """This table's shoe proved itself: its next STATUS is reported (and clears any fault)."""
        self._reported = None

    def report(self, msg: codec.Status, delivered_n: int | None) -> list[DeviceEvent]:
        """A STATUS the table has not heard yet, and a refusal when it counts fewer cards than
        were delivered: a shoe reloaded behind the host's back, or a stale frame (nothing changes)."""
        key = (msg.state, msg.n, msg.shoe_id)
        if key == self._reported:
            return []
        self._reported = key
        events: list[DeviceEvent] = []
        if delivered_n is not None and msg.n < delivered_n:
            reason = f"shoe reports {msg.n} cards drawn, {delivered_n} already delivered (no new shoe sent)"
            events.append(Refused(device=self.device, reason=reason, raw=f"STATUS;{msg.state};{msg.n};{msg.shoe_id}"))
        events.append(ShoeStatus(device=self.device, state=msg.state, n=msg.n, shoe_id=msg.shoe_id))
        return events
