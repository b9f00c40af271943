"""Pit-boss commands: validated strictly, refused with a reason, handed on at most once per id.

The broker's ACL lets only pit credentials publish ``croupier/<table>/command``, but MQTT does
not tell a subscriber who published: ``sender`` is the pit client's own claim, and is journaled
as such.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, StringConstraints, ValidationError, model_validator

from controller.table.inputs import InputRefused
from controller.table.schema import check_json

MAX_PAYLOAD = 4096
# Printable ASCII, no surrounding blanks: ids and names that log, journal and display safely.
PRINTABLE = r"^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$"
Text = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=PRINTABLE)]


CommandKind = Literal["close_after_round", "void_round", "approve_correction", "acknowledge_alert", "reopen", "dismiss"]
#: a command is a flat object: deeper nesting is refused before the JSON parser sees it
MAX_DEPTH = 2

# The field each command cannot do without.
_NEEDS: dict[str, str] = {"void_round": "round", "approve_correction": "correction", "acknowledge_alert": "alert"}


class PitCommand(BaseModel):
    """``alert`` is the journal ``seq`` of the alert (every alert message carries it)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    v: Annotated[int, Strict(), Field(ge=1, le=1)]  # version 1; a Literal[1] would accept true
    id: Text
    sender: Text
    command: CommandKind
    round: Text | None = None
    alert: int | None = Field(default=None, ge=1)
    correction: Text | None = None

    @model_validator(mode="after")
    def _has_its_target(self) -> PitCommand:
        needed = _NEEDS.get(self.command)
        if needed is not None and getattr(self, needed) is None:
            raise ValueError(f"{self.command} needs {needed!r}")
        return self

    def journal_payload(self) -> dict[str, Any]:
        """What the table journals (kind ``pit_command``): the command as sent, ``None``s dropped."""
        return self.model_dump(mode="json", exclude_none=True)


@dataclass(frozen=True, slots=True)
class Refusal:
    reason: str
    raw: str  # the start of the payload, for the alert
    id: str | None = None
    sender: str | None = None

    def alert_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "severity": "warning",
            "code": "command_refused",
            "message": f"pit command refused: {self.reason}",
            "reason": self.reason,
            "raw": self.raw,
        }
        if self.id is not None:
            payload["id"] = self.id
        if self.sender is not None:
            payload["sender"] = self.sender
        return payload


def _summary(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:4]:
        where = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ")
        parts.append(f"{where}: {msg}" if where else msg)
    return "; ".join(parts)


def _claimed(data: Any, key: str) -> str | None:
    value = data.get(key) if isinstance(data, dict) else None
    return value[:64] if isinstance(value, str) else None


def parse_command(payload: bytes, *, retained: bool = False) -> PitCommand | Refusal:
    """Never raises: anything that is not a valid command comes back as a ``Refusal``."""
    raw = payload[:200].decode("utf-8", errors="replace")
    if len(payload) > MAX_PAYLOAD:
        return Refusal(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}", raw)
    try:
        data = check_json(payload, max_bytes=MAX_PAYLOAD, max_depth=MAX_DEPTH)
    except InputRefused as refused:
        return Refusal(refused.message, raw)
    ident, sender = _claimed(data, "id"), _claimed(data, "sender")
    if retained:
        # A retained command would run again on every resubscription, hours later.
        return Refusal("retained command (publish commands without the retain flag)", raw, ident, sender)
    try:
        return PitCommand.model_validate(data)
    except ValidationError as exc:
        return Refusal(_summary(exc), raw, ident, sender)


class RecentIds:
    """The ids of the last ``limit`` commands handed on, so a redelivery is not handed on twice."""

    def __init__(self, limit: int = 10_000) -> None:
        self._ids: OrderedDict[str, None] = OrderedDict()
        self._limit = limit

    def __contains__(self, ident: object) -> bool:
        return ident in self._ids

    def add(self, ident: str) -> None:
        self._ids[ident] = None
        self._ids.move_to_end(ident)
        while len(self._ids) > self._limit:
            self._ids.popitem(last=False)
