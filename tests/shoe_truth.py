"""The one check every shoe-accounting test makes: the driver never delivers a wrong card."""

from __future__ import annotations

from drivers.events import DeviceEvent
from drivers.shoe.events import CardDrawn, LostCard
from drivers.shoe.events import NoRead as NoReadEvent


def assert_never_a_wrong_card(events: list[DeviceEvent], truth: list[str]) -> list[int]:
    """Every card event matches the shoe's true sequence at its n; n rises by one except right
    after a lost_card event, which names the skipped counts. Returns the delivered counts."""
    delivered: list[int] = []
    expected = 1
    for e in events:
        if isinstance(e, LostCard):
            assert e.expected_n == expected and e.got_n > expected
            expected = e.got_n
        elif isinstance(e, CardDrawn):
            assert e.n == expected, f"card n={e.n}, expected {expected}"
            assert e.card == truth[e.n - 1], f"wrong card at n={e.n}: {e.card} != {truth[e.n - 1]}"
            delivered.append(e.n)
            expected += 1
        elif isinstance(e, NoReadEvent):
            assert e.n == expected
            expected += 1
    return delivered
