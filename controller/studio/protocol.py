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
           "unavailable",
           # seats and Bet Behind (docs/studio.md, "Seats", "Bet Behind")
           "no_seats", "box_unknown", "seat_taken", "seats_full", "not_seated", "not_your_turn", "decision_illegal",
           "decision_late", "behind_off", "behind_not_allowed", "behind_own_box", "presets")
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


Box = Annotated[int, Field(ge=1, le=99, description="the box, numbered 1.. as the dealer sees them")]
#: the decisions a seated player may send (each game takes its own: blackjack hit, stand, double, split,
#: surrender, insurance, even_money, no_insurance; Three Card Blackjack play, fold; Russian poker raise,
#: fold; Catch a Wave stand, higher, lower); ``turn`` lists those legal now
DecisionName = Annotated[str, Field(pattern=r"^[a-z][a-z_]{0,23}$")]


class Sit(_Message):
    """Take a box at the table: its main bets are then the player's, and the dealer waits for the
    player's decisions on it (answered ``seated``, or ``refused``)."""

    type: Literal["sit"]
    box: Box


class Leave(_Message):
    """Give the box up (answered ``left``). A bet already on it plays on: the table applies the
    decision policy at its turn, as for a lost connection."""

    type: Literal["leave"]
    box: Box


class Decide(_Message):
    """The seated player's decision for the ``turn`` pushed to them (one of its ``decisions``)."""

    type: Literal["decide"]
    request: str = Field(pattern=ID, description="the client's id of this decision (a retry is answered the same)")
    round: str = Field(pattern=ID)
    box: Box
    hand: int = Field(default=1, ge=1, le=16, description="the hand of the box (after a split)")
    decision: DecisionName
    amount: StrictInt | None = Field(default=None, gt=0, le=10**12,
                                     description="minor units, where the decision takes one (insurance)")


class Presets(BaseModel):
    """What a Bet Behind follows of the box owner's decisions (the house sheet, §1.2)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    double: bool = Field(default=True, description="doubles with the owner's double")
    split: bool = Field(default=True, description="follows the owner's split onto every hand")
    insurance: bool = Field(default=False, description="takes insurance when the owner does (half the Bet Behind)")


class Behind(_Message):
    """A Bet Behind on another player's box, while betting is open (answered ``accepted``, its bet's
    kind ``behind@<box>`` with the presets after a ``+``, or ``refused``). Returned if the box does
    not play the round."""

    type: Literal["behind"]
    request: str = Field(pattern=ID)
    round: str = Field(pattern=ID)
    box: Box
    amount: StrictInt = Field(gt=0, le=10**12, description="integer minor units")
    presets: Presets = Presets()


class BehindAllowed(_Message):
    """The box owner's switch: others may (or may no longer) Bet Behind the owner's box."""

    type: Literal["behind_allowed"]
    box: Box
    allowed: bool


ClientMessage = Annotated[Union[Join, Bet, History, Sit, Leave, Decide, Behind, BehindAllowed],  # noqa: UP007
                          Field(discriminator="type")]
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
    balance: int | None
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
    balance: int | None
    currency: str


class HistoryAnswer(_Message):
    type: Literal["history"]
    rounds: list[HistoryRound]


class SeatView(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    box: Box
    name: str = Field(description="the seated player's name, as the operator's token gives it")
    you: bool = Field(description="the box is this player's")
    connected: bool = Field(description="false while the seated player's connection is lost")
    behind_allowed: bool = Field(description="the owner lets others Bet Behind the box")


class Seats(_Message):
    """The table's seats, pushed to every player at the table when one changes (and after ``joined``)."""

    type: Literal["seats"]
    table: str
    boxes: int = Field(description="the table's boxes, numbered 1..boxes")
    seats: list[SeatView] = Field(description="the boxes remote players sit at; the others are free or the felt's")


class Seated(_Message):
    """The answer to ``sit``: the box is the player's."""

    type: Literal["seated"]
    table: str
    box: Box


class Left(_Message):
    """The answer to ``leave``."""

    type: Literal["left"]
    table: str
    box: Box


class Turn(_Message):
    """The dealer waits for a seated player's decision. Pushed to every player at the table (a
    page shows whose turn it is); only the box's player may answer it with ``decide``."""

    type: Literal["turn"]
    table: str
    round: str
    box: Box
    hand: int
    name: str = Field(description="the seated player's name")
    you: bool = Field(description="the decision is this player's")
    decisions: list[str] = Field(description="the legal decisions now, as ``decide`` names them")
    deadline: str = Field(description="UTC ISO 8601: when the table applies its policy")
    decision_ms: int = Field(description="milliseconds left to the deadline when sent")


class Decided(_Message):
    """What the table did at a seated box's turn, and why."""

    type: Literal["decided"]
    table: str
    round: str
    box: Box
    hand: int
    decision: str
    cause: Literal["player", "timeout", "disconnect"]
    refunded: bool = Field(description="the box's remote bets are returned (the policy ``refund``: coefficient 1)")
    request: str | None = Field(default=None, description="the ``decide`` request the table took (cause player)")


class Hands(_Message):
    """The round's cards as they are dealt (pushed on every card and decision): ``cards`` has the
    shape of the ``result`` message's outcome for that game (blackjack: ``dealer`` and ``boxes``
    with each box's ``hands``), so a page draws the table from it."""

    type: Literal["hands"]
    table: str
    round: str
    cards: dict[str, Any]


ServerMessage = Annotated[Union[Joined, Betting, Accepted, Refused, Result, Settled, HistoryAnswer,  # noqa: UP007
                                Seats, Seated, Left, Turn, Decided, Hands],
                          Field(discriminator="type")]

#: docs/schemas/<stem>.json -> (what it describes, the type) for scripts/export_schemas.py
SCHEMAS: dict[str, tuple[str, Any]] = {
    "studio-client": ("croupier studio WebSocket /v1/play: player -> studio", ClientMessage),
    "studio-server": ("croupier studio WebSocket /v1/play: studio -> player", ServerMessage),
}
