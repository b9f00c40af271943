"""Reading a command: from a dict (a dealer line, a console request, a journaled entry) or from
the pit's wire form, into its model; a refusal is one ``InputRefused`` whose message is the same
sentence whichever edge the input came through (``explain``)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, Strict, TypeAdapter, ValidationError

from controller.commands.models import (
    BY_NAME,
    DEALER,
    EXPECTED,
    MODELS,
    PIT,
    PIT_NAMES,
    AlertSeq,
    Change,
    Command,
    CorrectionRef,
    Name,
    Reason,
    RoundRef,
)
from controller.jsonbound import InputRefused

AnyCommand: Any = Annotated[Union[MODELS], Field(discriminator="command")]  # noqa: UP007 (a runtime tuple)
_COMMANDS: TypeAdapter[Command] = TypeAdapter(AnyCommand)
_LONGEST_NAME = max(map(len, BY_NAME))


def shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def explain(name: str, errors: Iterable[Any], strip: int = 0) -> str:
    """One sentence per wrong argument (the first three), naming what it must be; ``strip``
    leading parts of each error's location (the union's tag) are not shown."""
    parts: dict[str, str] = {}
    for err in errors:
        loc = _location(err, strip)
        where = ".".join(str(p) for p in loc)
        if where not in parts and len(parts) < 3:
            parts[where] = _sentence(name, err, loc, where)
    return f"{name} refused: " + "; ".join(parts.values())


def _location(err: Any, strip: int) -> tuple[str | int, ...]:
    """Where an error is, in the command's own terms: its arguments (and list positions), no
    union member tags; for an argument nobody takes, that argument."""
    given = tuple(err["loc"][strip:])
    loc = tuple(p for p in given if isinstance(p, int) or p in _FIELDS)
    if err["type"] == "extra_forbidden" and given and loc[-1:] != given[-1:]:
        loc += given[-1:]
    return loc


def _arguments(name: str) -> str:
    """The arguments command ``name`` takes, for a refusal."""
    model = BY_NAME.get(name)
    takes = [k for k in model.model_fields if k != "command"] if model is not None else []
    return ", ".join(takes) or "no arguments"


def _sentence(name: str, err: Any, loc: tuple[str | int, ...], where: str) -> str:
    """What is wrong at ``where``, and what the argument must be where the project says it."""
    field = next((p for p in reversed(loc) if isinstance(p, str)), "")  # the argument itself
    if not loc:
        return str(err["msg"])
    if err["type"] == "extra_forbidden":
        return f"{where}: Extra inputs are not permitted ({name} takes {_arguments(name)})"
    if err["type"] == "missing" and field in EXPECTED:
        return f"{where}: missing; {name} needs {field!r} ({EXPECTED[field]})"
    if field == "command" and len(loc) == 1:
        return f"command: unknown command {shown(err.get('input'))}"
    if field in EXPECTED:
        return f"{where}: must be {EXPECTED[field]}, not {shown(err.get('input'))}"
    return f"{where}: {str(err['msg']).removeprefix('Value error, ')}"


def did_you_mean(name: Any, known: Iterable[str]) -> str:
    # difflib's cut-off (ratio 0.6) cannot be met by a name over three times the longest command's
    # length, and comparing such a name costs milliseconds: it is not compared at all.
    sensible = isinstance(name, str) and len(name) <= 3 * _LONGEST_NAME
    close = difflib.get_close_matches(name, list(known), n=1) if sensible else []
    return f" (did you mean {close[0]}?)" if close else ""


def unknown(name: Any, known: Iterable[str]) -> InputRefused:
    names = tuple(known)
    return InputRefused("input.unknown_command",
                        f"command: unknown command {shown(name)}{did_you_mean(name, names)}; known: {', '.join(names)}")


#: giver -> the name of each command that giver may give -> its model and the model's validator
_GIVEN: dict[str, dict[str, tuple[type[Command], Any]]] = {
    giver: {n: (m, m.__pydantic_validator__) for n, m in BY_NAME.items() if giver in m.givers} for giver in (DEALER, PIT)
}


#: (giver, the payload's names, its values, their types) -> the command it was read into: a table reads the
#: same few commands over and over (each box's bet, its decisions), and a command model is a
#: frozen value. The types are in the key because a strict model tells ``1`` from ``True`` and
#: ``1.0``, which are equal (and hash alike) in Python. Only what passed every check is kept;
#: a payload with an unhashable argument (a list) is read every time.
_READ: dict[tuple[Any, ...], Command] = {}
_READ_MAX = 4096


def parse_order(payload: Any, giver: str = DEALER) -> Command:
    """The command model of ``{"command": name, ...arguments}`` as ``giver`` (dealer or pit)
    may give it, or ``InputRefused`` with the sentence the dealer or the pit boss reads."""
    if not isinstance(payload, dict):
        raise InputRefused("input.malformed", f"a command is an object with a 'command' name, not {shown(payload)}")
    key: tuple[Any, ...] | None = (giver, *payload, *payload.values(), *map(type, payload.values()))
    try:
        read = _READ.get(key)  # type: ignore[arg-type]
    except TypeError:  # an argument that cannot be a key (a list, an object)
        key = read = None
    if read is not None:
        return read
    order = _read(payload, giver)
    if key is not None:
        if len(_READ) >= _READ_MAX:
            _READ.clear()
        _READ[key] = order
    return order


def _read(payload: dict[str, Any], giver: str) -> Command:
    """``parse_order`` of a payload not read before: its model validates it."""
    name = payload.get("command")
    given = _GIVEN.get(giver)
    found = given.get(name) if given is not None and isinstance(name, str) else None
    if found is None:
        raise unknown(name, (n for n, m in BY_NAME.items() if giver in m.givers))
    model, validator = found
    try:
        # the model the name picks validates it, as the discriminated union would (the union's
        # Python wrapper and tag lookup cost a replayed command more than its checks); what it
        # refuses goes through the union, whose errors the sentence is made from
        order: Command = validator.validate_python(payload)
    except ValidationError:
        try:
            _COMMANDS.validate_python(payload)
        except ValidationError as exc:
            raise InputRefused("input.invalid", explain(str(name), exc.errors(), strip=1)) from None
        raise AssertionError(f"{name}: its model refused what the union of commands took") from None
    if giver == PIT:
        _needs_from_the_pit(str(name), model, order)
    return order


def _needs_from_the_pit(name: str, model: type[Command], order: Command) -> None:
    """What the pit must give that the dealer may leave out (a pit boss's reason ...)."""
    missing = [k for k in model.pit_needs if getattr(order, k) is None]
    if missing:
        raise InputRefused("input.invalid", f"{name} refused: {missing[0]}: missing; {name} needs {missing[0]!r} "
                                            f"({EXPECTED[missing[0]]})")


def from_journal(payload: dict[str, Any], giver: str = DEALER) -> Command:
    """A journaled command's model. Journaled means it was taken at the edge by this code or an
    older version: a pit command's envelope (``v``, ``id``, ``sender``) and an argument older
    code took but this command does not are left out, so an old entry still replays."""
    if giver == PIT:
        model = BY_NAME.get(payload.get("command"))  # type: ignore[arg-type]
        if model is not None:
            payload = {k: v for k, v in payload.items() if k in model.model_fields}
    return parse_order(payload, giver)


PitKind = Literal[PIT_NAMES]  # type: ignore[valid-type]


class PitEnvelope(BaseModel):
    """Who sends a pit command: ``sender`` is the pit client's own claim, journaled as such."""

    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)
    v: Annotated[int, Strict(), Field(ge=1, le=1)]  # version 1; a Literal[1] would accept true
    id: Name
    sender: Name


class PitCommand(PitEnvelope):
    """A pit command as the dashboard sends it (``croupier/<table>/command``) and the table
    journals it (``pit_command``): the envelope (``v``, ``id``, ``sender``, the pit client's own
    claim) and the command's arguments, flat. ``alert`` and ``correction`` are journal seqs."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    command: PitKind
    round: RoundRef | None = None
    alert: AlertSeq | None = None
    correction: CorrectionRef | None = None
    reason: Reason | None = None

    def order(self) -> Command:
        """The command itself (``InputRefused`` if this command takes not what was given)."""
        return parse_order({k: v for k, v in self.model_dump(exclude_none=True).items()
                            if k not in ENVELOPE}, PIT)

    def journal_payload(self) -> dict[str, Any]:
        """What the table journals (kind ``pit_command``): the command as sent, ``None``s dropped."""
        return self.model_dump(mode="json", exclude_none=True)


ENVELOPE = frozenset(("v", "id", "sender"))
#: every argument name (a location's parts that name a field, not a member of a union)
_ARGUMENT_MODELS: tuple[type[BaseModel], ...] = (*MODELS, Change, PitCommand)
_FIELDS = frozenset(k for m in _ARGUMENT_MODELS for k in m.model_fields)


def parse_pit(data: Any) -> tuple[PitCommand, Command]:
    """The pit's wire form, checked, and its command (``InputRefused``): the envelope first,
    then the command exactly as the console reads a pit boss's (``parse_order``)."""
    name = data.get("command") if isinstance(data, dict) else None
    if isinstance(data, dict) and name not in PIT_NAMES:
        raise unknown(name, PIT_NAMES)
    try:
        PitEnvelope.model_validate(data)
    except ValidationError as exc:
        raise InputRefused("input.invalid", explain(str(name or "pit command"), exc.errors())) from None
    order = parse_order({k: v for k, v in data.items() if k not in ENVELOPE}, PIT)
    return PitCommand.model_validate(data), order
