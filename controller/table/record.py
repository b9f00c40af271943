"""The closed round as docs/protocols.md defines it: the ``round`` message, the ``round_closed``
journal entry and what ``croupier recall --json`` prints are this one dict, shaped as the record
contract's ``RoundRecord`` declares it (controller/records/round.py). It is built as a plain dict,
not a model: the core closes a round on its hot path and its records are held to the contract,
field for field, by the tests (tests/unit/records/, tests/integration/table_corrections/)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.games.base import Settlement, VoidResult
from controller.money import format_money
from controller.records.round import VERSION

__all__ = ["VERSION", "bet_rows", "round_record", "void_said", "void_settlements"]


def bet_rows(settlements: Iterable[Settlement]) -> list[dict[str, Any]]:
    return [
        {"box": s.box, "hand": s.hand, "kind": s.kind, "player": s.player, "stake": s.stake, "payout": s.payout}
        for s in settlements
    ]


def round_record(
    *,
    table: str,
    round_id: str,
    game: str,
    opened: str,
    closed: str,
    status: str,
    outcome: dict[str, Any],
    settlements: list[Settlement],
    corrections: list[dict[str, Any]] | None = None,
    dealer: str | None = None,
    shoe: str | None = None,
    shoe_round: int | None = None,
    remote: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """``dealer`` signed in when the round opened (None: nobody), ``shoe`` the id of the shoe it
    was dealt from and ``shoe_round`` its index in that shoe (1 for the shoe's first round);
    ``remote`` (a table taking remote bets only): ``{"sealed", "seal", "settled"}`` (docs/studio.md)."""
    bets = bet_rows(settlements)
    record = {
        "v": VERSION,
        "table": table,
        "round": round_id,
        "game": game,
        "opened": opened,
        "closed": closed,
        "status": status,
        "dealer": dealer,
        "shoe": shoe,
        "shoe_round": shoe_round,
        "outcome": outcome,
        "bets": bets,
        "stake_total": sum(b["stake"] for b in bets),
        "payout_total": sum(b["payout"] for b in bets),
        "corrections": corrections or [],
    }
    if remote is not None:
        record["remote"] = remote
    return record


def void_settlements(result: VoidResult) -> tuple[list[Settlement], dict[str, Any]]:
    """The bets of a void record, and what the dealer and the pit are shown of it (the record's
    ``outcome["void"]``), from the engine's void (``GameAdapter.void_round``): a void returns only
    what still rides (RULES.md, docs/rules.md); a bet settled before it (a bust, a surrender's
    half, a blackjack paid at once, even money, a side bet, an exchange fee) stands with its real
    payout. The summary holds the indexes into ``bets`` of the bets returned and of those that
    stand, the stakes returned and the payouts that stand."""
    bets = result.settlements
    stood = len(result.stands)
    summary = {
        "reason": result.reason,
        "returned": list(range(stood, len(bets))),
        "stands": list(range(stood)),
        "returned_total": result.returned_total,
        "stands_payout_total": result.stands_payout,
    }
    return bets, summary


def void_said(summary: dict[str, Any], currency: str = "EUR", digits: int = 2) -> str:
    """The void's money in one line (the void alert's message), in the table's currency."""
    returned, stands = len(summary["returned"]), len(summary["stands"])
    said = f"{returned} bet{'s' if returned != 1 else ''} returned ({format_money(summary['returned_total'], currency, digits)})"
    if stands:
        paid = format_money(summary["stands_payout_total"], currency, digits)
        said += f"; {stands} settled bet{'s' if stands != 1 else ''} stand (paid {paid})"
    return said
