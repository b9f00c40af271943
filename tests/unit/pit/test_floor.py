"""The floor's totals (controller/pit/floor.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from controller.pit.floor import RoundsLastHour, floor_totals, table_status
from controller.pit.model import FloorModel, TableModel
from tests.unit.pit import feed_messages as msg

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp()


def table(name: str, stake: int, payout: int, currency: str = "EUR", **state: object) -> TableModel:
    model = TableModel(name, state={"currency": currency, "currency_digits": 2, **state}, online=True)
    model.ledger = {"stake_total": stake, "payout_total": payout}
    return model


def test_money_is_summed_per_currency_with_the_edge_weighted_by_drop() -> None:
    a, b, c = table("a", 10000, 9000), table("b", 30000, 31500), table("c", 5000, 0, currency="USD")
    totals = floor_totals([a, b, c], {"a": 0.027, "b": 0.01}, NOW, ("EUR", 2))
    eur, usd = totals["money"]
    assert (eur["currency"], eur["drop"], eur["win"]) == ("EUR", 40000, -500)
    assert eur["hold"] == -500 / 40000 and abs(eur["edge"] - (0.027 * 10000 + 0.01 * 30000) / 40000) < 1e-12
    assert (usd["drop"], usd["win"], usd["hold"], usd["edge"]) == (5000, 5000, 1.0, None)


def test_tables_by_status_and_the_rounds_of_the_last_hour() -> None:
    open_, closing = table("a", 0, 0), table("b", 0, 0, closing=True, round="b-1")
    closed, gone = table("c", 0, 0, closing=True, round=None), table("d", 0, 0)
    gone.online = False
    closed.online = False  # a closed table reads closed even once it is off the network
    assert [table_status(m) for m in (open_, closing, closed, gone)] == ["open", "closing", "closed", "offline"]
    open_.rounds["a-1"] = {"round": "a-1", "closed": "2026-12-01T10:30:00+00:00"}  # more than an hour ago
    open_.rounds["a-2"] = {"round": "a-2", "closed": "2026-12-01T11:30:00+00:00"}
    open_.rounds["a-3"] = {"round": "a-3", "closed": "2026-12-01T11:59:00+00:00"}
    totals = floor_totals([open_, closing, closed, gone], {}, NOW, ("EUR", 2))
    assert totals["tables"] == {"open": 1, "closing": 1, "closed": 1, "offline": 1}
    assert totals["rounds_last_hour"] == 2


def test_a_round_corrected_late_does_not_hide_the_hours_rounds() -> None:
    model = table("a", 0, 0)
    model.rounds["a-2"] = {"round": "a-2", "closed": "2026-12-01T11:50:00+00:00"}
    model.rounds["a-1"] = {"round": "a-1", "closed": "2026-12-01T09:00:00+00:00", "corrections": [{"seq": 9}]}
    model.rounds["a-3"] = {"round": "a-3", "closed": "2026-12-01T11:55:00+00:00"}
    model.rounds.move_to_end("a-1")  # its corrected record arrived last
    assert floor_totals([model], {}, NOW, ("EUR", 2))["rounds_last_hour"] == 2


def test_the_kept_hour_counts_follow_new_rounds_and_the_hour_passing() -> None:
    """``RoundsLastHour`` counts again when a round comes in and when a counted round turns an
    hour old, and only then: the same answer as counting every tick."""
    floor = FloorModel()
    kept = RoundsLastHour()

    def feed(round_id: str, seq: int, closed: str) -> None:
        record = msg.round_record("a", round_id, seq, opened=closed, closed=closed)
        floor.apply("croupier/a/round", json.dumps(record).encode(), NOW)

    feed("a-1", 1, "2026-12-01T11:10:00+00:00")
    model = floor.tables["a"]
    assert floor_totals([model], {}, NOW, ("EUR", 2), kept)["rounds_last_hour"] == 1
    feed("a-2", 2, "2026-12-01T11:40:00+00:00")
    assert floor_totals([model], {}, NOW, ("EUR", 2), kept)["rounds_last_hour"] == 2
    later = NOW + 15 * 60  # 12:15: a-1 (11:10) is more than an hour old, a-2 is not
    assert floor_totals([model], {}, later, ("EUR", 2), kept)["rounds_last_hour"] == 1
    assert floor_totals([model], {}, NOW + 45 * 60, ("EUR", 2), kept)["rounds_last_hour"] == 0
