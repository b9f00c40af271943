"""The pit feed's messages (docs/protocols.md §4, "Pit feed") by topic leaf: the journal's
entries (``event``), the closed round (``round``), ``alert``, ``state``, ``prompt``, ``ledger``,
``betting`` and ``outcome`` (what became of each input). The table and its feed build these
(plain dicts, journaled then published as is: no model is built on the hot path); the pit, the
back office, protection and the studio read them through ``parse``; docs/schemas/feed-*.json are
these models' JSON Schemas."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field, TypeAdapter

from controller.records.alert import AlertMessage
from controller.records.limits import MAX_CODE, MAX_ID, MAX_MESSAGE
from controller.records.offer import OutcomeMessage
from controller.records.round import RoundMessage, adapter, round_type
from controller.records.state import BettingMessage, StateMessage
from controller.records.wire import Envelope, Seq

__all__ = ["FEED_LEAVES", "AlertMessage", "BettingMessage", "EventMessage", "LedgerMessage", "OutcomeMessage",
           "PromptMessage", "StateMessage", "feed_type", "parse"]


class EventMessage(Envelope):
    """``croupier/<table>/event`` (QoS 1): every journal entry, in journal order."""

    model_config = ConfigDict(title="feed event")

    seq: Seq
    kind: str = Field(max_length=MAX_ID, description="the entry's kind: device, command, pit_command, draw, studio "
                                                     "(inputs); alert, round_closed, remote_settled, table_started "
                                                     "(what the table wrote)")
    source: str = Field(max_length=MAX_CODE, description="who or what gave the input: a device (shoe, wheel, spot-3), "
                                                         "dealer, player:<id>, pit:<sender>, pit-command (refused pit "
                                                         "commands), table")
    payload: dict[str, Any] = Field(description="the entry as journaled; for alert and round_closed the "
                                                "same fields as the alert and round messages")


class PromptMessage(Envelope):
    """``croupier/<table>/prompt`` (QoS 1, retained): the dealer's current instruction."""

    model_config = ConfigDict(title="feed prompt")

    text: str = Field(max_length=MAX_MESSAGE, description="as the dealer's console shows it, e.g. 'Open betting'")


class LedgerMessage(Envelope):
    """``croupier/<table>/ledger`` (QoS 1, retained): totals since the journal began, from the
    closed rounds (a corrected round counts once, with its latest record)."""

    model_config = ConfigDict(title="feed ledger")

    round: str | None = Field(max_length=MAX_ID, description="the last round counted")
    rounds_settled: int = Field(ge=0, description="rounds closed settled")
    rounds_void: int = Field(ge=0, description="rounds closed void (stakes refunded)")
    stake_total: int = Field(ge=0, description="stakes of settled rounds and of the bets that stood in void rounds "
                                               "(minor units)")
    payout_total: int = Field(ge=0, description="what those bets paid back (minor units)")
    void_stake_total: int = Field(ge=0, description="stakes void rounds returned (minor units); the bets that stood "
                                                    "in a void round count in stake_total and payout_total")
    seq: int = Field(ge=0, description="the journal entry these totals run through")
    remote_rounds: int = Field(0, ge=0, description="rounds the studio settled remote bets on")
    remote_stake_total: int = Field(0, ge=0, description="their remote stakes (each round's latest totals)")
    remote_paid_total: int = Field(0, ge=0, description="what the studio paid back on them")
    remote_refunded_total: int = Field(0, ge=0, description="remote stakes returned (void rounds, missing seals)")


_MODELS: dict[str, type[Envelope]] = {
    "event": EventMessage,
    "alert": AlertMessage,
    "state": StateMessage,
    "prompt": PromptMessage,
    "ledger": LedgerMessage,
    "betting": BettingMessage,
    "outcome": OutcomeMessage,
}
#: the topic leaves with a model (``online`` is a bare ``1`` or ``0``, ``head`` the journal's head)
FEED_LEAVES: tuple[str, ...] = ("event", "round", "alert", "state", "prompt", "ledger", "betting", "outcome")


def feed_type(leaf: str) -> Any:
    """The model (for ``round``: the union of one model per registered game) of a leaf."""
    return round_type(RoundMessage) if leaf == "round" else _MODELS[leaf]


_ADAPTERS = {leaf: TypeAdapter(model) for leaf, model in _MODELS.items()}


def parse(leaf: str, data: Any) -> Any:
    """The message published on ``croupier/<table>/<leaf>`` (a dict, or its JSON bytes), typed;
    pydantic ValidationError when it is not one (KeyError: no such leaf)."""
    a = adapter(RoundMessage) if leaf == "round" else _ADAPTERS[leaf]
    return a.validate_json(data) if isinstance(data, (str, bytes)) else a.validate_python(data)
