"""The players' WebSocket protocol, v1: one pydantic model per message (docs/studio.md). Every
message is one JSON object with ``"v": 1`` and a ``type``. The JSON Schemas in docs/schemas/
(``studio-client.json``, ``studio-server.json``) are exported from these models.

Money is integer minor units, always beside its ``currency``; a refusal's ``reason`` is a stable
code a client maps to its own words (``message`` says it in English).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, TypeAdapter

ID = r"^[A-Za-z0-9_.:-]{1,64}$"
#: the refusal reasons a client may be told (docs/studio.md lists what each means)
REASONS = ("late", "table_closed", "limits", "funds", "operator_limit", "token_refused", "currency", "wallet",
           "already_bet",
           "request_reused", "in_progress", "not_joined", "joined_already", "token_invalid", "token_expired",
           "token_replayed", "unknown_table", "malformed", "too_large", "too_deep", "invalid", "rate_limited",
           "unavailable")
Reason = Literal[REASONS]  # type: ignore[valid-type]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    v: Literal[1] = 1


# ----------------------------------------------------------------------------- client -> studio
class Join(_Message):
    """Join a table with the operator's launch token (a JWT, one join per token)."""

    type: Literal["join"]
    token: str = Field(min_length=1, max_length=4096)
    table: str = Field(pattern=ID, description="the table to play at")


class BetItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: str = Field(min_length=1, max_length=64, description="the bet kind: red, straight:17, banker, ...")
    amount: StrictInt = Field(gt=0, le=10**12, description="integer minor units")


class Bet(_Message):
    """All of the player's bets on one round, once: the same ``request`` again is a retry."""

    type: Literal["bet"]
    request: str = Field(pattern=ID, description="the client's id of this request (a uuid)")
    round: str = Field(pattern=ID)
    bets: list[BetItem] = Field(min_length=1, max_length=32)


class History(_Message):
    """The player's last rounds at this studio."""

    type: Literal["history"]
    limit: int = Field(default=20, ge=1, le=50)


ClientMessage = Annotated[Union[Join, Bet, History], Field(discriminator="type")]  # noqa: UP007
CLIENT = TypeAdapter(ClientMessage)


# ----------------------------------------------------------------------------- studio -> client
class Joined(_Message):
    type: Literal["joined"]
    player: str
    name: str
    table: str
    currency: str
    balance: int | None = Field(description="minor units; null when the wallet did not say")


class Betting(_Message):
    """The table's betting status, as the table published it (pushed on every change)."""

    type: Literal["betting"]
    table: str
    round: str | None
    status: Literal["open", "sealing", "closed", "none"]
    deadline: str | None = Field(description="UTC ISO 8601, or null when the dealer closes")
    countdown_ms: int | None = Field(description="milliseconds to the deadline when sent")
    currency: str
    digits: int
    limits: dict[str, list[int]]


class PlacedBet(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    kind: str
    amount: int


class Accepted(_Message):
    type: Literal["accepted"]
    request: str
    round: str
    bets: list[PlacedBet]
    stake: int
    balance: int | None
    currency: str


class Refused(_Message):
    type: Literal["refused"]
    request: str | None = None
    reason: Reason
    message: str


class Result(_Message):
    """The round's result, as the table recorded it (the number or the cards)."""

    type: Literal["result"]
    table: str
    round: str
    status: Literal["settled", "void"]
    outcome: dict[str, Any]


class SettledBet(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    kind: str
    amount: int
    paid: int = Field(description="all that came back for the bet: 0 lost, the stake returned or pushed")


class Settled(_Message):
    type: Literal["settled"]
    round: str
    bets: list[SettledBet]
    paid: int
    refunded: bool
    balance: int | None = Field(description="minor units after the round; null when the operator's wallet has not "
                                            "answered yet: a balance message for this round follows when it does")
    currency: str


class BalanceUpdate(_Message):
    """The player's balance after a round, pushed when the operator's wallet answers after the
    round's ``settled`` went without it (``balance: null``)."""

    type: Literal["balance"]
    round: str = Field(description="the round whose settlement the wallet answered")
    balance: int = Field(description="minor units, the wallet's answer")
    currency: str


class HistoryRound(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    table: str
    round: str
    status: str
    outcome: dict[str, Any] | None
    bets: list[SettledBet | PlacedBet]
    stake: int
    paid: int | None
    balance: int | None = Field(description="minor units after the round; null while the operator's wallet has not "
                                            "answered its settlement (or the round is not settled yet)")
    currency: str


class HistoryAnswer(_Message):
    type: Literal["history"]
    rounds: list[HistoryRound]


ServerMessage = Annotated[Union[Joined, Betting, Accepted, Refused, Result, Settled, BalanceUpdate,  # noqa: UP007
                                HistoryAnswer],
                          Field(discriminator="type")]

#: docs/schemas/<stem>.json -> (what it describes, the type) for scripts/export_schemas.py
SCHEMAS: dict[str, tuple[str, Any]] = {
    "studio-client": ("croupier studio WebSocket /v1/play: player -> studio", ClientMessage),
    "studio-server": ("croupier studio WebSocket /v1/play: studio -> player", ServerMessage),
}
