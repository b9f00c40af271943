"""The dashboard's edge: a message that no page or JSON response could carry, or that does not
match its model, is refused with one alert per table and topic; the table keeps what it showed,
and no other table is touched."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from controller.pit.intake import Refused, check
from controller.pit.model import REFUSED_CODE, FloorModel
from controller.pit.views import table_view
from tests.unit.pit import feed_messages as msg


def responses_of(model: FloorModel) -> None:
    """What /api/floor, /api/table/* and a broadcast do with the model (Starlette's JSONResponse)."""
    bodies: list[Any] = [model.floor(), model.alerts(), *(table_view(t, None) for t in model.tables.values())]
    for body in bodies:
        json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")


HOSTILE = {
    "NaN": b'{"v": 1, "table": "t1", "round": null, "ts": "2026-12-01T10:00:00.000Z", "rounds_settled": NaN}',
    "Infinity": b'{"v": 1, "table": "t1", "round": null, "ts": "2026-12-01T10:00:00.000Z", "stake_total": Infinity}',
    "1e999": json.dumps(msg.ledger("t1")).replace('"stake_total": 0', '"stake_total": 1e999').encode(),
    "lone surrogate": json.dumps(msg.ledger("t1", round="\ud800")).encode(),
    "naive time": json.dumps(msg.ledger("t1", ts="2026-12-01T10:00:00")).encode(),
    "a string for a count": json.dumps(msg.ledger("t1", rounds_settled="<img src=x onerror=alert(1)>")).encode(),
    "another table": json.dumps(msg.ledger("t2")).encode(),
    "not an object": b"[1, 2]",
    "not UTF-8": b'{"v": 1, "x": "\xff"}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_ledger_is_refused_the_tile_keeps_the_last_good_one_and_every_response_works(name: str) -> None:
    model = FloorModel()
    model.apply("croupier/t1/ledger", json.dumps(msg.ledger("t1", rounds_settled=4)).encode(), 1.0)
    model.apply("croupier/t2/state", json.dumps(msg.state("t2", dealer="bo")).encode(), 1.0)
    other = model.tables["t2"].tile()
    model.apply("croupier/t1/ledger", HOSTILE[name], 2.0)
    assert model.tables["t1"].tile()["ledger"]["rounds_settled"] == 4
    assert model.tables["t2"].tile() == other
    [refused] = [a for a in model.tables["t1"].open_alerts() if a["code"] == REFUSED_CODE]
    assert refused["source"] == "ledger" and refused["count"] == 1 and refused["table"] == "t1"
    responses_of(model)


def test_naive_and_aware_times_are_never_mixed_in_the_statistics() -> None:
    model = FloorModel()
    model.apply("croupier/t1/round", json.dumps(msg.round_record("t1", "r1", 1)).encode(), 1.0)
    naive = msg.round_record("t1", "r2", 2, opened="2026-12-01T10:05:00", closed="2026-12-01T10:06:00")
    model.apply("croupier/t1/round", json.dumps(naive).encode(), 1.0)
    assert list(model.tables["t1"].rounds) == ["r1"]
    responses_of(model)  # summary() compares the times: mixed, it raised TypeError


def test_one_alert_per_table_and_topic_with_a_count_logged_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    model = FloorModel()
    with caplog.at_level(logging.WARNING, logger="controller.pit.model"):
        for k in range(50):
            model.apply("croupier/t1/state", b'{"v": NaN}', 10.0 + k / 10)
        model.apply("croupier/t1/prompt", b"{}", 12.0)
        model.apply("croupier/t1/state", b'{"v": NaN}', 71.0)
    refused = [a for a in model.alerts() if a["code"] == REFUSED_CODE]
    assert sorted((a["source"], a["count"]) for a in refused) == [("prompt", 1), ("state", 51)]
    assert len([r for r in caplog.records if "/state refused" in r.getMessage()]) == 2  # at 10 s and at 71 s
    # a good state ends the state topic's alert
    model.apply("croupier/t1/state", json.dumps(msg.state("t1")).encode(), 72.0)
    assert [a["source"] for a in model.alerts() if a["code"] == REFUSED_CODE] == ["prompt"]


def test_what_the_edge_passes_is_what_its_model_accepts() -> None:
    for leaf, body in (("state", msg.state("t1")), ("prompt", msg.prompt("t1")), ("ledger", msg.ledger("t1")),
                       ("alert", msg.alert("t1", 3)), ("round", msg.round_record("t1", "t1-000001", 4))):
        assert check("t1", leaf, json.dumps(body).encode()) == body
    with pytest.raises(Refused, match="naive|UTC offset"):
        check("t1", "prompt", json.dumps(msg.prompt("t1", ts="2026-12-01T10:00:00")).encode())
    with pytest.raises(Refused, match="stake"):
        check("t1", "round", json.dumps(msg.round_record("t1", "r", 4, bets=[msg.bet(-5)])).encode())


def test_a_rounds_outcome_is_read_as_its_games() -> None:
    """A roulette record whose outcome is not a spin's is refused, naming where; a game the
    dashboard does not know passes with its outcome as it came."""
    with pytest.raises(Refused, match=r"roulette\.outcome\.numbers"):
        check("t1", "round", json.dumps(msg.round_record("t1", "r", 4, outcome={"wheel": "european"})).encode())
    with pytest.raises(Refused, match=r"roulette\.outcome\.colours"):
        check("t1", "round", json.dumps(msg.round_record("t1", "r", 4, outcome={
            "wheel": "european", "numbers": ["17"], "colours": "red", "multipliers": {}, "voids": [],
            "sources": []})).encode())
    other = msg.round_record("t1", "r", 4, game="sic-bo", outcome={"dice": [1, 4, 6]})
    assert check("t1", "round", json.dumps(other).encode()) == other
