"""Pit commands: size and nesting checked before the JSON parser runs (issue defect 5)."""

from __future__ import annotations

import json

import pytest

from controller.feed.commands import MAX_PAYLOAD, PitCommand, Refusal, parse_command


@pytest.mark.parametrize("payload", [
    b"[" * 4096,
    b"[" * 2000 + b"]" * 2000,
    b'{"a":' * 800 + b"1" + b"}" * 800,
    b'{"v":1,"id":"a","sender":"p","command":"close_after_round","x":[[[1]]]}',
])
def test_deep_json_is_a_refusal_not_a_recursion_error(payload: bytes) -> None:
    refused = parse_command(payload)
    assert isinstance(refused, Refusal)
    assert "nested" in refused.reason or "exceeds" in refused.reason
    assert refused.alert_payload()["code"] == "command_refused"


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    payload = json.dumps({"v": 1, "id": "[[[[[[", "sender": "{{{{{{", "command": "close_after_round"}).encode()
    assert parse_command(payload) == PitCommand(v=1, id="[[[[[[", sender="{{{{{{", command="close_after_round")


def test_oversize_is_refused_before_parsing() -> None:
    refused = parse_command(b" " * (MAX_PAYLOAD + 1))
    assert isinstance(refused, Refusal) and f"exceeds {MAX_PAYLOAD}" in refused.reason


def test_reopen_is_a_pit_command() -> None:
    parsed = parse_command(b'{"v":1,"id":"r1","sender":"pit-boss-anna","command":"reopen"}')
    assert isinstance(parsed, PitCommand) and parsed.command == "reopen"
