"""One feed message as an operator receives it: the event with its table, its per-table sequence
(gapless), its round, a trace id, and a MAC the operator checks with its feed secret:
HMAC-SHA256 over the canonical JSON (sorted keys, no spaces, UTF-8) of the message without ``mac``.
Cards as dealt are in ``data``, so they are signed with the rest (docs/schemas/operator-feed.json)."""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


@dataclass(frozen=True)
class FeedEvent:
    """An event as the outbox holds it."""

    table: str
    seq: int
    round: str
    type: str
    game: str
    trace: str
    at: datetime
    data: dict[str, Any]


class FeedMessage(BaseModel):
    """One message of an operator's queue (AMQP body, JSON; persistent; ``message_id`` is
    ``<table>:<seq>``, the ``trace`` also in the ``correlation_id``)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    v: Literal[1]
    operator: str
    table: str
    seq: int = Field(ge=1, description="per table, gapless, from 1: drop what you hold, report a gap")
    round: str | None
    type: str = Field(description="table_open, round_start, bets_closed, card, result, settled, cancel, ...")
    game: str
    trace: str
    at: str = Field(description="UTC, ISO 8601 with milliseconds")
    data: dict[str, Any]
    mac: str = Field(pattern="^[0-9a-f]{64}$",
                     description="hex HMAC-SHA256 with the feed secret over the canonical JSON without mac")


class Snapshot(BaseModel):
    """A table's current state and the sequence it stands at (``GET /v1/tables/<table>/snapshot``)."""

    v: Literal[1]
    table: str
    seq: int = Field(ge=1)
    game: str
    state: dict[str, Any]


def canonical(message: dict[str, Any]) -> bytes:
    return json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def mac_of(secret: bytes, message: dict[str, Any]) -> str:
    unsigned = {k: v for k, v in message.items() if k != "mac"}
    return hmac.new(secret, canonical(unsigned), hashlib.sha256).hexdigest()


def message(operator: str, secret: bytes, event: FeedEvent) -> dict[str, Any]:
    body = {"v": 1, "operator": operator, "table": event.table, "seq": event.seq, "round": event.round or None,
            "type": event.type, "game": event.game, "trace": event.trace,
            "at": event.at.isoformat(timespec="milliseconds").replace("+00:00", "Z"), "data": event.data}
    return {**body, "mac": mac_of(secret, body)}


def verify(secret: bytes, received: dict[str, Any]) -> bool:
    given = received.get("mac")
    return isinstance(given, str) and hmac.compare_digest(mac_of(secret, received), given)
