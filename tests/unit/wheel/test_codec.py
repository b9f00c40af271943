"""Cammegh SS2 codec: golden wire vectors (typed by hand from PROTOCOLS §1 and the traces, not
produced by the codec), every reply shape, line ends, and fuzzing: parsing is total."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.wheel import codec
from drivers.wheel.codec import (
    Banner,
    CodecError,
    LineFramer,
    ModeReply,
    Operating,
    PowerReply,
    RestartAck,
    SelfTest,
    Setting,
    SettingAck,
    StartAck,
    Status,
    Unknown,
    Version,
    WheelClock,
    WinningNumber,
    encode,
    parse_command,
    parse_line,
)

# (wire bytes, message): both directions must agree with these bytes.
REPLY_VECTORS = [
    (b"*X;5;011;25;0;165;1\r\n", Status(5, 11, "25", 0, 165, 1)),
    (b"*X;2;001;  ;0;174;0\r\n", Status(2, 1, None, 0, 174, 0)),
    (b"*X;5;013; 6;0;177;1\r\n", Status(5, 13, "6", 0, 177, 1)),
    (b"*X;4;001;  ;4;000;0\r\n", Status(4, 1, None, 4, 0, 0)),
    (b"*X;3;256;00;A;141;1\r\n", Status(3, 256, "00", 10, 141, 1)),
    (b"*X;2;158; 0;8;149;1\r\n", Status(2, 158, "0", 8, 149, 1)),
    (b"27\r\n", WinningNumber("27")),
    (b" 6\r\n", WinningNumber("6")),
    (b" 0\r\n", WinningNumber("0")),
    (b"00\r\n", WinningNumber("00")),
    (b"*P OK\r\n", PowerReply(True)),
    (b"*P NO\r\n", PowerReply(False)),
    (b"*u OK\r\n", StartAck()),
    (b"*R OK\r\n", RestartAck()),
    (b"*S V2.50\r\n", Version("V2.50")),
    (b"*V Cammegh SS2\r\n", Banner("Cammegh SS2")),
    (b"*o 1158\r\n", ModeReply(1158)),
    (b"*o BUSY\r\n", ModeReply(None)),
    (b"*O 6 1 60 1158\r\n", Operating(6, True, 60, 1158)),
    (b"*O 2 1 161 1159\r\n", Operating(2, True, 161, 1159)),
    (b"*F 0\r\n", SelfTest(0)),
    (b"*F 21\r\n", SelfTest(21)),
    (b"*F BUSY\r\n", SelfTest(None)),
    (b"*d g 06:19:38 - 10/09/25\r\n", WheelClock(datetime(2025, 9, 10, 6, 19, 38))),
    (b"*T z 37\r\n", Setting("z", ("37",))),
    (b"*T s 16.0 18.0\r\n", Setting("s", ("16.0", "18.0"))),
    (b"*T OK\r\n", SettingAck()),
]

COMMAND_VECTORS = [
    (b"*P 1\r\n", codec.Power(True)),
    (b"*P 0\r\n", codec.Power(False)),
    (b"*u 1\r\n", codec.StartGame()),
    (b"*R\r\n", codec.Restart()),
    (b"*X\r\n", codec.Poll()),
    (b"*S\r\n", codec.GetVersion()),
    (b"*V\r\n", codec.GetBanner()),
    (b"*o 1159\r\n", codec.SetMode(1159)),
    (b"*o\r\n", codec.SetMode(None)),
    (b"*O\r\n", codec.GetOperating()),
    (b"*F\r\n", codec.RunSelfTest()),
    (b"*d g\r\n", codec.GetClock()),
    (b"*T z 37\r\n", codec.SetSetting("z", "37")),
    (b"*T Z\r\n", codec.SetSetting("z")),
    (b"*T h 161\r\n", codec.SetSetting("h", "161")),
]


@pytest.mark.parametrize(("wire", "message"), REPLY_VECTORS)
def test_reply_vectors(wire: bytes, message: codec.Reply) -> None:
    assert parse_line(wire) == message
    assert encode(message) == wire


@pytest.mark.parametrize(("wire", "command"), COMMAND_VECTORS)
def test_command_vectors(wire: bytes, command: codec.Command) -> None:
    assert encode(command) == wire
    assert parse_command(wire) == command


@pytest.mark.parametrize(
    "wire",
    [
        b"*T g 0",  # undocumented setting (PROTOCOLS: logged and ignored)
        b"*",
        b"00;0",  # fragment seen in the studio trace
        b"*  NO",
        b"*) NO",
        b"*X;7;011;25;0;165;1",  # no state 7
        b"*X;5;011;37;0;165;1",  # no pocket 37
        b"*X;5;011;05;0;165;1",  # not right-justified
        b"*X;5;300;25;0;165;1",  # spin wraps after 256
        b"*X;5;011;25;G;165;1",
        b"*X;5;011;25;0;165;2",
        b"*X;5;011;25;0;165;1;9",
        b"*X;5;011;25;0;16",  # truncated
        b"37",
        b"5",
        b"*O 12 1 60 1158",
        b"*d g 25:00:00 - 10/09/25",
        b"\xff\xfe*P OK",
        b"*P\tOK",
        b"",
        b"x" * 200,
    ],
)
def test_noise_is_unknown_not_an_error(wire: bytes) -> None:
    assert isinstance(parse_line(wire), Unknown)


def test_line_ends_cr_lf_crlf_and_split_reads() -> None:
    framer = LineFramer()
    stream = b"*P OK\r*u OK\n*R OK\r\n 5\r\n\r\n*X;5;011; 5;0;165;1\r\n"
    lines: list[bytes] = []
    for i in range(len(stream)):  # byte by byte: CRLF split across reads yields no empty line
        lines += framer.feed(stream[i : i + 1])
    assert lines == [b"*P OK", b"*u OK", b"*R OK", b" 5", b"*X;5;011; 5;0;165;1"]


def test_framer_cuts_runaway_garbage() -> None:
    framer = LineFramer(limit=8)
    assert framer.feed(b"0123456789*P OK\r\n") == [b"012345678", b"9*P OK"]


@pytest.mark.parametrize(
    "command", [codec.SetMode(70000), codec.SetMode(-1), codec.SetSetting("zz", "1"), codec.SetSetting("z", "3\r\n7")]
)
def test_unencodable_commands_raise_codec_error(command: codec.Command) -> None:
    with pytest.raises(CodecError):
        encode(command)


def test_status_flags_and_speed() -> None:
    status = parse_line(b"*X;3;014; 6;A;167;0")
    assert isinstance(status, Status)
    assert status.flags & Status.LAUNCH_FAILED and status.flags & Status.WRONG_WAY
    assert not status.flags & Status.BALL_NOT_SENSED
    assert status.rpm == pytest.approx(16.7)


VALID_LINES = [wire.rstrip(b"\r\n") for wire, _ in REPLY_VECTORS]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=120))
def test_fuzz_random_bytes(data: bytes) -> None:
    for line in LineFramer().feed(data):
        parse_line(line)
        parse_command(line)
    parse_line(data)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VALID_LINES), st.lists(st.tuples(st.integers(0, 40), st.integers(0, 255)), max_size=4), st.integers(0, 40))
def test_fuzz_mutated_valid_lines(line: bytes, edits: list[tuple[int, int]], cut: int) -> None:
    mutated = bytearray(line)
    for position, value in edits:
        if mutated:
            mutated[position % len(mutated)] = value
    result = parse_line(bytes(mutated[: max(cut, 1)]))
    assert isinstance(result, (Unknown, *codec.Reply.__args__))


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6), st.integers(0, 256), st.sampled_from(sorted(codec.NUMBERS) + [None]), st.integers(0, 15),
    st.integers(0, 999), st.integers(0, 1),
)
def test_fuzz_status_round_trip(state: int, spin: int, win: str | None, flags: int, speed: int, direction: int) -> None:
    status = Status(state, spin, win, flags, speed, direction)
    assert parse_line(encode(status)) == status
