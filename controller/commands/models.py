"""Every command people give the table, as one pydantic model each, with one set of limits.

A dealer at the terminal or the console, a pit boss at the console or the dashboard, a bet
spot's press and a simulated player all give these same models; the dealer line's parser, the
console's requests and buttons, the pit's wire format, the published JSON Schemas
(docs/schemas/) and the table core's dispatch are derived from them (docs/architecture.md,
"One command model").

Whole numbers only (``1050.5`` or ``"1000"`` is no amount), money in minor units within
``1..MAX_AMOUNT``, box and hand numbers in range, card text, bounded printable strings, no
argument the command does not take. Whether a command is *allowed now* (betting open, the
box's turn, the table limits, a hold) is still the table core's call: these models guarantee
that the core never sees a value of the wrong type or size, so a journaled command can always
be replayed.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, Strict, StringConstraints

#: the largest amount anybody may stake or be paid in one bet, in minor units
MAX_AMOUNT = 10**12
MAX_BOX = 99
MAX_HAND = 16
#: payout rows one correction may change
MAX_CHANGES = 64
#: printable ASCII without blanks at either end (logs, journals and prompts show it safely)
PRINTABLE = r"^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$"

Money = Annotated[int, Strict(), Field(gt=0, le=MAX_AMOUNT)]
Payout = Annotated[int, Strict(), Field(ge=0, le=MAX_AMOUNT)]
Box = Annotated[int, Strict(), Field(ge=1, le=MAX_BOX)]
Hand = Annotated[int, Strict(), Field(ge=1, le=MAX_HAND)]
Name = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=PRINTABLE)]
Reason = Annotated[str, StringConstraints(min_length=1, max_length=200, pattern=PRINTABLE)]
RoundRef = Name
BetKind = Annotated[str, StringConstraints(min_length=1, max_length=48, pattern=r"^[A-Za-z0-9][A-Za-z0-9_+:\-]*$")]
Action = Annotated[str, StringConstraints(min_length=1, max_length=24, pattern=r"^[a-z][a-z_]*$")]
Card = Annotated[str, StringConstraints(pattern=r"^(?:10|[2-9TJQKAtjqka])[SHDCshdc]$")]
DealerId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.\-]{1,32}$")]
Pocket = (Annotated[int, Strict(), Field(ge=0, le=36)]
          | Annotated[str, StringConstraints(pattern=r"^(?:00|[0-9]|[12][0-9]|3[0-6])$")])
#: an alert is named by its journal seq (every alert message carries it)
AlertSeq = Annotated[int, Strict(), Field(ge=1, le=2**53)]
#: a correction is named by its journal seq; the dashboard sends it as text, the console as a number
CorrectionRef = Annotated[int, Strict(), Field(ge=1, le=2**53)] | Name

#: what a field must be, said the way the dealer reads it (the message of a refusal)
EXPECTED = {
    "amount": f"a whole number of minor units (cents) from 1 to {MAX_AMOUNT}",
    "payout": f"a whole number of minor units (cents) from 0 to {MAX_AMOUNT}",
    "box": f"a box number from 1 to {MAX_BOX}",
    "hand": f"a hand number from 1 to {MAX_HAND}",
    "target": f"a box number from 1 to {MAX_BOX}, or dealer",
    "cards_dealt": "a number of cards from 0 to 10",
    "card": "a card such as AH, TS or 10D",
    "discard": "a card such as AH, TS or 10D",
    "dealer_cards": "a list of up to 5 cards",
    "number": "a pocket from 0 to 36, or 00",
    "player": "a name of 1 to 64 printable characters",
    "kind": "a bet kind such as main, ante, 21+3 or straight:17",
    "action": "a decision such as hit, stand or double",
    "reason": "text of 1 to 200 printable characters",
    "round": "a round id such as t1-000004",
    "changes": f"a list of 1 to {MAX_CHANGES} changes {{box, hand, kind, payout, player?}}",
    "dealer": "a dealer id of 1 to 32 letters, digits, '_', '.' or '-'",
    "alert": "an alert's journal seq, a whole number from 1",
    "correction": "a correction's journal seq",
}

DEALER, PIT = "dealer", "pit"


class Command(BaseModel):
    """One command. The class variables say who gives it and when it is taken."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    #: who may give it: the dealer (dealer line, console; journaled as ``command``) and/or the pit
    #: (dashboard, a pit boss at the console; journaled as ``pit_command``)
    givers: ClassVar[frozenset[str]] = frozenset((DEALER,))
    #: taken while the table holds (it does not touch the round)
    during_hold: ClassVar[bool] = False
    #: a way out of a hold, taken only where the hold names it
    releases_hold: ClassVar[bool] = False
    #: about the open round: the console checks it against the round the screen showed and
    #: against what it offers now (false: a shift change, a correction of a closed round)
    round_bound: ClassVar[bool] = True
    #: the arguments the pit must give although the dealer need not (the round it voids)
    pit_needs: ClassVar[tuple[str, ...]] = ()
    #: the console's button text
    label: ClassVar[str] = ""

    @classmethod
    def name(cls) -> str:
        return str(cls.model_fields["command"].default)

    def arguments(self) -> dict[str, object]:
        """The arguments given (unset ones left out), without the command's name."""
        return self.model_dump(exclude_none=True, exclude={"command"})

    def journal_form(self) -> dict[str, object]:
        """The ``command`` entry's payload: ``{"command": name, ...arguments given}``."""
        return self.model_dump(exclude_none=True)


class OpenRound(Command):
    command: Literal["open_round"] = "open_round"
    label: ClassVar[str] = "Open betting"


class Bet(Command):
    command: Literal["bet"] = "bet"
    box: Box
    amount: Money
    kind: BetKind | None = None
    player: Name | None = None
    label: ClassVar[str] = "Key a bet"


class ClearBets(Command):
    command: Literal["clear_bets"] = "clear_bets"
    box: Box
    player: Name | None = None


class CloseBetting(Command):
    command: Literal["close_betting"] = "close_betting"
    label: ClassVar[str] = "Close betting"


class Decide(Command):
    command: Literal["decide"] = "decide"
    box: Box
    action: Action
    hand: Hand | None = None
    player: Name | None = None
    amount: Money | None = None


class Settle(Command):
    command: Literal["settle"] = "settle"
    label: ClassVar[str] = "Settle"


class KeyCard(Command):
    command: Literal["key_card"] = "key_card"
    card: Card


class Burn(Command):
    command: Literal["burn"] = "burn"
    releases_hold: ClassVar[bool] = True
    label: ClassVar[str] = "Burn the held cards"


class VoidRound(Command):
    """``round``, when given, must be the open round (the pit always names it)."""

    command: Literal["void_round"] = "void_round"
    reason: Reason | None = None
    round: RoundRef | None = None
    givers: ClassVar[frozenset[str]] = frozenset((DEALER, PIT))
    releases_hold: ClassVar[bool] = True
    pit_needs: ClassVar[tuple[str, ...]] = ("round",)
    label: ClassVar[str] = "Void the round"


class NewShoe(Command):
    command: Literal["new_shoe"] = "new_shoe"
    label: ClassVar[str] = "New shoe loaded"


class Change(BaseModel):
    """One payout row of a correction."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    box: Box
    hand: Hand
    kind: BetKind
    payout: Payout
    player: Name | None = None


class Correct(Command):
    """A correction of a closed round's payouts, pending until the pit approves it."""

    command: Literal["correct"] = "correct"
    round: RoundRef
    changes: Annotated[list[Change], Field(min_length=1, max_length=MAX_CHANGES)]
    reason: Reason
    round_bound: ClassVar[bool] = False


class Exchange(Command):
    command: Literal["exchange"] = "exchange"
    box: Box
    discard: Card
    player: Name | None = None


class Misdeal(Command):
    command: Literal["misdeal"] = "misdeal"
    target: Box | Literal["dealer"]
    cards_dealt: Annotated[int, Strict(), Field(ge=0, le=10)]
    dealer_cards: Annotated[list[Card], Field(max_length=5)] | None = None


class KeyResult(Command):
    command: Literal["key_result"] = "key_result"
    number: Pocket


class SignIn(Command):
    command: Literal["sign_in"] = "sign_in"
    dealer: DealerId
    during_hold: ClassVar[bool] = True
    round_bound: ClassVar[bool] = False


class SignOut(Command):
    command: Literal["sign_out"] = "sign_out"
    during_hold: ClassVar[bool] = True
    round_bound: ClassVar[bool] = False


class Resume(Command):
    command: Literal["resume"] = "resume"
    releases_hold: ClassVar[bool] = True
    label: ClassVar[str] = "Resume the round"


class Dismiss(Command):
    """The way out of a hold that has nothing to undo (a journal entry the table could not
    apply); an integrity hold is the pit's to release, with a ``reason``."""

    command: Literal["dismiss"] = "dismiss"
    reason: Reason | None = None
    round: RoundRef | None = None
    givers: ClassVar[frozenset[str]] = frozenset((DEALER, PIT))
    releases_hold: ClassVar[bool] = True
    label: ClassVar[str] = "Dismiss"


class PitOrder(Command):
    """A command only the pit gives, about the table rather than the open round."""

    givers: ClassVar[frozenset[str]] = frozenset((PIT,))
    round_bound: ClassVar[bool] = False


class CloseAfterRound(PitOrder):
    command: Literal["close_after_round"] = "close_after_round"
    round: RoundRef | None = None


class Reopen(PitOrder):
    command: Literal["reopen"] = "reopen"
    round: RoundRef | None = None


class ApproveCorrection(PitOrder):
    command: Literal["approve_correction"] = "approve_correction"
    correction: CorrectionRef
    round: RoundRef | None = None


class RejectCorrection(PitOrder):
    """The pit turns a pending correction down, with the reason the dealer is told."""

    command: Literal["reject_correction"] = "reject_correction"
    correction: CorrectionRef
    reason: Reason
    round: RoundRef | None = None


class AcknowledgeAlert(PitOrder):
    command: Literal["acknowledge_alert"] = "acknowledge_alert"
    alert: AlertSeq
    round: RoundRef | None = None


#: every command, in the order the dealer's help lists them
MODELS: tuple[type[Command], ...] = (
    OpenRound, Bet, ClearBets, CloseBetting, Decide, Settle, KeyCard, Burn, VoidRound, NewShoe, Correct,
    Exchange, Misdeal, KeyResult, SignIn, SignOut, Resume, Dismiss,
    CloseAfterRound, Reopen, ApproveCorrection, RejectCorrection, AcknowledgeAlert,
)
BY_NAME: dict[str, type[Command]] = {m.name(): m for m in MODELS}
DEALER_NAMES: tuple[str, ...] = tuple(m.name() for m in MODELS if DEALER in m.givers)
#: the pit's commands, in the order the dashboard lists them
PIT_NAMES: tuple[str, ...] = ("close_after_round", "void_round", "approve_correction", "reject_correction",
                              "acknowledge_alert", "reopen", "dismiss")
assert set(PIT_NAMES) == {m.name() for m in MODELS if PIT in m.givers}, "every pit command is listed once"
