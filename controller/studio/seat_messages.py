"""The seat messages' answers (docs/studio.md, "Seats"): a player's ``sit``, ``leave``,
``decide``, ``behind`` and ``behind_allowed``, each checked against the player's money where it
adds to a stake, then handed to the seats or the Bet Behind."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.studio.behind import behind_request, place_bets
from controller.studio.book import Player
from controller.studio.protocol import Behind, BehindAllowed, Decide, Leave, Sit
from controller.studio.seats import HAND_KINDS, refused

if TYPE_CHECKING:
    from controller.studio.service import Studio


async def seat_answer(studio: Studio, table: str, who: Player, msg: Any) -> dict[str, Any] | None:
    """A player's ``sit``, ``leave``, ``decide``, ``behind`` or ``behind_allowed`` (None: the
    table's push answers it)."""
    seats = studio.seats
    if isinstance(msg, Sit):
        return await seats.sit(table, who, msg.box)
    if isinstance(msg, Leave):
        return await seats.leave(table, who, msg.box)
    if isinstance(msg, Decide):
        if not await affordable(studio, table, who, msg.round, msg.box, msg.decision):
            return refused("funds", f"{msg.decision} adds to your bet on box {msg.box}: not enough money", msg.request)
        return await seats.decide(table, who, msg.round, msg.box, msg.hand, msg.decision, msg.request, msg.amount)
    if isinstance(msg, Behind):
        return await place_bets(studio, who, behind_request(table, msg))
    assert isinstance(msg, BehindAllowed)
    return await seats.behind_allowed(table, who, msg.box, msg.allowed)


#: the most a decision adds to the box's stake, as a fraction of it (a double, a split, insurance,
#: Three Card Blackjack's play, Russian poker's raise, Power Blackjack's triple and quadruple)
ADDS: dict[str, tuple[int, int]] = {"double": (1, 1), "split": (1, 1), "insurance": (1, 2), "play": (1, 1),
                                    "raise": (2, 1), "triple": (2, 1), "quadruple": (3, 1)}


async def affordable(studio: Studio, table: str, who: Player, round_id: str, box: int, decision: str) -> bool:
    """The player's balance covers what ``decision`` adds to their stake on the box (debited with
    the round): a decision the wallet could not pay is refused before it reaches the table."""
    times, per = ADDS.get(decision, (0, 1))
    if not times:
        return True
    async with studio.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT coalesce(sum(amount), 0) FROM studio_bets WHERE table_id = %s AND round = %s AND operator = %s "
            "AND player = %s AND kind = ANY(%s)", (table, round_id, who.operator, who.player,
                                                  [f"{kind}@{box}" for kind in HAND_KINDS]))
        row = await cur.fetchone()
    balance = await studio.wallet.balance(who.operator, who.player, who.currency)
    return balance is None or balance >= int(row[0] if row else 0) * times // per
