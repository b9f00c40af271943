"""The dashboard's feed path as one fuzz target (tests/fuzz/parsers.py, bench/fuzz.py): a raw
input is ``<leaf>\\n<payload>``, folded into a floor model as the broker would deliver it on
``croupier/t1/<leaf>``, then both JSON responses (``/api/floor`` and ``/api/table/t1``) are
rendered as Starlette renders them. Nothing may raise: a refused message is an alert."""

from __future__ import annotations

import json

from controller.pit.model import FloorModel
from controller.pit.views import table_view
from tests.unit.pit import feed_messages as msg

LEAVES = ("state", "prompt", "ledger", "round", "alert", "online")
#: one model for the whole run, bounded as the dashboard's is (its round and alert histories)
_MODEL = FloorModel(rounds_kept=20)


def _render(body: object) -> bytes:
    """What ``starlette.responses.JSONResponse`` does with a body."""
    return json.dumps(body, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode("utf-8")


def dashboard_feed(raw: bytes) -> object:
    leaf, _, payload = raw.partition(b"\n")
    name = leaf.decode("ascii", "replace")
    topic = f"croupier/t1/{name if name in LEAVES else 'state'}"
    _MODEL.apply(topic, payload, 1_000_000.0)
    floor = _render({"tables": _MODEL.floor(), "alerts": _MODEL.alerts()[:50]})
    table = _MODEL.tables.get("t1")
    return floor, _render(table_view(table, None)) if table is not None else None


def _seed(leaf: str, body: object) -> bytes:
    return leaf.encode() + b"\n" + json.dumps(body).encode()


SEEDS: tuple[bytes, ...] = (
    _seed("state", msg.state("t1", dealer="ann", devices={"wheel": {"online": True, "fault": None}},
                             alerts_open=[{"seq": 3, "code": "x", "message": "m", "round": None}])),
    _seed("prompt", msg.prompt("t1")),
    _seed("ledger", msg.ledger("t1", rounds_settled=3, stake_total=5000, payout_total=3600)),
    _seed("round", msg.round_record("t1", "t1-000001", 7)),
    _seed("round", msg.round_record("t1", "t1-000002", 8, status="void", dealer="ann")),
    _seed("alert", msg.alert("t1", 9, "error", "shoe.gap")),
    _seed("alert", msg.alert("t1", 10, "info", "pit.alert_acknowledged", alert=9, by="pat")),
    b"online\n1",
    b'ledger\n{"v": 1, "table": "t1", "round": null, "ts": "2026-12-01T10:00:00.000Z", "rounds_settled": NaN}',
    _seed("state", msg.state("t1", dealer="\ud800")),
    _seed("round", msg.round_record("t1", "t1-000003", 11, opened="2026-12-01T10:00:00")),
)
