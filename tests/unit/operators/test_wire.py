"""The wallet contract's answer parser, signatures and feed MACs, for any input (Hypothesis)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.studio.operators import contract, feedmsg, signing
from controller.studio.operators.interface import WalletStatus, WalletTx

SECRET = b"k" * 32
ids = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40)


@given(st.binary(max_size=6000))
def test_any_bytes_are_an_answer_or_malformed_never_a_crash(raw: bytes) -> None:
    try:
        answer = contract.parse_answer(raw, "t1")
    except contract.Malformed as exc:
        assert str(exc)
    else:
        assert answer.tx == "t1"


@given(st.sampled_from(["ok", "insufficient_funds", "operator_limit", "token_refused", "retry"]),
       st.none() | st.integers(0, 10**15), ids)
def test_a_contract_answer_reads_back(status: str, balance: int | None, tx: str) -> None:
    raw = json.dumps({"v": 1, "tx": tx, "status": status, "balance": balance}).encode()
    result = contract.parse_answer(raw, tx).result()
    expected = WalletStatus.UNKNOWN if status == "retry" else WalletStatus(status)
    assert result.status is expected and (status == "retry" or result.balance == balance)


@pytest.mark.parametrize("raw, why", [
    (b'{"v": 1, "tx": "t2", "status": "ok"}', "not ours"),
    (b'{"v": 1, "tx": "t1", "status": "maybe"}', "not an answer"),
    (b'{"v": 1, "tx": "t1", "status": "ok", "balance": -5}', "not an answer"),
    (b'{"v": 1, "tx": "t1", "status": "ok", "x": [[[[1]]]]}', "not an answer"),
    (b'{"v": 1, "tx": "t1", "status": "ok", "pad": "' + b"x" * 5000 + b'"}', "more than"),
])
def test_a_wrong_answer_is_named(raw: bytes, why: str) -> None:
    with pytest.raises(contract.Malformed, match=why):
        contract.parse_answer(raw, "t1")


@given(ids, st.binary(max_size=300), st.integers(0, 2**41))
def test_a_signature_checks_and_any_change_breaks_it(request_id: str, body: bytes, ts: int) -> None:
    headers = signing.signed_headers(SECRET, "op", ts, request_id, body)
    fresh = ts + 1000
    if len(request_id) <= 128:
        assert signing.check(SECRET, headers, body, fresh) is None
    assert signing.check(SECRET, headers, body + b" ", fresh) is not None
    assert signing.check(b"j" * 32, headers, body, fresh) is not None
    assert signing.check(SECRET, headers, body, ts + (signing.SKEW_S + 1) * 1000) is not None


def test_the_request_body_carries_the_token_only_when_there_is_one() -> None:
    tx = WalletTx("t1", "t1", "op", "p1", "EUR", 500, round="r1")
    assert json.loads(contract.request_body(tx)) == {"v": 1, "tx": "t1", "ref": "t1", "round": "r1", "player": "p1",
                                                     "amount": 500, "currency": "EUR"}
    with_token = WalletTx("t1", "t1", "op", "p1", "EUR", 500, token="jwt")
    assert json.loads(contract.request_body(with_token))["token"] == "jwt"


events = st.builds(feedmsg.FeedEvent, table=ids, seq=st.integers(1, 2**40), round=st.text(max_size=20), type=ids,
                   game=ids, trace=st.uuids().map(lambda u: u.hex),
                   at=st.datetimes(timezones=st.just(UTC)),
                   data=st.dictionaries(st.text(max_size=8), st.integers() | st.text(max_size=8), max_size=5))


@given(events, st.text(max_size=8), st.integers() | st.text(max_size=8))
def test_a_feed_message_verifies_and_a_changed_card_does_not(event: feedmsg.FeedEvent, key: str, value: object) -> None:
    message = feedmsg.message("op", SECRET, event)
    wire = json.loads(json.dumps(message))
    assert feedmsg.verify(SECRET, wire) and not feedmsg.verify(b"other" * 8, wire)
    feedmsg.FeedMessage.model_validate(wire)
    changed = {**wire, "data": {**wire["data"], key: value}}
    if changed["data"] != wire["data"]:
        assert not feedmsg.verify(SECRET, changed)
    assert not feedmsg.verify(SECRET, {**wire, "seq": wire["seq"] + 1})


def test_a_message_without_a_mac_does_not_verify() -> None:
    event = feedmsg.FeedEvent("t", 1, "r", "card", "baccarat", "x", datetime(2026, 12, 5, tzinfo=UTC), {"card": "AS"})
    message = feedmsg.message("op", SECRET, event)
    del message["mac"]
    assert not feedmsg.verify(SECRET, message)
