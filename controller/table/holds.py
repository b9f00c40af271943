"""Holds and alerts: how the table refuses to guess (docs/rules.md, procedures).

A *hold* stops the round: no input reaches the engine until the dealer takes one of the legal
ways out it names. Every card that leaves the shoe while the table holds joins the hold, since
nobody may deal through an alert. The ways out:

* ``burn``: the held cards are burned and the round goes on (a card the round cannot take);
* ``void_round``: the round closes void: what still rides is refunded, what was settled stands
  (and the held cards go with it);
* ``resume``: after a restart with a round open, the dealer checked the layout and goes on;
* ``dismiss``: a journal entry the table could not apply was looked at; nothing to undo.

An *alert* is the journaled notice of a hold or of a refused input (which changes nothing).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from controller.table.refusal import Refusal

ERROR, WARNING, INFO = "error", "warning", "info"


@dataclass(slots=True)
class Hold:
    code: str
    message: str
    options: tuple[str, ...]
    cause: int
    #: cards that left the shoe and are not in the round: (card or "?" if unknown, n)
    cards: list[tuple[str, int | None]] = field(default_factory=list)
    #: only the pit may release it, with a reason (the journal's integrity)
    pit_only: bool = False

    def view(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "options": list(self.options),
            "cause": self.cause,
            "cards": [c for c, _ in self.cards],
        }

    def release(self, way: str) -> list[str]:
        """The cards set aside by releasing the hold ``way`` (Refusal if that is no way out)."""
        if way not in self.options:
            raise Refusal(f"table.{way}.not_an_option", f"{self.code}: the way out is {' or '.join(self.options)}")
        return [c for c, _ in self.cards]


@dataclass(slots=True)
class HoldDesk:
    """The table's holds: the one that stops the round (journaled causes) and the outage (the
    journal's disk is full: this process's own, never journaled, never in a snapshot)."""

    hold: Hold | None = None
    outage: Hold | None = None

    @property
    def shown(self) -> Hold | None:
        """What the dealer and the pit see: the outage first."""
        return self.outage or self.hold

    def raise_(self, code: str, message: str, options: tuple[str, ...], cause: int,
               cards: list[tuple[str, int | None]], pit_only: bool) -> Hold:
        """Hold (unless the table already holds: that hold stays the one shown); the hold."""
        if self.hold is None:
            self.hold = Hold(code, message, options, cause, cards, pit_only)
        return self.hold

    def join(self, text: str, n: int | None) -> Hold:
        """A card left the shoe while the table holds: it joins the hold."""
        assert self.hold is not None
        self.hold.cards.append((text, n))
        return self.hold

    def release(self, way: str, *, by_pit: bool, reason: str | None) -> tuple[str, list[str]]:
        """Take the way out ``way``: (the hold's code, the cards set aside); Refusal if it is no
        way out, or a hold only the pit releases (with a reason) is not released so."""
        hold = self.hold
        if hold is None:
            raise Refusal(f"table.{way}.nothing", f"there is no hold to {way}")
        if hold.pit_only and not (by_pit and reason):
            raise Refusal("table.hold.pit_only", f"{hold.code}: only a pit boss may release this hold, "
                                                 "with a reason (the pit dashboard's dismiss)")
        cards = hold.release(way)
        self.hold = None
        return hold.code, cards

    def void(self) -> list[str]:
        """The round is voided: the held cards go with it (Refusal while only the pit may release)."""
        if self.hold is None:
            return []
        if self.hold.pit_only:
            raise Refusal("table.hold.pit_only", f"{self.hold.code}: the pit releases this hold first (dismiss, "
                                                 "with a reason)")
        cards, self.hold = [c for c, _ in self.hold.cards], None
        return cards

    def set_outage(self, outage: Hold | None) -> None:
        self.outage = outage


def released(way: str, code: str, cards: list[str], round_id: str | None, by: str) -> tuple[str, str]:
    """The alert (code, message) of a hold released ``way``."""
    shown = " ".join(cards)
    if way == "burn":
        return "table.burned", f"burned {shown or 'nothing'}; the round goes on"
    if way == "resume":
        return "table.resumed", f"round {round_id} resumed by {by}" + (f"; set aside {shown}" if shown else "")
    return "table.dismissed", f"{code} dismissed; cards set aside: {shown or 'none'}"


def refused_in_hold(hold: Hold, name: str) -> Refusal:
    """The refusal of a command the hold does not allow."""
    return Refusal("table.hold", f"{name} refused: the table holds ({hold.code}); first {' or '.join(hold.options)}")


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


def unapplicable(table: Any, entry: Any, exc: Exception) -> None:
    """A journaled entry the core cannot apply (whatever it raised) holds the table, naming its seq."""
    logging.getLogger("controller.table.core").error("journal entry %s (%s) cannot be applied: %r",
                                                     entry.seq, entry.kind, exc)
    message = f"journal entry {entry.seq} ({entry.kind}) cannot be applied: {type(exc).__name__}: {exc}"[:300]
    options = ("void_round",) if table.engine is not None else ("dismiss",)
    table.raise_hold("table.entry_unapplicable", message, options, cause=entry.seq, entry=entry.seq)
