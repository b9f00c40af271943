"""The seat messages a table has not taken yet (docs/studio.md, "Seats").

A ``seat`` message (a player sits, leaves, loses or regains the connection) is QoS 1 but not
retained: sent while the table process is down, or while the studio's own link is, it may never
reach the table. So the studio keeps the last one per box until the table's ``betting`` leaf shows
it taken, and sends it again, under the same message id, on every leaf that does not: the leaf
the table publishes when it comes back, the retained one the broker hands a studio that
(re)connects. The table's inbox takes an id once (and remembers it across its restarts from its
journal), so a copy of a message it has is not journaled again. Until then the players see the
seat as the studio told it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: copies of one message at most: the table shows a seat it took in its next leaf, so one that is
#: never shown was refused there (or the table is not the seats' game): not sent for ever
RESENDS = 10


@dataclass(slots=True)
class SeatView:
    player: str  # <operator>/<player>
    name: str
    connected: bool = True


def told_seats(leaf: dict[str, Any]) -> dict[int, SeatView]:
    """The seats a table's ``betting`` leaf shows (none when it has no ``seats``: nobody sits)."""
    seats = leaf.get("seats")
    if not isinstance(seats, dict):
        return {}
    return {int(b): SeatView(str(s.get("player")), str(s.get("name")), bool(s.get("connected", True)))
            for b, s in seats.items() if str(b).isdigit() and isinstance(s, dict)}


def taken(seat: SeatView | None, message: dict[str, Any]) -> bool:
    """The leaf's seat of the box shows ``message`` taken, or the box is another player's (the table
    refused it, or another player sat first): either way nothing is left to send."""
    if seat is not None and seat.player != message["player"]:
        return True
    if message["seated"]:
        return seat is not None and seat.connected == message.get("connected", True)
    return seat is None or not seat.connected  # gone, or kept disconnected until the round closes


@dataclass(slots=True)
class Unsent:
    """One table's seat messages not yet shown in its leaf: the last per box, and its copies sent."""

    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    copies: dict[int, int] = field(default_factory=dict)

    def sent(self, message: dict[str, Any]) -> None:
        self.messages[int(message["box"])] = message
        self.copies[int(message["box"])] = 0

    def seen(self, told: dict[int, SeatView]) -> dict[int, SeatView]:
        """Forget what the leaf shows taken; the seats as the players see them: the leaf's, with the
        messages still on their way."""
        for box, message in list(self.messages.items()):
            if taken(told.get(box), message) or self.copies[box] >= RESENDS:
                del self.messages[box], self.copies[box]
        view = dict(told)
        for box, message in self.messages.items():
            if message["seated"]:
                view[box] = SeatView(message["player"], message["name"], message.get("connected", True))
            else:
                view.pop(box, None)
        return view

    def again(self) -> list[dict[str, Any]]:
        """The messages to send again (the same ids), counted."""
        for box in self.messages:
            self.copies[box] += 1
        return [self.messages[box] for box in sorted(self.messages)]
