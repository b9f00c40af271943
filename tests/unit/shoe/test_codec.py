"""CSP/1 codec against the golden vectors of docs/protocols.md §2, hand-worked cases and fuzzing."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.shoe import codec
from drivers.shoe.codec import (
    Ack,
    Card,
    CodecError,
    Cut,
    Decoder,
    Fault,
    Frame,
    FrameError,
    Hello,
    Lock,
    Nak,
    NewShoe,
    NoRead,
    Ping,
    Reset,
    Status,
    Unlock,
    crc16,
    decode_frame,
    encode,
)

GOLDEN = [
    (b"#002A;CARD;QH;17*5EE8\r\n", Frame(0x2A, Card("QH", 17))),
    (b"#0001;HELLO;CS-1;1.0;SN42*8F1C\r\n", Frame(1, Hello("CS-1", "1.0", "SN42"))),
    (b"#0007;ACK;002A*DB2F\r\n", Frame(7, Ack(0x2A))),
]


def test_crc_check_value():
    assert crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize(("raw", "frame"), GOLDEN)
def test_golden_vectors_both_ways(raw, frame):
    assert encode(frame.seq, frame.msg) == raw
    assert decode_frame(raw) == frame


def test_host_ack_golden_vector_is_host_traffic():
    assert decode_frame(b"#0007;ACK;002A*DB2F\r\n", "host") == Frame(7, Ack(0x2A))


ALL_MESSAGES = [
    Hello("CS-1", "1.0", "SN42"), Card("TD", 0), NoRead(312), Cut(240), Status("LOCKED", 52, "B-7"),
    Fault(21, "OPTICAL"), Ack(0), Nak(0xFFFF), Lock(), Unlock(), NewShoe("B-8", 8), Ping(), Reset(),
]


@pytest.mark.parametrize("msg", ALL_MESSAGES, ids=lambda m: m.TYPE)
def test_every_type_round_trips(msg):
    raw = encode(0xBEEF, msg)
    assert raw.startswith(b"#BEEF;" + msg.TYPE.encode() + b"*") or raw.startswith(b"#BEEF;" + msg.TYPE.encode() + b";")
    assert decode_frame(raw) == Frame(0xBEEF, msg)


def test_hand_worked_crc_of_a_status_body():
    body = b"0003;STATUS;READY;0;S1"
    raw = encode(3, Status("READY", 0, "S1"))
    assert raw == b"#" + body + b"*" + f"{crc16(body):04X}".encode() + b"\r\n"


def test_direction_filters_types():
    raw = encode(5, Lock())
    with pytest.raises(CodecError) as err:
        decode_frame(raw, "shoe")
    assert err.value.seq == 5
    with pytest.raises(CodecError):
        decode_frame(encode(5, Card("AS", 1)), "host")


@pytest.mark.parametrize(
    ("raw", "seq", "reason"),
    [
        (b"#002A;CARD;QH;17*5EE9\r\n", 0x2A, "bad crc"),
        (b"#002a;CARD;QH;17*5EE8\r\n", None, "bad crc"),  # lower-case seq is not a seq
        (b"#002A;CARD;QH;17*5ee8\r\n", 0x2A, "crc not 4 upper-case hex digits"),
        (b"#002A;CARD;QH;17*5EE8\n", 0x2A, "frame not delimited by # and CRLF"),
        (b"#002A;CARD;QH;17\r\n", 0x2A, "no *crc before CRLF"),
    ],
)
def test_bad_frames_are_typed_with_readable_seq(raw, seq, reason):
    with pytest.raises(CodecError) as err:
        decode_frame(raw)
    assert err.value.seq == seq
    assert err.value.reason == reason


def _with_crc(body: bytes) -> bytes:
    return b"#" + body + b"*" + f"{crc16(body):04X}".encode() + b"\r\n"


@pytest.mark.parametrize(
    "body",
    [b"0001;CARD;1S;3", b"0001;CARD;QH", b"0001;CARD;QH;-1", b"0001;CARD;QH;1;2", b"0001;BOGUS",
     b"0001;STATUS;SLEEPY;1;S1", b"0001;SHOE;S2;0", b"0001;ACK;2A", b"0001;HELLO;;1.0;SN", b"01;PING",
     b"0001;NOREAD;1234567", b"0001;CARD;QH;\xff"],
)
def test_shape_errors_even_with_good_crc(body):
    with pytest.raises(CodecError) as err:
        decode_frame(_with_crc(body))
    assert err.value.seq == (1 if body.startswith(b"0001") else None)


def test_encoder_refuses_what_the_decoder_refuses():
    for bad in (Card("XX", 1), Hello("a;b", "1", "2"), NewShoe("S", 0), Status("READY", -1, "S")):
        with pytest.raises(ValueError):
            encode(1, bad)
    with pytest.raises(ValueError):
        encode(0x10000, Ping())
    with pytest.raises(ValueError):
        encode(1, Fault(1, "X" * 120))  # over 128 bytes


def test_decoder_resyncs_on_garbage_truncation_and_overlong():
    good = encode(0x2A, Card("QH", 17))
    d = Decoder("shoe")
    out = d.feed(b"\x00\xffnoise" + good[:10] + good + b"#" + b"A" * 200 + good)
    frames = [x for x in out if isinstance(x, Frame)]
    errors = [x for x in out if isinstance(x, FrameError)]
    assert frames == [Frame(0x2A, Card("QH", 17))] * 2
    assert [e.reason for e in errors] == ["truncated frame", "frame too long"]
    assert errors[0].seq == 0x2A and errors[1].seq is None
    assert d.frames == 2 and d.errors == 2 and d.skipped > 0


def test_decoder_reassembles_byte_by_byte():
    stream = b"".join(raw for raw, _ in GOLDEN[:2])
    d = Decoder("shoe")
    out = [x for b in stream for x in d.feed(bytes([b]))]
    assert out == [GOLDEN[0][1], GOLDEN[1][1]]


def test_seq_wraps():
    assert codec.next_seq(0xFFFF) == 0


# ------------------------------------------------------------------ fuzzing

messages = st.one_of(
    st.builds(Card, st.sampled_from([r + s for r in "23456789TJQKA" for s in "SHDC"]), st.integers(0, 999999)),
    st.builds(NoRead, st.integers(0, 999999)),
    st.builds(Cut, st.integers(0, 999999)),
    st.builds(
        Status, st.sampled_from(sorted(codec.SHOE_STATES)), st.integers(0, 9999), st.text("ABCXYZ019-", min_size=1, max_size=8)
    ),
    st.builds(Fault, st.integers(0, 999), st.text("ABCDEFGHIJ _", min_size=1, max_size=20)),
    st.builds(Ack, st.integers(0, 0xFFFF)),
    st.builds(Nak, st.integers(0, 0xFFFF)),
    st.builds(NewShoe, st.text("ABC123-", min_size=1, max_size=8), st.integers(1, 8)),
    st.sampled_from([Lock(), Unlock(), Ping(), Reset(), Hello("CS-1", "1.0", "SN42")]),
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise_untyped(data):
    try:
        frame = decode_frame(data)
    except CodecError:
        pass
    else:  # only a real frame: its CRC matches its body
        body = data[1 : data.rfind(b"*")]
        assert int(data[-6:-2], 16) == crc16(body)
        assert encode(frame.seq, frame.msg) == data
    d = Decoder()
    for item in d.feed(data):
        assert isinstance(item, (Frame, FrameError))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xFFFF), messages)
def test_round_trip(seq, msg):
    assert decode_frame(encode(seq, msg)) == Frame(seq, msg)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 0xFFFF), messages, st.data())
def test_mutated_frames_yield_only_frames_whose_crc_matches(seq, msg, data):
    raw = bytearray(encode(seq, msg))
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["flip", "drop", "dup", "insert"]))
        i = data.draw(st.integers(0, len(raw) - 1))
        if op == "flip":
            raw[i] ^= 1 << data.draw(st.integers(0, 7))
        elif op == "drop" and len(raw) > 1:
            del raw[i]
        elif op == "dup":
            raw.insert(i, raw[i])
        else:
            raw.insert(i, data.draw(st.integers(0, 255)))
    prefix = data.draw(st.binary(max_size=8))
    d = Decoder()
    for item in d.feed(prefix + bytes(raw)) + d.feed(b"#"):
        assert isinstance(item, (Frame, FrameError))
        if isinstance(item, Frame):
            again = encode(item.seq, item.msg)
            body = again[1:-7]
            assert int(again[-6:-2], 16) == crc16(body)
            assert again in prefix + bytes(raw)  # the frame decoded is bytes that were really on the line


def test_every_codec_reports_errors_one_way() -> None:
    """Issue 16: the shoe's, the wheel's and the spots' codec errors are one ``CodecError`` with
    a ``reason``, a ``detail`` and the ``raw`` input; a decoder that must not raise hands the same
    error back as a value."""
    from drivers.errors import CodecError
    from drivers.spots import codec as spots_codec
    from drivers.wheel import codec as wheel_codec

    shoe_error = Decoder("shoe").feed(b"#0001;CARD;QH;17*0000\r\n")[0]
    assert isinstance(shoe_error, CodecError) and shoe_error.reason and shoe_error.raw.startswith(b"#0001")
    unknown = wheel_codec.parse_line(b"*Q nonsense")
    assert isinstance(unknown, wheel_codec.Unknown)
    assert isinstance(unknown.error(), CodecError) and unknown.error().raw == "*Q nonsense"
    with pytest.raises(CodecError) as wheel_raised:
        wheel_codec.SetMode(70000).line()
    assert wheel_raised.value.reason == "bad_mode" and "70000" in wheel_raised.value.detail
    with pytest.raises(CodecError) as spots_raised:
        spots_codec.decode_press(b"{nope")
    assert spots_raised.value.reason == "malformed_json" and spots_raised.value.detail
