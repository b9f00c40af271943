"""Cammegh SS2 wire codec: lines <-> typed messages, pure and total.

Parsing never raises: whatever arrives from the wheel becomes a typed message, and anything the
protocol does not define (fragments on a noisy line, undocumented replies) becomes ``Unknown``,
to be logged and ignored. ``CodecError`` is raised only when the host asks to *encode* something
the protocol cannot express (a mode out of range, a malformed setting key).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from drivers import errors

MAX_LINE = 64
"""The longest wheel line is a banner; anything longer without a line end is garbage."""

NUMBERS: frozenset[str] = frozenset([str(n) for n in range(37)] + ["00"])
"""Valid winning numbers as the driver reports them: "0".."36" and "00" (38-pocket wheels)."""


class CodecError(errors.CodecError):
    """A host command that the protocol cannot express."""


# ---------------------------------------------------------------------------------------------
# wheel -> host


@dataclass(frozen=True, slots=True)
class Status:
    """``*X;state;spin;win;flags;speed;dir`` (state 1..6, win None before the first result)."""

    state: int
    spin: int
    win: str | None
    flags: int
    speed: int
    direction: int

    BALL_NOT_SENSED = 1
    WRONG_WAY = 2
    FAULT = 4
    LAUNCH_FAILED = 8

    @property
    def rpm(self) -> float:
        return self.speed / 10

    def line(self) -> str:
        return f"*X;{self.state};{self.spin:03d};{_pad(self.win)};{self.flags:X};{self.speed:03d};{self.direction}"


@dataclass(frozen=True, slots=True)
class WinningNumber:
    """The bare two-character line sent just before the state-5 status."""

    number: str

    def line(self) -> str:
        return _pad(self.number)


@dataclass(frozen=True, slots=True)
class PowerReply:
    ok: bool

    def line(self) -> str:
        return "*P OK" if self.ok else "*P NO"


@dataclass(frozen=True, slots=True)
class StartAck:
    def line(self) -> str:
        return "*u OK"


@dataclass(frozen=True, slots=True)
class RestartAck:
    def line(self) -> str:
        return "*R OK"


@dataclass(frozen=True, slots=True)
class Version:
    version: str

    def line(self) -> str:
        return f"*S {self.version}"


@dataclass(frozen=True, slots=True)
class Banner:
    text: str

    def line(self) -> str:
        return f"*V {self.text}"


@dataclass(frozen=True, slots=True)
class ModeReply:
    """``*o <mode>`` (echo or query answer) or ``*o BUSY`` (mode is None) during a game."""

    mode: int | None

    @property
    def busy(self) -> bool:
        return self.mode is None

    def line(self) -> str:
        return "*o BUSY" if self.mode is None else f"*o {self.mode}"


@dataclass(frozen=True, slots=True)
class Operating:
    """``*O <state> <protocol on> <games/hour> <mode>``."""

    state: int
    protocol_on: bool
    games_per_hour: int
    mode: int

    def line(self) -> str:
        return f"*O {self.state} {int(self.protocol_on)} {self.games_per_hour} {self.mode}"


@dataclass(frozen=True, slots=True)
class SelfTest:
    """``*F 0`` pass, ``*F <code>`` one fault, ``*F BUSY`` (code None) not idle."""

    code: int | None

    @property
    def busy(self) -> bool:
        return self.code is None

    def line(self) -> str:
        return "*F BUSY" if self.code is None else f"*F {self.code}"


@dataclass(frozen=True, slots=True)
class WheelClock:
    """``*d g HH:MM:SS - DD/MM/YY``."""

    at: datetime

    def line(self) -> str:
        return "*d g " + self.at.strftime("%H:%M:%S - %d/%m/%y")


@dataclass(frozen=True, slots=True)
class Setting:
    """``*T <key> <value...>``: a setting read back (``*T z 37``, ``*T s 16.0 18.0``)."""

    key: str
    values: tuple[str, ...]

    def line(self) -> str:
        return " ".join(("*T", self.key, *self.values))


@dataclass(frozen=True, slots=True)
class SettingAck:
    """``*T OK``: a setting was written."""

    def line(self) -> str:
        return "*T OK"


@dataclass(frozen=True, slots=True)
class Unknown:
    """A line the protocol does not define: logged and ignored, never fatal."""

    raw: str
    reason: str = "unrecognised"

    def line(self) -> str:
        return self.raw

    def error(self) -> CodecError:
        """The line as the codecs' one error (``drivers.errors.CodecError``), for counting alike."""
        return CodecError(self.reason, raw=self.raw)


Reply = (
    Status | WinningNumber | PowerReply | StartAck | RestartAck | Version | Banner | ModeReply | Operating
    | SelfTest | WheelClock | Setting | SettingAck
)
WheelMessage = Reply | Unknown

SETTING_KEYS = frozenset("dhmnrstz")
"""Setting letters this driver reads back: d, h, z from the guide; m, n, r, s, t as the studio
wheel answers them. ``*T g`` is undocumented (``docs/protocols.md``, SS2), so its answer stays ``Unknown``."""

_STATUS = re.compile(r"\*X;([1-6]);(\d{3});( [0-9]|[0-9]{2}|  );([0-9A-Fa-f]);(\d{3});([01])")
_WIN = re.compile(r"( [0-9]|[1-3][0-9]|00)")
_CLOCK = re.compile(r"\*d g (\d\d:\d\d:\d\d - \d\d/\d\d/\d\d)")
_TOKEN = re.compile(r"[!-~]+")


def _pad(number: str | None) -> str:
    return "  " if number is None else number.rjust(2)


def _number(two: str) -> str | None:
    """A 2-char win field to the reported form; None for "  "; raises ValueError when invalid."""
    if two == "  ":
        return None
    if not _WIN.fullmatch(two):
        raise ValueError(two)
    number = two.strip()
    if number not in NUMBERS:
        raise ValueError(two)
    return number


def _text(raw: bytes | str) -> str | None:
    if isinstance(raw, str):
        text = raw
    else:
        try:
            text = raw.decode("ascii")
        except UnicodeDecodeError:
            return None
    text = text.rstrip("\r\n")
    if len(text) > MAX_LINE or not text.isprintable():
        return None
    return text


def parse_line(raw: bytes | str) -> WheelMessage:
    """One wheel line (line end optional) to a typed message; total: never raises."""
    text = _text(raw)
    if text is None:
        shown = raw if isinstance(raw, str) else raw.decode("latin-1")
        return Unknown(shown[:MAX_LINE].encode("unicode_escape").decode("ascii"), "not printable ascii")
    try:
        return _parse(text)
    except ValueError:
        return Unknown(text, "malformed")


def _parse(text: str) -> WheelMessage:
    if not text.startswith("*"):
        number = _number(text) if len(text) == 2 else None
        return WinningNumber(number) if number is not None else Unknown(text)
    if m := _STATUS.fullmatch(text):
        return _status(text, m)
    if text[2:3] not in ("", " "):
        return Unknown(text)
    fixed = _FIXED.get(text)
    if fixed is not None:
        return fixed
    if m := _CLOCK.fullmatch(text):
        return WheelClock(datetime.strptime(m.group(1), "%H:%M:%S - %d/%m/%y"))
    by_head = _BY_HEAD.get(text[:2])
    reply = by_head(text[3:]) if by_head is not None else None
    return Unknown(text) if reply is None else reply


def _status(text: str, m: re.Match[str]) -> WheelMessage:
    state, spin, win, flags, speed, direction = m.groups()
    if int(spin) > 256:
        return Unknown(text, "spin out of range")
    return Status(int(state), int(spin), _number(win), int(flags, 16), int(speed), int(direction))


def _operating(rest: str) -> Operating | None:
    parts = rest.split(" ")
    if len(parts) == 4 and all(p.isdigit() for p in parts) and parts[0] in tuple("123456") and parts[1] in ("0", "1"):
        return Operating(int(parts[0]), parts[1] == "1", int(parts[2]), int(parts[3]))
    return None


def _setting(rest: str) -> Setting | None:
    parts = rest.split(" ")
    if len(parts) >= 2 and parts[0] in SETTING_KEYS and all(_TOKEN.fullmatch(p) for p in parts[1:]):
        return Setting(parts[0], tuple(parts[1:]))
    return None


def _digits(rest: str, most: int) -> int | None:
    return int(rest) if rest.isdigit() and len(rest) <= most else None


def _mode(rest: str) -> ModeReply | None:
    mode = _digits(rest, 5)
    return None if mode is None else ModeReply(mode)


def _self_test(rest: str) -> SelfTest | None:
    result = _digits(rest, 3)
    return None if result is None else SelfTest(result)


#: the reply a line's two-character head announces, read from the rest after its space (None: malformed)
_BY_HEAD: dict[str, Callable[[str], Reply | None]] = {
    "*S": lambda rest: Version(rest) if rest.strip() else None,
    "*V": lambda rest: Banner(rest) if rest.strip() else None,
    "*o": _mode,
    "*F": _self_test,
    "*O": _operating,
    "*T": _setting,
}


_FIXED: dict[str, Reply] = {
    "*P OK": PowerReply(True),
    "*P NO": PowerReply(False),
    "*u OK": StartAck(),
    "*R OK": RestartAck(),
    "*o BUSY": ModeReply(None),
    "*F BUSY": SelfTest(None),
    "*T OK": SettingAck(),
}


# ---------------------------------------------------------------------------------------------
# host -> wheel


@dataclass(frozen=True, slots=True)
class Power:
    on: bool

    def line(self) -> str:
        return "*P 1" if self.on else "*P 0"


@dataclass(frozen=True, slots=True)
class StartGame:
    def line(self) -> str:
        return "*u 1"


@dataclass(frozen=True, slots=True)
class Restart:
    def line(self) -> str:
        return "*R"


@dataclass(frozen=True, slots=True)
class Poll:
    def line(self) -> str:
        return "*X"


@dataclass(frozen=True, slots=True)
class GetVersion:
    def line(self) -> str:
        return "*S"


@dataclass(frozen=True, slots=True)
class GetBanner:
    def line(self) -> str:
        return "*V"


@dataclass(frozen=True, slots=True)
class SetMode:
    """``*o <mode>``; mode None is the bare ``*o`` query."""

    mode: int | None = None

    def line(self) -> str:
        if self.mode is None:
            return "*o"
        if not 0 <= self.mode <= 0xFFFF:
            raise CodecError("bad_mode", f"operating mode {self.mode} out of range 0..65535")
        return f"*o {self.mode}"


@dataclass(frozen=True, slots=True)
class GetOperating:
    def line(self) -> str:
        return "*O"


@dataclass(frozen=True, slots=True)
class RunSelfTest:
    def line(self) -> str:
        return "*F"


@dataclass(frozen=True, slots=True)
class GetClock:
    def line(self) -> str:
        return "*d g"


@dataclass(frozen=True, slots=True)
class SetSetting:
    """``*T <key> <value>`` writes (``*T z 37``); value None is the read-back ``*T <KEY>``."""

    key: str
    value: str | None = None

    def line(self) -> str:
        if len(self.key) != 1 or not self.key.isalpha():
            raise CodecError("bad_setting", f"setting key must be one letter, got {self.key!r}")
        if self.value is None:
            return f"*T {self.key.upper()}"
        if self.value == "":
            return f"*T {self.key.lower()}"
        if not all(_TOKEN.fullmatch(p) for p in self.value.split(" ")):
            raise CodecError("bad_setting", f"setting value must be printable ascii words, got {self.value!r}")
        return f"*T {self.key.lower()} {self.value}"


Command = (
    Power | StartGame | Restart | Poll | GetVersion | GetBanner | SetMode | GetOperating | RunSelfTest | GetClock
    | SetSetting
)

_COMMANDS: dict[str, Command] = {
    "*P 1": Power(True),
    "*P 0": Power(False),
    "*u 1": StartGame(),
    "*R": Restart(),
    "*X": Poll(),
    "*S": GetVersion(),
    "*V": GetBanner(),
    "*o": SetMode(None),
    "*O": GetOperating(),
    "*F": RunSelfTest(),
    "*d g": GetClock(),
}


def parse_command(raw: bytes | str) -> Command | Unknown:
    """One host line to a typed command (the simulator's and the trace replay's side); total."""
    text = _text(raw)
    if text is None:
        return Unknown(repr(raw)[:MAX_LINE], "not printable ascii")
    text = text.strip(" ")
    if (fixed := _COMMANDS.get(text)) is not None:
        return fixed
    readers: tuple[Callable[[str], Command | None], ...] = (_set_mode, _set_setting)
    for read in readers:
        if (command := read(text)) is not None:
            return command
    return Unknown(text)


def _set_mode(text: str) -> SetMode | None:
    """``*o <mode>``, a mode of at most 0xFFFF."""
    if text.startswith("*o ") and text[3:].isdigit() and int(text[3:]) <= 0xFFFF:
        return SetMode(int(text[3:]))
    return None


def _set_setting(text: str) -> SetSetting | None:
    """``*T K`` (upper case: read setting ``k``) or ``*T k value`` (lower case: set it)."""
    if not (text.startswith("*T ") and len(text) >= 4 and text[3].isalpha() and text[4:5] in ("", " ")):
        return None
    key, value = text[3], text[5:]
    if key.isupper() and not value:
        return SetSetting(key.lower())
    if key.islower():
        return SetSetting(key, value)
    return None


def encode(message: Command | Reply) -> bytes:
    """A message as wire bytes with CRLF (host commands, and the simulator's replies)."""
    return message.line().encode("ascii") + b"\r\n"


# ---------------------------------------------------------------------------------------------
# bytes -> lines


@dataclass
class LineFramer:
    """Splits a byte stream at CR, LF or CRLF; empty lines vanish, runaway garbage is cut off.

    An over-long run without a line end comes out as one line (which then parses as ``Unknown``),
    so a line of noise can never grow the buffer without bound.
    """

    limit: int = MAX_LINE
    _buf: bytearray = field(default_factory=bytearray)

    def feed(self, data: bytes) -> list[bytes]:
        lines: list[bytes] = []
        for byte in data:
            if byte in (0x0D, 0x0A):
                if self._buf:
                    lines.append(bytes(self._buf))
                    self._buf.clear()
            else:
                self._buf.append(byte)
                if len(self._buf) > self.limit:
                    lines.append(bytes(self._buf))
                    self._buf.clear()
        return lines

    def reset(self) -> None:
        self._buf.clear()
