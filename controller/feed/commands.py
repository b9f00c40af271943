"""Pit-boss commands: validated strictly, refused with a reason, handed on at most once per id.

The commands and their limits are the table's one command model (controller/commands/); this
module reads the wire (size, depth, JSON, the retain flag) and says why a payload is refused.

The broker's ACL lets only pit credentials publish ``croupier/<table>/command``, but MQTT does
not tell a subscriber who published: ``sender`` is the pit client's own claim, and is journaled
as such.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from controller.commands.models import PIT_NAMES
from controller.commands.parse import PitCommand, PitKind, parse_pit
from controller.jsonbound import InputRefused, check_json

MAX_PAYLOAD = 4096
#: a command is a flat object: deeper nesting is refused before the JSON parser sees it
MAX_DEPTH = 2
#: the commands the pit gives (controller/commands/models.py)
CommandKind = PitKind
__all__ = ["MAX_PAYLOAD", "PIT_NAMES", "CommandKind", "PitCommand", "RecentIds", "Refusal", "parse_command"]


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

    def outcome(self) -> dict[str, Any]:
        """Its outcome (docs/protocols.md, "Outcomes"): refused before it was journaled (seq 0)."""
        said: dict[str, Any] = {"seq": 0, "source": f"pit:{self.sender}" if self.sender else "pit",
                                "kind": "pit_command", "status": "refused", "code": "command_refused",
                                "reason": self.reason}
        return said | ({"id": self.id} if self.id is not None else {})


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
        command, _ = parse_pit(data)
    except InputRefused as refused:
        return Refusal(refused.message, raw, ident, sender)
    return command


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
