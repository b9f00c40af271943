"""Three Card Blackjack at the table (docs/rules.md, Three Card Blackjack): one deck, shuffled for every round.

The table demands a new shoe (a freshly shuffled deck) after every round. Simulated players
play or fold by the exact optimal rule of the analysis (``ante_analysis``: play when the play
EV per Ante beats the -1 of a fold, for the hand's rank classes against the dealer's up card).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from controller.cards import TEN_VALUES
from controller.games.base import Decide, Expect, ExpectKind, GameRules
from controller.games.three_card_blackjack import (
    BLACKJACK,
    ThreeCardBlackjackRound,
    ThreeCardBlackjackRules,
    three_card_blackjack_rules,
)
from controller.games.three_card_blackjack.analysis import CLASSES, ante_analysis
from controller.games.three_card_blackjack.round import most_returned
from controller.games.three_card_blackjack.view import ThreeCardBlackjackView
from controller.table.games.shoe_game import ShoeGameAdapter, face


@lru_cache(maxsize=4)
def _plays(qualifies: int, blackjack_pays: Fraction) -> dict[tuple[str, str], bool]:
    """(hand's rank classes sorted, dealer up class) -> play? (the exact rule, ~1 s to derive)."""
    rules = three_card_blackjack_rules(
        None, {"dealer_qualifies": qualifies, "non_qualifying_blackjack_pays": blackjack_pays}
    )
    return {key: play for key, (play, _) in ante_analysis(rules).strategy.items()}


def rank_class(card: str) -> str:
    """A card's rank class of the analysis (ten-value ranks are one class ``T``)."""
    return "T" if card[0] in TEN_VALUES else card[0]


def plays(rules: ThreeCardBlackjackRules, cards: list[str], up: str) -> bool:
    """Whether the optimal player plays ``cards`` against the dealer's up card ``up``."""
    hand = "".join(sorted((rank_class(c) for c in cards), key=CLASSES.index))
    return _plays(rules.dealer_qualifies, rules.non_qualifying_blackjack_pays)[hand, rank_class(up)]


def _value(value: int | None) -> str:
    return "blackjack" if value == BLACKJACK else str(value)


class ThreeCardBlackjackAdapter(ShoeGameAdapter):
    game = "three-card-blackjack"
    default_decisions = ("fold",)
    new_shoe_every_round = True
    bet_kind = "ante"
    rules_model = ThreeCardBlackjackRules
    rules_builder = three_card_blackjack_rules
    round_class = ThreeCardBlackjackRound
    view = ThreeCardBlackjackView()

    def most_returned(self, rules: GameRules, kind: str, stake: int) -> int | None:
        return most_returned(cast(ThreeCardBlackjackRules, rules), kind, stake)

    def decks(self, rules: GameRules) -> int:
        return 1

    def play_prompt(self, engine: Any, expect: Expect) -> str:
        if expect.kind is ExpectKind.CARD:
            return face(f"Card to box {expect.box}", expect)
        if expect.kind is ExpectKind.DEALER_CARD:
            return face("Card to dealer", expect, say_up=True)
        return f"Box {expect.box}: play or fold?"

    def done_prompt(self, engine: Any) -> str:
        out = engine.outcome()
        dealer = out.dealer
        if not any(b.decision == "play" for b in out.boxes):
            return "Every box folded — settle"
        if dealer.qualifies:
            return f"Dealer qualifies with {_value(dealer.value)} — settle"
        return f"Dealer does not qualify ({_value(dealer.value)}) — settle"

    def simulated_bets(self, rules: GameRules, box: int, stake: int, round_no: int) -> list[tuple[str, int]]:
        """The Ante; the first seat adds an Ace Plus of its minimum where the table offers it."""
        bets = [("ante", stake)]
        ace_plus = rules.limits.get("ace_plus")
        if box == 1 and getattr(rules, "ace_plus", False):
            bets.append(("ace_plus", ace_plus.min if ace_plus else stake))
        return bets

    def prepare_simulation(self, rules: GameRules) -> None:
        assert isinstance(rules, ThreeCardBlackjackRules)
        _plays(rules.dealer_qualifies, rules.non_qualifying_blackjack_pays)

    def simulated_decision(self, engine: Any, expect: Expect, rules: GameRules) -> Decide:
        round_: ThreeCardBlackjackRound = engine
        box = expect.box or 0
        assert isinstance(rules, ThreeCardBlackjackRules)
        action = "play" if plays(rules, round_.cards[box], round_.dealer_cards[2]) else "fold"
        return Decide(box, action, 1, expect.players[0] if expect.players else "")
