"""The feed's models (controller/records/) take what the feed's own builders make, and refuse
what the protocol does not allow: fractional or string money, a missing field; a field nobody
documented is ignored by a reader and named by ``undeclared`` (the table's own output is held to
the models exactly). tests/integration/table_corrections/test_feed_schemas.py checks them against
what a real table publishes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from controller.feed import Topics
from controller.feed.ledger import LedgerTotals
from controller.feed.messages import encode, entry_messages, snapshot_message
from controller.journal import Entry
from controller.records import FEED_LEAVES, AlertMessage, LedgerMessage, parse_message, undeclared
from controller.records import parse as validate
from controller.table import registry  # noqa: F401 (the registered games' outcome models)
from tests.support import outcomes

TS = "2026-11-29T16:01:00.000Z"
RECORD: dict[str, Any] = {"v": 1, "table": "bj1", "round": "bj1-000042", "game": "blackjack", "opened": TS, "closed": TS,
          "status": "settled", "dealer": "maria", "shoe": "S-0007", "shoe_round": 12,
          "outcome": outcomes.blackjack(boxes=[(1, ("AS", "KD"))]),
          "bets": [{"box": 1, "hand": 1, "kind": "main", "player": "p1", "stake": 1000, "payout": 2500}],
          "stake_total": 1000, "payout_total": 2500, "corrections": []}
STATE: dict[str, Any] = {"game": "blackjack", "preset": "ru6", "phase": "betting", "round": "bj1-000042", "dealer": None,
         "closing": False, "limits": {"main": {"min": 100, "max": 100000}},
         "shoe": {"id": "S-0007", "cards_dealt": 61, "cut_card_seen": False, "to_burn": 0}, "hold": None,
         "devices": {"shoe": {"online": True, "fault": None}}, "alerts_open": [], "corrections_pending": [],
         "journal": {"seq": 811, "hash": "ab" * 32}}


def published(kind: str, payload: dict[str, Any]) -> dict[str, bytes]:
    """What the feed publishes for one journal entry, by topic leaf."""
    entry = Entry(812, TS, "bj1-000042", kind, "table", payload)
    return {m.topic.rsplit("/", 1)[1]: m.payload for m in entry_messages(Topics("bj1"), entry)}


def test_the_feeds_own_messages_validate() -> None:
    out = published("round_closed", RECORD)
    assert validate("event", out["event"]).seq == 812  # type: ignore[attr-defined]
    assert validate("round", out["round"]) == parse_message({**RECORD, "ts": TS, "seq": 812})
    alert = {"severity": "error", "code": "blackjack.dealer.stands", "message": "dealer stands on 17",
             "cause": 811, "hold": True, "options": ["burn", "void_round"], "cards": ["5H"]}
    checked = validate("alert", published("alert", alert)["alert"])
    assert isinstance(checked, AlertMessage) and checked.options == ["burn", "void_round"]
    assert checked.model_extra == {"cards": ["5H"]}  # a code's own details pass through
    validate("state", encode(snapshot_message("bj1", "bj1-000041", TS, STATE)))
    validate("prompt", encode(snapshot_message("bj1", None, TS, {"text": "Open betting", "round": None})))
    totals = LedgerTotals(rounds_settled=3, stake_total=4500, payout_total=3900, seq=812, round="bj1-000042")
    assert validate("ledger", encode(totals.message("bj1", TS))) == LedgerMessage(
        v=1, table="bj1", round="bj1-000042", ts=TS, rounds_settled=3, rounds_void=0, stake_total=4500,
        payout_total=3900, void_stake_total=0, seq=812)


@pytest.mark.parametrize(("leaf", "change", "field"), [
    ("round", {"stake_total": 1000.5}, "stake_total"),
    ("round", {"payout_total": "2500"}, "payout_total"),
    ("round", {"bets": [{**RECORD["bets"][0], "payout": -1}]}, "payout"),
    ("round", {"status": "open"}, "status"),
    ("round", {"outcome": {"dealer": ["TS", "7H"]}}, "outcome"),
    ("state", {"journal": None}, "journal"),
    ("state", {"limits": {"main": {"min": 100, "max": 1e5}}}, "max"),
    ("state", {"phase": "dealing"}, "phase"),
    ("ledger", {"stake_total": True}, "stake_total"),
    ("alert", {"severity": "fatal"}, "severity"),
    ("event", {"payload": [1]}, "payload"),
])
def test_what_the_protocol_does_not_allow_is_refused(leaf: str, change: dict[str, Any], field: str) -> None:
    base: dict[str, dict[str, Any]] = {
        "round": {**RECORD, "ts": TS, "seq": 9},
        "state": {**STATE, "v": 1, "table": "bj1", "ts": TS},
        "ledger": {"v": 1, "table": "bj1", "round": None, "ts": TS, "rounds_settled": 0, "rounds_void": 0,
                   "stake_total": 0, "payout_total": 0, "void_stake_total": 0, "seq": 0},
        "alert": {"v": 1, "table": "bj1", "round": None, "ts": TS, "seq": 3, "severity": "info", "code": "x",
                  "message": "m"},
        "event": {"v": 1, "table": "bj1", "round": None, "ts": TS, "seq": 3, "kind": "device", "source": "shoe",
                  "payload": {}},
    }
    validate(leaf, json.dumps(base[leaf]).encode())  # the message as it is passes
    with pytest.raises(ValidationError) as refused:
        validate(leaf, json.dumps({**base[leaf], **change}).encode())
    assert field in str(refused.value)


def test_a_field_nobody_declared_is_read_past_and_named() -> None:
    data = {**RECORD, "ts": TS, "seq": 9, "colour": "red", "bets": [{**RECORD["bets"][0], "seat": 3}]}
    message = validate("round", json.dumps(data).encode())  # a newer table's field does not stop a reader
    assert undeclared(message, data) == ["BlackjackMessage.colour: not declared",
                                         "BlackjackMessage.bets[0].seat: not declared"]


def test_every_field_of_every_feed_message_is_documented() -> None:
    """The exported schemas are the feed's documentation: no field without a description."""
    from pydantic import BaseModel

    from controller.records import alert, feed, offer, round, state, wire

    undocumented = [f"{model.__name__}.{name}" for module in (alert, feed, offer, round, state, wire)
                    for model in vars(module).values()
                    if isinstance(model, type) and issubclass(model, BaseModel) and model is not BaseModel
                    and model.__module__ == module.__name__
                    for name, info in model.model_fields.items()
                    if not info.description and name not in ("v", "table", "round", "ts", "seq")]
    assert undocumented == []
    assert set(FEED_LEAVES) == {"event", "round", "alert", "state", "prompt", "ledger", "betting", "outcome"}
