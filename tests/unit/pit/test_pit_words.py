"""What the pit shows through a gaming day, in words a pit boss reads (issue 26/27): two
corrections waiting are two lines; a rejected correction no longer waits; a void round's
returns count in neither drop nor paid; one round is no pace; only the limits of bets the table
offers are listed."""

from __future__ import annotations

import json

from controller.pit.alert_groups import group_alerts
from controller.pit.model import FloorModel
from controller.pit.offer import offered_limits
from controller.pit.stats import summary
from controller.pit.views import round_row
from tests.unit.pit.feed_messages import alert, bet, round_record, state


def _floor(*messages: tuple[str, dict[str, object]]) -> FloorModel:
    floor = FloorModel()
    for leaf, body in messages:
        floor.apply(f"croupier/t1/{leaf}", json.dumps(body).encode(), 0.0)
    return floor


def _waiting(*corrections: int) -> list[dict[str, object]]:
    return [{"correction": c, "round": f"t1-{c}", "reason": "keyed wrong", "requested_by": "console:dana"}
            for c in corrections]


def _pending(seq: int, correction: int) -> dict[str, object]:
    return alert("t1", seq, code="round.correction_pending", correction=correction, corrected_round=f"t1-{correction}")


def test_two_different_corrections_waiting_are_two_lines() -> None:
    floor = _floor(("state", state("t1", corrections_pending=_waiting(5, 9))),
                   ("alert", _pending(6, 5)), ("alert", _pending(10, 9)))
    grouped = group_alerts(floor.tables["t1"].open_alerts())
    assert sorted(g["correction"] for g in grouped) == [5, 9] and all(g["count"] == 1 for g in grouped)


def test_a_rejected_correction_no_longer_waits_for_the_pit() -> None:
    floor = _floor(("state", state("t1", corrections_pending=_waiting(5))), ("alert", _pending(6, 5)))
    assert [a["code"] for a in floor.tables["t1"].open_alerts()] == ["round.correction_pending"]
    floor.apply("croupier/t1/state", json.dumps(state("t1", corrections_pending=[])).encode(), 1.0)
    assert floor.tables["t1"].open_alerts() == []


def test_a_void_rounds_returns_count_in_neither_drop_nor_paid() -> None:
    record = round_record("t1", "t1-1", 1, status="void", bets=[bet(23000, 23000)],
                          outcome={"void": {"reason": "voided", "returned_total": 23000}})
    row = round_row(record)
    assert (row["drop"], row["paid"]) == (0, 0)


def test_one_empty_void_round_is_no_pace() -> None:
    record = round_record("t1", "t1-1", 1, status="void", bets=[], opened="2026-12-01T10:00:00Z",
                          closed="2026-12-01T10:00:12Z")
    assert summary([record])["rounds_per_hour"] is None


def test_only_the_limits_of_bets_the_table_offers() -> None:
    limit = {"min": 100, "max": 5000}
    blackjack = {"game": "blackjack", "preset": "ru6", "limits": {"main": limit, "perfect_pairs": limit, "21+3": limit}}
    assert list(offered_limits(blackjack)) == ["main"]
    one_ball = {"game": "roulette", "preset": "european",
                "limits": {"straight": limit, "red": limit, "both_any": limit, "both_on": limit}}
    assert list(offered_limits(one_ball)) == ["straight", "red"]
    two_balls = {**one_ball, "preset": "double-ball"}
    assert list(offered_limits(two_balls)) == ["straight", "red", "both_any", "both_on"]
    unknown = {"game": "no-such-game", "preset": None, "limits": {"main": limit}}
    assert list(offered_limits(unknown)) == ["main"]
