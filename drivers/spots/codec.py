"""Bet-spot wire format (docs/protocols.md, "Bet spots"): topics and JSON payloads, pure and fuzzable.

Every decode raises ``SpotCodecError`` (a ``drivers.errors.CodecError``) with a stable ``reason``
code, never anything else."""

from __future__ import annotations

import json
import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, StrictInt, ValidationError, model_validator

from drivers.errors import CodecError, DeviceAddressError

BUTTONS = ["bet", "clear", "hit", "stand", "double", "split", "surrender", "insurance", "even_money", "higher",
           "lower", "play", "fold", "raise", "exchange"]
Button = Literal[
    "bet", "clear", "hit", "stand", "double", "split", "surrender", "insurance", "even_money",
    "higher", "lower", "play", "fold", "raise", "exchange",
]
SIDE_KINDS = frozenset({"main", "perfect_pairs", "21+3", "ace_plus", "insurance", "bonus", "behind",
                        "suit_em_up", "lucky_lucky", "hot_3", "bust_it", "crazy_7"})
# Roulette bets as "<name>", "<name>:<pockets>" or "<name>:<pocket>:<n>", e.g. "red", "straight:17",
# "six_line:31-32-33-34-35-36", "voisins", "neighbours:17:2". Which names and pockets are legal is
# the roulette engine's call (controller/games/roulette/bets.py); the codec only bounds the shape.
_POCKET = r"(?:00|[0-9]|[12][0-9]|3[0-6])"
ROULETTE_KIND = re.compile(rf"[a-z][a-z_]{{0,23}}(?::{_POCKET}(?:-{_POCKET}){{0,5}}(?::[1-9])?)?")
DEVICE_ID = re.compile(r"spot-([1-9][0-9]{0,2})")
#: anchored: pydantic's ``pattern`` searches, so an unanchored one takes ``spot-3x`` for spot 3
DEVICE_PATTERN = rf"^{DEVICE_ID.pattern}$"
MAX_SEQ = 2**53  # JSON numbers beyond this lose precision in other languages' parsers
MAX_AMOUNT = 10**12
MAX_PAYLOAD = 512  # bytes; a press is ~80
LAMP_MODES = ("off", "open", "turn", "win", "lose", "push")
LampMode = Literal["off", "open", "turn", "win", "lose", "push"]


class SpotCodecError(CodecError):
    """One spot message that does not decode; ``reason`` is a stable code (a ``ValueError`` too)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(reason, detail)


class PressPayload(BaseModel):
    """``{"v":1,"device":"spot-3","seq":118,"button":"hit"}``; bets add ``amount`` and maybe ``kind``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    v: Annotated[int, Strict(), Field(ge=1, le=1)]  # version 1; a Literal[1] would take true
    device: Annotated[str, Field(pattern=DEVICE_PATTERN, max_length=12)]
    seq: Annotated[StrictInt, Field(ge=1, le=MAX_SEQ)]
    button: Button
    amount: Annotated[StrictInt, Field(gt=0, le=MAX_AMOUNT)] | None = None
    kind: Annotated[str, Field(max_length=40)] | None = None

    @model_validator(mode="after")
    def _bet_fields(self) -> PressPayload:
        if self.button == "bet":
            if self.amount is None:
                raise ValueError("a bet press carries amount")
            if self.kind is not None and self.kind not in SIDE_KINDS and not ROULETTE_KIND.fullmatch(self.kind):
                raise ValueError(f"unknown bet kind {self.kind!r}")
        elif self.amount is not None or self.kind is not None:
            raise ValueError(f"amount and kind belong to bet presses, not {self.button!r}")
        return self

    @property
    def device_spot(self) -> int:
        match = DEVICE_ID.fullmatch(self.device)
        if match is None:  # the field pattern rules it out; never an assertion on the wire's word
            raise SpotCodecError("invalid_payload", f"device {self.device[:20]!r} is no spot")
        return int(match.group(1))


class LampPayload(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    v: Literal[1] = 1
    mode: LampMode
    text: Annotated[str, Field(max_length=64)] = ""


def topic_root(table: str) -> str:
    if not table or any(c in table for c in "/+#\0"):
        raise DeviceAddressError(f"table id {table!r} cannot be an MQTT topic level")
    return f"croupier/{table}"


def spot_topic(table: str, spot: int, leaf: str) -> str:
    return f"{topic_root(table)}/spot/{spot}/{leaf}"


def spot_filter(table: str, leaf: str) -> str:
    """The subscription for one leaf of every spot at the table."""
    return f"{topic_root(table)}/spot/+/{leaf}"


def parse_topic(table: str, topic: str) -> tuple[int, str]:
    """``croupier/<table>/spot/<n>/<leaf>`` -> (n, leaf)."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != "croupier" or parts[1] != table or parts[2] != "spot":
        raise SpotCodecError("bad_topic", topic[:200])
    number, leaf = parts[3], parts[4]
    if not number.isdigit() or not 1 <= len(number) <= 3 or number.startswith("0"):
        raise SpotCodecError("bad_topic", f"spot number {number[:20]!r}")
    return int(number), leaf


def decode_press(payload: bytes) -> PressPayload:
    if len(payload) > MAX_PAYLOAD:
        raise SpotCodecError("oversize", f"{len(payload)} bytes")
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise SpotCodecError("malformed_json", str(exc)[:200]) from None
    if not isinstance(data, dict):
        raise SpotCodecError("invalid_payload", f"expected a JSON object, got {type(data).__name__}")
    try:
        return PressPayload.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "payload"
        raise SpotCodecError("invalid_payload", f"{where}: {first['msg']}"[:200]) from None


def decode_online(payload: bytes) -> bool:
    """``1`` or ``0``; an empty payload is a cleared retained flag, read as offline."""
    text = payload.strip()
    if text in (b"1", b"0", b""):
        return text == b"1"
    raise SpotCodecError("invalid_online", repr(payload[:40]))


def encode_lamp(mode: LampMode, text: str = "") -> bytes:
    """Compact JSON, the field order of docs/protocols.md; ``SpotCodecError`` (``invalid_lamp``)
    on a bad mode or text."""
    try:
        lamp = LampPayload(mode=mode, text=text)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise SpotCodecError("invalid_lamp", f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"[:200]) from None
    return json.dumps(lamp.model_dump(), separators=(",", ":"), ensure_ascii=False).encode()
