"""The wheel session as a pure state machine: typed messages and times in, events and commands out.

No I/O and no clock of its own: the asyncio session feeds it what the line delivers with
``clock.monotonic()``, a trace replay feeds it the trace's timestamps, and both get the same
verdicts. The vendor's exception rules (``docs/protocols.md``, SS2) live here:

* launch failed (flag 8): ignored for the first ``launch_grace`` (3 s) of state 3 -- or, when the
  misfire keeps the wheel in state 2 as the studio wheel does, from the first flagged status --
  then, if a status still shows it, ``void/launch_failed``;
* miss-spin (flag 2 in state 3): ``void/miss_spin`` at once and ``*R`` to the wheel;
* ball not sensed (flag 1 in state 4): ignored for ``ball_grace`` (5 s) from the first flagged
  status, then, if a status still shows it, ``void/ball_not_sensed``;
* flag 4, or state 6 straight out of states 2-5 without a ``*P 0``: ``fault``; the wheel is
  trusted again (``recovered``) after ``*P 1`` -> ``*P OK`` and a healthy state 1 or 2.

Verdicts are taken on statuses, never on a timer: a flag is "persisting" only if the wheel still
reports it once the grace is over. A silence (no line for ``silence_timeout``) reports the wheel
offline and, when lines resume, the first status is a fresh baseline: no transition is inferred
across the gap, but a flag still set on both sides keeps its age.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from drivers.events import DeviceEvent, DeviceOffline, DeviceOnline
from drivers.wheel import codec
from drivers.wheel.codec import Command, Status, WheelMessage
from drivers.wheel.events import (
    BallInRim,
    BeforeGame,
    FaultReason,
    NoMoreBets,
    PlaceBets,
    Rotor,
    TableClosed,
    Void,
    VoidReason,
    WarningCode,
    WheelWarning,
    WinningNumberEvent,
)
from drivers.wheel.recovery import Recovery
from drivers.wheel.self_test import SelfTestRun

log = logging.getLogger(__name__)

#: states whose event says only that the wheel is in them
_STATE_EVENTS: dict[int, type[BeforeGame | BallInRim | NoMoreBets]] = {1: BeforeGame, 3: BallInRim, 4: NoMoreBets}


@dataclass(frozen=True)
class Rules:
    launch_grace: float = 3.0
    ball_grace: float = 5.0
    silence_timeout: float = 2.0
    rotor_step_rpm: float = 1.0
    restart_on_miss_spin: bool = True
    self_test_timeout: float = 120.0
    self_test_settle: float = 0.5
    """After the last ``*F <code>``: the wheel sends one line per fault and no terminator."""


@dataclass
class Step:
    events: list[DeviceEvent] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)


class WheelCore:
    """One wheel's conversation state. Feed ``receive``/``sent``/``tick``; read the ``Step``s."""

    def __init__(self, device: str = "wheel", rules: Rules = Rules()) -> None:
        self.device = device
        self.rules = rules
        self.status: Status | None = None
        self.noise = 0
        self.lines = 0
        self._gap = True  # no trusted previous status yet
        self._silent = False
        self._last_rx: float | None = None
        self._state_since = 0.0
        # per game
        self._void = False
        self._result: str | None = None
        self._launch_anchor: float | None = None
        self._ball_anchor: float | None = None
        self._warned: set[str] = set()
        self.recovery = Recovery(device)
        # rotor as last reported
        self._rotor: tuple[int, int] | None = None
        self.self_test = SelfTestRun(device, rules.self_test_timeout, rules.self_test_settle)

    # -- inputs -----------------------------------------------------------------------------

    def receive(self, message: WheelMessage, now: float) -> Step:
        step = Step()
        self.lines += 1
        self._last_rx = now
        if self._silent:
            self._silent = False
            step.events.append(DeviceOnline(device=self.device, detail="resumed"))
        if isinstance(message, codec.Status):
            self._on_status(message, now, step)
        elif isinstance(message, codec.WinningNumber):
            self._on_number(message.number, step)
        elif isinstance(message, codec.SelfTest):
            self._on_self_test(message, now, step)
        else:
            self._on_reply(message)
        return step

    def _on_reply(self, message: WheelMessage) -> None:
        """``*P OK`` to the ``*P 1`` of a recovery, ``*R OK``, or a line the codec did not know."""
        if isinstance(message, codec.PowerReply):
            self.recovery.power_reply(message.ok)
        elif isinstance(message, codec.RestartAck):
            if self.status is not None and self.status.state == 2:
                self._new_game()  # a void acknowledged while still in state 2: the next launch is fresh
        elif isinstance(message, codec.Unknown):
            self.noise += 1
            log.warning("%s: ignored line %r (%s)", self.device, message.raw, message.reason)

    def sent(self, command: Command, now: float) -> None:
        """What the host wrote: a power-off makes the coming state 6 expected, not a fault."""
        if isinstance(command, codec.Power):
            self.recovery.power_sent(command.on)
        elif isinstance(command, codec.RunSelfTest):
            self.self_test.started(now)

    def tick(self, now: float) -> Step:
        step = Step()
        if (
            not self._silent
            and self._last_rx is not None
            and now >= self._last_rx + self.rules.silence_timeout  # the very sum next_deadline() gives
        ):
            self.link_lost()
            self._silent = True
            step.events.append(DeviceOffline(device=self.device, reason="silent"))
        if (result := self.self_test.expired(now)) is not None:
            step.events.append(result)
        return step

    def next_deadline(self) -> float | None:
        times = []
        if not self._silent and self._last_rx is not None:
            times.append(self._last_rx + self.rules.silence_timeout)
        if self.self_test.until is not None:
            times.append(self.self_test.until)
        return min(times, default=None)

    @property
    def last_rx(self) -> float | None:
        """When the last line (of any kind) arrived; None right after a silence or a reconnect."""
        return self._last_rx

    def arm_recovery(self) -> None:
        """A fault this process did not see (journaled before a restart) is to be cleared the
        vendor's way: the next ``*P 1`` -> ``*P OK`` and a healthy state 1 or 2 are ``recovered``."""
        self.recovery.arm()

    @property
    def needs_repower(self) -> bool:
        """A fault is not cleared yet: the wheel must be repowered (``*P 1`` -> ``*P OK``)."""
        return self.recovery.needs_repower

    def link_lost(self) -> None:
        """The port went away or fell silent: the next status is a fresh baseline."""
        self._gap = True
        self._silent = False
        self._last_rx = None

    # -- statuses -----------------------------------------------------------------------------

    def _on_status(self, s: Status, now: float, step: Step) -> None:
        prev = self.status
        trusted_prev = None if self._gap else prev
        self.status = s
        self._gap = False
        step.events += self.recovery.status(s)
        if prev is None or s.state != prev.state:
            self._state_since = now
            self._enter(s, trusted_prev, step)
        self._flags(s, now, step)
        self._rotor_report(s, step)

    def _enter(self, s: Status, prev: Status | None, step: Step) -> None:
        """The event of the state the wheel entered; a new game, a result, or a close checked."""
        if s.state in _STATE_EVENTS:
            step.events.append(_STATE_EVENTS[s.state](device=self.device, spin=s.spin))
        if s.state == 2:
            self._new_game()
            step.events.append(PlaceBets(device=self.device, spin=s.spin))
            if self.needs_repower:
                self._warn(step, "not_repowered", s, "state 2 after a fault without *P 1 -> *P OK")
        elif s.state == 5:
            self._on_result_status(s, step)
        elif s.state == 6:
            self._on_closed(s, prev, step)

    def _on_closed(self, s: Status, prev: Status | None, step: Step) -> None:
        """State 6: a fault when it came straight out of a game and the host did not ask (``*P 0``)."""
        step.events.append(TableClosed(device=self.device, spin=s.spin))
        step.events += self.recovery.closed(s, prev)

    def _on_result_status(self, s: Status, step: Step) -> None:
        if s.win is None:
            self._fault(step, "result_mismatch", s, detail="state 5 without a winning number")
        elif self._void:
            self._warn(step, "result_of_void_game", s, s.win)
        elif self._result is None:
            self._result = s.win
            step.events.append(WinningNumberEvent(device=self.device, number=s.win, spin=s.spin))
        elif self._result != s.win:
            self._fault(step, "result_mismatch", s, detail=f"number line {self._result}, status {s.win}")

    def _flags(self, s: Status, now: float, step: Step) -> None:
        """Each flag of a status, by the vendor's rule for it (the module's doc)."""
        step.events += self.recovery.fault_flag(s)
        self._launch_flag(s, now, step)
        self._wrong_way_flag(s, step)
        self._ball_flag(s, now, step)

    def _launch_flag(self, s: Status, now: float, step: Step) -> None:
        if not (s.flags & Status.LAUNCH_FAILED and s.state in (2, 3)):
            self._launch_anchor = None
            return
        if self._launch_anchor is None:
            self._launch_anchor = self._state_since if s.state == 3 else now
        self._grace(step, s, now, self._launch_anchor, self.rules.launch_grace, "launch_failed", "launch_retry")

    def _wrong_way_flag(self, s: Status, step: Step) -> None:
        if not s.flags & Status.WRONG_WAY:
            return
        if s.state != 3:
            self._warn(step, "wrong_way", s, f"flag 2 in state {s.state}")
        elif not self._void:
            self._void_game(step, "miss_spin", s)
            if self.rules.restart_on_miss_spin:
                step.commands.append(codec.Restart())

    def _ball_flag(self, s: Status, now: float, step: Step) -> None:
        if not (s.flags & Status.BALL_NOT_SENSED and s.state == 4):
            self._ball_anchor = None
            self._warned.discard("ball_not_sensed")
            return
        if self._ball_anchor is None:
            self._ball_anchor = now
        self._grace(step, s, now, self._ball_anchor, self.rules.ball_grace, "ball_not_sensed", "ball_not_sensed")

    def _grace(
        self, step: Step, s: Status, now: float, anchor: float, grace: float, reason: VoidReason, code: WarningCode
    ) -> None:
        if self._void:
            return
        if now - anchor >= grace:
            self._void_game(step, reason, s)
        else:
            self._warn(step, code, s, f"flag {s.flags:X} in state {s.state}, grace {grace:g} s")

    def _rotor_report(self, s: Status, step: Step) -> None:
        last = self._rotor
        if last is None or last[1] != s.direction or abs(last[0] - s.speed) >= self.rules.rotor_step_rpm * 10:
            self._rotor = (s.speed, s.direction)
            step.events.append(
                Rotor(device=self.device, rpm=s.rpm, direction="anticlockwise" if s.direction else "clockwise")
            )

    # -- other lines --------------------------------------------------------------------------

    def _on_number(self, number: str, step: Step) -> None:
        s = self.status
        if s is None or self._gap:
            self._warn(step, "result_out_of_turn", s, f"number line {number} with no trusted state")
        elif self._void:
            self._warn(step, "result_of_void_game", s, number)
        elif s.state == 4 and self._result is None:
            self._result = number
            step.events.append(WinningNumberEvent(device=self.device, number=number, spin=s.spin))
        elif s.state == 5 and self._result is not None:
            if number != self._result:
                self._fault(step, "result_mismatch", s, detail=f"reported {self._result}, number line {number}")
        else:
            # a stray two-character fragment must never become a result: the state-5 status decides
            self._warn(step, "result_out_of_turn", s, f"number line {number} in state {s.state}")

    def _on_self_test(self, m: codec.SelfTest, now: float, step: Step) -> None:
        """An answer to the host's self-test; outside one, a fault code the wheel reports itself."""
        if not self.self_test.running:
            if m.code:
                self._fault(step, "reported", self.status, code=m.code, detail=f"*F {m.code} during play")
        elif (result := self.self_test.answer(m.code, now)) is not None:
            step.events.append(result)

    # -- helpers ------------------------------------------------------------------------------

    def _new_game(self) -> None:
        self._void = False
        self._result = None
        self._launch_anchor = None
        self._ball_anchor = None
        self._warned.clear()

    def _void_game(self, step: Step, reason: VoidReason, s: Status) -> None:
        self._void = True
        step.events.append(Void(device=self.device, reason=reason, spin=s.spin, state=s.state))

    def _fault(self, step: Step, reason: FaultReason, s: Status | None, code: int | None = None, detail: str = "") -> None:
        step.events.append(self.recovery.fault(reason, s, code, detail))

    def _warn(self, step: Step, code: WarningCode, s: Status | None, detail: str) -> None:
        if code in self._warned:
            return
        self._warned.add(code)
        step.events.append(
            WheelWarning(
                device=self.device,
                code=code,
                state=None if s is None else s.state,
                spin=None if s is None else s.spin,
                detail=detail,
            )
        )
