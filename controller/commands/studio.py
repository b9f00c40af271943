"""What the studio sends a table (``croupier/<table>/studio``, docs/protocols.md): its seal of a
round's bet book and the totals it settled, one model each, giver ``studio``.

Read at the edge (size and depth bounded before the parser, strict types, money in minor units
within the command model's limits) and journaled as a ``studio`` input in this model's form,
so the core never sees a value of the wrong type or size and a journaled message always
replays. Fields the studio adds beyond these are left out (the contract lets either side add
fields); the studio's own broker account is the only one the generated ACL lets write there.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, StringConstraints, TypeAdapter, ValidationError, model_validator

from controller.commands.models import MAX_AMOUNT, Name, Payout, RoundRef
from controller.jsonbound import InputRefused, check_json

STUDIO = "studio"
MAX_PAYLOAD = 4096
#: the seal's ``kinds`` is an object in the message object (depth 2); 3 leaves room for an added field
MAX_DEPTH = 3
#: bet kinds one seal may total (a roulette layout has about 160)
MAX_KINDS = 200
Count = Annotated[int, Strict(), Field(ge=0, le=10**9)]
Digest = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
#: a remote bet's kind: a felt kind (``straight:17``) or a card game's side bet on a box (``21+3@3``)
RemoteKind = Annotated[str, StringConstraints(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9][A-Za-z0-9_+:@\-]*$")]


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
    kinds: Annotated[dict[RemoteKind, Payout], Field(max_length=MAX_KINDS)]
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


AnyStudio = Annotated[Seal | Settled, Field(discriminator="type")]
_MESSAGES: TypeAdapter[Seal | Settled] = TypeAdapter(AnyStudio)


def _said(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(p) for p in err["loc"][1:] or err["loc"])
        parts.append(f"{where}: {str(err['msg']).removeprefix('Value error, ')}")
    return "; ".join(parts)


def parse_studio(data: Any) -> Seal | Settled:
    """The studio's message as a model, or ``InputRefused`` saying what is wrong with it."""
    if not isinstance(data, dict):
        raise InputRefused("input.malformed", "a studio message is a JSON object with a 'type'")
    if data.get("type") not in ("seal", "settled"):
        raise InputRefused("input.unknown_command", f"studio message: unknown type {str(data.get('type'))[:40]!r}; "
                                                    "known: seal, settled")
    try:
        return _MESSAGES.validate_python(data)
    except ValidationError as exc:
        raise InputRefused("input.invalid", f"studio {data['type']} refused: {_said(exc)}") from None


def read_studio(payload: bytes) -> Seal | Settled:
    """A message off the wire: bounded (``MAX_PAYLOAD`` bytes, depth ``MAX_DEPTH``), then read."""
    return parse_studio(check_json(payload, max_bytes=MAX_PAYLOAD, max_depth=MAX_DEPTH))
