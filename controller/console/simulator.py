"""The simulator panel of ``croupier demo --manual``: the person at the console is the dealer's
hand on a simulated shoe.

"Next card" pulls the shoe's next card through the gate, "chosen card" first puts that card on
top of the simulated shoe (a test of what the table does with it), "unread card" makes the next
card leave unread (the table then asks for it to be keyed in). What leaves the shoe goes to the
table over the shoe's real line like any card; a locked gate lets nothing out, as on the felt.
"""

from __future__ import annotations

from typing import Any

from controller.cards import CardError, parse_card
from simulators.shoe import ShoeFirmware


class ShoePanel:
    """Requests from the console to one simulated shoe."""

    def __init__(self, firmware: ShoeFirmware) -> None:
        self.firmware = firmware

    def status(self) -> dict[str, Any]:
        fw = self.firmware
        return {"device": "shoe", "state": fw.state, "left": fw.shoe.remaining, "dealt": fw.shoe.dealt}

    def request(self, raw: dict[str, Any]) -> tuple[bool, str]:
        """(done, what happened) for ``{"what": "next" | "card" | "noread", "card": "AS"}``."""
        fw = self.firmware
        what = raw.get("what")
        if fw.state != "READY":
            return False, f"the shoe is {fw.state.lower()}: no card leaves it"
        if what == "card":
            try:
                card = parse_card(str(raw.get("card", "")))
            except CardError as exc:
                return False, str(exc)
            put_on_top = getattr(fw.shoe, "put_on_top", None)  # the table's shoes (controller.shoe.Shoe)
            if put_on_top is None:
                return False, "this simulated shoe deals in its own order only"
            if not put_on_top(card):
                return False, f"no {card} is left in the simulated shoe"
        elif what == "noread":
            fw.noread_next += 1
        elif what != "next":
            return False, "ask for the next card, a chosen card or an unread card"
        drawn = fw.draw()
        if drawn is None:
            return False, "no card left the shoe"
        return True, f"dealt {'an unread card' if what == 'noread' else drawn} (card {fw.shoe.dealt})"
