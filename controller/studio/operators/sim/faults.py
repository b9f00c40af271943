"""The faults the reference operator can be told to show, one switch each (``POST /_sim/faults``
or ``--fault`` on the command line)."""

from __future__ import annotations

import time
from dataclasses import dataclass, fields
from typing import Any


@dataclass
class Faults:
    #: seconds to wait before answering (beyond the studio's deadline: a timeout)
    delay_s: float = 0.0
    #: the next N requests answer HTTP 500 without doing anything
    fail_500: int = 0
    #: the next N requests are committed, then the connection is dropped without an answer
    drop_after_commit: int = 0
    #: a request asked again gets a different answer than the first time
    contradict: bool = False
    #: the answer is this many bytes of padding (an oversized answer)
    oversize: int = 0
    #: the next N debits answer ``token_refused`` (the player's session ended at the operator)
    token_refused: int = 0
    #: unreachable (HTTP 503 to everything) until this monotonic time
    away_until: float = 0.0

    def away_for(self, seconds: float) -> None:
        self.away_until = time.monotonic() + seconds

    @property
    def away(self) -> bool:
        return time.monotonic() < self.away_until

    def update(self, changes: dict[str, Any]) -> None:
        """Apply ``{"delay_s": 3, "away_s": 60, ...}``; ValueError names an unknown switch."""
        known = {f.name: f.type for f in fields(self)}
        for key, value in changes.items():
            if key == "away_s":
                self.away_for(float(value))
            elif key in known and key != "away_until":
                setattr(self, key, _as(type(getattr(self, key)), value))
            else:
                raise ValueError(f"unknown fault {key!r}: one of {', '.join(sorted([*known, 'away_s']))}")


def _as(kind: type, value: Any) -> Any:
    """``value`` (a command line's text or JSON) as a switch's type: ``contradict=0`` is off."""
    if kind is bool:
        if str(value).lower() in ("1", "true", "on", "yes"):
            return True
        if str(value).lower() in ("0", "false", "off", "no"):
            return False
        raise ValueError(f"{value!r} is not on or off")
    return kind(value)
