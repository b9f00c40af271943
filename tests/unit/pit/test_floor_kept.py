"""The floor's totals and alerts kept between ticks (``FloorTotals``, ``FloorModel.alerts``): after
any sequence of feed messages, the hour passing and edges becoming known, they are what counting
the whole floor afresh gives."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.pit.floor import FloorTotals, floor_totals
from controller.pit.model import FloorModel, TableModel, severity_rank
from tests.unit.pit import feed_messages as msg

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC).timestamp()
TABLES = ("a", "b", "c")
RULES = (("roulette", "european"), ("baccarat", "punto_banco"))
EDGES = {RULES[0]: 0.027, RULES[1]: 0.0106}


def iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat()


tables = st.sampled_from(TABLES)
step = st.one_of(
    st.tuples(st.just("state"), tables, st.booleans(), st.sampled_from(["EUR", "USD"]), st.sampled_from(RULES),
              st.sampled_from([None, "r9"]), st.sampled_from([0, 2])),
    st.tuples(st.just("ledger"), tables, st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 3)),
    st.tuples(st.just("online"), tables, st.sampled_from([b"0", b"1", b""])),
    st.tuples(st.just("round"), tables, st.integers(0, 80)),  # closed that many minutes ago
    st.tuples(st.just("prompt"), tables, st.text(max_size=5)),
    st.tuples(st.just("alert"), tables, st.sampled_from(["warning", "error", "info"])),
    st.tuples(st.just("acknowledge"), tables),
    st.tuples(st.just("refused"), tables),
    st.tuples(st.just("tick"), st.integers(0, 40)),  # minutes passing
    st.tuples(st.just("edge"), st.sampled_from(RULES)),
)


def fresh_alerts(model: FloorModel) -> list[dict[str, Any]]:
    out = [a for t in model.tables.values() for a in t.open_alerts()]
    out.sort(key=lambda a: str(a.get("ts", "")), reverse=True)
    out.sort(key=lambda a: severity_rank(a.get("severity")))
    return out


def same_totals(kept: dict[str, Any], fresh: dict[str, Any]) -> None:
    assert {k: v for k, v in kept.items() if k != "money"} == {k: v for k, v in fresh.items() if k != "money"}
    assert len(kept["money"]) == len(fresh["money"])
    for mine, theirs in zip(kept["money"], fresh["money"], strict=True):
        assert mine == {**theirs, "edge": pytest.approx(theirs["edge"]) if theirs["edge"] is not None else None}


@settings(max_examples=150, deadline=None)
@given(st.lists(step, max_size=60))
def test_the_kept_totals_and_alerts_are_the_floor_counted_afresh(steps: list[tuple[Any, ...]]) -> None:
    model, totals = FloorModel(), FloorTotals(("EUR", 2))
    now = START
    known: dict[tuple[str, str], float] = {}

    def edge(table: TableModel) -> float | None:
        return known.get((table.state.get("game"), table.state.get("preset")))  # type: ignore[arg-type]

    def put(table: str, leaf: str, body: dict[str, Any] | bytes) -> None:
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        model.apply(f"croupier/{table}/{leaf}", payload, now)

    for seq, (kind, *args) in enumerate(steps, start=1):
        if kind == "state":
            table, closing, currency, (game, preset), round_id, digits = args
            put(table, "state", msg.state(table, closing=closing, currency=currency, currency_digits=digits, game=game,
                                          preset=preset, round=round_id))
        elif kind == "ledger":
            table, stake, payout, remote = args
            put(table, "ledger", msg.ledger(table, stake_total=stake, payout_total=payout, remote_rounds=remote,
                                            remote_stake_total=remote * 100, remote_paid_total=remote * 50,
                                            remote_refunded_total=remote * 10))
        elif kind == "online":
            put(args[0], "online", args[1])
        elif kind == "round":
            table, ago = args
            closed = iso(now - 60 * ago)
            put(table, "round", msg.round_record(table, f"{table}-{seq}", seq, opened=closed, closed=closed))
        elif kind == "prompt":
            put(args[0], "prompt", msg.prompt(args[0], args[1] or "Spin"))
        elif kind == "alert":
            put(args[0], "alert", msg.alert(args[0], seq, args[1], "shoe.slow", ts=iso(now)))
        elif kind == "acknowledge":
            put(args[0], "alert", msg.alert(args[0], seq, "info", "pit.alert_acknowledged", alert=seq - 1))
        elif kind == "refused":
            put(args[0], "state", b"{")
        elif kind == "tick":
            now += 60 * args[0]
        else:
            if args[0] not in known:
                known[args[0]] = EDGES[args[0]]
                totals.recount_all()
        if kind in ("tick", "edge") or seq % 3 == 0:  # a tick of the broadcast
            by_table = {t.table: e for t in model.tables.values() if (e := edge(t)) is not None}
            same_totals(totals.update(model.tables, model.take_recount(), edge, now),
                        floor_totals(model.tables.values(), by_table, now, ("EUR", 2)))
            assert model.alerts() == fresh_alerts(model)


def test_a_state_that_changes_no_alert_keeps_the_floors_list() -> None:
    """A ``state`` rebuilds its table's open alerts; when they are what they were, the floor's
    list is the one kept (a tick does not sort every table's alerts again)."""
    model = FloorModel()
    for table in TABLES:
        model.apply(f"croupier/{table}/alert", json.dumps(msg.alert(table, 1, "warning", "shoe.slow")).encode(), 1.0)
    listed = model.alerts()
    model.apply("croupier/b/state", json.dumps(msg.state("b", dealer="ann")).encode(), 2.0)
    assert model.alerts() is listed
    model.apply("croupier/b/alert", json.dumps(msg.alert("b", 2, "warning", "shoe.low")).encode(), 3.0)
    assert model.alerts() is not listed and [a["seq"] for a in model.alerts() if a["table"] == "b"] == [2, 1]


def test_a_prompt_moves_the_floors_last_update_only() -> None:
    """A prompt changes no table's share of the totals, only the floor's last update."""
    model, totals = FloorModel(), FloorTotals(("EUR", 2))
    model.apply("croupier/a/ledger", json.dumps(msg.ledger("a", stake_total=900, payout_total=400)).encode(), 1.0)
    model.apply("croupier/b/ledger", json.dumps(msg.ledger("b", stake_total=100, payout_total=0)).encode(), 2.0)
    first = totals.update(model.tables, model.take_recount(), lambda m: None, 10.0)
    model.apply("croupier/a/prompt", json.dumps(msg.prompt("a", "Spin")).encode(), 5.0)
    later = totals.update(model.tables, model.take_recount(), lambda m: None, 10.0)
    assert (first["updated"], later["updated"]) == (2.0, 5.0)
    assert later["money"] == first["money"] and later["money"][0]["win"] == 600
    model.apply("croupier/a/online", b"", 6.0)  # gone from the floor: its money and its update with it
    gone = totals.update(model.tables, model.take_recount(), lambda m: None, 10.0)
    assert (gone["updated"], gone["money"][0]["drop"]) == (2.0, 100)


def test_a_round_turning_an_hour_old_leaves_the_kept_count_with_no_message() -> None:
    model, totals = FloorModel(), FloorTotals(("EUR", 2))
    for n, minutes in enumerate((50, 20), start=1):
        closed = iso(START - 60 * minutes)
        model.apply("croupier/a/round", json.dumps(msg.round_record("a", f"a-{n}", n, opened=closed, closed=closed)).encode(),
                    START)
    counts = [totals.update(model.tables, model.take_recount(), lambda m: None, START + 60 * later)["rounds_last_hour"]
              for later in (0, 5, 11, 30, 41)]
    assert counts == [2, 2, 1, 1, 0]
