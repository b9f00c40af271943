"""The studio's alerts on a table's ``alert`` topic (``origin: studio``): kept apart from the table's
journal alerts (their seqs are the studio's, so never taken for a journal duplicate nor dropped by
the table's ``alerts_open``), listed until acknowledged, and acknowledged to the studio."""

from __future__ import annotations

import json

from controller.pit.commands import build, topic_for
from controller.pit.model import FloorModel

TS = "2026-12-05T10:00:00.000Z"


def alert(seq: int, code: str, severity: str = "error", **more: object) -> bytes:
    return json.dumps({"v": 1, "table": "rl-eu", "round": None, "ts": TS, "seq": seq, "severity": severity,
                       "code": code, "message": "m", **more}).encode()


def test_a_studio_alert_is_listed_beside_the_tables_own_with_the_same_seq_and_acknowledged_to_the_studio() -> None:
    floor = FloorModel()
    floor.apply("croupier/rl-eu/alert", alert(7, "device.offline"), 0.0)
    floor.apply("croupier/rl-eu/alert", alert(7, "studio.wallet_flagged", origin="studio", count=1), 0.0)
    state = {"v": 1, "table": "rl-eu", "ts": TS, "alerts_open": [{"seq": 7, "code": "device.offline"}]}
    floor.tables["rl-eu"].state = state  # the table's open errors: the studio's is not the table's to list
    model = floor.tables["rl-eu"]
    assert sorted(a["code"] for a in model.open_alerts()) == ["device.offline", "studio.wallet_flagged"]

    studio_ack = {"table": "rl-eu", "command": "acknowledge_alert", "alert": 7}
    build("boss", studio_ack)
    assert topic_for(studio_ack, model) == "croupier/rl-eu/studio_command"
    assert topic_for({**studio_ack, "alert": 8}, model) == "croupier/rl-eu/command"  # the table's own
    assert topic_for({"table": "rl-eu", "command": "close_after_round"}, model) == "croupier/rl-eu/command"

    floor.apply("croupier/rl-eu/alert", alert(9, "pit.alert_acknowledged", "info", origin="studio", alert=7,
                                              by="boss"), 0.0)
    floor.apply("croupier/rl-eu/alert", alert(7, "studio.wallet_flagged", "info", origin="studio", count=1,
                                              by="boss"), 0.0)
    assert [a["code"] for a in model.open_alerts()] == ["device.offline"]  # the table's own 7 still open
    assert model.studio_acknowledged == {7: "boss"} and model.acknowledged == {}


def test_a_late_older_studio_alert_does_not_replace_a_newer_one() -> None:
    floor = FloorModel()
    floor.apply("croupier/rl-eu/alert", alert(20, "studio.wallet_flagged", origin="studio", count=2), 0.0)
    floor.apply("croupier/rl-eu/alert", alert(10, "studio.wallet_flagged", origin="studio", count=1), 0.0)
    assert floor.tables["rl-eu"].studio["studio.wallet_flagged"]["count"] == 2
