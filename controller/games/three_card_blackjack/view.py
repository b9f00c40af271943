"""Three Card Blackjack's views of its outcome (``views.GameView``)."""

from __future__ import annotations

from typing import ClassVar

from controller.cards import cards_text
from controller.games.outcome import Outcome
from controller.games.three_card_blackjack.outcome import ThreeCardBlackjackOutcome, ThreeCardHand
from controller.table.games.views import BoxView, GameView, HouseView, masked, one_hand


def value_text(hand: ThreeCardHand) -> str | None:
    if hand.value is None:
        return None
    return "blackjack" if hand.blackjack else str(hand.value)


class ThreeCardBlackjackView(GameView):
    outcome_model: ClassVar[type[Outcome]] = ThreeCardBlackjackOutcome

    def boxes(self, outcome: Outcome) -> list[BoxView]:
        assert isinstance(outcome, ThreeCardBlackjackOutcome)
        return [one_hand(b.box, b.cards, value_text(b), b.decision) for b in outcome.boxes]

    def house(self, outcome: Outcome) -> list[HouseView]:
        assert isinstance(outcome, ThreeCardBlackjackOutcome)
        return [{"name": "dealer", "cards": masked(outcome.dealer.cards), "total": value_text(outcome.dealer)}]

    def lines(self, outcome: Outcome) -> list[str]:
        assert isinstance(outcome, ThreeCardBlackjackOutcome)
        d = outcome.dealer
        value = value_text(d)
        qualifies = "" if value is None else ", qualifies" if d.qualifies else ", does not qualify"
        lines = [f"dealer {cards_text(d.cards)}" + (f" ({value}{qualifies})" if value else "")]
        for b in outcome.boxes:
            said = [s for s in (value_text(b), b.decision, b.ace_plus and f"Ace Plus {b.ace_plus}") if s]
            lines.append(f"box {b.box} {cards_text(b.cards)}" + (f" ({', '.join(said)})" if said else ""))
        return lines
