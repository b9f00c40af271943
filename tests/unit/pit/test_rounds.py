"""The table view's rounds list (controller/pit/rounds.py): table order, search, pages."""

from __future__ import annotations

import json
from typing import Any

from controller.pit.model import FloorModel
from controller.pit.rounds import rounds_page
from controller.pit.views import round_row
from tests.unit.pit.feed_messages import bet, round_record


def record(n: int, seq: int | None = None, **over: Any) -> dict[str, Any]:
    minute = f"{n:02d}"
    return round_record("t1", f"t1-{n:06d}", seq=seq or n, opened=f"2026-12-01T10:{minute}:00.000+00:00",
                        closed=f"2026-12-01T10:{minute}:30.000+00:00", dealer="ann" if n % 2 else "bob",
                        bets=[bet(1000, 0, player=f"P{n}")], **over)


def test_a_corrected_round_keeps_its_place_newest_first() -> None:
    floor = FloorModel()
    for n in range(1, 6):
        floor.apply("croupier/t1/round", json.dumps(record(n)).encode(), 0.0)
    corrected = record(2, seq=99, corrections=[])
    corrected["bets"] = [bet(1000, 2000, player="P2")]
    corrected["payout_total"] = 2000
    floor.apply("croupier/t1/round", json.dumps(corrected).encode(), 0.0)
    listed = rounds_page(floor.tables["t1"].rounds.values(), round_row)
    assert [r["round"] for r in listed["rows"]] == [f"t1-00000{n}" for n in (5, 4, 3, 2, 1)]
    assert listed["rows"][3]["payout_total"] == 2000 and listed["rows"][3]["bets"][0]["result"] == "won"


def test_search_by_id_dealer_player_and_time_and_pages() -> None:
    records = [record(n) for n in range(1, 31)]
    first = rounds_page(records, round_row, per_page=10)
    assert (first["total"], first["pages"], first["rows"][0]["round"]) == (30, 3, "t1-000030")
    last = rounds_page(records, round_row, page=9, per_page=10)
    assert last["page"] == 3 and last["rows"][-1]["round"] == "t1-000001"
    assert [r["round"] for r in rounds_page(records, round_row, query="t1-000007")["rows"]] == ["t1-000007"]
    assert rounds_page(records, round_row, query="ann")["total"] == 15
    assert [r["dealer"] for r in rounds_page(records, round_row, query="p12")["rows"]] == ["bob"]
    # 10:05:30 UTC is 11:05:30 in a page one hour east of UTC (getTimezoneOffset -60)
    found = rounds_page(records, round_row, query="11:05:30", offset_minutes=-60)["rows"]
    assert [r["round"] for r in found] == ["t1-000005"]
    assert rounds_page(records, round_row, query="bob 11:05", offset_minutes=-60)["total"] == 0
    assert rounds_page(records, round_row, query="2026-12-01 P3")["total"] == 2  # P3 and P30
