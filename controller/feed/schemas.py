"""The pit feed's messages as models: what each field of ``event``, ``round``, ``alert``,
``state``, ``prompt`` and ``ledger`` holds (docs/protocols.md, "Pit feed").

The feed builds its messages as plain dicts (``messages.py``, ``ledger.py``, the table's
``view.py`` and ``record.py``); these models describe those dicts exactly as they go out, so a
pit client can check what it reads against docs/schemas/feed-*.json, and the tests check what
a real table publishes against them. Money is integer minor units throughout: a float, a
string or a bool where an amount belongs fails validation (``strict``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

Amount = Annotated[int, Field(ge=0, description="integer minor units (cents)")]
Seq = Annotated[int, Field(ge=1, description="the journal entry's seq: the key to drop duplicates on")]


def _aware(value: str) -> str:
    """An ISO 8601 time with its UTC offset (a naive time cannot be ordered against the others)."""
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise ValueError("not an ISO 8601 time") from None
    if parsed.tzinfo is None:
        raise ValueError("a time without its UTC offset")
    return value


Timestamp = Annotated[str, AfterValidator(_aware),
                      Field(description="UTC, ISO 8601 with milliseconds, e.g. 2026-11-29T16:01:00.000Z")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Envelope(_Strict):
    """What every feed message carries."""

    v: Literal[1] = Field(description="message version")
    table: str = Field(description="the table id (the topic's <table>)")
    round: str | None = Field(description="the round this message belongs to (the newest round for snapshots); "
                                          "null before the table's first round")
    ts: Timestamp = Field(description="when the journal entry was written, or the snapshot taken")


class EventMessage(Envelope):
    """``croupier/<table>/event`` (QoS 1): every journal entry, in journal order."""

    model_config = ConfigDict(title="feed event")

    seq: Seq
    kind: str = Field(description="the entry's kind: device, command, pit_command, draw, studio (inputs); alert, "
                                  "round_closed, remote_settled, table_started (what the table wrote)")
    source: str = Field(description="who or what gave the input: a device (shoe, wheel, spot-3), dealer, "
                                    "player:<id>, pit:<sender>, pit-command (refused pit commands), table")
    payload: dict[str, Any] = Field(description="the entry as journaled; for alert and round_closed the "
                                                "same fields as the alert and round messages")


class Bet(_Strict):
    """One bet of a closed round."""

    box: int = Field(ge=1, description="the box (seat) the bet was on")
    hand: int = Field(ge=1, description="the hand of that box (2 and up after a split)")
    kind: str = Field(description="the bet kind: main, ante, a side bet, straight:17, ...")
    player: str | None = Field(description="who placed it, if known")
    stake: Amount
    payout: Amount = Field(description="everything returned for this bet: 0 for a loss, the stake for a push or a "
                                       "refund, stake plus winnings for a win (minor units)")


class CorrectedBet(_Strict):
    """One bet a correction changed."""

    box: int = Field(ge=1, description="the bet's box")
    hand: int = Field(ge=1, description="the bet's hand")
    kind: str = Field(description="the bet's kind")
    player: str | None = Field(description="the bet's player, if known")
    stake: Amount
    before: Amount = Field(description="the payout before the correction")
    after: Amount = Field(description="the corrected payout")


class Correction(_Strict):
    """A correction of a closed round, approved by the pit."""

    seq: int = Field(ge=1, description="the journal seq of the dealer's request (the correction's id)")
    reason: str = Field(description="why, as the dealer gave it")
    requested_by: str = Field(description="the source of the request (dealer, ...)")
    requested: Timestamp
    approved_by: str = Field(description="the pit boss who approved it (the command's sender)")
    approved: Timestamp
    approval: int = Field(ge=1, description="the journal seq of the approving pit command")
    changes: list[CorrectedBet] = Field(description="the bets whose payout it changed")
    payout_total_before: Amount
    payout_total_after: Amount


Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 or HMAC-SHA256, 64 lowercase hex digits")]


class JournalRow(_Strict):
    """One journal row as the table stores it: enough to recompute its chain hash
    (controller/journal.py ``chain_hash``) and, with the table's journal key, its MAC."""

    seq: int = Field(ge=1, description="the row's journal seq")
    ts: str = Field(description="the row's ts, as stored")
    round: str | None = Field(description="the row's round id, as stored")
    kind: str = Field(description="the row's kind (pit_command for the approval, round_closed for the record)")
    source: str = Field(description="the row's source")
    payload: str = Field(description="the row's payload as the journal stores it (JSON text, hashed as is)")
    hash: Hex64 = Field(description="the row's chain hash: SHA-256 of the previous hash and this row")
    mac: Hex64 | None = Field(description="HMAC-SHA256 of the row's seq and hash with the journal key; null in "
                                          "an unkeyed journal")


class JournalProof(_Strict):
    """The journal rows behind a corrected record: from the pit command that approved its last
    correction through the record's own row."""

    prev: Hex64 = Field(description="the hash of the row before the first row carried")
    rows: list[JournalRow] = Field(min_length=1, max_length=64, description="consecutive rows, oldest first")


class RemoteSettled(_Strict):
    """What the studio paid on a closed round's remote bets (a ``remote_settled`` entry)."""

    round: str = Field(description="the round")
    id: str = Field(description="the studio message's id")
    count: int = Field(ge=0, description="remote bets settled")
    stake: Amount = Field(description="their stakes")
    paid: int = Field(ge=0, description="what the studio paid back, returned stakes of winning bets included")
    refunded: Amount = Field(description="stakes returned because the round was void or its seal missing")
    drop: Amount = Field(description="stake - refunded: the remote drop")
    win: int = Field(description="stake - paid: the house's remote win (negative: the players won)")
    cause: int = Field(ge=1, description="the journal seq of the studio's message")


class RemoteRound(_Strict):
    """A remote table's round: the studio's seal that closed its betting, and what it settled."""

    sealed: bool = Field(description="betting closed with the studio's seal; false: without it, every remote bet "
                                     "of the round is returned (docs/studio.md)")
    seal: dict[str, Any] | None = Field(description="the seal as journaled (count, stake, kinds, players, digest, "
                                                    "seq of its journal entry)")
    settled: RemoteSettled | None = Field(description="the studio's totals, once they came (a later record only)")


class RoundMessage(Envelope):
    """``croupier/<table>/round`` (QoS 1): a closed round, the record ``croupier recall --json``
    prints; a correction publishes the round again, whole, with one more ``corrections`` item."""

    model_config = ConfigDict(title="feed round")

    round: str = Field(description="the round id, <table>-NNNNNN")
    seq: Seq
    game: str = Field(description="the game: blackjack, roulette, baccarat, ...")
    opened: Timestamp
    closed: Timestamp
    status: Literal["settled", "void"] = Field(description="void: what still rode was refunded, what was settled "
                                                       "stands (outcome.void says which)")
    dealer: str | None = Field(description="the dealer signed in when the round opened, if any")
    shoe: str | None = Field(description="the id of the shoe the round was dealt from (card games)")
    shoe_round: int | None = Field(ge=1, description="the round's index in that shoe, 1 for its first")
    outcome: dict[str, Any] = Field(description="the game's own: cards per box and hand and the dealer's, or the "
                                                "winning number(s)")
    bets: list[Bet] = Field(description="every bet of the round, in the order they were placed")
    stake_total: Amount
    payout_total: Amount
    corrections: list[Correction] = Field(description="approved corrections, oldest first")
    journal: JournalProof | None = Field(None, description="a corrected record only (since 2026-12): the journal "
                                                           "rows that back it (docs/protocols.md, \"Corrections\")")


    remote: RemoteRound | None = Field(None, description="a table taking remote bets only ([table] remote)")


class AlertMessage(Envelope):
    """``croupier/<table>/alert`` (QoS 1): procedure errors, holds, device faults and
    disconnects, refused input, pit actions. Besides the fields below an alert may carry details
    of its code (``cards``, ``n``, ``raw``, ``dealer``, ``by``, ...), named in docs/pit.md."""

    model_config = ConfigDict(extra="allow", title="feed alert")

    seq: Seq = Field(description="the alert's journal seq: the id the pit acknowledges it by")
    severity: Literal["info", "warning", "error"] = Field(
        description="error: needs the pit (open until acknowledged); warning: refused or odd input; info: a fact")
    code: str = Field(description="stable, dotted: input.refused, device.offline, blackjack.dealer.stands, ...")
    message: str = Field(description="one sentence for people")
    cause: int | None = Field(None, ge=0, description="the journal seq of the input that raised it (0: none)")
    hold: bool | None = Field(None, description="true when the table holds until the pit or dealer acts")
    options: list[str] | None = Field(None, description="the ways out of the hold: burn, void_round, resume, ...")
    source: str | None = Field(None, description="input.refused: the source refused (spot:3, pit, dealer, ...)")
    count: int | None = Field(None, ge=1, description="input.refused: how many inputs this alert counts")
    codes: dict[str, int] | None = Field(None, description="input.refused: those inputs by refusal code "
                                                           "(input.invalid, input.rate_limited, ...)")
    reason: str | None = Field(None, description="command_refused: why the pit command was refused")
    raw: str | None = Field(None, description="the start of the refused input, as text")
    id: str | None = Field(None, description="command_refused: the refused command's id, if it had one")
    sender: str | None = Field(None, description="command_refused: the refused command's sender, if it had one")


class Limit(_Strict):
    min: Amount = Field(description="the smallest stake of this kind (minor units)")
    max: Amount = Field(description="the largest stake of this kind (minor units)")


class ShoeView(_Strict):
    id: str | None = Field(description="the shoe's id, once loaded")
    cards_dealt: int | None = Field(ge=0, description="the number of the last card dealt from it")
    cut_card_seen: bool = Field(description="the cut card is out: this shoe ends after the round")
    to_burn: int = Field(ge=0, description="cards still to burn before the first round of this shoe")


class HoldView(_Strict):
    code: str = Field(description="why the table holds (the code of the alert that raised it)")
    message: str = Field(description="what happened, for people")
    options: list[str] = Field(description="the ways out: burn, void_round, resume, dismiss, ...")
    cause: int = Field(ge=0, description="the journal seq of the input that raised it")
    cards: list[str] = Field(description="cards out of the shoe while holding, set aside on release")


class DeviceHealth(_Strict):
    online: bool = Field(description="the device reported since this process started, and has not gone")
    fault: str | None = Field(description="an uncleared fault, e.g. the shoe's code;text")


class OpenAlert(_Strict):
    seq: int = Field(ge=1, description="the alert's seq, to acknowledge it by")
    code: str | None = Field(description="the alert's code")
    message: str | None = Field(description="the alert's message")
    round: str | None = Field(description="the round it was raised in")


class PendingCorrection(_Strict):
    correction: int = Field(ge=1, description="the id to approve it by (approve_correction)")
    round: str = Field(description="the closed round to correct")
    reason: str = Field(description="why, as the dealer gave it")
    requested_by: str = Field(description="the source of the request (dealer, ...)")
    changes: list[CorrectedBet] = Field(default_factory=list,
                                        description="the bets it would change, with their payout before and after")


class JournalHead(_Strict):
    """The journal's newest row, for checking later that it was not rewritten."""

    seq: int = Field(ge=0, description="its seq (0: an empty journal)")
    hash: str | None = Field(description="its chain hash, hex (null: an empty journal)")


class PaceView(_Strict):
    """Rounds per hour against the table's target (docs/protection.md)."""

    rounds_per_hour: float | None = Field(description="rounds closed in the last window_s, scaled to an hour; "
                                                      "null: not yet known")
    target: int | None = Field(description="the target in rounds per hour ([protection] pace_target)")
    window_s: int = Field(ge=1, description="the window it is counted over, in seconds of the table's clock")


class StateMessage(Envelope):
    """``croupier/<table>/state`` (QoS 1, retained): the table as the pit sees it now."""

    model_config = ConfigDict(title="feed state")

    game: str = Field(description="the game: blackjack, roulette, baccarat, ...")
    preset: str | None = Field(description="the rule preset, e.g. ru6, european")
    phase: Literal["idle", "betting", "playing", "settling", "hold"] = Field(
        description="idle: no round open; hold: the table waits for the dealer or the pit (see hold)")
    dealer: str | None = Field(description="the dealer signed in, if any")
    closing: bool = Field(description="true once the pit asked to close after this round")
    limits: dict[str, Limit] = Field(description="table limits by bet kind (minor units)")
    shoe: ShoeView = Field(description="the shoe in use (card games)")
    hold: HoldView | None = Field(description="why the table holds, and the ways out; null when it does not")
    devices: dict[str, DeviceHealth] = Field(description="by device: shoe, wheel, spots")
    alerts_open: list[OpenAlert] = Field(description="error alerts not yet acknowledged, oldest first")
    corrections_pending: list[PendingCorrection] = Field(description="corrections waiting for the pit's approval")
    journal: JournalHead = Field(description="the journal's head when this state was taken "
                                             "(croupier verify-journal checks a head is still on the chain)")
    currency: str | None = Field(None, pattern=r"^[A-Z]{3}$",
                                 description="ISO 4217 code of the table's money ([table] currency)")
    currency_digits: int | None = Field(None, ge=0, le=4,
                                        description="minor-unit digits of that currency (2: cents)")
    pace: PaceView | None = Field(None, description="the table's pace against its target; null: not yet known")


class PromptMessage(Envelope):
    """``croupier/<table>/prompt`` (QoS 1, retained): the dealer's current instruction."""

    model_config = ConfigDict(title="feed prompt")

    text: str = Field(description="as the dealer's console shows it, e.g. 'Open betting'")


class LedgerMessage(Envelope):
    """``croupier/<table>/ledger`` (QoS 1, retained): totals since the journal began, from the
    closed rounds (a corrected round counts once, with its latest record)."""

    model_config = ConfigDict(title="feed ledger")

    round: str | None = Field(description="the last round counted")
    rounds_settled: int = Field(ge=0, description="rounds closed settled")
    rounds_void: int = Field(ge=0, description="rounds closed void (stakes refunded)")
    stake_total: Amount = Field(description="stakes of settled rounds and of the bets that stood in void rounds (minor units)")
    payout_total: Amount = Field(description="what those bets paid back (minor units)")
    void_stake_total: Amount = Field(description="stakes void rounds returned (minor units); the bets that stood "
                                                 "in a void round count in stake_total and payout_total")
    seq: int = Field(ge=0, description="the journal entry these totals run through")
    remote_rounds: int = Field(0, ge=0, description="rounds the studio settled remote bets on")
    remote_stake_total: Amount = Field(0, description="their remote stakes (each round's latest totals)")
    remote_paid_total: int = Field(0, ge=0, description="what the studio paid back on them")
    remote_refunded_total: Amount = Field(0, description="remote stakes returned (void rounds, missing seals)")


class BettingMessage(Envelope):
    """``croupier/<table>/betting`` (QoS 1, retained): the open round's betting status, for the
    studio (docs/studio.md)."""

    model_config = ConfigDict(title="feed betting")

    status: Literal["open", "sealing", "closed", "none"] = Field(
        description="open: bets are taken; sealing: the felt is closed and the table waits for the studio's seal; "
                    "closed: the close is journaled (sealed says whether with the seal); none: no round open")
    opened: Timestamp | None = Field(description="when betting opened (the journaled open)")
    deadline: Timestamp | None = Field(description="the betting time's end; null: the dealer closes")
    seq: int = Field(ge=0, description="the journal seq of the entry that made this status")
    game: str = Field(description="the game")
    currency: str = Field(pattern=r"^[A-Z]{3}$", description="ISO 4217 code of the table's money")
    digits: int = Field(ge=0, le=4, description="minor-unit digits of that currency")
    limits: dict[str, Annotated[list[int], Field(min_length=2, max_length=2)]] = Field(
        description="per bet kind [min, max] in minor units")
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


#: topic leaf -> the model of what is published there (``online`` is a bare ``1`` or ``0``)
FEED_MESSAGES: dict[str, type[Envelope]] = {
    "event": EventMessage,
    "round": RoundMessage,
    "alert": AlertMessage,
    "state": StateMessage,
    "prompt": PromptMessage,
    "ledger": LedgerMessage,
    "betting": BettingMessage,
}


def validate(leaf: str, payload: bytes) -> Envelope:
    """The message published on ``croupier/<table>/<leaf>``, checked (pydantic ValidationError)."""
    return FEED_MESSAGES[leaf].model_validate_json(payload)
