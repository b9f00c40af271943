"""What the studio sends a table (``croupier/<table>/studio``, docs/protocols.md): its seal of a
round's bet book and the totals it settled, and for the seats (docs/studio.md, "Seats") a
player's seat, bets and decisions; one model each, giver ``studio``.

Read at the edge (size and depth bounded before the parser, strict types, money in minor units
within the command model's limits) and journaled as a ``studio`` input in this model's form,
so the core never sees a value of the wrong type or size and a journaled message always
replays. Fields the studio adds beyond these are left out (the contract lets either side add
fields); the studio's own broker account is the only one the generated ACL lets write there.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, StringConstraints, TypeAdapter, ValidationError, model_validator

from controller.commands.models import MAX_AMOUNT, Action, BetKind, Box, Hand, Name, Payout, RoundRef
from controller.jsonbound import InputRefused, check_json

STUDIO = "studio"
MAX_PAYLOAD = 4096
#: the seal's ``kinds`` is an object in the message object (depth 2); 3 leaves room for an added field
MAX_DEPTH = 3
#: bet kinds one seal may total (a roulette layout has about 160)
MAX_KINDS = 200
Count = Annotated[int, Strict(), Field(ge=0, le=10**9)]
Digest = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
#: a kind of the studio's book: the table's kinds, and ``<kind>@<box>`` for a bet on a box
#: (a side bet on its deal, a seated player's bet, a Bet Behind with its presets)
BookKind = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_+:@\-]*$")]


class StudioMessage(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)
    v: Annotated[int, Strict(), Field(ge=1, le=1)]
    id: Name
    round: RoundRef
    count: Count
    stake: Payout

    def journal_form(self) -> dict[str, Any]:
        """The ``studio`` entry's payload: the message as read (fields this model does not know left out)."""
        return self.model_dump(mode="json")


class Seal(StudioMessage):
    """The studio's book of the round, closed: no remote bet enters it after this."""

    type: Literal["seal"] = "seal"
    kinds: Annotated[dict[BookKind, Payout], Field(max_length=MAX_KINDS)]
    players: Count
    digest: Digest


class Settled(StudioMessage):
    """What the studio paid and returned on the round (sent again after a correction re-settles)."""

    type: Literal["settled"] = "settled"
    paid: Annotated[int, Strict(), Field(ge=0, le=MAX_AMOUNT * 1000)]
    refunded: Payout

    @model_validator(mode="after")
    def _refunds_within_stakes(self) -> Settled:
        if self.refunded > self.stake:
            raise ValueError(f"refunded {self.refunded} is more than the stake {self.stake}")
        return self

    @property
    def drop(self) -> int:
        """Remote stakes that stayed in play (a returned stake is no drop)."""
        return self.stake - self.refunded

    @property
    def win(self) -> int:
        """What the house kept of the remote stakes (negative: the players won)."""
        return self.stake - self.paid


class _SeatMessage(BaseModel):
    """A message of the seats (docs/studio.md, "Seats"): no money totals, a box and its player."""

    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)
    v: Annotated[int, Strict(), Field(ge=1, le=1)]
    id: Name
    box: Box
    #: the studio's ``<operator>/<player>``: the bets' player in the table's engine
    player: Name

    def journal_form(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class SeatChange(_SeatMessage):
    """A remote player sits at a box (``seated``) or leaves it; ``connected`` false: the player's
    connection is lost (the table decides at the box's turn at once)."""

    type: Literal["seat"] = "seat"
    name: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    seated: bool
    connected: bool = True


class PlacedItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    kind: BetKind
    amount: Annotated[int, Strict(), Field(gt=0, le=MAX_AMOUNT)]


class RemoteBets(_SeatMessage):
    """A seated player's bets on the box, or a Bet Behind, accepted in the studio's book: placed on
    the table's engine under ``player`` while betting is open."""

    type: Literal["bets"] = "bets"
    round: RoundRef
    request: Name
    bets: Annotated[list[PlacedItem], Field(min_length=1, max_length=8)]


class RemoteDecision(_SeatMessage):
    """A seated player's decision at the box's turn."""

    type: Literal["decide"] = "decide"
    round: RoundRef
    hand: Hand = 1
    decision: Action
    request: Name
    amount: Annotated[int, Strict(), Field(gt=0, le=MAX_AMOUNT)] | None = None


#: every message the studio sends a table, as its model
StudioInput = Seal | Settled | SeatChange | RemoteBets | RemoteDecision
STUDIO_MODELS = (Seal, Settled, SeatChange, RemoteBets, RemoteDecision)
AnyStudio = Annotated[StudioInput, Field(discriminator="type")]
_MESSAGES: TypeAdapter[StudioInput] = TypeAdapter(AnyStudio)
TYPES = ("seal", "settled", "seat", "bets", "decide")


def _said(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"][1:] or err["loc"])
        parts.append(f"{where}: {str(err['msg']).removeprefix('Value error, ')}")
    return "; ".join(parts)


def parse_studio(data: Any) -> StudioInput:
    """The studio's message as a model, or ``InputRefused`` saying what is wrong with it."""
    if not isinstance(data, dict):
        raise InputRefused("input.malformed", "a studio message is a JSON object with a 'type'")
    if data.get("type") not in TYPES:
        raise InputRefused("input.unknown_command", f"studio message: unknown type {str(data.get('type'))[:40]!r}; "
                                                    f"known: {', '.join(TYPES)}")
    try:
        return _MESSAGES.validate_python(data)
    except ValidationError as exc:
        raise InputRefused("input.invalid", f"studio {data['type']} refused: {_said(exc)}") from None


def read_studio(payload: bytes) -> StudioInput:
    """A message off the wire: bounded (``MAX_PAYLOAD`` bytes, depth ``MAX_DEPTH``), then read."""
    return parse_studio(check_json(payload, max_bytes=MAX_PAYLOAD, max_depth=MAX_DEPTH))
