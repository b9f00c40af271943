"""The table's offer: after every step, what it takes now and, for the common commands it would
refuse, why (docs/protocols.md, "The offer"). The table builds one (controller/table/offer.py,
the one place that decides it); the console's buttons, the bet spots' lamps, the pit's ``state``
and the studio's seats all render that one object, so no face decides for itself what the table
takes. ``Outcome`` is the answer to one input: accepted, or refused with its code and reason.

The table builds these without validating (``model_construct``: its own output, on every step);
tests/unit/table/test_offer.py validates every one it builds against these very models."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, Strict

from controller.records.limits import MAX_CODE, MAX_ID, MAX_MESSAGE, MAX_SEQ
from controller.records.wire import Envelope, Ident, Timestamp, Wire

Name = Annotated[str, Field(max_length=MAX_ID)]
Box = Annotated[int, Strict(), Field(ge=1, le=64)]
Phase = Literal["idle", "betting", "playing", "settling", "hold"]


def _seq(description: str, default: Any = ...) -> Any:
    """A list field (read from JSON arrays; a tuple here, so an offer cannot be changed)."""
    return Field(default, strict=False, max_length=4096, description=description)


class Constraints(Wire):
    """What a command is taken with now; a field left out (null) does not constrain it."""

    boxes: tuple[Box, ...] | None = _seq("the boxes it takes (bet: every box of the layout)", None)
    box: Box | None = Field(None, description="decide: the one box that decides now")
    hand: Annotated[int, Strict(), Field(ge=1, le=64)] | None = Field(None, description="decide: its hand")
    options: tuple[Name, ...] | None = _seq("decide: the decisions that box may take", None)
    kinds: tuple[Name, ...] | None = _seq("bet: the bet kinds the form takes (empty: bets are keyed on the "
                                          "game's layout)", None)
    numbers: tuple[Name, ...] | None = _seq("key_result: the pockets the dealer may key", None)
    cards: tuple[Name, ...] | None = _seq("key_card: the cards this shoe can still hold", None)
    deadline: Timestamp | None = Field(None, description="bet: when the betting time ends; null: the dealer closes")
    seated: Name | None = Field(None, description="decide: the remote player seated at that box, whose turn "
                                                  "waits: the studio's decide of that player is taken, the "
                                                  "dealer's refused (see refused)")
    pit_only: bool | None = Field(None, description="a hold's way out only a pit boss takes, with a reason")


class Take(Wire):
    """A command the table takes now, with its constraints."""

    command: Name = Field(description="the command's name (docs/schemas/command.json, pit-command.json)")
    constraints: Constraints = Field(default_factory=Constraints, description="what it is taken with now")


class Refused(Wire):
    """A common command the table would refuse now, with the refusal it would give."""

    command: Name = Field(description="the command's name")
    code: str = Field(max_length=MAX_CODE, description="the refusal's code (the alert's code if it were given)")
    reason: str = Field(max_length=MAX_MESSAGE, description="why, for people")


class Offer(Wire):
    """What the table takes now. Commands bound to no round (sign in and out, a correction, the
    pit's) are not listed: the table takes them whatever it is doing, each checked on its own."""

    phase: Phase = Field(description="idle: no round open; hold: the table waits for the dealer or the pit")
    prompt: str = Field(max_length=MAX_MESSAGE, description="the dealer's instruction, as the console shows it")
    round: Name | None = Field(None, description="the open round (null: none)")
    takes: tuple[Take, ...] = _seq("every round command the table takes now, in the order a face shows them")
    refused: tuple[Refused, ...] = _seq("common round commands the table refuses now, and why")

    def take(self, command: str) -> Take | None:
        """The offer's take of ``command`` (None: not taken now)."""
        return next((t for t in self.takes if t.command == command), None)

    def refusal(self, command: str) -> Refused | None:
        """Why ``command`` is refused now, if the offer says."""
        return next((r for r in self.refused if r.command == command), None)


class OutcomeBody(Wire):
    """What became of one input (the same fields the console's answer and the feed carry)."""

    seq: Annotated[int, Strict(), Field(ge=0, le=MAX_SEQ)] = Field(
        description="the input's journal seq (0: refused before it was journaled)")
    source: Annotated[str, Field(max_length=MAX_CODE)] = Field(description="who gave it: dealer, console:<user>, "
                                                                            "spot:3, pit:<sender>, shoe, ...")
    kind: Name = Field(description="the input's kind: command, pit_command, device, studio, draw")
    command: Name | None = Field(None, description="the command or event type, when it has one")
    id: Ident | None = Field(None, description="a pit or studio command's own id")
    status: Literal["accepted", "refused"] = Field(description="accepted: applied (its effects carried out); "
                                                             "refused: it changed nothing")
    code: str | None = Field(None, max_length=MAX_CODE, description="refused: the refusal's code")
    reason: str | None = Field(None, max_length=MAX_MESSAGE, description="refused: why, for people")


class OutcomeMessage(OutcomeBody, Envelope):
    """``croupier/<table>/outcome`` (QoS 1, never retained): what became of each input."""

    model_config = ConfigDict(title="feed outcome")
