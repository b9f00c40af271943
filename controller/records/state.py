"""The table's state as the pit and the studio read it: the retained ``state`` leaf (the table
now) and the retained ``betting`` leaf (the open round's betting status, for the studio)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, Strict

from controller.records.limits import MAX_CODE, MAX_GAME, MAX_ID, MAX_MESSAGE, MAX_SEQ
from controller.records.offer import Offer, Take
from controller.records.round import CorrectedBet
from controller.records.wire import Amount, Envelope, Seq, Timestamp, Wire

Name = Annotated[str, Field(max_length=MAX_ID)]
Currency = Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
#: minor-unit digits of a currency (2: cents); the config takes 0 to 3
Digits = Annotated[int, Strict(), Field(ge=0, le=3)]
Game = Annotated[str, Field(min_length=1, max_length=MAX_GAME, description="the game: blackjack, roulette, ...")]
JournalSeq = Annotated[int, Strict(), Field(ge=0, le=MAX_SEQ)]


class Limit(Wire):
    min: Amount = Field(description="the smallest stake of this kind (minor units)")
    max: Amount = Field(description="the largest stake of this kind (minor units)")


class ShoeView(Wire):
    id: Name | None = Field(description="the shoe's id, once loaded")
    cards_dealt: int | None = Field(ge=0, le=10_000, description="the number of the last card dealt from it")
    cut_card_seen: bool = Field(description="the cut card is out: this shoe ends after the round")
    to_burn: int = Field(ge=0, le=10_000, description="cards still to burn before the first round of this shoe")


class HoldView(Wire):
    code: str = Field(max_length=MAX_CODE, description="why the table holds (the code of the alert that raised it)")
    message: str = Field(max_length=MAX_MESSAGE, description="what happened, for people")
    options: list[Name] = Field(max_length=32, description="the ways out: burn, void_round, resume, dismiss, ...")
    cause: JournalSeq = Field(description="the journal seq of the input that raised it")
    cards: list[Name] = Field(max_length=416, description="cards out of the shoe while holding, set aside on release")


class DeviceHealth(Wire):
    online: bool = Field(description="the device reported since this process started, and has not gone")
    fault: str | None = Field(max_length=MAX_MESSAGE, description="an uncleared fault, e.g. the shoe's code;text")


class OpenAlert(Wire):
    seq: Seq = Field(description="the alert's seq, to acknowledge it by")
    code: str | None = Field(max_length=MAX_CODE, description="the alert's code")
    message: str | None = Field(max_length=MAX_MESSAGE, description="the alert's message")
    round: Name | None = Field(description="the round it was raised in")


class PendingCorrection(Wire):
    correction: Seq = Field(description="the id to approve it by (approve_correction)")
    round: Name = Field(description="the closed round to correct")
    reason: str = Field(max_length=MAX_MESSAGE, description="why, as the dealer gave it")
    requested_by: str = Field(max_length=MAX_CODE, description="the source of the request (dealer, ...)")
    changes: list[CorrectedBet] = Field(default_factory=list, max_length=64,
                                        description="the bets it would change, with their payout before and after")


class JournalHead(Wire):
    """The journal's newest row, for checking later that it was not rewritten."""

    seq: JournalSeq = Field(description="its seq (0: an empty journal)")
    hash: str | None = Field(pattern=r"^[0-9a-f]{64}$", description="its chain hash, hex (null: an empty journal)")


class PaceView(Wire):
    """Rounds per hour against the table's target (docs/protection.md)."""

    rounds_per_hour: float | None = Field(description="rounds closed in the last window_s, scaled to an hour; "
                                                      "null: not yet known")
    target: int | None = Field(ge=1, le=100_000, description="the target in rounds per hour ([protection] pace_target)")
    window_s: int = Field(ge=1, le=86_400, description="the window it is counted over, in seconds of the table's clock")


class StateMessage(Envelope):
    """``croupier/<table>/state`` (QoS 1, retained): the table as the pit sees it now."""

    model_config = ConfigDict(title="feed state")

    game: Game
    preset: Name | None = Field(description="the rule preset, e.g. ru6, european")
    phase: Literal["idle", "betting", "playing", "settling", "hold"] = Field(
        description="idle: no round open; hold: the table waits for the dealer or the pit (see hold)")
    dealer: Name | None = Field(description="the dealer signed in, if any")
    closing: bool = Field(description="true once the pit asked to close after this round")
    limits: dict[Name, Limit] = Field(max_length=4096, description="table limits by bet kind (minor units)")
    shoe: ShoeView = Field(description="the shoe in use (card games)")
    hold: HoldView | None = Field(description="why the table holds, and the ways out; null when it does not")
    devices: dict[Name, DeviceHealth] = Field(max_length=64, description="by device: shoe, wheel, spots")
    alerts_open: list[OpenAlert] = Field(max_length=4096, description="error alerts not yet acknowledged, oldest first")
    corrections_pending: list[PendingCorrection] = Field(max_length=1000,
                                                         description="corrections waiting for the pit's approval")
    journal: JournalHead = Field(description="the journal's head when this state was taken "
                                             "(croupier verify-journal checks a head is still on the chain)")
    currency: Currency | None = Field(None, description="ISO 4217 code of the table's money ([table] currency)")
    currency_digits: Digits | None = Field(None, description="minor-unit digits of that currency (2: cents)")
    pace: PaceView | None = Field(None, description="the table's pace against its target; null: not yet known")
    offer: Offer | None = Field(None, description="what the table takes now, and why it refuses the common "
                                                  "commands it does not (docs/protocols.md, The offer)")


class BettingMessage(Envelope):
    """``croupier/<table>/betting`` (QoS 1, retained): the open round's betting status, for the
    studio (docs/studio.md)."""

    model_config = ConfigDict(title="feed betting")

    status: Literal["open", "sealing", "closed", "none"] = Field(
        description="open: bets are taken; sealing: the felt is closed and the table waits for the studio's seal; "
                    "closed: the close is journaled (sealed says whether with the seal); none: no round open")
    opened: Timestamp | None = Field(description="when betting opened (the journaled open)")
    deadline: Timestamp | None = Field(description="the betting time's end; null: the dealer closes")
    seq: JournalSeq = Field(description="the journal seq of the entry that made this status")
    game: Game
    currency: Currency = Field(description="ISO 4217 code of the table's money")
    digits: Digits = Field(description="minor-unit digits of that currency")
    limits: dict[Name, Annotated[list[Amount], Field(min_length=2, max_length=2)]] = Field(
        max_length=4096, description="per bet kind [min, max] in minor units")
    remote: bool = Field(description="the table takes remote bets (it waits for the seal)")
    sealed: bool | None = Field(None, description="closed: whether the seal was in the close")
    grace_end: Timestamp | None = Field(None, description="sealing: when the table closes without the seal")
    seats: dict[str, dict[str, Any]] | None = Field(
        None, description="remote players seated, per box: player, name, connected (docs/studio.md, Seats)")
    turn: dict[str, Any] | None = Field(
        None, description="the seated box's decision the table waits on: round, box, hand, player, name, "
                          "decisions, started, deadline, decision_ms")
    decided: dict[str, Any] | None = Field(
        None, description="the last decision at a seated box: round, box, hand, decision, cause, refunded, request, seq")
    cards: dict[str, Any] | None = Field(None, description="with seats: the open round's outcome so far (its cards)")
    takes: list[Take] | None = Field(None, max_length=64, description="with seats: the table's offer for the seated "
                                                                      "boxes now (decide: box, hand, options), the "
                                                                      "one the console shows")
