"""What a step of the table core asks the outside world to do, in order.

The core only returns these; the loop carries them out live, and on replay carries out only
the journal writes that are missing (a crash between an input and its outputs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Record:
    """Write an output entry (``alert``, ``round_closed``) to the journal."""

    kind: str
    payload: dict[str, Any]
    round_id: str | None


@dataclass(frozen=True, slots=True)
class Gate:
    """Lock or unlock the shoe's card gate."""

    locked: bool


#: the two gate effects (frozen values: emitted, never built per round)
LOCK, UNLOCK = Gate(locked=True), Gate(locked=False)


@dataclass(frozen=True, slots=True)
class LoadShoe:
    """Tell the shoe a new shuffled shoe is loaded (its card count restarts at 0)."""

    shoe_id: str
    decks: int


@dataclass(frozen=True, slots=True)
class DeviceCommand:
    """Send the game's own device a command by name (the wheel: ``start_game``, ``power_on``)."""

    device: str
    name: str


@dataclass(frozen=True, slots=True)
class Draw:
    """Make the round's random draw (multipliers) now and submit it as a ``draw`` input."""

    round_id: str | None


@dataclass(frozen=True, slots=True)
class Deadline:
    """At ``at`` (the journal's ISO-8601 UTC), journal ``close_betting`` from ``source`` (``timer``:
    the betting time's end; ``timer:seal``: the seal's grace is over) if ``round_id`` still waits."""

    round_id: str | None
    source: str
    at: str
    #: tells apart deadlines of one round and source (a seated box's turns: the entry that started each)
    key: int = 0


Effect = Record | Gate | LoadShoe | DeviceCommand | Draw | Deadline
