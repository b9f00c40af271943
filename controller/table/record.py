"""The closed round as docs/protocols.md defines it: the ``round`` message, the ``round_closed``
journal entry and what ``croupier recall --json`` prints are this one dict."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from controller.games.base import Settlement

VERSION = 1


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
) -> dict[str, Any]:
    """``dealer`` signed in when the round opened (None: nobody), ``shoe`` the id of the shoe it
    was dealt from and ``shoe_round`` its index in that shoe (1 for the shoe's first round)."""
    bets = bet_rows(settlements)
    return {
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


def void_refunds(settled: list[Settlement], still_open: list[Settlement]) -> list[Settlement]:
    """A void returns every stake of the round: bets settled early are reversed to a refund."""
    return [Settlement(s.box, s.hand, s.kind, s.player, s.stake, s.stake) for s in settled] + still_open
