"""What a bet-spot press means at the table now: the command it stands for, or why it is refused.

Pure and used by the core's ``step``, so a journaled press means the same thing live and in
replay. Spot ``n`` is box ``n``. A ``bet`` (amount, kind) or ``clear`` counts only while bets
are open; a decision button counts only when the engine expects a decision from that very box
and offers that option. On an insurance or even-money question, whose declines have no button
of their own, ``stand`` declines. Everything else is refused with a stable code, and the table
state stays as it was.
"""

from __future__ import annotations

from typing import Any

from controller.games.base import ExpectKind
from controller.table.inputs import command

#: a spot button standing for an engine option of another name, where the engine offers it
DECLINES = {"stand": ("no_insurance", "no_even_money")}


class PressRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def player_of(spot: int) -> str:
    """The name a spot's bets are placed under (its device id)."""
    return f"spot-{spot}"


def press_command(press: dict[str, Any], engine: Any) -> dict[str, Any]:
    """The table command for ``press`` (a journaled ``SpotPress``) given the round's ``engine``
    (None between rounds); PressRefused naming the rule otherwise."""
    spot, button = int(press["spot"]), str(press["button"])
    if engine is None:
        raise PressRefused("spot.no_round", f"spot {spot} pressed {button}: no round is open")
    expect = engine.expects()
    if button in ("bet", "clear"):
        if expect.kind is not ExpectKind.BETS:
            raise PressRefused("spot.betting_closed", f"spot {spot} pressed {button}: bets are closed")
        if button == "clear":
            return command("clear_bets", box=spot, player=player_of(spot))
        return command("bet", box=spot, amount=int(press["amount"]), kind=press.get("kind") or "main",
                       player=player_of(spot))
    if expect.kind is not ExpectKind.DECISION:
        raise PressRefused("spot.out_of_turn", f"spot {spot} pressed {button}: no decision is due now")
    if expect.box != spot:
        raise PressRefused("spot.out_of_turn", f"spot {spot} pressed {button}: box {expect.box} is to act")
    action = button if button in expect.options else next(
        (o for o in DECLINES.get(button, ()) if o in expect.options), None)
    if action is None:
        raise PressRefused("spot.not_legal", f"spot {spot} pressed {button}: not allowed now "
                                             f"(allowed: {', '.join(expect.options)})")
    return command("decide", box=spot, hand=expect.hand, action=action)


def lamp_options(options: tuple[str, ...]) -> str:
    """The legal options as the spot's lamp shows them, in button names."""
    shown = [o for o in options if not o.startswith("no_")]
    if len(shown) < len(options):
        shown.append("stand=no")
    return " ".join(shown).upper()[:60]
