"""Russian five-card poker (docs/rules.md §5): the pure round engine.

Deal order: five passes; in each pass one card face down to every box holding an Ante, from
box 1 upward, then one card to the dealer. The dealer's fifth card (the last card of the deal)
is his face-up card. Boxes then decide in box order: ``fold`` (the Ante is lost),
``raise`` (Raise = ``raise_multiple`` x Ante) or, with ``exchange`` on, ``exchange`` one card
first (``Exchange`` action naming the discard: one Ante fee kept by the house at once, the Bonus
lost), after which the box receives its replacement card and folds or raises. After the last
decision the dealer shows his hand and every box is settled: folded boxes first (Ante lost, the
Bonus paid on the five cards as dealt), then the raised ones. Nothing but an exchange fee is
settled before the dealer's hand is shown, because until then a misdeal may still return it.

Misdeals are explicit inputs (``DeclareMisdeal``), declared by the dealer from the console once
the deal is complete and until the dealer's hand is shown (the last decision shows it):

* a box found holding the wrong number of cards, whether it is still to decide, folded, raised
  or exchanged: that hand is void, its bets are returned (a Raise and a Bonus lost by an
  exchange too) and ``misdeal_penalty`` x Ante is paid on top; the exchange fee stays with the
  house;
* the dealer holding 4 cards: he names the four he holds (``dealer_cards``, all cards of this
  round) and adds a fifth from the deck (the engine expects one dealer card next);
* any other count in the dealer's hand: every hand is void, those of boxes that already folded
  or exchanged included: all bets returned (a Bonus lost by an exchange too) plus the penalty;
  the round ends. Exchange fees are not bets: the house keeps them.

The Bonus pays on the box's dealt five cards (flush or better, whatever the dealer holds, raised
or folded; lost by an exchange) and is settled with the showdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar, Final, Literal

from controller.cards import CARDS
from controller.games.base import BetRefused, Expect, ExpectKind, IllegalDecision, PhaseError, Settlement, UnexpectedCard
from controller.games.ledger import BetLedger, LedgerRound
from controller.games.poker_hands import evaluate
from controller.games.russian_poker.outcome import HAND_SIZE, RussianPokerOutcome, russian_outcome
from controller.games.russian_poker.rules import RussianPokerRules
from controller.games.russian_poker.showdown import bonus_payout, raised_payout
from controller.money import scale


# --------------------------------------------------------------------------- inputs of this game
@dataclass(frozen=True, slots=True)
class Exchange:
    """A box gives up ``discard`` for the next card of the deck (the ``exchange`` button)."""

    box: int
    discard: str
    player: str = ""


@dataclass(frozen=True, slots=True)
class DeclareMisdeal:
    """The dealer found ``target`` (a box number or ``"dealer"``) holding ``cards_dealt`` cards."""

    target: int | Literal["dealer"]
    cards_dealt: int
    dealer_cards: tuple[str, ...] = ()


class Phase(str, Enum):
    BETTING = "betting"
    DEAL = "deal"
    DECISIONS = "decisions"
    DONE = "done"


class Status(str, Enum):
    LIVE = "live"  # dealt, not decided yet
    FOLDED = "folded"
    RAISED = "raised"
    VOID = "void"  # misdeal or void round


@dataclass(slots=True)
class _Box:
    """A box's cards and play; its player and stakes are in the round's ``BetLedger``."""

    cards: list[str] = field(default_factory=list)
    dealt: tuple[str, ...] = ()  # the five first dealt, for the Bonus
    status: Status = Status.LIVE
    exchanged: bool = False
    awaiting_card: bool = False


ANTE, RAISE, BONUS = "ante", "raise", "bonus"
DEALER: Final = 0
_DEAL: Final = Phase.DEAL


class RussianPokerRound(LedgerRound):
    """One round at one table; see the module docstring for the flow. Its open bets are those
    of every box not settled, a folded box and a Bonus lost by an exchange included; an
    exchange fee and boxes voided by a misdeal are not open."""

    RULE_PREFIX = "russian"
    OVER = "the round is over"
    ACTIONS: ClassVar[dict[type, str]] = {**LedgerRound.ACTIONS, Exchange: "exchange", DeclareMisdeal: "declare_misdeal"}

    def __init__(self, rules: RussianPokerRules) -> None:
        super().__init__(
            BetLedger(
                rules, prefix="russian", boxes=rules.boxes, game="Russian poker", kinds={ANTE: ANTE, BONUS: BONUS},
                order=(ANTE, RAISE, BONUS), listing="box_placed",
            )
        )
        self.rules = rules
        self.phase = Phase.BETTING
        self._boxes: dict[int, _Box] = {}
        self._plan: list[int] = []  # deal targets, box numbers and DEALER
        self._next = 0  # index into _plan
        self._dealer: list[str] = []
        self._dealer_up: str | None = None
        self._dealer_owed = 0  # cards the dealer must still add after a short deal
        self._seen: set[str] = set()

    # ----------------------------------------------------------------- betting
    def place_bet(self, box: int, kind: str, amount: int, player: str = "") -> None:
        bets = self.bets
        bets.check_open()
        bets.check_box(box)
        bets.check_owner(box, player)
        ante, bonus = bets.stake(box, ANTE), bets.stake(box, BONUS)
        if kind == ANTE:
            bets.check_amount(amount, "an ante")
            total = bets.limit_checked(box, ANTE, amount)
            if bonus and not self._bonus_fits(bonus, total):
                raise BetRefused("russian.bonus.max", "the Bonus would exceed its share of the Ante")
        elif kind == BONUS:
            if not self.rules.bonus:
                raise BetRefused("russian.bonus.off", "this table offers no Bonus")
            if not ante:
                raise BetRefused("russian.bonus.ante", "place the Ante before the Bonus")
            bets.check_amount(amount, "a bonus")
            total = bets.limit_checked(box, BONUS, amount)
            if not self._bonus_fits(total, ante):
                raise BetRefused(
                    "russian.bonus.max",
                    f"Bonus {total} over {self.rules.bonus_max} of the Ante {ante}",
                )
        else:
            bets.booked_kind(kind)  # refuses it: the kinds are ante and bonus
        bets.record(box, kind, total, player)
        self._boxes.setdefault(box, _Box())

    def _bonus_fits(self, bonus: int, ante: int) -> bool:
        share = self.rules.bonus_max
        return bonus * share.denominator <= ante * share.numerator

    def clear_bets(self, box: int, player: str | None = None) -> None:
        self.bets.clear(box, player)
        del self._boxes[box]

    def close_betting(self) -> None:
        if self.phase is not Phase.BETTING:
            raise PhaseError("russian.phase", "betting is already closed")
        if not self._boxes:
            raise PhaseError("russian.no_bets", "no box holds an Ante")
        order = self.bets.close()
        self._boxes = {b: self._boxes[b] for b in order}
        self._plan = (order + [DEALER]) * HAND_SIZE
        self.phase = Phase.DEAL

    # ----------------------------------------------------------------- cards
    def deal(self, card: str) -> None:
        if card not in CARDS:
            raise UnexpectedCard("russian.card", f"not a card: {card!r}")
        if card in self._seen:
            raise UnexpectedCard("russian.card.duplicate", f"{card} was already dealt from this deck")
        dealing = self.phase is _DEAL
        target = self._plan[self._next] if dealing else self._card_target()
        if target is None:
            raise UnexpectedCard("russian.card.unexpected", f"no card is due now ({self.expects().kind.value})")
        self._seen.add(card)
        if target == DEALER:
            self._dealer.append(card)
            if self._dealer_owed:
                self._dealer_owed -= 1
        else:
            slot = self._boxes[target]
            slot.cards.append(card)
            slot.awaiting_card = False
        if dealing:
            self._next += 1
            if self._next == len(self._plan):
                self._dealer_up = card  # the last card of the deal is the dealer's up card
                for slot in self._boxes.values():
                    slot.dealt = tuple(slot.cards)
                self.phase = Phase.DECISIONS
        self._maybe_showdown()

    def _card_target(self) -> int | None:
        """Who takes a card outside the deal: the dealer's missing fifth or an exchanged card."""
        if self.phase is Phase.DECISIONS:
            if self._dealer_owed:
                return DEALER
            box = self._turn()
            if box is not None and self._boxes[box].awaiting_card:
                return box
        return None

    # ----------------------------------------------------------------- decisions
    def _turn(self) -> int | None:
        """The box whose decision (or replacement card) is due, in box order."""
        for number, slot in self._boxes.items():
            if slot.status is Status.LIVE:
                return number
        return None

    def _options(self, slot: _Box) -> tuple[str, ...]:
        if self.rules.exchange and not slot.exchanged:
            return ("fold", "raise", "exchange")
        return ("fold", "raise")

    def _check_turn(self, box: int, player: str) -> _Box:
        if self.phase is not Phase.DECISIONS or self._dealer_owed:
            raise PhaseError("russian.phase", f"no decision is due now ({self.expects().kind.value})")
        turn = self._turn()
        if box != turn:
            raise IllegalDecision("russian.turn", f"box {turn} decides now, not box {box}")
        slot = self._boxes[box]
        if slot.awaiting_card:
            raise IllegalDecision("russian.turn", f"box {box} awaits its exchanged card")
        owner = self.bets.player(box)
        if player and player != owner:
            raise IllegalDecision("russian.player", f"box {box} is played by {owner!r}")
        return slot

    def decide(self, box: int, action: str, hand: int = 1, player: str = "", amount: int | None = None) -> None:
        slot = self._check_turn(box, player)
        if hand != 1:
            raise IllegalDecision("russian.hand", "a Russian poker box plays one hand")
        if action not in ("fold", "raise"):
            hint = " (exchange names its discard)" if action == "exchange" else ""
            raise IllegalDecision("russian.option", f"{action!r} is not a decision here{hint}")
        raise_amount = self.bets.stake(box, ANTE) * self.rules.raise_multiple
        if action == "raise" and amount is not None and (type(amount) is not int or amount != raise_amount):
            raise IllegalDecision("russian.raise.amount", f"the Raise is {raise_amount}, not {amount!r}")
        if action == "fold":  # settled when the dealer's hand is shown
            slot.status = Status.FOLDED
        else:
            self.bets.book(box, RAISE, raise_amount)
            slot.status = Status.RAISED
        self._maybe_showdown()

    def exchange(self, box: int, discard: str, player: str = "") -> None:
        slot = self._check_turn(box, player)
        if not self.rules.exchange:
            raise IllegalDecision("russian.exchange.off", "this table plays without card exchange")
        if slot.exchanged:
            raise IllegalDecision("russian.exchange.once", f"box {box} has already exchanged a card")
        if discard not in slot.cards:
            raise IllegalDecision("russian.exchange.discard", f"box {box} does not hold {discard!r}")
        fee = scale(self.bets.stake(box, ANTE), self.rules.exchange_fee, self.rules.rounding)
        slot.cards.remove(discard)
        slot.exchanged = True
        slot.awaiting_card = True
        if fee:
            self.settlements.append(Settlement(box, 1, "exchange", self.bets.player(box), fee, 0))

    # ----------------------------------------------------------------- misdeals and voids
    def declare_misdeal(
        self, target: int | Literal["dealer"], cards_dealt: int, dealer_cards: tuple[str, ...] = ()
    ) -> None:
        if self.phase is not Phase.DECISIONS:
            raise PhaseError("russian.misdeal.phase", "a misdeal is declared after the deal, before settlement")
        if cards_dealt == HAND_SIZE or cards_dealt < 0:
            raise IllegalDecision("russian.misdeal.count", f"{cards_dealt} cards is not a misdeal")
        if target == "dealer":
            self._dealer_misdeal(cards_dealt, tuple(dealer_cards))
            return
        slot = self._boxes.get(target) if isinstance(target, int) else None
        if slot is None:
            raise IllegalDecision("russian.misdeal.box", f"box {target!r} is not in this round")
        if slot.status is Status.VOID:
            raise IllegalDecision("russian.misdeal.void", f"box {target} is already void")
        slot.status = Status.VOID
        slot.awaiting_card = False  # an exchanged card no longer goes to a void hand
        self._void_box(target)
        self._maybe_showdown()

    def _dealer_misdeal(self, cards_dealt: int, held: tuple[str, ...]) -> None:
        if self._dealer_owed:
            raise IllegalDecision("russian.misdeal.dealer", "the dealer is still completing his hand")
        if cards_dealt != HAND_SIZE - 1:
            for number, slot in self._boxes.items():
                if not self.bets.is_settled(number, ANTE):
                    slot.status = Status.VOID
                    self._void_box(number)
            self.void_reason = f"dealer misdeal: {cards_dealt} cards"
            self.phase = Phase.DONE
            return
        if len(held) != HAND_SIZE - 1 or len(set(held)) != len(held) or not set(held) <= self._seen:
            raise IllegalDecision(
                "russian.misdeal.dealer_cards", "name the four cards the dealer holds, all dealt this round"
            )
        self._dealer = list(held)
        if self._dealer_up not in held:
            self._dealer_up = None
        self._dealer_owed = 1

    @property
    def over(self) -> bool:
        return self.phase is Phase.DONE

    def _voided(self) -> None:
        for slot in self._boxes.values():  # every box still open was just refunded
            slot.status = Status.VOID
        self.phase = Phase.DONE

    def _void_box(self, box: int) -> None:
        """Return a misdealt box's bets, its Ante with ``misdeal_penalty`` x Ante on top."""
        ante = self.bets.stake(box, ANTE)
        extra = scale(ante, self.rules.misdeal_penalty, self.rules.rounding)
        self._settle_box(box, ante=ante + extra, raised=self.bets.stake(box, RAISE), bonus=self.bets.stake(box, BONUS))

    # ----------------------------------------------------------------- settlement
    def _settle_box(self, box: int, ante: int, raised: int, bonus: int) -> None:
        """Record the box's payouts (ante, raise, bonus where staked): none of its bets is open now."""
        self.settlements += self.bets.settle_box(box, {ANTE: ante, RAISE: raised, BONUS: bonus})

    def _maybe_showdown(self) -> None:
        if self.phase is not Phase.DECISIONS or self._turn() is not None:
            return
        raised = [(n, s) for n, s in self._boxes.items() if s.status is Status.RAISED]
        if raised and self._dealer_owed:
            return
        for number, slot in self._boxes.items():
            if slot.status is Status.FOLDED:
                self._settle_box(number, ante=0, raised=0, bonus=self._bonus_payout(number, slot))
        dealer_key = evaluate(self._dealer) if raised else 0
        for number, slot in raised:
            ante, paid_raise = raised_payout(self.rules, evaluate(slot.cards), dealer_key,
                                             self.bets.stake(number, ANTE), self.bets.stake(number, RAISE))
            self._settle_box(number, ante=ante, raised=paid_raise, bonus=self._bonus_payout(number, slot))
        self.phase = Phase.DONE

    def _bonus_payout(self, box: int, slot: _Box) -> int:
        return bonus_payout(self.rules, self.bets.stake(box, BONUS), slot.dealt, slot.exchanged)

    # ----------------------------------------------------------------- views
    def expects(self) -> Expect:
        if self.phase is Phase.BETTING:
            return Expect(ExpectKind.BETS)
        if self.phase is Phase.DEAL:
            target = self._plan[self._next]
            if target == DEALER:
                up = self._next == len(self._plan) - 1
                return Expect(ExpectKind.DEALER_CARD, face_down=not up)
            return Expect(ExpectKind.CARD, box=target, hand=1, face_down=True)
        if self.phase is Phase.DECISIONS:
            if self._dealer_owed:
                return Expect(ExpectKind.DEALER_CARD, face_down=True, note="dealer adds his fifth card")
            box = self._turn()
            if box is not None:
                slot = self._boxes[box]
                if slot.awaiting_card:
                    return Expect(ExpectKind.CARD, box=box, hand=1, face_down=True, note="exchanged card")
                return Expect(ExpectKind.DECISION, box=box, hand=1, options=self._options(slot), players=(self.bets.player(box),))
        return Expect(ExpectKind.DONE)

    @property
    def dealer_up_card(self) -> str | None:
        return self._dealer_up

    def box_cards(self, box: int) -> tuple[str, ...]:
        return tuple(self._boxes[box].cards)

    def outcome(self) -> RussianPokerOutcome:
        boxes = [(n, s.cards, s.status.value, s.exchanged) for n, s in self._boxes.items()]
        return russian_outcome(boxes, self._dealer, self._dealer_up, self.void_reason)
