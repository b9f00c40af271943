"""Rounds recomputed by the soak through fresh engines: each round's bets and decisions as the
journal took them, its cards and numbers as the soak's own rig dealt them (never the table's
state). The soak's dealer uses the same replay live, to know when the table wants a card.

The mapping is the game's input contract (docs/rules.md, docs/protocols.md): a ``bet`` command
places a bet, ``close_betting`` (or the wheel's ``no_more_bets``) closes betting, a shoe
``card`` deals the rig's card number ``n`` of the current shoe, ``decide`` is a decision, the
wheel's ``winning_number`` is the rig's number for that spin, the wheel's ``void`` re-spins, a
``void_round`` command voids the round. An input the engine refuses is skipped, as the table
refuses it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.games.base import (
    ClearBets,
    CloseBetting,
    Deal,
    Decide,
    ExpectKind,
    PlaceBet,
    RuleError,
    Settlement,
    VoidRound,
    WheelResult,
)
from controller.hil.rig import DrawnCard, Spin

#: a shoe's card counter restarting this far below the last one means a new shoe was loaded
NEW_SHOE_DROP = 20


class CardTruth:
    """The rig's cards by (shoe epoch, n); the journal's card entries are mapped onto epochs by
    ``n`` restarting low (a new shoe)."""

    def __init__(self, drawn: list[DrawnCard]) -> None:
        self.drawn = drawn  # the rig's own list, read as it grows
        self.cards: dict[tuple[int, int], str] = {}
        self.epoch = 1
        self.last_n = 0
        self.table_n = 0  # the table's shoe count as the journal shows it (``counted``)

    def counted(self, p: Mapping[str, Any]) -> bool:
        """Move the table's shoe count on by one journaled shoe row (a card, an unread card, a
        lost card's report), as the table's shoe does; False for a card that skips past the
        count: the table holds on it (``shoe.lost_card``) and deals nothing."""
        event = p.get("type")
        if event == "lost_card":
            self.table_n = max(self.table_n, int(p.get("got_n", 0)) - 1)
            return False
        n = int(p.get("n", 0))
        if n < self.table_n - NEW_SHOE_DROP:  # a new shoe: its count starts again
            self.table_n = 0
        skipped = n > self.table_n + 1 and self.table_n > 0
        self.table_n = max(self.table_n, n)
        return event == "card" and not skipped

    def card(self, n: int) -> str | None:
        for d in self.drawn[len(self.cards):]:
            self.cards[(d.epoch, d.n)] = d.card
        if n < self.last_n - NEW_SHOE_DROP:
            self.epoch += 1
        self.last_n = n
        return self.cards.get((self.epoch, n))


class SpinTruth:
    """The rig's results in spin order; a journal result is matched to the next spin of its number."""

    def __init__(self, spins: Iterable[Spin]) -> None:
        self.spins = list(spins)
        self.at = 0

    def number(self, spin: int) -> str | None:
        for i in range(self.at, len(self.spins)):
            if self.spins[i].spin == spin:
                self.at = i + 1
                return self.spins[i].number
        return None


@dataclass
class Mismatch:
    round: str
    detail: str


@dataclass
class RoundReplay:
    """One round through a fresh engine of its game."""

    round_id: str
    engine: Any
    card_mismatches: list[str] = field(default_factory=list)
    voided: bool = False
    #: the table holds (docs/rules.md, procedures): nothing reaches the engine, cards are set aside
    holding: bool = False
    set_aside: int = 0

    def apply(self, kind: str, source: str, payload: Mapping[str, Any], truth: CardTruth | SpinTruth | None) -> None:
        if self._hold_step(kind, payload):
            return
        action = self._action(kind, payload, truth)
        if action is None:
            return
        if self.holding:
            if isinstance(action, Deal):
                self.set_aside += 1
            return
        try:
            self.engine.apply(action)
        except RuleError:
            return  # refused, as the table refuses it

    def _hold_step(self, kind: str, p: Mapping[str, Any]) -> bool:
        """Holds begin with a restart that found the round open or an alert that holds; they end
        with the dealer's ``burn``, ``resume`` or ``dismiss`` (True: the row is consumed)."""
        restart_hold = kind == "table_started" and p.get("hold_open_round") and p.get("resumed_round") == self.round_id
        # the shoe's report of a lost card holds the table as it is applied; its alert is journaled
        # only after inputs that came meanwhile (a card then goes aside, dealt to nobody)
        lost_hold = kind == "device" and p.get("type") == "lost_card"
        if restart_hold or lost_hold or (kind == "alert" and p.get("hold") is True):
            self.holding = True
        elif kind == "command" and p.get("command") in ("burn", "resume", "dismiss"):
            self.holding = False
        else:
            return False
        return True

    def _action(self, kind: str, p: Mapping[str, Any], truth: CardTruth | SpinTruth | None) -> Any:
        if kind == "command":
            name = p.get("command")
            if name == "bet":
                return PlaceBet(int(p["box"]), str(p.get("kind", "main")), int(p["amount"]), str(p.get("player", "")))
            if name == "clear":
                return ClearBets(int(p["box"]), p.get("player"))
            if name == "close_betting":
                return CloseBetting()
            if name == "decide":
                amount = p.get("amount")
                return Decide(int(p["box"]), str(p["action"]), int(p.get("hand", 1)), str(p.get("player", "")),
                              int(amount) if amount is not None else None)
            if name == "void_round":
                self.voided = True
                return None  # a table-level void refunds what rides: see ``settlements``
            return None
        if kind != "device":
            return None
        event = p.get("type")
        if event == "card" and isinstance(truth, CardTruth):
            dealt = truth.counted(p)
            card = truth.card(int(p["n"]))
            if card is None or card != p.get("card"):
                self.card_mismatches.append(f"n={p.get('n')}: table read {p.get('card')}, rig dealt {card}")
            if not dealt:
                self.holding = True  # the table holds on a card past a gap (shoe.lost_card)
                return None
            return Deal(card) if card is not None else None
        expected = self.engine.expects().kind  # betting open, or the wheel's result due
        if event == "no_more_bets" and expected is ExpectKind.BETS:
            return CloseBetting()
        if event == "void" and expected is ExpectKind.RESULT:
            return VoidRound(str(p.get("reason", "")))
        if event == "winning_number" and isinstance(truth, SpinTruth):
            number = truth.number(int(p.get("spin", 0)))
            if number is None or number != str(p.get("number")):
                self.card_mismatches.append(f"spin {p.get('spin')}: table read {p.get('number')}, rig spun {number}")
            if number is not None and expected is ExpectKind.RESULT:
                return WheelResult((number,))
        return None

    def wants_card(self) -> bool:
        if self.voided or self.holding:
            return False
        return self.engine.expects().kind in (ExpectKind.CARD, ExpectKind.DEALER_CARD)

    def settlements(self) -> list[Settlement]:
        """What the round pays: its settlements; a void round keeps the bets settled before it
        and returns what still rode (RULES.md), as the table voids a round (docs/hil.md)."""
        done: list[Settlement] = list(self.engine.settlements)
        if not self.voided:
            return done
        return done + list(self.engine.open_bets())


def settlement_key(s: Mapping[str, Any] | Settlement) -> tuple[Any, ...]:
    """A bet's identity and money, for comparing the table's record with the recomputation."""
    if isinstance(s, Settlement):
        return (s.box, s.hand, s.kind, s.player, s.stake, s.payout)
    return (s["box"], s["hand"], s["kind"], s["player"], s["stake"], s["payout"])
