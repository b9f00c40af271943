"""Pit commands: strict validation, a reason for every refusal, no exception ever."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.feed import PitCommand, Refusal, parse_command
from controller.feed.commands import RecentIds


def raw(**fields: Any) -> bytes:
    return json.dumps({"v": 1, "id": "c1", "sender": "maria", **fields}).encode()


@pytest.mark.parametrize("fields", [
    {"command": "close_after_round"},
    {"command": "close_after_round", "round": "r9"},
    {"command": "void_round", "round": "r9"},
    {"command": "approve_correction", "correction": "k3", "round": "r9"},
    {"command": "acknowledge_alert", "alert": 17},
])
def test_valid(fields: dict[str, Any]) -> None:
    command = parse_command(raw(**fields))
    assert isinstance(command, PitCommand)
    assert command.journal_payload() == {"v": 1, "id": "c1", "sender": "maria", **fields}


@pytest.mark.parametrize(("payload", "reason"), [
    (b"", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    (b"[]", "valid dictionary"),
    (raw(command="void_round"), "void_round needs 'round'"),
    (raw(command="approve_correction"), "needs 'correction'"),
    (raw(command="acknowledge_alert"), "needs 'alert'"),
    (raw(command="acknowledge_alert", alert=0), "alert:"),
    (raw(command="acknowledge_alert", alert=1.0), "alert:"),
    (raw(command="open_table"), "command:"),
    (raw(command="close_after_round", extra=1), "extra: Extra inputs"),
    (json.dumps({"v": 1, "id": "c1", "command": "close_after_round"}).encode(), "sender: Field required"),
    (raw(command="close_after_round", sender=""), "sender:"),
    (raw(command="close_after_round", sender="a\nb"), "sender:"),
    (raw(command="close_after_round", id="x" * 65), "id:"),
    (raw(command="close_after_round", v=True), "v:"),
    (raw(command="close_after_round", round=5), "round:"),
    (b"{" + b" " * 5000 + b"}", "exceeds 4096"),
])
def test_refused_with_a_reason(payload: bytes, reason: str) -> None:
    refusal = parse_command(payload)
    assert isinstance(refusal, Refusal) and reason in refusal.reason, refusal
    alert = refusal.alert_payload()
    assert alert["code"] == "command_refused" and alert["severity"] == "warning" and reason in alert["message"]


def test_a_retained_command_is_refused_even_when_valid() -> None:
    refusal = parse_command(raw(command="close_after_round"), retained=True)
    assert isinstance(refusal, Refusal) and "retained" in refusal.reason
    assert refusal.alert_payload()["id"] == "c1" and refusal.alert_payload()["sender"] == "maria"


@given(st.binary(max_size=300))
def test_never_raises_on_bytes(payload: bytes) -> None:
    assert isinstance(parse_command(payload), PitCommand | Refusal)


@given(st.dictionaries(st.sampled_from(["v", "id", "sender", "command", "round", "alert", "correction", "x"]),
                       st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=70)))
def test_never_raises_on_objects(data: dict[str, Any]) -> None:
    assert isinstance(parse_command(json.dumps(data).encode()), PitCommand | Refusal)


def test_recent_ids_forget_the_oldest() -> None:
    ids = RecentIds(limit=2)
    for ident in ("a", "b", "c"):
        ids.add(ident)
    assert "a" not in ids and "b" in ids and "c" in ids
