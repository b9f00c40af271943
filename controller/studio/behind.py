"""Bet Behind from home, and every request that puts a bet on the felt (docs/studio.md, "Bet
Behind", "Seats").

A ``behind`` message is a ``bet`` request with one bet, ``behind@<box>`` with its presets after a
``+`` (``behind_stay@<box>`` when it follows nothing): the book accepts it as any bet (debited,
accepted before the answer, sealed), and once accepted it is sent to the table, whose engine
plays it behind the box (the owner's share, the presets, the return of a box that does not
play). The same goes for a seated player's bets on the box (``main@3``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.games.blackjack.betting import behind_kind
from controller.studio.book import BetRequest, Player, player_id

if TYPE_CHECKING:
    from controller.studio.protocol import Behind
    from controller.studio.service import Studio


def behind_bet(msg: Behind) -> tuple[str, int]:
    """The book's bet of a ``behind`` message: its kind names the box and the presets."""
    kind = behind_kind((msg.presets.double, msg.presets.split, msg.presets.insurance))
    head, plus, presets = kind.partition("+")
    return f"{head}@{msg.box}{plus}{presets}", msg.amount


async def place_bets(studio: Studio, who: Player, request: BetRequest) -> dict[str, Any]:
    """A ``bet`` request (or a ``behind``): refused before the book when it bets on a seat that is
    not the player's or behind a box that does not take it; else the book decides, and what it
    accepted for the felt goes to the table."""
    if any(kind.startswith("behind") for kind, _ in request.bets):
        await studio.seats.reload_switches(request.table)  # as the owner left it, through whichever process
    bad = studio.seats.check_felt_bets(request.table, who, list(request.bets))
    if bad is not None:
        return {**bad, "request": request.request}
    rules = studio.tables[request.table]
    answer = await studio.book.place(who, request, lambda bets: rules.check(bets, player_id(who)))
    if answer.get("type") == "accepted":
        await studio.seats.placed(request.table, who, request.request, request.round, list(answer["bets"]))
    return {"v": 1, **answer}


def behind_request(table: str, msg: Behind) -> BetRequest:
    return BetRequest(msg.request, table, msg.round, (behind_bet(msg),))

