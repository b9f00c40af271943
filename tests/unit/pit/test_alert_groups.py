"""Open alerts grouped for the pit's lists (controller/pit/alert_groups.py)."""

from __future__ import annotations

from controller.pit.alert_groups import group_alerts


def alert(seq: int, severity: str = "warning", code: str = "input.refused", table: str = "t1") -> dict[str, object]:
    return {"seq": seq, "severity": severity, "code": code, "table": table, "ts": f"2026-12-01T10:00:{seq:02d}Z",
            "message": f"{code} {seq}"}


def test_repeated_warnings_are_one_line_and_errors_stay_apart() -> None:
    listed = [alert(9, "error", "shoe.gap"), alert(8, "error", "shoe.gap"), alert(7), alert(6, table="t2"), alert(5),
              alert(4, code="spot.refused"), alert(3)]
    grouped = group_alerts(listed)
    assert [(g["table"], g["code"], g["count"], g["seqs"]) for g in grouped] == [
        ("t1", "shoe.gap", 1, [9]), ("t1", "shoe.gap", 1, [8]), ("t1", "input.refused", 3, [7, 5, 3]),
        ("t2", "input.refused", 1, [6]), ("t1", "spot.refused", 1, [4])]
    slips = grouped[2]
    assert (slips["message"], slips["ts"], slips["first_ts"]) == ("input.refused 7", "2026-12-01T10:00:07Z",
                                                                  "2026-12-01T10:00:03Z")


def test_the_dashboards_own_alerts_are_never_grouped_or_acknowledged() -> None:
    own = {"seq": None, "severity": "warning", "code": "pit.feed_refused", "table": "t1", "count": 4, "message": "x"}
    (entry,) = group_alerts([own])
    assert (entry["count"], entry["seqs"]) == (4, [])
