"""Feed messages (docs/protocols.md §4) as the rows the back office keeps. Pure: no I/O.

Each message is read through the record contract (controller/records/: the round with its
game's typed outcome, the alert, the state), which ignores fields it does not know (the feed may
add fields, never remove or rename them). A message
that does not parse becomes a ``Rejected`` row, kept with its reason, so nothing the broker
delivered is silently lost. Every row carries its own idempotency key: a round by (table,
round, version), where the version is the number of corrections it carries; a journal-derived
row by (table, seq); a journal head by (table, seq, hash), so a second hash for one seq (a
rewritten journal) is kept beside the first, not dropped.

Bounded before it is parsed: a payload over ``MAX_PAYLOAD`` bytes or nested deeper than
``MAX_DEPTH`` is refused by the scan every edge shares (controller/jsonbound.py), so no message
can exhaust the stack. Amounts and sizes are bounded by the contract's limits
(controller/records/limits.py), which the tables' CHECK constraints repeat.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from controller import records as contract
from controller.jsonbound import InputRefused, check_json
from controller.records.limits import MAX_ID, TABLE_ID
from controller.records.wire import Amount
from controller.table import registry  # noqa: F401 (the registered games' outcome models, for round records)

HEX64 = re.compile(r"[0-9a-f]{64}")
_TABLE_ID = re.compile(TABLE_ID)
#: the topic leaves the back office subscribes to
LEAVES = ("round", "alert", "event", "head", "state")
MAX_PAYLOAD = 1 << 20
#: nesting a feed message may have (the deepest a table writes, a correction in an event, is 6 or 7)
MAX_DEPTH = 32


def parse_timestamp(value: object) -> datetime:
    if not isinstance(value, str):
        raise ValueError("a timestamp is an ISO 8601 string")
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        raise ValueError(f"timestamp {value!r} has no time zone (the feed writes UTC)")
    return parsed.astimezone(UTC)


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class EventIn(_Lenient):
    table: str
    round: str | None = None
    ts: datetime
    seq: int = Field(ge=1, strict=True)
    kind: str
    source: str = ""
    payload: dict[str, Any]

    _ts = field_validator("ts", mode="before")(parse_timestamp)


class HeadIn(_Lenient):
    v: Literal[1]
    table: str
    seq: int = Field(ge=0, strict=True)
    hash: str
    ts: datetime

    _ts = field_validator("ts", mode="before")(parse_timestamp)

    @field_validator("hash")
    @classmethod
    def _hex(cls, value: str) -> str:
        if not HEX64.fullmatch(value):
            raise ValueError("hash: 64 lowercase hex digits")
        return value


# -- the rows ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RoundRow:
    record: contract.RoundMessage
    raw: dict[str, Any]
    #: journal (seq, hash) pairs a recorded head must vouch for before this version is taken
    #: (a corrected version from a table whose journal key the back office lacks; provenance.py)
    heads: tuple[tuple[int, str], ...] = ()

    @property
    def opened(self) -> datetime:
        return parse_timestamp(self.record.opened)

    @property
    def closed(self) -> datetime:
        return parse_timestamp(self.record.closed)

    @property
    def version(self) -> int:
        return len(self.record.corrections)

    @property
    def topic(self) -> str:
        return f"croupier/{self.record.table}/round"


@dataclass(frozen=True, slots=True)
class IntakeAlert:
    """What the back office itself found wrong in a table's feed (a correction the journal does
    not back, a version re-sent with another body): kept in ``intake_alerts`` for the floor."""

    table: str
    round: str | None
    version: int | None
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class ConflictRow:
    """A round version re-sent with another body than the one stored: kept beside it, never
    in its place."""

    row: RoundRow


@dataclass(frozen=True, slots=True)
class AlertRow:
    alert: contract.AlertMessage
    raw: dict[str, Any]

    @property
    def ts(self) -> datetime:
        return parse_timestamp(self.alert.ts)


@dataclass(frozen=True, slots=True)
class DealerRow:
    table: str
    seq: int
    ts: datetime
    action: Literal["sign_in", "sign_out"]
    dealer: str | None


@dataclass(frozen=True, slots=True)
class CommandRow:
    table: str
    seq: int
    ts: datetime
    round: str | None
    command: str
    sender: str | None
    command_id: str | None
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RemoteRow:
    """What the studio paid on a round's remote bets (a ``remote_settled`` entry, docs/studio.md);
    the latest by seq is the round's (totals sent again after a correction replace the first)."""

    table: str
    round: str
    seq: int
    ts: datetime
    count: int
    stake: int
    paid: int
    refunded: int


class RemoteIn(_Lenient):
    round: str = Field(min_length=1, max_length=MAX_ID)
    count: Amount
    stake: Amount
    paid: Amount
    refunded: Amount


@dataclass(frozen=True, slots=True)
class HeadRow:
    head: HeadIn


@dataclass(frozen=True, slots=True)
class TableRow:
    """What a table plays (from its retained ``state`` or a ``table_started`` entry)."""

    table: str
    game: str
    preset: str | None
    ts: datetime
    currency: str | None = None
    currency_digits: int | None = None
    pace_target: int | None = None


@dataclass(frozen=True, slots=True)
class Rejected:
    topic: str
    payload: bytes
    reason: str


Row = (RoundRow | AlertRow | DealerRow | CommandRow | HeadRow | TableRow | RemoteRow | Rejected | IntakeAlert
       | ConflictRow)


def table_of(topic: str) -> tuple[str, str] | None:
    """``croupier/<table>/<leaf>`` -> (table, leaf), for the leaves the back office reads."""
    parts = topic.split("/")
    if len(parts) != 3 or parts[0] != "croupier" or parts[2] not in LEAVES or not _TABLE_ID.fullmatch(parts[1]):
        return None
    return parts[1], parts[2]


def parse(topic: str, payload: bytes) -> list[Row]:
    """The rows one delivered message gives: none for what the back office does not keep
    (most journal events), a ``Rejected`` for what it cannot read."""
    where = table_of(topic)
    if where is None:
        return [Rejected(topic, payload[:4096], "not a feed topic the back office reads")]
    table, leaf = where
    try:
        body = check_json(payload, max_bytes=MAX_PAYLOAD, max_depth=MAX_DEPTH)
        _no_constants(body)
    except InputRefused as exc:
        return [Rejected(topic, payload[:4096], exc.message)]
    if not isinstance(body, dict):
        return [Rejected(topic, payload[:4096], "not a JSON object")]
    if body.get("table", table) != table:
        return [Rejected(topic, payload[:4096], f"table {body.get('table')!r} on {table}'s topic")]
    body.setdefault("table", table)
    try:
        return _rows(leaf, body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where_ = ".".join(str(p) for p in first["loc"]) or leaf
        return [Rejected(topic, payload[:4096], f"{leaf}: {where_}: {first['msg']}")]
    except ValueError as exc:
        return [Rejected(topic, payload[:4096], f"{leaf}: {exc}")]


def _no_constants(value: Any) -> None:
    """``NaN`` and ``Infinity`` (which Python's parser takes) are no numbers JSON allows."""
    if isinstance(value, float) and (value != value or value in (float("inf"), float("-inf"))):
        raise InputRefused("input.malformed", "not JSON: NaN and Infinity are not numbers JSON allows")
    if isinstance(value, dict):
        for item in value.values():
            _no_constants(item)
    elif isinstance(value, list):
        for item in value:
            _no_constants(item)


def _rows(leaf: str, body: dict[str, Any]) -> list[Row]:
    if leaf == "round":
        return [RoundRow(contract.parse_message(body), body)]
    if leaf == "alert":
        return [AlertRow(contract.parse("alert", body), body)]
    if leaf == "head":
        return [HeadRow(HeadIn.model_validate(body))]
    if leaf == "state":
        s: contract.StateMessage = contract.parse("state", body)
        return [TableRow(s.table, s.game, s.preset, parse_timestamp(s.ts), s.currency, s.currency_digits,
                         s.pace.target if s.pace is not None else None)]
    return event_rows(EventIn.model_validate(body))


def event_rows(event: EventIn) -> list[Row]:
    """The journal entries the back office keeps from the ``event`` stream: dealer sign-in and
    sign-out, pit commands, the game a (re)started table plays, and the studio's remote totals."""
    p = event.payload
    if event.kind == "command" and p.get("command") in ("sign_in", "sign_out"):
        dealer = p.get("dealer")
        return [DealerRow(event.table, event.seq, event.ts, p["command"], str(dealer)[:64] if dealer is not None else None)]
    if event.kind == "pit_command":
        name = p.get("command")
        sender, ident = p.get("sender"), p.get("id")
        return [CommandRow(event.table, event.seq, event.ts, event.round, str(name)[:64] if name else "?",
                           str(sender)[:64] if sender is not None else None,
                           str(ident)[:64] if ident is not None else None, p)]
    if event.kind == "remote_settled":
        r = RemoteIn.model_validate(p)
        return [RemoteRow(event.table, r.round, event.seq, event.ts, r.count, r.stake, r.paid, r.refunded)]
    if event.kind == "table_started" and isinstance(p.get("game"), str):
        preset = p.get("preset")
        return [TableRow(event.table, p["game"][:32], preset[:64] if isinstance(preset, str) else None, event.ts)]
    return []
