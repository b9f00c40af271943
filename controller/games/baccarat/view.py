"""Baccarat's views of its outcome (``views.GameView``), and the bead plate of the shoe."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from controller.cards import cards_text
from controller.games.baccarat import BaccaratOutcome
from controller.games.outcome import Outcome
from controller.table.games.views import GameView, HouseView, masked

BEAD_PLATE = 66  # six rows of eleven columns
SIDES = (("player", "Player"), ("banker", "Banker"))


class BaccaratView(GameView):
    outcome_model: ClassVar[type[Outcome]] = BaccaratOutcome

    def house(self, outcome: Outcome) -> list[HouseView]:
        assert isinstance(outcome, BaccaratOutcome)
        return [{"name": name, "cards": masked(hand.cards), "total": str(hand.total) if hand.cards else None}
                for name, hand in (("player", outcome.player), ("banker", outcome.banker))]

    def history(self, records: Sequence[Mapping[str, Any]], shoe_id: str | None) -> dict[str, Any]:
        """The bead plate: every settled coup of this shoe, its winner and whether a natural."""
        beads = []
        for r in records:
            if r.get("shoe", shoe_id) != shoe_id or r["status"] != "settled":
                continue
            coup = self.parse(r["outcome"])
            if isinstance(coup, BaccaratOutcome):
                beads.append({"winner": coup.winner, "natural": coup.natural})
        return {"bead_plate": beads[-BEAD_PLATE:]}

    def lines(self, outcome: Outcome) -> list[str]:
        assert isinstance(outcome, BaccaratOutcome)
        lines = [f"{word} {cards_text(hand.cards)} ({hand.total})"
                 for (_, word), hand in zip(SIDES, (outcome.player, outcome.banker), strict=True)]
        if outcome.winner:
            won = "tie" if outcome.winner == "tie" else f"{dict(SIDES)[outcome.winner]} wins"
            lines.append(won + (", natural" if outcome.natural else ""))
        return lines
