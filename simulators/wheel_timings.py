"""The simulated SS2's timings, in protocol seconds."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Timings:
    """Seconds of protocol time (shrink them for tests, or share a ``ScaledClock``)."""

    before_game: float = 2.0
    place_bets: float = 6.0
    ball_in_rim: float = 8.0
    no_more_bets: float = 10.0
    result: float = 1.0
    status_period: float = 0.5
    reply_delay: float = 0.05
    power_up: float = 0.4
    spin_down: float = 4.0
    self_test: float = 3.0
    ball_lost_stop: float = 75.0
    fault_shutdown: float = 30.0
