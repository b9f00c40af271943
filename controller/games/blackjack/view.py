"""Blackjack's views of its outcome (``views.GameView``)."""

from __future__ import annotations

from typing import Any, ClassVar

from controller.cards import cards_text
from controller.games.blackjack.outcome import BlackjackHand, BlackjackOutcome
from controller.games.outcome import Outcome
from controller.table.games.views import BoxView, GameView, HouseView, masked

#: hand states as the dealer says them ("live" means the player is done: stood)
HAND_WORDS = {"open": "to play", "hit": "card due", "doubling": "doubled: card due", "live": "stood",
              "bust": "bust", "surrendered": "surrendered", "blackjack": "blackjack", "charlie": "charlie"}


def hand_state(h: BlackjackHand) -> str:
    if h.status == "live" and h.multiplier > 1:
        return "doubled"
    return HAND_WORDS.get(h.status, h.status)


class BlackjackView(GameView):

    def bet_kinds(self, rules: Any, first: str) -> list[str]:
        """The main bet, Bet Behind when the table offers it, and exactly the rules' side bets
        (a side bet the limits name but the table does not offer is not offered)."""
        behind = ["behind", "behind_stay"] if rules.bet_behind else []
        return list(dict.fromkeys([first, *behind, *rules.side_bets]))
    outcome_model: ClassVar[type[Outcome]] = BlackjackOutcome

    def boxes(self, outcome: Outcome) -> list[BoxView]:
        assert isinstance(outcome, BlackjackOutcome)
        return [{"box": b.box, "owner": b.owner, "hands": [
            {"hand": h.hand, "cards": masked(h.cards, h.face_down), "total": None if h.face_down or not h.cards else str(h.total),
             "state": hand_state(h)} for h in b.hands]} for b in outcome.boxes]

    def house(self, outcome: Outcome) -> list[HouseView]:
        assert isinstance(outcome, BlackjackOutcome)
        d = outcome.dealer
        return [{"name": "dealer", "cards": masked(d.cards, d.face_down),
                 "total": None if d.face_down or not d.cards else str(d.total)}]

    def lines(self, outcome: Outcome) -> list[str]:
        assert isinstance(outcome, BlackjackOutcome)
        d = outcome.dealer
        total = "blackjack" if d.blackjack else str(d.total)
        lines = [f"dealer {cards_text(masked(d.cards, d.face_down))}" + (f" ({total})" if d.cards else "")]
        for b in outcome.boxes:
            for h in b.hands:
                shown = "" if h.face_down else f"{h.total}, "
                insured = ", insured" if b.insurance and h.hand == 1 else ""
                lines.append(f"box {b.box}.{h.hand} {cards_text(masked(h.cards, h.face_down))} "
                             f"({shown}{hand_state(h)}{insured})")
        return lines
