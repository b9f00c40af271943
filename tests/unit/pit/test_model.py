"""The floor model: what each feed message does to the pit's picture of a table."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.pit.model import FloorModel
from tests.unit.pit import feed_messages as msg


def put(model: FloorModel, table: str, leaf: str, body: Any, now: float = 100.0) -> str | None:
    payload = body if isinstance(body, bytes) else json.dumps(body).encode()
    return model.apply(f"croupier/{table}/{leaf}", payload, now)


def alert(seq: int, severity: str, code: str = "x", table: str = "t1", **extra: Any) -> dict[str, Any]:
    return msg.alert(table, seq, severity, code, **extra)


def test_presence_follows_the_online_topic() -> None:
    model = FloorModel()
    put(model, "t1", "online", b"1")
    assert model.tables["t1"].tile()["online"] is True
    put(model, "t1", "online", b"0")
    assert model.tables["t1"].tile()["online"] is False
    put(model, "t1", "online", b"")  # retained topic cleared: the table left the floor
    assert "t1" not in model.tables


def test_state_feeds_the_tile() -> None:
    model = FloorModel()
    put(model, "t1", "state", msg.state("t1", dealer="ann", devices={"wheel": {"online": False, "fault": None}}))
    tile = model.tables["t1"].tile()
    assert (tile["game"], tile["phase"], tile["dealer"]) == ("roulette", "betting", "ann")
    assert tile["devices_ok"] is False


def test_open_alerts_rank_by_severity_and_the_state_is_the_authority_on_errors() -> None:
    model = FloorModel()
    put(model, "t1", "alert", alert(5, "warning", "spot.refused"))
    put(model, "t1", "alert", alert(7, "error", "shoe.gap"))
    put(model, "t1", "alert", alert(8, "info", "round.note"))
    put(model, "t1", "state", msg.state("t1", alerts_open=[{"seq": 7, "code": "shoe.gap", "message": "gap", "round": "r1"}]))
    assert [(a["seq"], a["severity"]) for a in model.tables["t1"].open_alerts()] == [(7, "error"), (5, "warning")]
    # the table drops the error from its state once acknowledged
    put(model, "t1", "state", msg.state("t1"))
    assert [a["seq"] for a in model.tables["t1"].open_alerts()] == [5]
    # a warning goes when the acknowledgement alert arrives
    put(model, "t1", "alert", alert(9, "info", "pit.alert_acknowledged", alert=5, by="pat"))
    assert model.tables["t1"].open_alerts() == []


def test_floor_alerts_put_every_error_before_any_warning() -> None:
    model = FloorModel()
    put(model, "a", "alert", alert(1, "warning", table="a"))
    put(model, "b", "alert", alert(2, "error", table="b"))
    put(model, "b", "state", msg.state("b", alerts_open=[{"seq": 2, "code": "x", "message": "m", "round": None}]))
    assert [(a["table"], a["severity"]) for a in model.alerts()] == [("b", "error"), ("a", "warning")]


def test_rounds_are_deduplicated_by_seq_and_a_correction_replaces_its_round() -> None:
    model = FloorModel(rounds_kept=2)
    first = msg.round_record("t1", "r1", 10, bets=[msg.bet(100, 0)])
    assert put(model, "t1", "round", first) == "t1"
    assert put(model, "t1", "round", first) is None  # at-least-once duplicate
    put(model, "t1", "round", msg.round_record("t1", "r2", 11))
    put(model, "t1", "round", {**first, "seq": 20, "bets": [msg.bet(100, 200)], "payout_total": 200})
    assert list(model.tables["t1"].rounds) == ["r2", "r1"]
    assert model.tables["t1"].rounds["r1"]["payout_total"] == 200
    put(model, "t1", "round", msg.round_record("t1", "r3", 21))
    assert list(model.tables["t1"].rounds) == ["r1", "r3"]  # bounded


def test_lag_is_measured_from_the_message_timestamp() -> None:
    model = FloorModel()
    put(model, "t1", "prompt", msg.prompt("t1", ts="1970-01-01T00:01:40.000Z"), now=100.25)
    assert model.last_lag is not None and abs(model.last_lag - 0.25) < 1e-9


@given(st.text(max_size=30), st.binary(max_size=200))
def test_hostile_messages_never_raise(leaf: str, payload: bytes) -> None:
    model = FloorModel()
    model.apply(f"croupier/t1/{leaf}", payload, 0.0)
    model.apply(leaf, payload, 0.0)
    for table in model.tables.values():
        table.tile()
        table.open_alerts()


@pytest.mark.parametrize("leaf", ["state", "prompt", "ledger", "round", "alert"])
def test_deeply_nested_feed_messages_are_dropped_not_raised(leaf: str) -> None:
    model = FloorModel()
    for payload in (b"[" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000):
        model.apply(f"croupier/t1/{leaf}", payload, 0.0)  # json.loads would raise RecursionError
    assert model.dropped == 2


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=10)
FIELDS = st.sampled_from(["round", "status", "opened", "closed", "outcome", "bets", "dealer", "stake_total",
                          "payout_total", "seq", "numbers", "wheel", "winner", "player", "cards", "alerts_open",
                          "devices", "limits", "corrections_pending", "severity", "ts"])


@given(st.lists(st.tuples(st.sampled_from(["state", "round", "alert", "ledger", "prompt"]),
                          st.dictionaries(FIELDS, JSON | st.dictionaries(FIELDS, JSON, max_size=4), max_size=8)),
                max_size=6))
def test_a_hostile_but_well_formed_feed_never_breaks_a_view(messages: list[tuple[str, dict[str, Any]]]) -> None:
    from controller.pit.views import table_view

    model = FloorModel()
    for leaf, body in messages:
        if leaf == "round":
            body = {**body, "round": str(body.get("round"))}
        put(model, "t1", leaf, body)
        if "t1" in model.tables:  # what is kept between messages is what would be built afresh
            assert json.loads(model.tile_text("t1")) == json.loads(json.dumps(model.tables["t1"].tile()))
    for table in model.tables.values():
        json.dumps(table_view(table, None))
        json.dumps(table.tile())
    json.dumps(model.alerts())


def test_acknowledgements_are_bounded_like_the_alerts_they_answer() -> None:
    from controller.pit.model import ALERTS_KEPT

    model = FloorModel()
    for seq in range(1, 10 * ALERTS_KEPT):
        put(model, "t1", "alert", alert(seq, "info", "pit.alert_acknowledged", alert=100_000 + seq, by="pat"))
    assert len(model.tables["t1"].acknowledged) <= 4 * ALERTS_KEPT
    assert 100_000 + 10 * ALERTS_KEPT - 1 in model.tables["t1"].acknowledged  # the newest kept


def test_the_kept_tiles_and_alerts_change_with_their_table() -> None:
    """The floor keeps each tile and each table's open alerts between ticks; any message that
    changes the table shows in the next tile, an untouched table's tile is the same one."""
    model = FloorModel()
    put(model, "t1", "state", msg.state("t1", dealer="ann"))
    put(model, "t2", "state", msg.state("t2", dealer="bob"))
    first, other = model.tile("t1"), model.tile("t2")
    assert model.tile("t1") is first
    put(model, "t1", "prompt", msg.prompt("t1", "Spin"))
    put(model, "t1", "alert", alert(7, "warning", "shoe.slow"))
    tile = model.tile("t1")
    assert (tile["prompt"], tile["alerts_count"], tile["dealer"]) == ("Spin", 1, "ann")
    assert tile == model.tables["t1"].tile()
    assert [a["seq"] for a in model.alerts()] == [7]
    put(model, "t1", "alert", alert(8, "info", "pit.alert_acknowledged", alert=7))
    assert model.tile("t1")["alerts_count"] == 0 and model.alerts() == []
    assert model.tile("t2") is other
    put(model, "t2", "online", b"")
    assert "t2" not in model.tables and [t["table"] for t in model.floor()] == ["t1"]


def test_a_tile_kept_across_messages_is_the_one_built_afresh() -> None:
    """A prompt keeps the table's open alerts and the JSON of its state's fields; whatever a
    message changes (a refusal and its end among them), the kept tile and its text are those a
    table model builds from scratch."""
    model = FloorModel()
    steps: list[tuple[str, Any]] = [
        ("state", msg.state("t1", alerts_open=[alert(3, "error", "wheel.jam")])),
        ("alert", alert(3, "error", "wheel.jam")), ("prompt", msg.prompt("t1", "Spin")),
        ("prompt", b"{"), ("prompt", msg.prompt("t1", "No more bets")), ("ledger", msg.ledger("t1", stake_total=500)),
        ("alert", alert(5, "warning", "shoe.slow")), ("state", msg.state("t1", dealer="ann")), ("online", b"x"),
        ("online", b"0"), ("prompt", msg.prompt("t1", "Open betting")), ("online", b"1"),
        ("round", msg.round_record("t1", "r1", 9)), ("alert", alert(6, "info", "pit.alert_acknowledged", alert=5)),
    ]
    counts = []
    for n, (leaf, body) in enumerate(steps):
        put(model, "t1", leaf, body, now=100.0 + n)
        fresh = model.tables["t1"].tile()
        assert model.tile("t1") == fresh, (n, leaf)
        assert json.loads(model.tile_text("t1")) == json.loads(json.dumps(fresh)), (n, leaf)
        counts.append(fresh["alerts_count"])
    assert counts == [1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 1, 1, 1, 0]  # the refusals come and go with their topic
