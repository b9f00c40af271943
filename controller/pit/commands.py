"""Pit commands as the dashboard sends them (docs/pit.md, docs/security.md).

A command is built from what the signed-in pit boss asked for, named with that user as
``sender``, and validated with the table's own parser (``controller.feed.commands``) before it
leaves: the dashboard never publishes what the table would refuse for its shape. The commands and their
arguments are read from the table's one command model (controller/commands/), so a table that
learns a new command (``reopen``) is offered it without a change here.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from controller.commands.models import PIT_NAMES
from controller.commands.parse import ENVELOPE
from controller.feed.commands import PitCommand, Refusal, parse_command
from controller.pit.model import TableModel

#: the commands the pit gives, and the arguments they take (controller/commands/models.py)
KINDS: tuple[str, ...] = PIT_NAMES
TARGETS: tuple[str, ...] = tuple(k for k in PitCommand.model_fields if k not in ENVELOPE and k != "command")


class CommandError(ValueError):
    """What the pit boss asked for cannot be sent; the message says why."""


def command_topic(table: str) -> str:
    return f"croupier/{table}/command"


def studio_command_topic(table: str) -> str:
    """Where the pit acknowledges the studio's alerts of ``table`` (docs/studio.md)."""
    return f"croupier/{table}/studio_command"


def topic_for(request: dict[str, Any], table: TableModel | None) -> str:
    """Where a built command goes: its table's ``command`` topic, but an acknowledgement of the
    studio's own alert (``table`` shows it open) goes to the studio (docs/studio.md)."""
    if request.get("command") == "acknowledge_alert" and table is not None and table.from_studio(request.get("alert")):
        return studio_command_topic(table.table)
    return command_topic(str(request["table"]))


def build(sender: str, request: dict[str, Any]) -> tuple[str, bytes]:
    """``(topic, payload)`` of the command ``request`` asks for (``table``, ``command`` and the
    command's target); raises ``CommandError`` with the reason."""
    table = request.get("table")
    if not isinstance(table, str) or not 0 < len(table) <= 64 or any(c in table for c in "/+#") or not table.isprintable():
        raise CommandError("table: a table id")
    kind = request.get("command")
    if kind not in KINDS:
        raise CommandError(f"command: one of {', '.join(KINDS)}")
    body: dict[str, Any] = {"v": 1, "id": f"pit-{secrets.token_hex(8)}", "sender": sender, "command": kind}
    for key in TARGETS:
        value = request.get(key)
        if value is not None and value != "":
            body[key] = str(value) if key != "alert" else value
    payload = json.dumps(body, separators=(",", ":")).encode()
    parsed = parse_command(payload)
    if isinstance(parsed, Refusal):
        raise CommandError(parsed.reason)
    assert isinstance(parsed, PitCommand)
    return command_topic(table), payload
