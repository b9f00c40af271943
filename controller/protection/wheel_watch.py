"""The wheel watch: what the wheel's own status lines say about the rotor, the pace and the dealer.

Fed the wheel's status lines in order (``status``), with the operating mode the host set or the
wheel reported (``mode``) and each winning number with the dealer who spun it (``result``):

- ``wheel.direction_not_alternated``: the operating mode asks for the direction to alternate each
  game (mode bit 1) and two consecutive games (spin numbers one apart: a re-powered wheel starts
  again at game 1) ran the same way;
- ``wheel.rotor_speed``: the rotor's speed while the ball is in the rim (state 3; state 4 too when
  the mode makes no random speed change) stayed outside the configured band for
  ``speed_sustain`` status lines in a row; lines with a fault flag are the driver's business;
- ``wheel.spin_rate``: fewer games than the target over a full window while the table is open for
  play (``set_open``; a window broken by closing the table or by state 6, the wheel closed or
  powered down, starts again);
- ``wheel.dealer_signature``: the distance in pockets from the previous winning number to this one,
  oriented by the rotor's direction, is not uniform for one dealer (a chi-square test once the
  dealer has ``signature_min_spins`` results, by default five per pocket, at ``signature_alpha``).

Each alert is raised once and raised again only after its cause has cleared.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Final

from controller.floor.wheel_bias import Uniformity, uniformity
from drivers.wheel.codec import Status

MODE_ALTERNATE: Final = 1
MODE_RANDOM_SPEED: Final = 4
SPEED_SUSTAIN: Final = 3
SIGNATURE_ALPHA: Final = 1e-4


@dataclass(frozen=True, slots=True)
class WatchAlert:
    code: str
    severity: str
    message: str
    #: what the alert is about beyond its words (``dealer`` for a signature)
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class WheelWatchConfig:
    #: rotor speed band in rpm while the ball is in the rim
    min_rpm: float = 10.0
    max_rpm: float = 40.0
    #: games per hour the house expects, or None for no pace alert
    target_games_per_hour: float | None = None
    window_s: float = 1800.0
    #: consecutive in-play readings outside the band before it is a speed problem
    speed_sustain: int = SPEED_SUSTAIN
    signature_alpha: float = SIGNATURE_ALPHA
    #: results of one dealer before the signature is tested (None: five per pocket)
    signature_min_spins: int | None = None


@dataclass
class _Signature:
    counts: list[int]

    def test(self) -> Uniformity:
        return uniformity(self.counts)


@dataclass
class WheelWatch:
    order: tuple[str, ...]
    config: WheelWatchConfig = field(default_factory=WheelWatchConfig)
    mode: int | None = None
    open: bool = False
    _game_spin: int | None = None
    _game_direction: int | None = None
    _speed_out: int = 0
    _raised: set[str] = field(default_factory=set)
    _results: deque[float] = field(default_factory=deque)
    _window_start: float | None = None
    _previous_number: str | None = None
    _signatures: dict[str, _Signature] = field(default_factory=dict)

    def set_mode(self, mode: int) -> None:
        self.mode = mode

    def set_open(self, at: float, is_open: bool) -> None:
        """The table opened for play, or closed: pace is measured only while it is open."""
        if is_open != self.open:
            self.open = is_open
            self._window_start = at if is_open else None
            self._results.clear()
            self._raised.discard("wheel.spin_rate")

    def status(self, at: float, status: Status) -> list[WatchAlert]:
        alerts: list[WatchAlert] = []
        if status.state == 6:  # closed or powered down: the next game starts afresh
            self._window_start, self._speed_out, self._game_direction = None, 0, None
            self._results.clear()
            self._raised.discard("wheel.spin_rate")
            return alerts
        if self._window_start is None and self.open:
            self._window_start = at
        if status.state == 3:
            alerts += self._game_direction_seen(status)
        alerts += self._speed(status)
        alerts += self._pace(at)
        return alerts

    def _game_direction_seen(self, status: Status) -> list[WatchAlert]:
        if status.spin == self._game_spin:
            return []
        previous, previous_spin = self._game_direction, self._game_spin
        self._game_spin, self._game_direction = status.spin, status.direction
        consecutive = previous_spin is not None and status.spin == (previous_spin + 1) % 256
        if previous is None or not consecutive or self.mode is None or not self.mode & MODE_ALTERNATE:
            return []
        if status.direction == previous:
            return [WatchAlert("wheel.direction_not_alternated", "warning",
                               f"game {status.spin} ran the same way as the game before, but the wheel's mode "
                               "asks for the direction to alternate")]
        return []

    def _speed(self, status: Status) -> list[WatchAlert]:
        in_play = status.state == 3 or (status.state == 4 and not (self.mode or 0) & MODE_RANDOM_SPEED)
        if not in_play or status.flags:
            self._speed_out = 0
            return []
        rpm = status.speed / 10
        if self.config.min_rpm <= rpm <= self.config.max_rpm:
            self._speed_out = 0
            self._raised.discard("wheel.rotor_speed")
            return []
        self._speed_out += 1
        if self._speed_out < self.config.speed_sustain or "wheel.rotor_speed" in self._raised:
            return []
        self._raised.add("wheel.rotor_speed")
        return [WatchAlert("wheel.rotor_speed", "warning",
                           f"rotor at {rpm:.1f} rpm with the ball in the rim, outside "
                           f"{self.config.min_rpm:g}-{self.config.max_rpm:g} rpm")]

    def _pace(self, at: float) -> list[WatchAlert]:
        target, window = self.config.target_games_per_hour, self.config.window_s
        while self._results and self._results[0] < at - window:
            self._results.popleft()
        if target is None or self._window_start is None or at - self._window_start < window:
            return []
        rate = len(self._results) * 3600 / window
        if rate >= target:
            self._raised.discard("wheel.spin_rate")
            return []
        if "wheel.spin_rate" in self._raised:
            return []
        self._raised.add("wheel.spin_rate")
        return [WatchAlert("wheel.spin_rate", "warning",
                           f"{rate:.0f} games an hour over the last {window / 60:.0f} minutes, below the target of {target:g}")]

    def result(self, at: float, number: str, dealer: str | None) -> list[WatchAlert]:
        """A winning number; the game's direction is the one its state-3 status showed."""
        self._results.append(at)
        previous, self._previous_number = self._previous_number, number
        distance = self._distance(previous, number)
        if dealer is None or distance is None:
            return []
        signature = self._signatures.setdefault(dealer, _Signature([0] * len(self.order)))
        signature.counts[distance] += 1
        return self._signature_alert(dealer, signature)

    def _distance(self, previous: str | None, number: str) -> int | None:
        """Pockets from the last number to this one, the way the ball went (None: not known)."""
        direction = self._game_direction
        if previous is None or direction is None or number not in self.order or previous not in self.order:
            return None
        step = 1 if direction == 0 else -1
        return ((self.order.index(number) - self.order.index(previous)) * step) % len(self.order)

    def _signature_alert(self, dealer: str, signature: _Signature) -> list[WatchAlert]:
        """Once per dealer: the distances are not uniform, over enough spins."""
        code = f"wheel.dealer_signature:{dealer}"
        test = signature.test()
        minimum = self.config.signature_min_spins or 5 * len(self.order)
        if test.n < minimum or code in self._raised or test.p_value >= self.config.signature_alpha:
            return []
        self._raised.add(code)
        return [WatchAlert("wheel.dealer_signature", "warning",
                           f"dealer {dealer}: the distance from the last number to the next is not uniform over "
                           f"{test.n} spins (chi-square {test.statistic:.1f}, p = {test.p_value:.1e})",
                           {"dealer": dealer, "spins": test.n, "statistic": round(test.statistic, 3),
                            "p_value": test.p_value})]

    def signature(self, dealer: str) -> Uniformity | None:
        signature = self._signatures.get(dealer)
        return None if signature is None else signature.test()
