"""Bet-spot codec: golden vectors from docs/protocols.md section 3, and fuzzing that only ever
produces a decoded press or a SpotCodecError with a known reason."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.spots import codec
from drivers.spots.codec import SpotCodecError

REASONS = {"malformed_json", "invalid_payload", "oversize"}


def test_protocol_example_decodes() -> None:
    press = codec.decode_press(b'{"v":1, "device":"spot-3", "seq":118, "button":"hit"}')
    assert (press.device, press.device_spot, press.seq, press.button, press.amount, press.kind) == (
        "spot-3", 3, 118, "hit", None, None,
    )


@pytest.mark.parametrize("kind", [None, "main", "perfect_pairs", "21+3", "ace_plus", "insurance", "bonus",
                                  "behind", "straight:17", "split:0-00", "corner:1-2-4-5", "red", "dozen:2",
                                  "six_line:31-32-33-34-35-36", "five", "voisins", "neighbours:17:2"])
def test_bet_kinds(kind: str | None) -> None:
    body = {"v": 1, "device": "spot-1", "seq": 1, "button": "bet", "amount": 2500}
    if kind is not None:
        body["kind"] = kind
    assert codec.decode_press(json.dumps(body).encode()).kind == kind


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"", "malformed_json"),
        (b"{", "malformed_json"),
        (b"\xc3\x28", "malformed_json"),
        (b"[" * 100_000, "oversize"),
        (b"null", "invalid_payload"),
        (b'"hit"', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":118,"button":"hit","extra":1}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":0,"button":"hit"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":118.0,"button":"hit"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":true,"button":"hit"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-03","seq":1,"button":"hit"}', "invalid_payload"),
        (b'{"v":1,"device":"table","seq":1,"button":"hit"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":1,"button":"bet"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":1,"button":"bet","amount":0}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":1,"button":"bet","amount":5,"kind":"straight:37"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":1,"button":"bet","amount":5,"kind":"Main"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":1,"button":"hit","amount":5}', "invalid_payload"),
        (b'{"v":1,"device":"spot-3","seq":1,"button":"stand","kind":"main"}', "invalid_payload"),
        (b'{"v":"1","device":"spot-3","seq":1,"button":"hit"}', "invalid_payload"),
    ],
)
def test_refusals_carry_a_reason(payload: bytes, reason: str) -> None:
    with pytest.raises(SpotCodecError) as caught:
        codec.decode_press(payload)
    assert caught.value.reason == reason


def test_lamp_golden_bytes() -> None:
    assert codec.encode_lamp("turn", "DOUBLE?") == b'{"v":1,"mode":"turn","text":"DOUBLE?"}'
    assert codec.encode_lamp("off") == b'{"v":1,"mode":"off","text":""}'
    with pytest.raises(ValueError):
        codec.encode_lamp("blink")  # type: ignore[arg-type]


def test_topics() -> None:
    assert codec.spot_topic("bj1", 3, "lamp") == "croupier/bj1/spot/3/lamp"
    assert codec.spot_filter("bj1", "press") == "croupier/bj1/spot/+/press"
    assert codec.parse_topic("bj1", "croupier/bj1/spot/12/press") == (12, "press")
    for bad in ("croupier/bj2/spot/1/press", "croupier/bj1/spot/01/press", "croupier/bj1/spot/x/press",
                "croupier/bj1/spot/1", "croupier/bj1/spot/1/press/x", "croupier/bj1/spot/1234/press"):
        with pytest.raises(SpotCodecError):
            codec.parse_topic("bj1", bad)
    with pytest.raises(ValueError):
        codec.topic_root("a/b")


def test_online_values() -> None:
    assert codec.decode_online(b"1") is True
    assert codec.decode_online(b"0") is False
    assert codec.decode_online(b"") is False
    with pytest.raises(SpotCodecError):
        codec.decode_online(b"true")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_arbitrary_bytes_never_escape_as_other_errors(payload: bytes) -> None:
    try:
        codec.decode_press(payload)
    except SpotCodecError as exc:
        assert exc.reason in REASONS


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
press_like = st.fixed_dictionaries(
    {"v": st.sampled_from([1, 2, "1", 1.0]), "device": st.sampled_from(["spot-3", "spot-0", "spot-3 ", "x"]),
     "seq": st.one_of(st.integers(), st.floats(), st.text(max_size=3)),
     "button": st.sampled_from([*codec.BUTTONS, "jump", ""])},
    optional={"amount": json_values | st.integers(), "kind": st.sampled_from(["main", "straight:17", "??", ""]) | json_values,
              "extra": json_values},
)


@settings(max_examples=500, deadline=None)
@given(press_like)
def test_press_shaped_json_decodes_or_is_refused(body: dict[str, object]) -> None:
    payload = json.dumps(body).encode()
    try:
        press = codec.decode_press(payload)
    except SpotCodecError as exc:
        assert exc.reason in REASONS
        return
    assert press.v == 1 and press.seq >= 1 and press.button in codec.BUTTONS
    assert (press.amount is not None) == (press.button == "bet")
