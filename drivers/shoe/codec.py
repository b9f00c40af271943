"""CSP/1 codec: bytes <-> typed messages, pure and fuzzable (``docs/protocols.md``, CSP/1).

Frame: ``#<seq>;<TYPE>[;<field>...]*<crc>\\r\\n``, ASCII, at most 128 bytes, seq 4 upper-case hex,
crc CRC-16/CCITT-FALSE over the bytes between ``#`` and ``*``. The same codec serves the driver,
both transports and the simulator; the golden vectors in the tests pin the wire bytes so a bug
shared by both ends still fails.

Nothing here raises on input bytes except ``CodecError`` (from ``decode_frame``); the incremental
``Decoder`` never raises, it returns ``Frame`` values or the same ``CodecError`` as a value
(``FrameError``), the convention of every codec (``drivers.errors.CodecError``).
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from drivers import errors

MAX_FRAME: Final = 128
SEQ_MOD: Final = 0x10000
SHOE_STATES: Final = frozenset({"READY", "LOCKED", "EMPTY", "FAULT"})
_RANKS: Final = "23456789TJQKA"
_SUITS: Final = "SHDC"
_HEX4 = re.compile(rb"[0-9A-F]{4}")
_DIGITS = re.compile(r"[0-9]{1,6}")
# A field: printable ASCII without the frame's own delimiters.
_FIELD = re.compile(r"[\x20-\x7e]+")
_FORBIDDEN = frozenset(";*#")


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), from the standard library."""
    return binascii.crc_hqx(data, 0xFFFF)


# --------------------------------------------------------------------------- messages
# Shoe -> host


@dataclass(frozen=True, slots=True)
class Hello:
    model: str
    firmware: str
    serial: str
    TYPE: Literal["HELLO"] = "HELLO"


@dataclass(frozen=True, slots=True)
class Card:
    card: str
    n: int
    TYPE: Literal["CARD"] = "CARD"


@dataclass(frozen=True, slots=True)
class NoRead:
    n: int
    TYPE: Literal["NOREAD"] = "NOREAD"


@dataclass(frozen=True, slots=True)
class Cut:
    n: int
    TYPE: Literal["CUT"] = "CUT"


@dataclass(frozen=True, slots=True)
class Status:
    state: str
    n: int
    shoe_id: str
    TYPE: Literal["STATUS"] = "STATUS"


@dataclass(frozen=True, slots=True)
class Fault:
    code: int
    text: str
    TYPE: Literal["FAULT"] = "FAULT"


# Both directions


@dataclass(frozen=True, slots=True)
class Ack:
    seq: int
    TYPE: Literal["ACK"] = "ACK"


@dataclass(frozen=True, slots=True)
class Nak:
    seq: int
    TYPE: Literal["NAK"] = "NAK"


# Host -> shoe


@dataclass(frozen=True, slots=True)
class Lock:
    TYPE: Literal["LOCK"] = "LOCK"


@dataclass(frozen=True, slots=True)
class Unlock:
    TYPE: Literal["UNLOCK"] = "UNLOCK"


@dataclass(frozen=True, slots=True)
class NewShoe:
    shoe_id: str
    decks: int
    TYPE: Literal["SHOE"] = "SHOE"


@dataclass(frozen=True, slots=True)
class Ping:
    TYPE: Literal["PING"] = "PING"


@dataclass(frozen=True, slots=True)
class Reset:
    TYPE: Literal["RESET"] = "RESET"


ShoeMessage = Hello | Card | NoRead | Cut | Status | Fault | Ack | Nak
HostMessage = Ack | Nak | Lock | Unlock | NewShoe | Ping | Reset
Message = ShoeMessage | HostMessage

#: Frame types each sender may send; a receiver refuses the other side's types as bad shape.
SHOE_TYPES: Final = frozenset({"HELLO", "CARD", "NOREAD", "CUT", "STATUS", "FAULT", "ACK", "NAK"})
HOST_TYPES: Final = frozenset({"ACK", "NAK", "LOCK", "UNLOCK", "SHOE", "PING", "RESET"})
#: Frames the shoe keeps until acknowledged and resends (``docs/protocols.md``, CSP/1 "Reliability").
RELIABLE_TYPES: Final = frozenset({"CARD", "NOREAD", "CUT"})
Direction = Literal["shoe", "host"]  # who *sent* the frames being decoded


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    msg: Message

    @property
    def type(self) -> str:
        return self.msg.TYPE


class CodecError(errors.CodecError):
    """Bytes that are not a valid CSP/1 frame; ``seq`` is set when it could still be read."""

    raw: bytes

    def __init__(self, reason: str, seq: int | None = None, raw: bytes = b"") -> None:
        super().__init__(reason, raw=raw)
        self.seq = seq

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, CodecError) and (self.reason, self.seq, self.raw)
                == (other.reason, other.seq, other.raw))

    def __hash__(self) -> int:
        return hash((self.reason, self.seq, self.raw))


#: a dropped frame as the ``Decoder`` hands it back (so the session can count it and NAK it)
FrameError = CodecError


# --------------------------------------------------------------------------- fields


def is_card(text: str) -> bool:
    """Wire card notation: rank of ``23456789TJQKA`` + suit of ``SHDC`` (kept local: drivers
    import nothing from the controller)."""
    return len(text) == 2 and text[0] in _RANKS and text[1] in _SUITS


def _n(text: str) -> int:
    if not _DIGITS.fullmatch(text):
        raise CodecError(f"not a count: {text!r}")
    return int(text)


def _seq_field(text: str) -> int:
    if not _HEX4.fullmatch(text.encode("ascii")):
        raise CodecError(f"not a seq: {text!r}")
    return int(text, 16)


def _word(text: str) -> str:
    if not _FIELD.fullmatch(text) or _FORBIDDEN & set(text):
        raise CodecError(f"bad field: {text!r}")
    return text


def _card(f: list[str]) -> Card:
    if not is_card(f[0]):
        raise CodecError(f"not a card: {f[0]!r}")
    return Card(f[0], _n(f[1]))


def _status(f: list[str]) -> Status:
    if f[0] not in SHOE_STATES:
        raise CodecError(f"unknown shoe state {f[0]!r}")
    return Status(f[0], _n(f[1]), _word(f[2]))


def _new_shoe(f: list[str]) -> NewShoe:
    decks = _n(f[1])
    if not 1 <= decks <= 99:
        raise CodecError(f"decks out of range: {decks}")
    return NewShoe(_word(f[0]), decks)


#: every type: how many fields it takes, and how its message is read from them (checked)
_READERS: dict[str, tuple[int, Callable[[list[str]], Message]]] = {
    "HELLO": (3, lambda f: Hello(_word(f[0]), _word(f[1]), _word(f[2]))),
    "CARD": (2, _card),
    "NOREAD": (1, lambda f: NoRead(_n(f[0]))),
    "CUT": (1, lambda f: Cut(_n(f[0]))),
    "STATUS": (3, _status),
    "FAULT": (2, lambda f: Fault(_n(f[0]), _word(f[1]))),
    "ACK": (1, lambda f: Ack(_seq_field(f[0]))),
    "NAK": (1, lambda f: Nak(_seq_field(f[0]))),
    "LOCK": (0, lambda f: Lock()),
    "UNLOCK": (0, lambda f: Unlock()),
    "SHOE": (2, _new_shoe),
    "PING": (0, lambda f: Ping()),
    "RESET": (0, lambda f: Reset()),
}


def _parse_message(kind: str, f: list[str]) -> Message:
    if kind not in _READERS:
        raise CodecError(f"unknown type {kind!r}")
    arity, read = _READERS[kind]
    if len(f) != arity:
        raise CodecError(f"{kind} takes {arity} fields, got {len(f)}")
    return read(f)


def _fields(msg: Message) -> list[str]:
    if isinstance(msg, Card):
        return [msg.card, str(msg.n)]
    if isinstance(msg, (NoRead, Cut)):
        return [str(msg.n)]
    if isinstance(msg, Status):
        return [msg.state, str(msg.n), msg.shoe_id]
    if isinstance(msg, Fault):
        return [str(msg.code), msg.text]
    if isinstance(msg, Hello):
        return [msg.model, msg.firmware, msg.serial]
    if isinstance(msg, (Ack, Nak)):
        return [f"{msg.seq:04X}"]
    if isinstance(msg, NewShoe):
        return [msg.shoe_id, str(msg.decks)]
    return []


# --------------------------------------------------------------------------- encode / decode


def encode(seq: int, msg: Message) -> bytes:
    """One frame on the wire; ValueError if the message cannot be a valid frame."""
    if not 0 <= seq < SEQ_MOD:
        raise ValueError(f"seq out of range: {seq}")
    body = ";".join([f"{seq:04X}", msg.TYPE, *_fields(msg)]).encode("ascii")
    raw = b"#" + body + b"*" + f"{crc16(body):04X}".encode("ascii") + b"\r\n"
    if len(raw) > MAX_FRAME:
        raise ValueError(f"frame of {len(raw)} bytes exceeds {MAX_FRAME}")
    try:  # the encoder refuses what the decoder would refuse: one definition of valid
        if decode_frame(raw) != Frame(seq, msg):
            raise ValueError(f"message does not round-trip: {msg!r}")
    except CodecError as exc:
        raise ValueError(f"invalid message {msg!r}: {exc.reason}") from None
    return raw


def _readable_seq(raw: bytes) -> int | None:
    """The seq of a damaged frame when its first field still looks like one (for a NAK)."""
    if len(raw) >= 6 and raw[0:1] == b"#" and _HEX4.fullmatch(raw[1:5]) and raw[5:6] in (b";", b"*"):
        return int(raw[1:5], 16)
    return None


def decode_frame(raw: bytes, direction: Direction | None = None) -> Frame:
    """Exactly one frame ``#...*XXXX\\r\\n``; CodecError (with seq when readable) otherwise.

    ``direction`` restricts the types to those its sender may send."""
    seq = _readable_seq(raw)
    parts = _body(raw, seq).split(";")
    if len(parts) < 2 or seq is None:
        raise CodecError("no seq;TYPE", seq, raw)
    try:
        msg = _parse_message(parts[1], parts[2:])
    except CodecError as exc:
        raise CodecError(exc.reason, seq, raw) from None
    if direction is not None and msg.TYPE not in (SHOE_TYPES if direction == "shoe" else HOST_TYPES):
        raise CodecError(f"{msg.TYPE} is not sent by the {direction}", seq, raw)
    return Frame(seq, msg)


def _body(raw: bytes, seq: int | None) -> str:
    """The text between ``#`` and ``*`` of a whole frame whose CRC matches; CodecError otherwise."""
    if len(raw) > MAX_FRAME:
        raise CodecError("frame too long", seq, raw)
    if not raw.startswith(b"#") or not raw.endswith(b"\r\n"):
        raise CodecError("frame not delimited by # and CRLF", seq, raw)
    star = raw.rfind(b"*")
    if star < 0 or star != len(raw) - 7:
        raise CodecError("no *crc before CRLF", seq, raw)
    body, crc_text = raw[1:star], raw[star + 1 : star + 5]
    if not _HEX4.fullmatch(crc_text):
        raise CodecError("crc not 4 upper-case hex digits", seq, raw)
    if int(crc_text, 16) != crc16(body):
        raise CodecError("bad crc", seq, raw)
    try:
        return body.decode("ascii")
    except UnicodeDecodeError:
        raise CodecError("not ASCII", seq, raw) from None


class Decoder:
    """Incremental decoder: ``feed(bytes)`` returns the frames and errors completed so far.

    Skips bytes until ``#``; a frame is cut at CRLF, at a new ``#`` (truncation) or at 128 bytes.
    Counts what it drops so the session can report line quality.
    """

    def __init__(self, direction: Direction | None = None) -> None:
        self.direction = direction
        self._buf = bytearray()
        self.frames = 0
        self.errors = 0
        self.skipped = 0  # bytes outside any frame

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        out: list[Frame | FrameError] = []
        buf = self._buf
        buf += data
        while buf:
            start = buf.find(b"#")
            if start < 0:
                self.skipped += len(buf)
                buf.clear()
                break
            if start:
                self.skipped += start
                del buf[:start]
            nxt = buf.find(b"#", 1, MAX_FRAME)
            end = buf.find(b"\n", 1, MAX_FRAME)
            if end >= 0 and (nxt < 0 or end < nxt):
                raw = bytes(buf[: end + 1])
                del buf[: end + 1]
                out.append(self._decode(raw))
            elif nxt >= 0:  # a new frame began before this one ended: truncated
                raw = bytes(buf[:nxt])
                del buf[:nxt]
                out.append(self._error("truncated frame", raw))
            elif len(buf) >= MAX_FRAME:
                raw = bytes(buf[:MAX_FRAME])
                del buf[:MAX_FRAME]
                out.append(self._error("frame too long", raw))
            else:
                break  # wait for more bytes
        return out

    def _decode(self, raw: bytes) -> Frame | FrameError:
        try:
            frame = decode_frame(raw, self.direction)
        except CodecError as exc:
            return self._error(exc.reason, raw)
        self.frames += 1
        return frame

    def _error(self, reason: str, raw: bytes) -> FrameError:
        self.errors += 1
        return FrameError(reason, _readable_seq(raw), raw)


def next_seq(seq: int) -> int:
    return (seq + 1) % SEQ_MOD
