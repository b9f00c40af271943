"""Russian poker's views of its outcome (``views.GameView``)."""

from __future__ import annotations

from typing import ClassVar

from controller.cards import cards_text
from controller.games.outcome import Outcome
from controller.games.russian_poker.outcome import RussianPokerOutcome
from controller.table.games.views import BoxView, GameView, HouseView, masked, one_hand

#: box states as the dealer says them ("live": dealt, not decided yet)
STATE_WORDS = {"live": "to decide", "folded": "folded", "raised": "raised", "void": "void"}


def hand_text(hand: str | None) -> str | None:
    return hand.replace("_", " ") if hand else None


class RussianPokerView(GameView):
    outcome_model: ClassVar[type[Outcome]] = RussianPokerOutcome

    def boxes(self, outcome: Outcome) -> list[BoxView]:
        assert isinstance(outcome, RussianPokerOutcome)
        return [one_hand(int(n), b.cards, hand_text(b.hand), STATE_WORDS.get(b.status, b.status))
                for n, b in outcome.boxes.items()]

    def house(self, outcome: Outcome) -> list[HouseView]:
        assert isinstance(outcome, RussianPokerOutcome)
        return [{"name": "dealer", "cards": masked(outcome.dealer.cards), "total": hand_text(outcome.dealer.hand)}]

    def lines(self, outcome: Outcome) -> list[str]:
        assert isinstance(outcome, RussianPokerOutcome)
        d = outcome.dealer
        qualifies = None if d.qualifies is None else "qualifies" if d.qualifies else "does not qualify"
        said = [s for s in (hand_text(d.hand), qualifies) if s]
        lines = [f"dealer {cards_text(d.cards)}" + (f" ({', '.join(said)})" if said else "")]
        for n, b in outcome.boxes.items():
            said = [s for s in (hand_text(b.hand), STATE_WORDS.get(b.status, b.status), b.exchanged and "exchanged") if s]
            lines.append(f"box {n} {cards_text(b.cards)} ({', '.join(said)})")
        if outcome.void:
            lines.append(f"void: {outcome.void}")
        return lines
