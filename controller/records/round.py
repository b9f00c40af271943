"""The closed round (docs/protocols.md §4, "round"): the ``round_closed`` journal entry, what
``croupier recall --json`` prints (``RoundRecord``), and the feed's ``round`` message, that same
record under the feed's envelope (``RoundMessage``).

``outcome`` is the game's typed outcome: the record models are one per registered game, told
apart by ``game`` (``round_type``), and a record of a game this process does not know keeps its
outcome as JSON. Extending the record (remote seats' boxes, say): add an optional field with a
default to ``RoundFields`` (older records lack it and still parse; older readers ignore it),
describe it, and regenerate docs/schemas (scripts/export_schemas.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal, Union

from pydantic import Discriminator, Field, Strict, Tag, TypeAdapter, ValidationError, create_model, model_validator

from controller.games.outcome import Outcome
from controller.records.limits import (
    MAX_BETS,
    MAX_BOX,
    MAX_CHANGES,
    MAX_CODE,
    MAX_CORRECTIONS,
    MAX_GAME,
    MAX_HAND,
    MAX_ID,
    MAX_KIND,
    MAX_MESSAGE,
    MAX_PROOF_ROWS,
    MAX_ROW_PAYLOAD,
    MAX_TOTAL,
)
from controller.records.outcomes import OtherOutcome, record_outcome, registered
from controller.records.wire import Amount, Hex64, Ident, Seq, TableId, Timestamp, Total, Wire

VERSION = 1
Box = Annotated[int, Strict(), Field(ge=1, le=MAX_BOX, description="the box (seat) the bet was on")]
Hand = Annotated[int, Strict(), Field(ge=1, le=MAX_HAND, description="the hand of that box (2 and up after a split)")]
Kind = Annotated[str, Field(min_length=1, max_length=MAX_KIND,
                            description="the bet kind: main, ante, a side bet, straight:17, ...")]
Player = Annotated[str | None, Field(max_length=MAX_ID, description="who placed it, if known")]
Source = Annotated[str, Field(max_length=MAX_CODE, description="who or what gave the input (dealer, pit:<sender>, ...)")]


class Bet(Wire):
    """One bet of a closed round."""

    box: Box
    hand: Hand
    kind: Kind
    player: Player
    stake: Amount
    payout: Amount = Field(description="everything returned for this bet: 0 for a loss, the stake for a push or a "
                                       "refund, stake plus winnings for a win (minor units)")


class CorrectedBet(Wire):
    """One bet a correction changed."""

    box: Box
    hand: Hand
    kind: Kind
    player: Player
    stake: Amount
    before: Amount = Field(description="the payout before the correction")
    after: Amount = Field(description="the corrected payout")


class Correction(Wire):
    """A correction of a closed round, approved by the pit."""

    seq: Seq = Field(description="the journal seq of the dealer's request (the correction's id)")
    reason: str = Field(max_length=MAX_MESSAGE, description="why, as the dealer gave it")
    requested_by: Source = Field(description="the source of the request (dealer, ...)")
    requested: Timestamp
    approved_by: Source = Field(description="the pit boss who approved it (the command's sender)")
    approved: Timestamp
    approval: Seq = Field(description="the journal seq of the approving pit command")
    changes: list[CorrectedBet] = Field(max_length=MAX_CHANGES, description="the bets whose payout it changed")
    payout_total_before: Total
    payout_total_after: Total


class JournalRow(Wire):
    """One journal row as the table stores it: enough to recompute its chain hash
    (controller/journal.py ``chain_hash``) and, with the table's journal key, its MAC."""

    seq: Seq = Field(description="the row's journal seq")
    ts: str = Field(max_length=40, description="the row's ts, as stored")
    round: str | None = Field(max_length=MAX_ID, description="the row's round id, as stored")
    kind: str = Field(max_length=MAX_ID, description="the row's kind (pit_command for the approval, round_closed for "
                                                     "the record)")
    source: Source = Field(description="the row's source")
    payload: str = Field(max_length=MAX_ROW_PAYLOAD, description="the row's payload as the journal stores it (JSON "
                                                                 "text, hashed as is)")
    hash: Hex64 = Field(description="the row's chain hash: SHA-256 of the previous hash and this row")
    mac: Hex64 | None = Field(description="HMAC-SHA256 of the row's seq and hash with the journal key; null in "
                                          "an unkeyed journal")


class JournalProof(Wire):
    """The journal rows behind a corrected record: from the pit command that approved its last
    correction through the record's own row."""

    prev: Hex64 = Field(description="the hash of the row before the first row carried")
    rows: list[JournalRow] = Field(min_length=1, max_length=MAX_PROOF_ROWS, description="consecutive rows, oldest first")


class RemoteSettled(Wire):
    """What the studio paid on a closed round's remote bets (a ``remote_settled`` entry)."""

    round: Ident = Field(description="the round")
    id: str = Field(max_length=MAX_ID, description="the studio message's id")
    count: int = Field(ge=0, le=MAX_BETS, description="remote bets settled")
    stake: Total = Field(description="their stakes")
    paid: Total = Field(description="what the studio paid back, returned stakes of winning bets included")
    refunded: Total = Field(description="stakes returned because the round was void or its seal missing")
    drop: Total = Field(description="stake - refunded: the remote drop")
    win: int = Field(ge=-MAX_TOTAL, le=MAX_TOTAL, description="stake - paid: the house's remote win (negative: the "
                                                              "players won)")
    cause: Seq = Field(description="the journal seq of the studio's message")


class RemoteRound(Wire):
    """A remote table's round: the studio's seal that closed its betting, and what it settled."""

    sealed: bool = Field(description="betting closed with the studio's seal; false: without it, every remote bet "
                                     "of the round is returned (docs/studio.md)")
    seal: dict[str, Any] | None = Field(description="the seal as journaled (count, stake, kinds, players, digest, "
                                                    "seq of its journal entry)")
    settled: RemoteSettled | None = Field(None, description="the studio's totals, once they came (a later record only)")


class RoundFields(Wire):
    """What every closed round carries, whatever its game."""

    v: Literal[1] = Field(description="record version")
    table: TableId
    round: Ident = Field(description="the round id, <table>-NNNNNN")
    game: str = Field(min_length=1, max_length=MAX_GAME, description="the game: blackjack, roulette, baccarat, ...")
    opened: Timestamp
    closed: Timestamp
    status: Literal["settled", "void"] = Field(description="void: what still rode was refunded, what was settled "
                                                       "stands (outcome.void says which)")
    dealer: str | None = Field(max_length=MAX_ID, description="the dealer signed in when the round opened, if any")
    shoe: str | None = Field(max_length=MAX_ID, description="the id of the shoe the round was dealt from (card games)")
    shoe_round: int | None = Field(ge=1, le=10_000, description="the round's index in that shoe, 1 for its first")
    outcome: Outcome = Field(description="the game's own (the game's outcome model): cards per box and hand and "
                                         "the dealer's, or the winning number(s); plus burned and void")
    bets: list[Bet] = Field(max_length=MAX_BETS, description="every bet of the round, in the order they were placed")
    stake_total: Total
    payout_total: Total
    corrections: list[Correction] = Field(max_length=MAX_CORRECTIONS, description="approved corrections, oldest first")
    remote: RemoteRound | None = Field(None, description="a table taking remote bets only ([table] remote)")

    @model_validator(mode="after")
    def _totals(self) -> RoundFields:
        if sum(b.stake for b in self.bets) != self.stake_total or sum(b.payout for b in self.bets) != self.payout_total:
            raise ValueError("stake_total or payout_total is not the sum of its bets")
        return self


class RoundRecord(RoundFields):
    """The record as the table journals it (``round_closed``) and ``croupier recall --json`` prints."""


class RoundMessage(RoundFields):
    """``croupier/<table>/round`` (QoS 1): a closed round, the record ``croupier recall --json``
    prints under the feed's envelope; a correction publishes the round again, whole, with one
    more ``corrections`` item."""

    ts: Timestamp = Field(description="when the journal entry was written")
    seq: Seq = Field(description="the record's journal seq: the key to drop duplicates on")
    journal: JournalProof | None = Field(None, description="a corrected record only (since 2026-12): the journal "
                                                           "rows that back it (docs/protocols.md, \"Corrections\")")


def _game_of(data: Any) -> str:
    game = data.get("game") if isinstance(data, Mapping) else getattr(data, "game", None)
    return game if isinstance(game, str) and game in registered() else "*"


def _title(game: str) -> str:
    return "".join(part.title() for part in game.replace("_", "-").split("-"))


@cache
def _typed(base: type[RoundFields], games: tuple[tuple[str, type[Outcome]], ...]) -> Any:
    """One model of ``base`` per game, its ``outcome`` that game's, told apart by ``game``; and
    one for the games not registered here (its schema names them: JSON Schema's ``oneOf``)."""
    kind = base.__name__.removeprefix("Round")
    members: list[Any] = [Annotated[_member(base, game, model), Tag(game)] for game, model in games]
    unknown: dict[str, Any] = {"not": {"enum": [game for game, _ in games]}}
    other = create_model(f"Other{kind}", __base__=base, __module__=__name__,
                         __doc__=f"{base.__doc__} A game not registered here: its outcome as JSON.",
                         game=(str, Field(min_length=1, max_length=MAX_GAME, json_schema_extra=unknown,
                                          description="a game this contract does not type")),
                         outcome=(OtherOutcome, Field(description="the game's outcome, as it came")))
    members.append(Annotated[other, Tag("*")])
    return Annotated[Union[tuple(members)], Discriminator(_game_of)]  # noqa: UP007 (a runtime tuple)


@cache
def _member(base: type[RoundFields], game: str, model: type[Outcome]) -> type[RoundFields]:
    """``base``'s model for one game: its ``outcome`` that game's."""
    kind = base.__name__.removeprefix("Round")
    made: type[RoundFields] = create_model(
        f"{_title(game)}{kind}", __base__=base, __module__=__name__, __doc__=f"{base.__doc__} The {game} game's.",
        game=(Literal[game], Field(description="the game")),  # type: ignore[arg-type]
        outcome=(record_outcome(model), Field(description=f"the {game} outcome")))
    return made


@cache
def _member_adapter(base: type[RoundFields], game: str, model: type[Outcome]) -> TypeAdapter[Any]:
    return TypeAdapter(_member(base, game, model))


def _parse(base: type[RoundFields], data: Any) -> Any:
    """``data`` (a dict or its JSON) as ``base``'s record. A mapping of a registered game is
    read by that game's model, the very one of the union, so a table reading its own records
    imports no other game; the rest, and a record it refuses (for the union's error, which
    names the game), by the union of every game's (``adapter``)."""
    if isinstance(data, Mapping):
        game, games = data.get("game"), registered()
        if isinstance(game, str) and game in games:
            try:
                return _member_adapter(base, game, games[game]).validate_python(data)
            except ValidationError:
                pass
    a = adapter(base)
    return a.validate_json(data) if isinstance(data, (str, bytes)) else a.validate_python(data)


def round_type(base: type[RoundFields] = RoundRecord) -> Any:
    """The union of ``base``'s models, one per game registered now."""
    return _typed(base, tuple(sorted(registered().items())))


#: base -> (the registered games it was built for, its validator): rebuilt only when they change
_ADAPTERS: dict[type[RoundFields], tuple[Mapping[str, type[Outcome]], TypeAdapter[Any]]] = {}


def adapter(base: type[RoundFields] = RoundRecord) -> TypeAdapter[Any]:
    """The validator of ``base``'s records, each with its game's typed outcome."""
    games = registered()
    known = _ADAPTERS.get(base)
    if known is None or known[0] is not games:
        known = _ADAPTERS[base] = (games, TypeAdapter(round_type(base)))
    return known[1]


def parse_record(data: Any) -> RoundRecord:
    """A journaled record (a dict as stored, or its JSON text), typed (pydantic ValidationError)."""
    parsed: RoundRecord = _parse(RoundRecord, data)
    return parsed


def parse_message(data: Any) -> RoundMessage:
    """A feed ``round`` message (a dict or its JSON bytes), typed (pydantic ValidationError)."""
    parsed: RoundMessage = _parse(RoundMessage, data)
    return parsed
