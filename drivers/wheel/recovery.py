"""A wheel's faults and its way back (``docs/protocols.md``, SS2): flag 4, or state 6 straight out
of a game without the host's ``*P 0``, is a ``fault``; the wheel is trusted again (``recovered``)
only after the vendor's ``*P 1`` -> ``*P OK`` and then a healthy state 1 or 2."""

from __future__ import annotations

from drivers.events import DeviceEvent
from drivers.wheel.codec import Status
from drivers.wheel.events import Fault, FaultReason, Recovered

#: the states of a game in play: a close (state 6) straight out of one is a fault
MID_GAME = (2, 3, 4, 5)


class Recovery:
    """Whether the wheel must be repowered, and how far that has gone; what the host asked of its
    power; and whether the fault flag is already reported (a run of flagged statuses is one fault)."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.needs_repower = False
        self._repower_acked = False
        self._last_power: bool | None = None
        self._power_off_requested = False
        self._fault_run = False

    def fault(self, reason: FaultReason, s: Status | None, code: int | None = None, detail: str = "") -> Fault:
        """A fault: the wheel is not trusted until it is repowered."""
        self.needs_repower = True
        self._repower_acked = False
        return Fault(device=self.device, reason=reason, spin=None if s is None else s.spin,
                     state=None if s is None else s.state, code=code, detail=detail)

    def arm(self) -> None:
        """A fault this process did not see (journaled before a restart) is to be cleared too."""
        self.needs_repower = True
        self._repower_acked = False

    def power_sent(self, on: bool) -> None:
        """The host wrote ``*P 1`` or ``*P 0`` (a state 6 after ``*P 0`` is expected, not a fault)."""
        self._last_power = on
        self._power_off_requested = not on

    def power_reply(self, ok: bool) -> None:
        """``*P OK`` to the ``*P 1`` of a recovery: half the way back."""
        if ok and self._last_power is True and self.needs_repower:
            self._repower_acked = True

    def status(self, s: Status) -> list[DeviceEvent]:
        """``recovered`` on the first healthy state 1 or 2 after the ``*P OK``; the fault flag's
        ``fault`` once per run of flagged statuses."""
        events: list[DeviceEvent] = []
        if self.needs_repower and self._repower_acked and s.state in (1, 2) and not s.flags & Status.FAULT:
            self.needs_repower = False
            self._repower_acked = False
            events.append(Recovered(device=self.device, spin=s.spin))
        return events

    def fault_flag(self, s: Status) -> list[DeviceEvent]:
        if not s.flags & Status.FAULT:
            self._fault_run = False
            return []
        if self._fault_run:
            return []
        self._fault_run = True
        return [self.fault("sensor_fault", s, detail="status flag 4: sensor, motor or encoder")]

    def closed(self, s: Status, prev: Status | None) -> list[DeviceEvent]:
        """State 6: a fault when it came straight out of a game the host did not close (``*P 0``)."""
        unprompted = not self._power_off_requested
        self._power_off_requested = False
        if prev is not None and prev.state in MID_GAME and unprompted and not self._fault_run:
            return [self.fault("state_6", s, detail=f"state {prev.state} -> 6 without *P 0")]
        return []
