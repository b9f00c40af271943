"""One round of Three Card Blackjack (docs/rules.md §2) as a pure engine.

Deal order (a real table's): one card at a time, round-robin, to every box with an Ante in box
order and then to the dealer, three times; every card face down except the dealer's third,
which is his up card. Boxes are then turned one by one in box order: turning settles the box's
Ace Plus, then the box plays (a Bet equal to the Ante) or folds (loses the Ante). After the last
box the dealer's hand is known, so every played box is settled at once (no further input).
"""

from __future__ import annotations

from enum import Enum
from fractions import Fraction
from typing import Final

from controller.cards import CARDS
from controller.games.base import BetRefused, Expect, ExpectKind, IllegalDecision, PhaseError, UnexpectedCard
from controller.games.ledger import BetLedger, LedgerRound
from controller.games.three_card_blackjack.hand import BLACKJACK, ace_plus_line, hand_value, resolve
from controller.games.three_card_blackjack.outcome import ThreeCardBlackjackOutcome, ThreeCardBox, ThreeCardDealer
from controller.games.three_card_blackjack.rules import ThreeCardBlackjackRules
from controller.money import win

ONE_TO_ONE: Final = Fraction(1)
DEALER: Final = 0  # the dealer's slot in the deal order
ANTE, PLAY, ACE_PLUS = "ante", "play", "ace_plus"
#: bet kinds accepted at the spot (``main`` is the generic spot kind for the Ante)
BET_KINDS: Final = {"ante": ANTE, "main": ANTE, "ace_plus": ACE_PLUS}
OPTIONS: Final = ("play", "fold")


class Phase(str, Enum):
    BETTING = "betting"
    DEAL = "deal"
    DECISIONS = "decisions"
    DONE = "done"


def _payout(stake: int, net: Fraction, rules: ThreeCardBlackjackRules) -> int:
    """What a bet returns for a net result per unit (-1 loss, 0 push, r > 0 win at r:1)."""
    if net < 0:
        return 0
    return win(stake, net, rules.rounding) if net else stake


class ThreeCardBlackjackRound(LedgerRound):
    """One round: Antes (and Ace Plus), the deal, play/fold box by box, settlement. An Ace Plus
    settled when its box was turned, or a folded Ante, is no longer open: a void leaves it."""

    RULE_PREFIX = "tcb"

    def __init__(self, rules: ThreeCardBlackjackRules) -> None:
        super().__init__(
            BetLedger(
                rules, prefix="tcb", boxes=rules.boxes, game="Three Card Blackjack", kinds=BET_KINDS,
                order=(ANTE, PLAY, ACE_PLUS),
            )
        )
        self.rules = rules
        self.phase = Phase.BETTING
        self.cards: dict[int, list[str]] = {}  # box -> its cards
        self.dealer_cards: list[str] = []
        self.decisions: dict[int, str] = {}
        self._deal_order: list[int] = []  # box numbers and DEALER, one entry per card
        self._dealt = 0
        self._boxes: list[int] = []  # boxes in play, in turn order
        self._turn = 0  # index into _boxes during DECISIONS

    # ----------------------------------------------------------------- betting
    def place_bet(self, box: int, kind: str, amount: int, player: str = "") -> None:
        self.bets.place(box, kind, amount, player, check=self._side_bet_allowed)

    def _side_bet_allowed(self, box: int, bet: str) -> None:
        if bet == ACE_PLUS:
            if not self.rules.ace_plus:
                raise BetRefused("tcb.ace_plus.off", "this table does not offer Ace Plus")
            if not self.bets.stake(box, ANTE):
                raise BetRefused("tcb.ace_plus.needs_ante", f"box {box}: Ace Plus needs an Ante first")

    def close_betting(self) -> None:
        if self.phase is not Phase.BETTING:
            raise PhaseError("tcb.phase", "betting is already closed")
        if not self.bets.boxes():
            raise BetRefused("tcb.close.no_ante", "no box has an Ante: nothing to deal")
        self._boxes = self.bets.close()
        self._deal_order = (self._boxes + [DEALER]) * 3
        self.cards = {b: [] for b in self._boxes}
        self.phase = Phase.DEAL

    # ----------------------------------------------------------------- cards
    def deal(self, card: str) -> None:
        if self.phase is not Phase.DEAL:
            raise UnexpectedCard(f"tcb.card.{self.phase.value}", f"{card}: no card is due now")
        if card not in CARDS:
            raise UnexpectedCard("tcb.card", f"not a card: {card!r}")
        if card in self.dealer_cards or any(card in cs for cs in self.cards.values()):
            raise UnexpectedCard("tcb.card.duplicate", f"{card} is already on the table (one deck)")
        slot = self._deal_order[self._dealt]
        (self.dealer_cards if slot == DEALER else self.cards[slot]).append(card)
        self._dealt += 1
        if self._dealt == len(self._deal_order):
            self.phase = Phase.DECISIONS
            self._turn_box()

    def _turn_box(self) -> None:
        """Turn the current box's cards: its Ace Plus is settled now."""
        box = self._boxes[self._turn]
        stake = self.bets.stake(box, ACE_PLUS)
        if not stake:
            return
        line = ace_plus_line([c[0] for c in self.cards[box]])
        ratio = self.rules.ace_plus_pays.get(line) if line else None
        payout = win(stake, ratio, self.rules.rounding) if ratio is not None else 0
        self.settlements.append(self.bets.settle(box, ACE_PLUS, payout))

    # ----------------------------------------------------------------- decisions
    def decide(self, box: int, action: str, hand: int = 1, player: str = "", amount: int | None = None) -> None:
        if self.phase is not Phase.DECISIONS:
            raise PhaseError("tcb.phase", f"no decision is due now ({self.phase.value})")
        current = self._boxes[self._turn]
        if box != current or hand != 1:
            raise IllegalDecision("tcb.turn", f"box {current} decides now, not box {box} hand {hand}")
        if action not in OPTIONS:
            raise IllegalDecision("tcb.option", f"{action!r} is not a choice here (play, fold)")
        owner = self.bets.player(box)
        if player and player != owner:
            raise IllegalDecision("tcb.box.owner", f"box {box} is played by {owner!r}")
        ante = self.bets.stake(box, ANTE)
        if action == "play" and amount is not None and (type(amount) is not int or amount != ante):
            raise IllegalDecision("tcb.play.amount", f"the Bet equals the Ante ({ante}), not {amount!r}")
        self.decisions[box] = action
        if action == "fold":
            self.settlements.append(self.bets.settle(box, ANTE, 0))
        else:
            self.bets.book(box, PLAY, ante)
        self._turn += 1
        if self._turn < len(self._boxes):
            self._turn_box()
        else:
            self._settle()

    def _settle(self) -> None:
        rules = self.rules
        dealer = hand_value([c[0] for c in self.dealer_cards])
        for box in self._boxes:
            if self.decisions[box] != "play":
                continue
            player = hand_value([c[0] for c in self.cards[box]])
            ante_net, play_net = resolve(player, dealer, rules.dealer_qualifies, rules.non_qualifying_blackjack_pays)
            ante = self.bets.stake(box, ANTE)
            self.settlements.append(self.bets.settle(box, ANTE, _payout(ante, ante_net, rules)))
            self.settlements.append(self.bets.settle(box, PLAY, _payout(ante, play_net, rules)))
        self.phase = Phase.DONE

    # ----------------------------------------------------------------- void
    @property
    def over(self) -> bool:
        return self.phase is Phase.DONE

    def _voided(self) -> None:
        self.phase = Phase.DONE

    # ----------------------------------------------------------------- outputs
    def expects(self) -> Expect:
        if self.phase is Phase.BETTING:
            return Expect(ExpectKind.BETS)
        if self.phase is Phase.DEAL:
            slot = self._deal_order[self._dealt]
            if slot == DEALER:
                up = len(self.dealer_cards) == 2
                return Expect(ExpectKind.DEALER_CARD, face_down=not up, note="up card" if up else "")
            return Expect(ExpectKind.CARD, box=slot, hand=1, face_down=True)
        if self.phase is Phase.DECISIONS:
            box = self._boxes[self._turn]
            value = hand_value([c[0] for c in self.cards[box]])
            shown = "blackjack" if value == BLACKJACK else str(value)
            return Expect(
                ExpectKind.DECISION, box=box, hand=1, options=OPTIONS, players=(self.bets.player(box),), note=shown
            )
        return Expect(ExpectKind.DONE)

    def outcome(self) -> ThreeCardBlackjackOutcome:
        def value(cards: list[str]) -> int | None:
            return hand_value([c[0] for c in cards]) if len(cards) == 3 else None

        dealer_value = value(self.dealer_cards)
        dealer = ThreeCardDealer(
            cards=tuple(self.dealer_cards), value=dealer_value, blackjack=dealer_value == BLACKJACK,
            qualifies=dealer_value is not None and dealer_value >= self.rules.dealer_qualifies,
        )
        boxes = []
        for box in self._boxes:
            cards = self.cards[box]
            box_value = value(cards)
            boxes.append(ThreeCardBox(
                cards=tuple(cards), value=box_value, blackjack=box_value == BLACKJACK, box=box,
                decision=self.decisions.get(box),
                ace_plus=ace_plus_line([c[0] for c in cards]) if len(cards) == 3 else None,
            ))
        return ThreeCardBlackjackOutcome(phase=self.phase.value, void=self.void_reason, dealer=dealer, boxes=tuple(boxes))


def most_returned(rules: ThreeCardBlackjackRules, kind: str, stake: int) -> int | None:
    """The most a ``kind`` bet of ``stake`` returns at this table, stake included: the Ante a
    blackjack against a dealer who does not qualify (or 1:1), the Bet 1:1, Ace Plus its top line."""
    if kind in (ANTE, "main"):
        return win(stake, max(rules.non_qualifying_blackjack_pays, ONE_TO_ONE), rules.rounding)
    if kind == PLAY:
        return win(stake, ONE_TO_ONE, rules.rounding)
    if kind == ACE_PLUS:
        return win(stake, max(rules.ace_plus_pays.values(), default=Fraction(0)), rules.rounding)
    return None
