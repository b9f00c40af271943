"""Two-source result checks: where the game's device gave a result and the dealer keys it too
(the wheel's number and the number the dealer reads off the wheel; the card the shoe read last
and the card the dealer keys while none waits to be keyed in), the two must agree.

The dealer's key is a second source, never a correction: it changes nothing when it agrees
(an info alert ``protection.result_confirmed`` records the check), and when it disagrees the
round holds (``protection.result_mismatch``, error) until the dealer or the pit has looked at the
pocket or the card: ``resume`` goes on with the device's result, ``void_round`` returns every bet. Both alerts
name the ``device`` and the ``dealer``, so the mismatch rate per device and per dealer can be
counted from the journal (controller/protection/mismatch.py, docs/protection.md).
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from controller.cards import CardError, parse_card
from controller.table.games.base import Engine, GameAdapter
from controller.table.holds import INFO, Hold
from controller.table.phases import PLAYING, SETTLING
from controller.table.shoe_device import ShoeDevice

MISMATCH: Final = "protection.result_mismatch"
CONFIRMED: Final = "protection.result_confirmed"


class CheckedTable(Protocol):
    @property
    def engine(self) -> Engine | None: ...

    @property
    def adapter(self) -> GameAdapter: ...

    @property
    def round_dealer(self) -> str | None: ...

    def alert(self, severity: str, code: str, message: str, **detail: Any) -> None: ...

    def raise_hold(self, code: str, message: str, options: tuple[str, ...], *,
                   detail: dict[str, Any] | None = None) -> Hold: ...


def second_source(table: CheckedTable, keyed: str) -> bool:
    """The dealer keyed the number ``keyed``: True when the device had already given the result
    (the key was checked against it here, and nothing else is to be done with it)."""
    given = None if table.engine is None else table.adapter.device_result(table.engine)
    if given is None:
        return False
    _compare(table, table.adapter.device or "device", given, keyed, given)
    return True


def second_card(table: CheckedTable, phase: str, shoe: ShoeDevice, keyed: str) -> bool:
    """The dealer keyed the card ``keyed`` while no unread card waits for it: True when it was
    checked against the card the shoe read last into the round being dealt."""
    last = shoe.shoe.last_n
    read = shoe.seen.get(last)
    if shoe.keyin is not None or table.engine is None or phase not in (PLAYING, SETTLING) or read in (None, "?"):
        return False
    try:
        card = parse_card(keyed)
    except CardError:
        return False  # not a card: refused as any key of one
    _compare(table, shoe.device, read, card, f"card {last}, {read}")
    return True


def _compare(table: CheckedTable, device: str, given: str, keyed: str, what: str) -> None:
    detail = {"device": device, "dealer": table.round_dealer, "device_result": given, "keyed": keyed}
    if keyed == given:
        table.alert(INFO, CONFIRMED, f"the dealer's {keyed} agrees with the {device}", **detail)
    else:
        table.raise_hold(MISMATCH, f"the {device} gave {what}, the dealer keyed {keyed}: check it",
                         ("resume", "void_round"), detail=detail)
