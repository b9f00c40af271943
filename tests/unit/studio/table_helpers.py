"""A roulette table core taking remote bets, stepped as the loop does (tests/unit/table/test_core.py's Live)."""

from __future__ import annotations

from typing import Any

from controller.journal import Journal
from controller.table import inputs
from controller.table.betting import BettingTime
from controller.table.core import TableCore
from controller.table.registry import adapter_for
from tests.unit.table.test_core import Live

DIGEST = "ab" * 32


def roulette_core(time: BettingTime) -> TableCore:
    adapter = adapter_for("roulette")
    core = TableCore("rl", adapter, adapter.rules("european", {}, {}))
    core.betting.set_time(time)
    return core


def roulette_live(time: BettingTime, journal: Journal | None = None) -> Live:
    live = Live(journal or Journal(":memory:"), roulette_core(time), online=False)
    live.put(inputs.DEVICE, {"type": "online", "device": "wheel", "detail": "test"}, "wheel")
    return live


def seal(round_id: str | None, ident: str = "s1", stake: int = 500) -> dict[str, Any]:
    return {"v": 1, "id": ident, "type": "seal", "round": round_id, "count": 1, "stake": stake,
            "kinds": {"red": stake}, "players": 1, "digest": DIGEST}


def settled(round_id: str, ident: str = "p1", stake: int = 500, paid: int = 1000, refunded: int = 0) -> dict[str, Any]:
    return {"v": 1, "id": ident, "type": "settled", "round": round_id, "count": 1, "stake": stake, "paid": paid,
            "refunded": refunded}


def ball(live: Live, number: str = "17") -> list[Any]:
    return live.put(inputs.DEVICE, {"type": "winning_number", "device": "wheel", "number": number, "spin": 1}, "wheel")


def codes(live: Live) -> list[str]:
    return [a["code"] for a in live.alerts()]
