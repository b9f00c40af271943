"""The shape of every dealer and console command, checked before anything is journaled.

One strict schema per command (docs/console.md lists them): whole numbers only (``1050.5`` or
``"1000"`` is no amount), money in minor units within ``1..MAX_AMOUNT``, box and hand numbers in
range, card text, bounded strings, no argument the command does not take. Whether the command
is *allowed now* (betting open, the box's turn, the table limits) is still the table core's
call; this module only guarantees that the core never sees a value of the wrong type or size, so
a journaled command can always be replayed (docs/architecture.md, "Validation at the edge").

``checked_command`` turns a payload into its canonical journal form or raises ``InputRefused``
with a stable code and a sentence the dealer can act on. ``check_json`` bounds a raw JSON
document's size and nesting depth before it is parsed (the console's requests, pit commands).
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, StringConstraints, TypeAdapter, ValidationError

from controller.table.inputs import InputRefused

#: the largest amount anybody may stake or be paid in one bet, in minor units (ten billion units)
MAX_AMOUNT = 10**12
MAX_BOX = 99
MAX_HAND = 16
MAX_CHANGES = 64
#: a command's JSON form: bytes and nesting depth (a correction with 64 changes fits in 8 KB)
MAX_COMMAND_BYTES = 8192
MAX_DEPTH = 4
#: printable ASCII without blanks at either end (logs, journals and prompts show it safely)
PRINTABLE = r"^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$"

Money = Annotated[int, Strict(), Field(gt=0, le=MAX_AMOUNT)]
Payout = Annotated[int, Strict(), Field(ge=0, le=MAX_AMOUNT)]
Box = Annotated[int, Strict(), Field(ge=1, le=MAX_BOX)]
Hand = Annotated[int, Strict(), Field(ge=1, le=MAX_HAND)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=PRINTABLE)]
Reason = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=PRINTABLE)]
BetKind = Annotated[str, StringConstraints(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9][A-Za-z0-9_+:\-]*$")]
Action = Annotated[str, StringConstraints(min_length=1, max_length=24, pattern=r"^[a-z][a-z_]*$")]
Card = Annotated[str, StringConstraints(pattern=r"^(?:10|[2-9TJQKAtjqka])[SHDCshdc]$")]
DealerId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.\-]{1,32}$")]
Pocket = (Annotated[int, Strict(), Field(ge=0, le=36)]
          | Annotated[str, StringConstraints(pattern=r"^(?:00|[0-9]|[12][0-9]|3[0-6])$")])

#: what a field must be, said the way the dealer reads it (the message of a refusal)
EXPECTED = {
    "amount": f"a whole number of minor units (cents) from 1 to {MAX_AMOUNT}",
    "payout": f"a whole number of minor units (cents) from 0 to {MAX_AMOUNT}",
    "box": f"a box number from 1 to {MAX_BOX}",
    "hand": f"a hand number from 1 to {MAX_HAND}",
    "target": f"a box number from 1 to {MAX_BOX}, or dealer",
    "cards_dealt": "a number of cards from 0 to 10",
    "card": "a card such as AH, TS or 10D",
    "discard": "a card such as AH, TS or 10D",
    "dealer_cards": "a list of up to 5 cards",
    "number": "a pocket from 0 to 36, or 00",
    "player": "a name of 1 to 64 printable characters",
    "kind": "a bet kind such as main, ante, 21+3 or straight:17",
    "action": "a decision such as hit, stand or double",
    "reason": "text of 1 to 200 printable characters",
    "round": "a round id such as t1-000004",
    "changes": f"a list of 1 to {MAX_CHANGES} changes {{box, hand, kind, payout, player?}}",
    "dealer": "a dealer id of 1 to 32 letters, digits, '_', '.' or '-'",
}


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class OpenRound(_Command):
    command: Literal["open_round"]


class Bet(_Command):
    command: Literal["bet"]
    box: Box
    amount: Money
    kind: BetKind | None = None
    player: Name | None = None


class ClearBets(_Command):
    command: Literal["clear_bets"]
    box: Box
    player: Name | None = None


class CloseBetting(_Command):
    command: Literal["close_betting"]


class Decide(_Command):
    command: Literal["decide"]
    box: Box
    action: Action
    hand: Hand | None = None
    player: Name | None = None
    amount: Money | None = None


class Settle(_Command):
    command: Literal["settle"]


class KeyCard(_Command):
    command: Literal["key_card"]
    card: Card


class Burn(_Command):
    command: Literal["burn"]


class VoidRound(_Command):
    command: Literal["void_round"]
    reason: Reason | None = None


class NewShoe(_Command):
    command: Literal["new_shoe"]


class Change(_Command):
    box: Box
    hand: Hand
    kind: BetKind
    payout: Payout
    player: Name | None = None


class Correct(_Command):
    command: Literal["correct"]
    round: Name
    changes: Annotated[list[Change], Field(min_length=1, max_length=MAX_CHANGES)]
    reason: Reason


class Exchange(_Command):
    command: Literal["exchange"]
    box: Box
    discard: Card
    player: Name | None = None


class Misdeal(_Command):
    command: Literal["misdeal"]
    target: Box | Literal["dealer"]
    cards_dealt: Annotated[int, Strict(), Field(ge=0, le=10)]
    dealer_cards: Annotated[list[Card], Field(max_length=5)] | None = None


class KeyResult(_Command):
    command: Literal["key_result"]
    number: Pocket


class SignIn(_Command):
    command: Literal["sign_in"]
    dealer: DealerId


class SignOut(_Command):
    command: Literal["sign_out"]


class Resume(_Command):
    command: Literal["resume"]


class Dismiss(_Command):
    command: Literal["dismiss"]


AnyCommand = Annotated[
    OpenRound | Bet | ClearBets | CloseBetting | Decide | Settle | KeyCard | Burn | VoidRound | NewShoe
    | Correct | Exchange | Misdeal | KeyResult | SignIn | SignOut | Resume | Dismiss,
    Field(discriminator="command"),
]
_COMMANDS: TypeAdapter[Any] = TypeAdapter(AnyCommand)
#: every command name the schema knows, in the order the dealer's help lists them
NAMES: tuple[str, ...] = tuple(
    m.model_fields["command"].annotation.__args__[0]  # type: ignore[union-attr]
    for m in (OpenRound, Bet, ClearBets, CloseBetting, Decide, Settle, KeyCard, Burn, VoidRound, NewShoe,
              Correct, Exchange, Misdeal, KeyResult, SignIn, SignOut, Resume, Dismiss)
)

_LONGEST_NAME = max(map(len, NAMES))


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _explain(name: str, exc: ValidationError) -> str:
    """One sentence per wrong argument (the first three), naming what it must be."""
    parts: dict[str, str] = {}
    for err in exc.errors():
        loc = [p for p in err["loc"][1:] if isinstance(p, int) or p in EXPECTED or p in _OTHER_FIELDS]
        where = ".".join(str(p) for p in loc)
        field = next((p for p in reversed(loc) if isinstance(p, str)), "")
        if where in parts or len(parts) == 3:
            continue
        if err["type"] == "extra_forbidden":
            parts[where] = f"{'.'.join(str(p) for p in err['loc'][1:])} is not an argument of {name}"
        elif err["type"] == "missing":
            parts[where] = f"{where} is missing ({EXPECTED.get(field, 'required')})"
        elif field in EXPECTED:
            parts[where] = f"{where} must be {EXPECTED[field]}, not {_shown(err.get('input'))}"
        else:
            parts[where] = f"{where or 'command'}: {err['msg']}"
    return f"{name} refused: " + "; ".join(parts.values())


_OTHER_FIELDS = frozenset(("command",))


def checked_command(payload: Any) -> dict[str, Any]:
    """The command in its journal form (unset arguments left out), or ``InputRefused``."""
    if not isinstance(payload, dict):
        raise InputRefused("input.malformed", f"a command is an object with a 'command' name, not {_shown(payload)}")
    name = payload.get("command")
    if name not in NAMES:
        hint = _did_you_mean(name)
        raise InputRefused("input.unknown_command", f"unknown command {_shown(name)}{hint}; known: {', '.join(NAMES)}")
    try:
        model = _COMMANDS.validate_python(payload)
    except ValidationError as exc:
        raise InputRefused("input.invalid", _explain(str(name), exc)) from None
    checked: dict[str, Any] = model.model_dump(exclude_none=True)
    return checked


def _did_you_mean(name: Any) -> str:
    import difflib

    # difflib's cut-off (ratio 0.6) cannot be met by a name over three times the longest command's
    # length, and comparing such a name costs milliseconds: it is not compared at all.
    sensible = isinstance(name, str) and len(name) <= 3 * _LONGEST_NAME
    close = difflib.get_close_matches(name, NAMES, n=1) if sensible else []
    return f" (did you mean {close[0]}?)" if close else ""


def check_json(raw: bytes | str, *, max_bytes: int = MAX_COMMAND_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Parse a JSON document no larger than ``max_bytes`` and no deeper than ``max_depth``
    (checked by a scan before the parser sees it, so no nesting can exhaust the stack)."""
    data = raw.encode() if isinstance(raw, str) else raw
    check_bounds(data, max_bytes=max_bytes, max_depth=max_depth)
    try:
        return json.loads(data)
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputRefused("input.malformed", f"not JSON: {exc}") from None


def check_bounds(data: bytes, *, max_bytes: int = MAX_COMMAND_BYTES, max_depth: int = MAX_DEPTH) -> None:
    """``InputRefused`` when ``data`` is larger than ``max_bytes`` or nests deeper than ``max_depth``."""
    if len(data) > max_bytes:
        raise InputRefused("input.too_large", f"{len(data)} bytes is more than the {max_bytes} a command may have")
    depth = json_depth(data) if data.count(b"[") + data.count(b"{") > max_depth else 0
    if depth > max_depth:
        raise InputRefused("input.too_deep", f"nested {depth} deep; a command nests at most {max_depth} deep")


#: a JSON string, escapes included; one left open runs to the end (nothing in it counts)
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
#: a run of opening or of closing brackets
_RUN = re.compile(rb"[\[{]+|[\]}]+")


def json_depth(data: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (an upper bound for invalid JSON).

    Strings are cut out and brackets taken a run at a time by regular expressions, so a 2,000-deep
    nest costs two steps of Python rather than 4,000 (the fuzz bench's hostile inputs)."""
    depth = deepest = 0
    for run in _RUN.findall(_STRING.sub(b"", data) if b'"' in data else data):
        if run[0] in b"[{":
            depth += len(run)
            deepest = max(deepest, depth)
        else:
            depth -= len(run)
    return deepest
