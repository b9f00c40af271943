"""Feed messages as a table publishes them (``controller.records``), to build tests and
fuzz seeds from: each builder gives a valid message, ``**over`` changes or adds fields."""

from __future__ import annotations

from typing import Any

from tests.support import outcomes

TS = "2026-12-01T10:00:00.000Z"


def envelope(table: str, round_id: str | None = None, ts: str = TS) -> dict[str, Any]:
    return {"v": 1, "table": table, "round": round_id, "ts": ts}


def state_body(**over: Any) -> dict[str, Any]:
    """What a table's ``state()`` gives (the feed adds the envelope)."""
    return {"game": "roulette", "preset": "european", "phase": "betting", "dealer": None, "closing": False,
            "limits": {"straight": {"min": 100, "max": 10000}},
            "shoe": {"id": None, "cards_dealt": None, "cut_card_seen": False, "to_burn": 0}, "hold": None,
            "devices": {}, "alerts_open": [], "corrections_pending": [], "journal": {"seq": 0, "hash": None},
            **over}


def state(table: str, **over: Any) -> dict[str, Any]:
    return {**envelope(table, over.pop("round", None)), **state_body(**over)}


def prompt(table: str, text: str = "Open betting", **over: Any) -> dict[str, Any]:
    return {**envelope(table), "text": text, **over}


def ledger(table: str, **over: Any) -> dict[str, Any]:
    return {**envelope(table), "rounds_settled": 0, "rounds_void": 0, "stake_total": 0, "payout_total": 0,
            "void_stake_total": 0, "seq": 0, **over}


def alert(table: str, seq: int, severity: str = "warning", code: str = "x", **over: Any) -> dict[str, Any]:
    return {**envelope(table), "seq": seq, "severity": severity, "code": code, "message": f"{code} {seq}", **over}


def bet(stake: int = 1000, payout: int = 0, **over: Any) -> dict[str, Any]:
    return {"box": 1, "hand": 1, "kind": "straight:17", "player": "P1", "stake": stake, "payout": payout, **over}


def round_record(table: str, round_id: str, seq: int, **over: Any) -> dict[str, Any]:
    bets = over.pop("bets", [bet()])
    return {**envelope(table, round_id), "seq": seq, "game": "roulette", "opened": TS, "closed": TS,
            "status": "settled", "dealer": None, "shoe": None, "shoe_round": None,
            "outcome": outcomes.roulette("17"), "bets": bets,
            "stake_total": sum(b["stake"] for b in bets), "payout_total": sum(b["payout"] for b in bets),
            "corrections": [], **over}
