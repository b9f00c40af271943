"""The building blocks every record model shares: the wire's base config and its bounded types.

``Wire`` models are frozen and strict (an amount is an integer, never ``"1000"``, ``1000.0`` or
``true``). They ignore fields they do not know, so a reader keeps reading a newer table that
added one (the contract grows by optional fields, never by renaming or removing one); the
table's own output is held to the models exactly by tests/unit/records/ (``undeclared``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, Strict, StringConstraints

from controller.records.limits import MAX_AMOUNT, MAX_ID, MAX_SEQ, MAX_TOTAL, TABLE_ID


class Wire(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True, frozen=True)


def _aware(value: str) -> str:
    """An ISO 8601 time with its UTC offset (a naive time cannot be ordered against the others)."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("not an ISO 8601 time") from None
    if parsed.tzinfo is None:
        raise ValueError("a time without its UTC offset")
    return value


Timestamp = Annotated[str, StringConstraints(max_length=40), AfterValidator(_aware),
                      Field(description="UTC, ISO 8601 with milliseconds, e.g. 2026-11-29T16:01:00.000Z")]
#: one bet's stake or payout: integer minor units, what a table can take or pay in one bet
Amount = Annotated[int, Strict(), Field(ge=0, le=MAX_AMOUNT, description="integer minor units (cents)")]
#: a round's (or a ledger's) sum of amounts
Total = Annotated[int, Strict(), Field(ge=0, le=MAX_TOTAL, description="integer minor units (cents), a sum of bets")]
Seq = Annotated[int, Strict(), Field(ge=1, le=MAX_SEQ, description="a journal entry's seq")]
TableId = Annotated[str, StringConstraints(pattern=TABLE_ID), Field(description="the table id ([table] id)")]
Ident = Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID)]
Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$"),
                  Field(description="SHA-256 or HMAC-SHA256, 64 lowercase hex digits")]


def undeclared(model: BaseModel, data: Any, where: str = "") -> list[str]:
    """The places where ``data`` holds what ``model`` (parsed from it) does not declare or says
    otherwise: empty when the model carries the data exactly. For tests of what a table writes."""
    return _diff(model.model_dump(mode="json", exclude_unset=True), data, where or type(model).__name__)


def _diff(ours: Any, theirs: Any, where: str) -> list[str]:
    if isinstance(theirs, Mapping) and isinstance(ours, Mapping):
        out = [f"{where}.{k}: not declared" for k in theirs if k not in ours]
        return out + [d for k in theirs if k in ours for d in _diff(ours[k], theirs[k], f"{where}.{k}")]
    if isinstance(theirs, Sequence) and not isinstance(theirs, str) and isinstance(ours, Sequence):
        if len(ours) != len(theirs):
            return [f"{where}: {len(theirs)} items read as {len(ours)}"]
        return [d for i, (a, b) in enumerate(zip(ours, theirs, strict=True)) for d in _diff(a, b, f"{where}[{i}]")]
    same = ours == theirs and isinstance(ours, (bool, str)) == isinstance(theirs, (bool, str))
    return [] if same else [f"{where}: {theirs!r} read as {ours!r}"]


class Envelope(Wire):
    """What every feed message carries."""

    v: Literal[1] = Field(description="message version")
    table: TableId = Field(description="the table id (the topic's <table>)")
    round: Annotated[str, StringConstraints(max_length=MAX_ID)] | None = Field(
        description="the round this message belongs to (the newest round for snapshots); null before the table's "
                    "first round")
    ts: Timestamp = Field(description="when the journal entry was written, or the snapshot taken")
