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


@dataclass(frozen=True, slots=True)
class LoadShoe:
    """Tell the shoe a new shuffled shoe is loaded (its card count restarts at 0)."""

    shoe_id: str
    decks: int


Effect = Record | Gate | LoadShoe
