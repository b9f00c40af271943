"""What the table view shows (docs/pit.md): a table's tile, its rounds, statistics, alerts.

Pure: built from a ``TableModel`` and the rule set's ``Edges``; the web layer only serialises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.boards import boards_for
from controller.floor.edges import Edges
from controller.pit.alert_groups import group_alerts
from controller.pit.model import TableModel
from controller.pit.rounds import rounds_page
from controller.pit.stats import expected_hold, shifts, summary, wheel_bias
from controller.round_money import counted
from controller.table import registry
from controller.table.games.describe import outcome_summary

ALERTS_LISTED = 30


def outcome_text(record: Mapping[str, Any]) -> str:
    """One line of what happened, by the round's game's own view, for the rounds list."""
    return outcome_summary(record)


def device_of(game: object) -> str | None:
    """The word for the device a round of ``game`` was dealt from ("shoe", "wheel"), by its
    adapter; None when the game has none or is unknown."""
    found = registry.find(game)
    return found.adapter.device if found is not None else None


def bet_result(bet: Mapping[str, Any]) -> str:
    """What became of one bet: won, lost, or its stake returned (a push, a refund)."""
    stake, payout = bet.get("stake"), bet.get("payout")
    if not isinstance(stake, int) or not isinstance(payout, int):
        return ""
    return "lost" if payout == 0 else "returned" if payout == stake else "won" if payout > stake else "part returned"


def round_row(record: Mapping[str, Any]) -> dict[str, Any]:
    drop, paid = counted(record)  # a void's returns count in neither (controller/round_money.py)
    return {
        "round": record.get("round"),
        "status": record.get("status"),
        "opened": record.get("opened"),
        "closed": record.get("closed"),
        "dealer": record.get("dealer"),
        "shoe": record.get("shoe"),
        "shoe_round": record.get("shoe_round"),
        "stake_total": record.get("stake_total"),
        "payout_total": record.get("payout_total"),
        "drop": drop,
        "paid": paid,
        "outcome": outcome_text(record),
        "corrected": bool(record.get("corrections")),
        "bets": round_rows(record),
    }


def round_rows(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The bets of one round, for its detail view."""
    bets = record.get("bets")
    return [{**b, "result": bet_result(b)} for b in bets if isinstance(b, dict)] if isinstance(bets, list) else []


def table_view(model: TableModel, edges: Edges | None) -> dict[str, Any]:
    records = list(model.rounds.values())
    listed = rounds_page(records, round_row)
    edge: dict[str, Any] | None = None
    if edges is not None:
        edge = {"edge": edges.edge, "source": edges.source, "expected_hold": expected_hold(records, edges.bets)}
    dealer_shifts = shifts(records)
    dealer_shifts.reverse()
    return {
        "tile": model.tile(),
        "state": model.state,
        "rounds": listed["rows"],
        "rounds_page": {k: v for k, v in listed.items() if k != "rows"},
        "stats": summary(records),
        "shifts": dealer_shifts,
        "edge": edge,
        "bias": wheel_bias(records),
        "holds_by_round": [{"round": r.get("round"), "stake": r.get("stake_total"), "payout": r.get("payout_total")}
                           for r in records[-100:] if r.get("status") == "settled"],
        "boards": boards_for(records, registry.boards_of),
        "alerts_open": group_alerts(model.open_alerts()),
        "alerts_recent": list(model.alerts)[-ALERTS_LISTED:][::-1],
        "corrections_pending": [c for c in model.state.get("corrections_pending") or [] if isinstance(c, dict)]
        if isinstance(model.state.get("corrections_pending"), list) else [],
    }
