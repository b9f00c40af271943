"""Holds and alerts: how the table refuses to guess.

A *hold* stops the round: no input reaches the engine until the dealer takes one of the legal
ways out (``burn`` the offending cards, ``void_round`` with refunds). Every card that leaves
the shoe while the table holds joins the hold, since nobody may deal through an alert. An
*alert* is the journaled notice of a hold or of a refused input (which changes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ERROR, WARNING, INFO = "error", "warning", "info"


@dataclass(slots=True)
class Hold:
    code: str
    message: str
    options: tuple[str, ...]
    cause: int
    #: cards that left the shoe and are not in the round: (card or "?" if unknown, n)
    cards: list[tuple[str, int | None]] = field(default_factory=list)

    def view(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "options": list(self.options),
            "cause": self.cause,
            "cards": [c for c, _ in self.cards],
        }


def alert(
    severity: str, code: str, message: str, cause: int, *, hold: Hold | None = None, **detail: Any
) -> dict[str, Any]:
    """An ``alert`` entry's payload (also what the feed publishes on ``alert``)."""
    payload: dict[str, Any] = {"severity": severity, "code": code, "message": message, "cause": cause}
    payload["hold"] = hold is not None
    if hold is not None:
        payload["options"] = list(hold.options)
    payload.update({k: v for k, v in detail.items() if v is not None})
    return payload
